//! `TlsStream` against the scripted TLS 1.3 server: what it logs, offers and reports, how it
//! closes, and how an offload provider's signature verdicts end a handshake.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

mod common;

use std::cell::RefCell;
use std::io;
use std::rc::Rc;

use burrow_client::{
    CryptoOffload, InlineOffload, KeyLogSink, LocalFuture, NetStream, Offload, OffloadCounts,
    RecordKey, TlsSettings, TlsStream,
};
use burrow_crypto::aead::AeadAlgorithm;
use burrow_crypto::sig::VerifyAlgorithm;
use burrow_crypto::CryptoError;
use burrow_testkit::tls13_server::{ServerConfig, ServerError, Tls13Server};

use common::{connected, connected_with, now, settings, MemStream, Wire};

#[test]
fn close_sends_close_notify_and_closes_the_transport() {
    let (mut tls, wire) = connected();
    assert!(!wire.borrow().server.received_close_notify());
    now(tls.close()).unwrap();
    assert!(wire.borrow().server.received_close_notify());
}

#[test]
fn the_key_log_gets_every_secret_as_an_nss_line() {
    let lines = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = {
        let lines = Rc::clone(&lines);
        KeyLogSink(Rc::new(move |l: &str| {
            lines.borrow_mut().push(l.to_string())
        }))
    };
    let s = TlsSettings {
        key_log: Some(sink),
        ..settings()
    };
    assert!(format!("{s:?}").contains("key_log: Some(KeyLogSink)"));
    let (tls, _wire) = connected_with(&s);
    let lines = lines.borrow();
    let labels: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        labels,
        [
            "CLIENT_HANDSHAKE_TRAFFIC_SECRET",
            "SERVER_HANDSHAKE_TRAFFIC_SECRET",
            "CLIENT_TRAFFIC_SECRET_0",
            "SERVER_TRAFFIC_SECRET_0",
            "EXPORTER_SECRET",
        ]
    );
    for l in lines.iter() {
        let fields: Vec<&str> = l.split(' ').collect();
        assert_eq!(fields.len(), 3, "{l}");
        // The client random, then a SHA-256-sized secret (AES-128-GCM-SHA256), in hex.
        assert_eq!((fields[1].len(), fields[2].len()), (64, 64), "{l}");
        assert!(!l.ends_with('\n'));
    }
    // The same client random on every line.
    assert!(lines
        .iter()
        .all(|l| l.split(' ').nth(1) == lines[0].split(' ').nth(1)));
    assert!(format!("{tls:?}").starts_with("TlsStream { info: TlsInfo { version: 772,"));
}

#[test]
fn no_alpn_means_no_alpn_extension() {
    let s = TlsSettings {
        alpn: Vec::new(),
        ..settings()
    };
    let (tls, wire) = connected_with(&s);
    assert_eq!(tls.info().alpn, None);
    assert_eq!(wire.borrow().server.alpn(), None);
    // The default settings offer h2 first, which the server prefers.
    let (tls, wire) = connected();
    assert_eq!(tls.info().alpn.as_deref(), Some("h2"));
    assert_eq!(wire.borrow().server.alpn(), Some(&b"h2"[..]));
}

#[test]
fn a_stream_keeping_tickets_has_none_from_a_server_that_issues_none() {
    let wire = common::wire();
    let mut tls = now(TlsStream::connect_with_ticket(
        MemStream(Rc::clone(&wire)),
        "origin.test",
        &settings(),
        1_700_000_000_000,
        None,
    ))
    .unwrap();
    assert!(!tls.info().resumed);
    assert!(tls.take_ticket().is_none());
    // A stream opened without a ticket slot has nothing to give either.
    let (mut plain, _wire) = connected();
    assert!(plain.take_ticket().is_none());
}

#[test]
fn the_inline_offload_counts_what_it_did() {
    let offload = Rc::new(InlineOffload::new());
    assert_eq!(offload.counts(), OffloadCounts::default());
    let s = TlsSettings {
        offload: Some(Offload(Rc::clone(&offload) as Rc<dyn CryptoOffload>)),
        ..settings()
    };
    assert!(format!("{s:?}").contains("offload: Some(Offload { records: true, signatures: true })"));
    let (mut tls, wire) = connected_with(&s);
    let after_handshake = offload.counts();
    // One signature (CertificateVerify; the insecure trust checks no chain), and the four
    // traffic keys: handshake and application, each way.
    assert_eq!((after_handshake.verifies, after_handshake.keys), (1, 4));
    now(tls.write_all(b"ping")).unwrap();
    assert_eq!(wire.borrow_mut().server.take_received(), b"ping");
    wire.borrow_mut().server.send_record(b"pong").unwrap();
    assert_eq!(now(tls.fill_buf()).unwrap(), b"pong");
    let c = offload.counts();
    // The client's Finished waited for the first write: two records sealed.
    assert_eq!(c.seals - after_handshake.seals, 2, "{c:?}");
    assert_eq!(c.opens - after_handshake.opens, 1, "{c:?}");
}

/// An offload provider checking signatures only, and answering every one with `verdict`.
struct Verdicts {
    verdict: Result<(), CryptoError>,
    asked: RefCell<usize>,
}

impl CryptoOffload for Verdicts {
    fn offloads_records(&self) -> bool {
        false
    }

    fn offloads_signatures(&self) -> bool {
        true
    }

    fn import_key<'a>(
        &'a self,
        _algorithm: AeadAlgorithm,
        _key: &'a [u8],
    ) -> LocalFuture<'a, io::Result<Rc<dyn RecordKey>>> {
        panic!("records are not offloaded")
    }

    fn verify<'a>(
        &'a self,
        _algorithm: VerifyAlgorithm,
        _spki: &'a [u8],
        _message: &'a [u8],
        _signature: &'a [u8],
    ) -> LocalFuture<'a, Result<(), CryptoError>> {
        *self.asked.borrow_mut() += 1;
        let r = self.verdict;
        Box::pin(async move { r })
    }
}

/// The handshake with signatures judged by `verdict`: its error and the alert the server got.
fn handshake_judged_by(
    verdict: Result<(), CryptoError>,
) -> (
    Result<TlsStream<MemStream>, burrow_client::Error>,
    Option<ServerError>,
    usize,
) {
    let wire = Rc::new(RefCell::new(Wire {
        server: Tls13Server::new(ServerConfig::new("origin.test")),
        block_writes: false,
        blocked_writes: 0,
        flip_last_byte: false,
        refused: None,
        allow_refusal: true,
    }));
    let provider = Rc::new(Verdicts {
        verdict,
        asked: RefCell::new(0),
    });
    let s = TlsSettings {
        offload: Some(Offload(Rc::clone(&provider) as Rc<dyn CryptoOffload>)),
        ..settings()
    };
    let r = now(TlsStream::connect(
        MemStream(Rc::clone(&wire)),
        "origin.test",
        &s,
        1_700_000_000_000,
    ));
    let refused = wire.borrow_mut().refused.take();
    let asked = *provider.asked.borrow();
    (r, refused, asked)
}

#[test]
fn an_offloaded_signature_verdict_decides_the_handshake() {
    let (r, refused, asked) = handshake_judged_by(Ok(()));
    let tls = r.unwrap();
    assert_eq!((refused, asked), (None, 1));
    assert!(tls.info().certificate.as_ref().unwrap().insecure);

    // A signature that does not verify: the handshake's own error, and decrypt_error (51).
    let (r, refused, asked) = handshake_judged_by(Err(CryptoError::BadSignature));
    let e = r.unwrap_err();
    assert!(matches!(e, burrow_client::Error::Tls(_)), "{e:?}");
    assert_eq!(e.code(), "TLS_BAD_CERTIFICATE_VERIFY", "{e}");
    assert_eq!((refused, asked), (Some(ServerError::Alert(51)), 1));

    // A key the provider cannot use: the certificate is unsupported (43).
    let (r, refused, asked) = handshake_judged_by(Err(CryptoError::UnsupportedAlgorithm));
    let e = r.unwrap_err();
    assert!(matches!(e, burrow_client::Error::Certificate(_)), "{e:?}");
    assert_eq!(e.code(), "CERT_UNSUPPORTED_ALGORITHM", "{e}");
    assert_eq!((refused, asked), (Some(ServerError::Alert(43)), 1));
}
