//! TLS 1.3 client authentication through a whole connection: the scripted server sends a
//! CertificateRequest, the client with a certificate raises `Event::NeedSign` for the scheme
//! it chose, and its answer becomes Certificate + CertificateVerify + Finished; a failed
//! signature fails the connection with `TLS_CLIENT_SIGN_FAILED`.
#![cfg(not(target_arch = "wasm32"))]
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

use burrow_crypto::hash;
use burrow_crypto::sig::VerifyAlgorithm;
use burrow_handshake::*;
use common::server::{msg, Server, H, NOW};
use ed25519_dalek::{Signer, Verifier};

/// A client offering `Server`'s own Ed25519 certificate as its client certificate.
fn client_with_certificate() -> (Connection, Server) {
    let profile = Profile::default_web();
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut cfg = Config::new(profile, Some("example.test"));
    // The scripted server's certificate (its key is fixed, whatever the ClientHello): the
    // chain is only sent, and its Ed25519 key fixes which schemes fit.
    let (_, other_hello) = common::server::client(Profile::default_web(), SignatureCheck::Inline);
    cfg.client_certificate = Some(ClientCertificate {
        chain: vec![Server::new(&other_hello).certificate_der()],
    });
    let mut c = Connection::new(cfg, entropy, NOW).unwrap();
    let ch = c.take_transmit();
    (c, Server::new(&ch))
}

/// The server's flight with a CertificateRequest for `schemes` (u16 code points).
fn flight_with_request(srv: &mut Server, schemes: &[u16]) -> Vec<u8> {
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let list: Vec<u8> = schemes.iter().flat_map(|s| s.to_be_bytes()).collect();
    let mut sig_algs = (list.len() as u16).to_be_bytes().to_vec();
    sig_algs.extend(list);
    let mut cr = vec![0]; // empty certificate_request_context
    let ext = common::server::ext(13, &sig_algs);
    cr.extend((ext.len() as u16).to_be_bytes());
    cr.extend(ext);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, msg(13, &cr), cert]));
    let cv = srv.certificate_verify(false);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    bytes
}

/// Feeds `bytes` and polls until the connection waits (data or an answer), answering
/// NeedVerify; returns the events (NeedSign among them) and what the client wrote.
fn run_until_wait(c: &mut Connection, bytes: &[u8]) -> (Vec<Event>, Vec<u8>) {
    c.feed(bytes).unwrap();
    let mut evs = Vec::new();
    let mut sent = Vec::new();
    loop {
        let ev = c.poll_event(NOW).unwrap();
        sent.extend(c.take_transmit());
        match ev {
            Event::NeedData | Event::AwaitingAnswer => return (evs, sent),
            Event::Transmit => {}
            Event::NeedVerify(_) => c.complete(Answer::Verified).unwrap(),
            e => evs.push(e),
        }
    }
}

/// The client's handshake messages under its handshake key, split into (type, whole message).
fn client_messages(srv: &Server, sent: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let flight: Vec<u8> = srv
        .open_client(sent, &srv.client_hs.clone())
        .into_iter()
        .flat_map(|(ct, d)| {
            assert_eq!(ct, 22, "handshake records only");
            d
        })
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < flight.len() {
        let len = u32::from_be_bytes([0, flight[at + 1], flight[at + 2], flight[at + 3]]) as usize;
        out.push((flight[at], flight[at..at + 4 + len].to_vec()));
        at += 4 + len;
    }
    out
}

#[test]
fn certificate_request_raises_need_sign_and_the_answer_is_certificate_and_verify() {
    let (mut c, mut srv) = client_with_certificate();
    // Ed25519 is the only scheme that fits the key; ECDSA first shows the choice is by key.
    let bytes = flight_with_request(&mut srv, &[0x0403, 0x0807]);
    let (evs, sent) = run_until_wait(&mut c, &bytes);
    let req = match evs.as_slice() {
        [Event::NeedSign(req)] => req.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(req.scheme, SignatureScheme::ED25519);
    assert_eq!(req.algorithm, VerifyAlgorithm::Ed25519);
    // The Finished waits for the signature (the Certificate may already be out).
    let before = client_messages(&srv, &sent);
    assert!(before.iter().all(|(t, _)| *t == 11), "{before:?}");

    let sig = srv.signing_key.sign(&req.message).to_bytes().to_vec();
    c.complete_sign(Some(sig.clone())).unwrap();
    let (evs, rest) = run_until_wait(&mut c, &[]);
    assert!(matches!(evs[0], Event::HandshakeDone(_)), "{evs:?}");
    let msgs = client_messages(&srv, &[sent, rest].concat());
    let types: Vec<u8> = msgs.iter().map(|(t, _)| *t).collect();
    assert_eq!(
        types,
        [11, 15, 20],
        "Certificate, CertificateVerify, Finished"
    );

    // The Certificate carries our chain with the empty request context.
    let cert = &msgs[0].1;
    let der = srv.certificate_der();
    assert_eq!(cert[4], 0, "empty certificate_request_context");
    assert!(
        cert.windows(der.len()).any(|w| w == der.as_slice()),
        "our certificate"
    );
    // What we were asked to sign is RFC 8446 §4.4.3's client content over the transcript
    // through our Certificate, and the CertificateVerify carries the scheme and our signature.
    let mut transcript = srv.transcript.clone();
    transcript.extend_from_slice(cert);
    let mut want = vec![0x20u8; 64];
    want.extend_from_slice(b"TLS 1.3, client CertificateVerify\0");
    want.extend_from_slice(hash::digest(H, &transcript).as_ref());
    assert_eq!(req.message, want);
    let ed = ed25519_dalek::Signature::from_slice(&sig).unwrap();
    srv.signing_key.verifying_key().verify(&want, &ed).unwrap();
    let cv = &msgs[1].1;
    assert_eq!(&cv[4..6], &[0x08, 0x07], "scheme");
    assert_eq!(&cv[6..8], &(sig.len() as u16).to_be_bytes());
    assert_eq!(&cv[8..], sig.as_slice());
}

#[test]
fn a_failed_signature_fails_the_connection_with_its_code_and_alert() {
    let (mut c, mut srv) = client_with_certificate();
    let bytes = flight_with_request(&mut srv, &[0x0807]);
    let (evs, mut sent) = run_until_wait(&mut c, &bytes);
    assert!(matches!(evs.as_slice(), [Event::NeedSign(_)]), "{evs:?}");
    assert_eq!(c.complete_sign(None), Err(Error::ClientSigningFailed));
    assert_eq!(Error::ClientSigningFailed.code(), "TLS_CLIENT_SIGN_FAILED");
    assert_eq!(c.error(), Some(Error::ClientSigningFailed));
    assert_eq!(
        c.poll_event(NOW),
        Err(Error::ClientSigningFailed),
        "the error sticks"
    );
    // The fatal alert goes out under our handshake key; no CertificateVerify, no Finished.
    sent.extend(c.take_transmit());
    let recs = srv.open_client(&sent, &srv.client_hs.clone());
    let alert = Error::ClientSigningFailed.alert().unwrap();
    assert_eq!(recs.last(), Some(&(21, vec![2, alert.0])), "{recs:?}");
    assert!(
        recs.iter().all(|(ct, d)| *ct == 21 || d[0] == 11),
        "only our Certificate before the alert: {recs:?}"
    );
}

#[test]
fn no_scheme_fitting_our_key_sends_an_empty_certificate() {
    // Asked only for ECDSA while our key is Ed25519: no NeedSign, an empty Certificate.
    let (mut c, mut srv) = client_with_certificate();
    let bytes = flight_with_request(&mut srv, &[0x0403]);
    let (evs, sent) = run_until_wait(&mut c, &bytes);
    assert!(
        matches!(evs.as_slice(), [Event::HandshakeDone(_)]),
        "{evs:?}"
    );
    let msgs = client_messages(&srv, &sent);
    assert_eq!(msgs[0].1, [11, 0, 0, 4, 0, 0, 0, 0], "empty Certificate");
    assert_eq!(msgs[1].0, 20, "then Finished, no CertificateVerify");
}
