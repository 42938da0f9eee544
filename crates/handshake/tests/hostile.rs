//! A scripted hostile server: each misbehaviour must fail with the right typed error AND send
//! the right alert (RFC 8446 §6), never panic.
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

use burrow_crypto::aead::{AeadAlgorithm, AeadKey};
use burrow_handshake::*;
use burrow_record::ContentType;
use common::server::{client, ext, msg, pump, Server};

const HRR_RANDOM: [u8; 32] = [
    0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
    0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
];

fn setup() -> (Connection, Server) {
    let (c, ch) = client(Profile::default_web(), SignatureCheck::Inline);
    (c, Server::new(&ch))
}

fn plaintext_alert(sent: &[u8]) -> Option<u8> {
    let at = sent.windows(5).position(|w| w == [21, 3, 3, 0, 2])?;
    assert_eq!(sent[at + 5], 2, "fatal level");
    Some(sent[at + 6])
}

/// The error and the alert the client wrote (plaintext, or under `secret`).
fn check(
    r: Result<Vec<Event>, Error>,
    sent: &[u8],
    srv: &Server,
    secret: Option<&[u8]>,
    want: Error,
    alert: AlertDescription,
) {
    let e = r.expect_err("the client must fail");
    assert_eq!(e, want);
    assert_eq!(e.alert(), Some(alert));
    let got = match secret {
        None => plaintext_alert(sent),
        Some(s) => srv
            .open_client(sent, s)
            .into_iter()
            .rev()
            .find(|(t, _)| *t == 21)
            .map(|(_, d)| {
                assert_eq!(d[0], 2, "fatal level");
                d[1]
            }),
    };
    assert_eq!(got, Some(alert.0), "alert sent for {want:?}");
}

fn good_flight(srv: &mut Server) -> Vec<u8> {
    let ee = Server::encrypted_extensions(&[]);
    let cert = srv.certificate();
    let mut out = srv.flight(&[ee, cert]);
    let cv = srv.certificate_verify(false);
    out.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    out.extend(srv.flight(&[fin]));
    out
}

fn connected() -> (Connection, Server) {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    bytes.extend(good_flight(&mut srv));
    let (r, sent) = pump(&mut c, &bytes);
    let evs = r.unwrap();
    assert!(matches!(evs[0], Event::HandshakeDone(_)), "{evs:?}");
    let fin = srv.open_client(&sent, &srv.client_hs.clone());
    assert_eq!(fin.len(), 1);
    assert_eq!(fin[0].1[0], 20, "client Finished");
    srv.enter_traffic();
    (c, srv)
}

#[test]
fn positive_control_handshake_and_data() {
    let (mut c, mut srv) = connected();
    let rec = srv.seal(ContentType::APPLICATION_DATA, b"hello");
    let (r, _) = pump(&mut c, &rec);
    assert_eq!(r.unwrap(), vec![Event::Plaintext(5)]);
    assert_eq!(common::received(), b"hello");
    c.send(b"ping").unwrap();
    let out = c.take_transmit();
    assert_eq!(
        srv.open_client(&out, &srv.client_ap.clone()),
        vec![(23, b"ping".to_vec())]
    );
}

#[test]
fn bad_finished() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, cert]));
    let cv = srv.certificate_verify(false);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(true);
    bytes.extend(srv.flight(&[fin]));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::BadFinished,
        AlertDescription::DECRYPT_ERROR,
    );
    assert_eq!(Error::BadFinished.code(), "TLS_BAD_FINISHED");
}

#[test]
fn bad_certificate_verify_signature() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, cert]));
    let cv = srv.certificate_verify(true);
    bytes.extend(srv.flight(&[cv]));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::BadCertificateVerify,
        AlertDescription::DECRYPT_ERROR,
    );
    assert_eq!(
        Error::BadCertificateVerify.code(),
        "TLS_BAD_CERTIFICATE_VERIFY"
    );
}

#[test]
fn unoffered_signature_scheme() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, cert]));
    let mut cv = srv.certificate_verify(false);
    cv[4..6].copy_from_slice(&[0x04, 0x01]); // rsa_pkcs1_sha256: forbidden in CertificateVerify
    bytes.extend(srv.flight(&[cv]));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::UnofferedSignatureScheme,
        AlertDescription::ILLEGAL_PARAMETER,
    );
}

fn hello_with(srv: &Server, random: [u8; 32], suite: u16, exts: &[Vec<u8>]) -> Vec<u8> {
    let m = msg(2, &srv.server_hello_body(random, suite, exts));
    let mut rec = vec![22, 3, 3, 0, 0];
    rec[3..5].copy_from_slice(&(m.len() as u16).to_be_bytes());
    rec.extend(m);
    rec
}

fn x25519_share() -> Vec<u8> {
    let mut ks = vec![0x00, 0x1d, 0x00, 0x20];
    ks.extend([9u8; 32]);
    ks
}

#[test]
fn unoffered_cipher_suite() {
    let (mut c, srv) = setup();
    let sh = hello_with(
        &srv,
        [7; 32],
        0x1304,
        &[ext(43, &[3, 4]), ext(51, &x25519_share())],
    );
    let (r, sent) = pump(&mut c, &sh);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::UnofferedCipherSuite,
        AlertDescription::ILLEGAL_PARAMETER,
    );
    assert_eq!(Error::UnofferedCipherSuite.code(), "TLS_UNOFFERED_CIPHER");
}

#[test]
fn unoffered_group() {
    let (mut c, srv) = setup();
    let mut ks = vec![0x00, 0x19, 0x00, 0x20];
    ks.extend([9u8; 32]);
    let sh = hello_with(&srv, [7; 32], 0x1301, &[ext(43, &[3, 4]), ext(51, &ks)]);
    let (r, sent) = pump(&mut c, &sh);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::UnofferedGroup,
        AlertDescription::ILLEGAL_PARAMETER,
    );
}

#[test]
fn unoffered_alpn() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[ext(16, &[0, 3, 2, b'h', b'2'])]);
    bytes.extend(srv.flight(&[ee]));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::UnofferedAlpn,
        AlertDescription::ILLEGAL_PARAMETER,
    );
}

#[test]
fn second_hello_retry_request() {
    let (mut c, srv) = setup();
    let hrr = hello_with(
        &srv,
        HRR_RANDOM,
        0x1301,
        &[ext(43, &[3, 4]), ext(51, &[0x00, 0x17])],
    );
    let (r, sent) = pump(&mut c, &hrr);
    r.unwrap();
    // Compatibility mode: change_cipher_spec, then the second ClientHello.
    assert_eq!(&sent[..6], &[20, 3, 3, 0, 1, 1]);
    assert_eq!(
        &sent[6..9],
        &[22, 3, 3],
        "a second ClientHello follows the first HRR"
    );
    let hrr2 = hello_with(
        &srv,
        HRR_RANDOM,
        0x1301,
        &[ext(43, &[3, 4]), ext(51, &[0x00, 0x18])],
    );
    let (r, sent) = pump(&mut c, &hrr2);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::SecondHelloRetry,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn hello_retry_for_a_share_already_sent() {
    let (mut c, srv) = setup();
    let hrr = hello_with(
        &srv,
        HRR_RANDOM,
        0x1301,
        &[ext(43, &[3, 4]), ext(51, &[0x00, 0x1d])],
    );
    let (r, sent) = pump(&mut c, &hrr);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::HrrPointless,
        AlertDescription::ILLEGAL_PARAMETER,
    );
}

#[test]
fn messages_out_of_order() {
    // Finished right after EncryptedExtensions (no Certificate).
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    bytes.extend(srv.flight(&[ee]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::UnexpectedMessage,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
    // A second ServerHello inside the encrypted flight.
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let sh = msg(2, &srv.server_hello_body([1; 32], 0x1301, &[]));
    bytes.extend(srv.flight(&[sh]));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::UnexpectedMessage,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn oversized_record() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    bytes.extend([23, 3, 3, 0x41, 0x01]);
    bytes.extend(vec![0u8; 0x4101]);
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::Record(RecordError::RecordOverflow),
        AlertDescription::RECORD_OVERFLOW,
    );
    // Before any keys: a 2^14 + 1 plaintext record.
    let (mut c, srv) = setup();
    let mut bytes = vec![22, 3, 3, 0x40, 0x01];
    bytes.extend(vec![0u8; 0x4001]);
    let (r, sent) = pump(&mut c, &bytes);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::Record(RecordError::RecordOverflow),
        AlertDescription::RECORD_OVERFLOW,
    );
}

#[test]
fn all_zero_inner_plaintext() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let hs = srv.server_hs.clone();
    // Seal an all-zero TLSInnerPlaintext by hand at sequence 0 (nonce = IV).
    let mut key = [0u8; 16];
    let mut iv = [0u8; 12];
    burrow_crypto::hkdf::expand_label(common::server::H, &hs, b"key", &[], &mut key).unwrap();
    burrow_crypto::hkdf::expand_label(common::server::H, &hs, b"iv", &[], &mut iv).unwrap();
    let aad = [23u8, 3, 3, 0, 24];
    let mut body = vec![0u8; 8];
    let tag = AeadKey::new(AeadAlgorithm::Aes128Gcm, &key)
        .unwrap()
        .seal_in_place(&iv, &aad, &mut body)
        .unwrap();
    bytes.extend(aad);
    bytes.extend(body);
    bytes.extend(tag);
    let (r, sent) = pump(&mut c, &bytes);
    let chs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&chs),
        Error::Record(RecordError::NoInnerContentType),
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn data_after_close_notify_is_ignored() {
    // RFC 8446 §6.1: "Any data received after a closure alert has been received MUST be ignored."
    let (mut c, mut srv) = connected();
    let mut bytes = srv.seal(ContentType::ALERT, &[1, 0]);
    bytes.extend(srv.seal(ContentType::APPLICATION_DATA, b"smuggled"));
    bytes.extend([0xff; 40]); // and garbage that is not even TLS
    let (r, sent) = pump(&mut c, &bytes);
    assert_eq!(r.unwrap(), vec![Event::PeerClosed]);
    assert!(sent.is_empty());
    c.feed(&srv.seal(ContentType::APPLICATION_DATA, b"more"))
        .unwrap();
    assert_eq!(c.poll_event(common::server::NOW).unwrap(), Event::NeedData);
    assert!(c.peer_closed());
    assert_eq!(c.error(), None);
}

#[test]
fn key_update_both_ways() {
    let (mut c, mut srv) = connected();
    // Server updates its keys and asks us to update.
    let ku = msg(24, &[1]);
    let mut bytes = srv.seal(ContentType::HANDSHAKE, &ku);
    let h = common::server::H;
    let mut next = vec![0u8; 32];
    burrow_crypto::hkdf::expand_label(h, &srv.server_ap, b"traffic upd", &[], &mut next).unwrap();
    srv.server_ap = next.clone();
    srv.writer.set_keys(Some(common::server::keys(&next)));
    bytes.extend(srv.seal(ContentType::APPLICATION_DATA, b"after update"));
    let (r, sent) = pump(&mut c, &bytes);
    assert_eq!(r.unwrap(), vec![Event::Plaintext(12)]);
    assert_eq!(common::received(), b"after update");
    // Our KeyUpdate(update_not_requested) under the old key...
    assert_eq!(
        srv.open_client(&sent, &srv.client_ap.clone()),
        vec![(22, vec![24, 0, 0, 1, 0])]
    );
    // ...and our data under the new one.
    c.send(b"x").unwrap();
    let mut client_next = vec![0u8; 32];
    burrow_crypto::hkdf::expand_label(h, &srv.client_ap, b"traffic upd", &[], &mut client_next)
        .unwrap();
    assert_eq!(
        srv.open_client(&c.take_transmit(), &client_next),
        vec![(23, b"x".to_vec())]
    );
}

#[test]
fn key_update_storm() {
    let (mut c, mut srv) = connected();
    let h = common::server::H;
    let mut bytes = Vec::new();
    for _ in 0..17 {
        bytes.extend(srv.seal(ContentType::HANDSHAKE, &msg(24, &[0])));
        let mut next = vec![0u8; 32];
        burrow_crypto::hkdf::expand_label(h, &srv.server_ap, b"traffic upd", &[], &mut next)
            .unwrap();
        srv.server_ap = next.clone();
        srv.writer.set_keys(Some(common::server::keys(&next)));
    }
    let (r, sent) = pump(&mut c, &bytes);
    let ap = srv.client_ap.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&ap),
        Error::KeyUpdateStorm,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn post_handshake_certificate_request_is_refused() {
    let (mut c, mut srv) = connected();
    let cr = msg(13, &[0, 0, 8, 0, 13, 0, 4, 0, 2, 8, 7]);
    let bytes = srv.seal(ContentType::HANDSHAKE, &cr);
    let (r, sent) = pump(&mut c, &bytes);
    let ap = srv.client_ap.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&ap),
        Error::PostHandshakeAuth,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn tls11_server_hello_and_downgrade_sentinel() {
    // A TLS 1.1 ServerHello (legacy_version 0x0302, no supported_versions) is refused.
    let (mut c, srv) = setup();
    let mut sh = hello_with(&srv, [7; 32], 0xc02f, &[]);
    sh[9..11].copy_from_slice(&[3, 2]);
    let (r, sent) = pump(&mut c, &sh);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::ProtocolVersion,
        AlertDescription::PROTOCOL_VERSION,
    );
    assert_eq!(Error::ProtocolVersion.code(), "TLS_PROTOCOL_VERSION");
    let (mut c, srv) = setup();
    let mut random = [7u8; 32];
    random[24..].copy_from_slice(b"DOWNGRD\x01");
    let sh = hello_with(&srv, random, 0xc02f, &[]);
    let (r, sent) = pump(&mut c, &sh);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::Downgrade,
        AlertDescription::ILLEGAL_PARAMETER,
    );
}

#[test]
fn server_alert_is_surfaced_and_not_answered() {
    let (mut c, _srv) = setup();
    let (r, sent) = pump(&mut c, &[21, 3, 3, 0, 2, 2, 40]);
    let e = r.unwrap_err();
    assert_eq!(e, Error::PeerAlert(AlertDescription::HANDSHAKE_FAILURE));
    assert_eq!(e.code(), "TLS_ALERT");
    assert!(sent.is_empty(), "no alert in answer to an alert");
    assert_eq!(c.poll_event(0).unwrap_err(), e, "errors stick");
}

#[test]
fn session_id_must_be_echoed() {
    let (mut c, mut srv) = setup();
    srv.session_id = vec![1; 32];
    let sh = hello_with(
        &srv,
        [7; 32],
        0x1301,
        &[ext(43, &[3, 4]), ext(51, &x25519_share())],
    );
    let (r, sent) = pump(&mut c, &sh);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::SessionIdMismatch,
        AlertDescription::ILLEGAL_PARAMETER,
    );
}

#[test]
fn change_cipher_spec_after_the_handshake_is_refused() {
    let (mut c, srv) = connected();
    let (r, sent) = pump(&mut c, &[20, 3, 3, 0, 1, 1]);
    let ap = srv.client_ap.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&ap),
        Error::Record(RecordError::UnexpectedChangeCipherSpec),
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn we_initiate_a_key_update() {
    let (mut c, srv) = connected();
    c.update_keys(true).unwrap();
    c.send(b"new key").unwrap();
    let out = c.take_transmit();
    let h = common::server::H;
    let mut next = vec![0u8; 32];
    burrow_crypto::hkdf::expand_label(h, &srv.client_ap, b"traffic upd", &[], &mut next).unwrap();
    let recs = common::rfc8448::records(&out);
    assert_eq!(
        srv.open_client(&recs[0], &srv.client_ap.clone()),
        vec![(22, vec![24, 0, 0, 1, 1])]
    );
    assert_eq!(
        srv.open_client(&recs[1], &next),
        vec![(23, b"new key".to_vec())]
    );
}

#[test]
fn certificate_request_during_handshake_gets_an_empty_certificate() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let cr = msg(13, &[0, 0, 8, 0, 13, 0, 4, 0, 2, 8, 7]);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, cr, cert]));
    let cv = srv.certificate_verify(false);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    let (r, sent) = pump(&mut c, &bytes);
    assert!(matches!(r.unwrap()[0], Event::HandshakeDone(_)));
    let recs = srv.open_client(&sent, &srv.client_hs.clone());
    let flight: Vec<u8> = recs.into_iter().flat_map(|(_, d)| d).collect();
    assert_eq!(
        &flight[..8],
        &[11, 0, 0, 4, 0, 0, 0, 0],
        "empty Certificate first"
    );
    assert_eq!(flight[8], 20, "then Finished");
}

#[test]
fn unsolicited_extension_in_encrypted_extensions() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[ext(0x1234, &[])]);
    bytes.extend(srv.flight(&[ee]));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::UnsupportedExtension,
        AlertDescription::UNSUPPORTED_EXTENSION,
    );
}

#[test]
fn truncated_and_trailing_bytes_are_decode_errors() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let mut ee = Server::encrypted_extensions(&[]);
    ee.push(0); // one byte more than the extensions block
    ee[3] += 1;
    bytes.extend(srv.flight(&[ee]));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::Decode,
        AlertDescription::DECODE_ERROR,
    );
}

fn flight_until_verify(
    check_mode: SignatureCheck,
    corrupt_sig: bool,
) -> (Connection, Server, Vec<Event>) {
    let (mut c, ch) = common::server::client(Profile::default_web(), check_mode);
    let mut srv = Server::new(&ch);
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, cert]));
    let cv = srv.certificate_verify(corrupt_sig);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    c.feed(&bytes).unwrap();
    let mut evs = Vec::new();
    loop {
        match c.poll_event(common::server::NOW).unwrap() {
            // The NeedVerify is outstanding: that is its own state, never NeedData.
            Event::AwaitingAnswer => break,
            Event::NeedData => panic!("an unanswered NeedVerify reported as NeedData"),
            Event::Transmit => {
                let _ = c.take_transmit();
            }
            Event::Plaintext(n) => evs.push(common::take_lent(&mut c, n)),
            e => evs.push(e),
        }
    }
    (c, srv, evs)
}

#[test]
fn caller_checks_the_signature_and_the_chain() {
    // Caller mode: the request carries what was signed; a good answer completes the handshake.
    let (mut c, srv, evs) = flight_until_verify(SignatureCheck::Caller, false);
    let [Event::NeedVerify(req)] = &evs[..] else {
        panic!("{evs:?}")
    };
    let signed = req.signed.as_ref().unwrap();
    assert_eq!(signed.scheme, SignatureScheme::ED25519);
    assert!(signed.message.starts_with(&[0x20; 64]));
    assert_eq!(req.chain, vec![srv.certificate_der()]);
    assert_eq!(req.server_name.as_deref(), Some("example.test"));
    c.complete(Answer::Verified).unwrap();
    assert!(matches!(
        c.poll_event(common::server::NOW).unwrap(),
        Event::HandshakeDone(_) | Event::Transmit
    ));
    assert_eq!(
        c.complete(Answer::Verified).unwrap_err(),
        Error::Misuse,
        "no request outstanding"
    );

    // The caller says the signature is bad.
    let (mut c, srv, _) = flight_until_verify(SignatureCheck::Caller, true);
    let e = c.complete(Answer::BadSignature).unwrap_err();
    let hs = srv.client_hs.clone();
    check(
        Err(e),
        &c.take_transmit(),
        &srv,
        Some(&hs),
        Error::BadCertificateVerify,
        AlertDescription::DECRYPT_ERROR,
    );

    // The verifier rejects the chain with its own code and alert.
    let (mut c, srv, _) = flight_until_verify(SignatureCheck::Inline, false);
    let rej = CertRejection {
        code: "CERT_EXPIRED",
        alert: AlertDescription::CERTIFICATE_EXPIRED,
    };
    let e = c.complete(Answer::Rejected(rej)).unwrap_err();
    assert_eq!(e.code(), "CERT_EXPIRED");
    check(
        Err(e),
        &c.take_transmit(),
        &srv,
        Some(&hs_of(&srv)),
        Error::CertificateRejected(rej),
        AlertDescription::CERTIFICATE_EXPIRED,
    );
}

fn hs_of(srv: &Server) -> Vec<u8> {
    srv.client_hs.clone()
}

#[test]
fn a_ticket_is_offered_only_to_its_server() {
    let (mut c, mut srv) = connected();
    // A NewSessionTicket from the scripted server.
    let nst = msg(
        4,
        &[0, 0, 0x0e, 0x10, 1, 2, 3, 4, 1, 0, 0, 3, 9, 9, 9, 0, 0],
    );
    let (r, _) = pump(&mut c, &srv.seal(ContentType::HANDSHAKE, &nst));
    let [Event::NewSessionTicket(t)] = &r.unwrap()[..] else {
        panic!()
    };
    assert_eq!(t.server_name(), Some("example.test"));
    assert!(
        t.is_usable(common::server::NOW + 3_599_000)
            && !t.is_usable(common::server::NOW + 3_600_000)
    );
    let offered = |name: &str| {
        let profile = Profile::default_web();
        let pool = vec![1u8; Entropy::pool_len(&profile)];
        let mut cfg = Config::new(profile.clone(), Some(name));
        cfg.resumption = Some(t.clone());
        let mut c = Connection::new(
            cfg,
            Entropy::from_pool(&profile, &pool).unwrap(),
            common::server::NOW,
        )
        .unwrap();
        let ch = c.take_transmit();
        ch.windows(9)
            .any(|w| w == [0x00, 0x29, 0x00, 0x2e, 0x00, 0x09, 0x00, 0x03, 9])
    };
    assert!(
        offered("example.test"),
        "pre_shared_key offered to the ticket's server"
    );
    assert!(!offered("other.test"), "never to another server");
}

#[test]
fn send_parts_transmits_what_send_of_the_concatenation_does() {
    // Two records' worth and a bit, split at every kind of place (empty parts too).
    let data: Vec<u8> = (0..40_000u32).map(|i| (i * 7 + 3) as u8).collect();
    let splits: [&[usize]; 5] = [
        &[],
        &[0, 0],
        &[1, 16_383, 16_384, 16_385],
        &[20_000, 20_000, 39_999],
        &[40_000],
    ];
    let (mut c, srv) = connected();
    c.send(&data).unwrap();
    let want = c.take_transmit();
    for cuts in splits {
        let (mut c, _) = connected();
        let mut parts: Vec<&[u8]> = Vec::new();
        let mut at = 0;
        for &cut in cuts {
            parts.push(&data[at..cut]);
            at = cut;
        }
        parts.push(&data[at..]);
        c.send_parts(&parts).unwrap();
        let got = c.take_transmit();
        assert!(got == want, "cuts {cuts:?}: different records");
    }
    let records = srv.open_client(&want, &srv.client_ap.clone());
    assert_eq!(records.len(), 3);
    let plain: Vec<u8> = records.into_iter().flat_map(|(_, d)| d).collect();
    assert_eq!(plain, data);
}

/// Server records sealed by hand under a traffic secret (TLS_AES_128_GCM_SHA256) from
/// sequence 0, for what RecordWriter never makes: empty application data.
struct HandSealer {
    key: AeadKey,
    iv: [u8; 12],
    seq: u64,
    secret: Vec<u8>,
}

impl HandSealer {
    fn new(secret: &[u8]) -> Self {
        let h = common::server::H;
        let mut key = [0u8; 16];
        let mut iv = [0u8; 12];
        burrow_crypto::hkdf::expand_label(h, secret, b"key", &[], &mut key).unwrap();
        burrow_crypto::hkdf::expand_label(h, secret, b"iv", &[], &mut iv).unwrap();
        Self {
            key: AeadKey::new(AeadAlgorithm::Aes128Gcm, &key).unwrap(),
            iv,
            seq: 0,
            secret: secret.to_vec(),
        }
    }

    /// One record of inner content type `ct` holding `content`.
    fn seal(&mut self, ct: u8, content: &[u8]) -> Vec<u8> {
        let mut body = [content, &[ct]].concat();
        let len = (body.len() + 16) as u16;
        let aad = [23, 3, 3, (len >> 8) as u8, len as u8];
        let mut nonce = self.iv;
        for (d, b) in nonce[4..].iter_mut().zip(self.seq.to_be_bytes()) {
            *d ^= b;
        }
        self.seq += 1;
        let tag = self.key.seal_in_place(&nonce, &aad, &mut body).unwrap();
        [&aad[..], &body, &tag].concat()
    }

    /// A KeyUpdate(update_not_requested), after which the next traffic secret seals.
    fn key_update(&mut self) -> Vec<u8> {
        let rec = self.seal(22, &msg(24, &[0]));
        let mut next = vec![0u8; 32];
        burrow_crypto::hkdf::expand_label(
            common::server::H,
            &self.secret,
            b"traffic upd",
            &[],
            &mut next,
        )
        .unwrap();
        *self = Self::new(&next);
        rec
    }
}

/// A NewSessionTicket (lifetime 3600 s, nonce 1, ticket 999).
fn ticket_message() -> Vec<u8> {
    msg(
        4,
        &[0, 0, 0x0e, 0x10, 1, 2, 3, 4, 1, 0, 0, 3, 9, 9, 9, 0, 0],
    )
}

#[test]
fn ticket_flood_is_capped() {
    let (mut c, srv) = connected();
    let mut s = HandSealer::new(&srv.server_ap);
    // Data between the tickets: only the per-connection bound can stop them.
    let mut bytes = Vec::new();
    for _ in 0..MAX_TICKETS {
        bytes.extend(s.seal(22, &ticket_message()));
        bytes.extend(s.seal(23, b"x"));
    }
    let evs = pump(&mut c, &bytes).0.unwrap();
    let tickets = evs
        .iter()
        .filter(|e| matches!(e, Event::NewSessionTicket(_)))
        .count();
    assert_eq!(tickets, MAX_TICKETS as usize);
    let (r, sent) = pump(&mut c, &s.seal(22, &ticket_message()));
    let ap = srv.client_ap.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&ap),
        Error::TooManyTickets,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
    assert_eq!(Error::TooManyTickets.code(), "TLS_TOO_MANY_TICKETS");
}

#[test]
fn key_updates_between_empty_records_are_still_a_run() {
    // An empty application data record is not progress: it must not restart the count.
    let (mut c, srv) = connected();
    let mut s = HandSealer::new(&srv.server_ap);
    let mut bytes = Vec::new();
    for _ in 0..=MAX_KEY_UPDATES_IN_A_ROW {
        bytes.extend(s.seal(23, &[]));
        bytes.extend(s.key_update());
    }
    let (r, sent) = pump(&mut c, &bytes);
    let ap = srv.client_ap.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&ap),
        Error::KeyUpdateStorm,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn key_updates_with_data_between_them_go_on() {
    let (mut c, srv) = connected();
    let mut s = HandSealer::new(&srv.server_ap);
    let mut bytes = Vec::new();
    for _ in 0..3 * MAX_KEY_UPDATES_IN_A_ROW {
        bytes.extend(s.key_update());
        bytes.extend(s.seal(23, b"y"));
    }
    let evs = pump(&mut c, &bytes).0.unwrap();
    assert_eq!(evs.len(), 3 * MAX_KEY_UPDATES_IN_A_ROW as usize);
    assert_eq!(common::received().len(), evs.len());
}

#[test]
fn post_handshake_messages_of_both_kinds_are_capped() {
    // Each kind stays under its own bound; together they make no progress.
    let (mut c, srv) = connected();
    let mut s = HandSealer::new(&srv.server_ap);
    let mut bytes = Vec::new();
    for _ in 0..MAX_KEY_UPDATES_IN_A_ROW {
        bytes.extend(s.key_update());
    }
    let tickets = MAX_POST_HANDSHAKE_IN_A_ROW - MAX_KEY_UPDATES_IN_A_ROW;
    assert!(tickets < MAX_TICKETS);
    for _ in 0..tickets {
        bytes.extend(s.seal(22, &ticket_message()));
    }
    assert_eq!(pump(&mut c, &bytes).0.unwrap().len(), tickets as usize);
    let (r, sent) = pump(&mut c, &s.seal(22, &ticket_message()));
    let ap = srv.client_ap.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&ap),
        Error::TooManyPostHandshakeMessages,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
    assert_eq!(
        Error::TooManyPostHandshakeMessages.code(),
        "TLS_TOO_MANY_POST_HANDSHAKE_MESSAGES"
    );
}

#[test]
fn empty_record_flood_is_capped() {
    let (mut c, srv) = connected();
    let mut s = HandSealer::new(&srv.server_ap);
    let mut bytes = Vec::new();
    for _ in 0..burrow_record::MAX_EMPTY_RECORDS {
        bytes.extend(s.seal(23, &[]));
    }
    bytes.extend(s.seal(23, b"z"));
    assert_eq!(pump(&mut c, &bytes).0.unwrap(), vec![Event::Plaintext(1)]);
    common::received();
    let mut bytes = Vec::new();
    for _ in 0..=burrow_record::MAX_EMPTY_RECORDS {
        bytes.extend(s.seal(23, &[]));
    }
    let (r, sent) = pump(&mut c, &bytes);
    let ap = srv.client_ap.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&ap),
        Error::Record(RecordError::TooManyEmptyRecords),
        AlertDescription::UNEXPECTED_MESSAGE,
    );
    assert_eq!(
        Error::Record(RecordError::TooManyEmptyRecords).code(),
        "TLS_TOO_MANY_EMPTY_RECORDS"
    );
}

#[test]
fn change_cipher_spec_flood_during_the_handshake_is_capped() {
    // TLS 1.3 drops the compatibility change_cipher_spec unseen; a flood of them counts as
    // empty records.
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    for _ in 0..=burrow_record::MAX_EMPTY_RECORDS {
        bytes.extend([20, 3, 3, 0, 1, 1]);
    }
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::Record(RecordError::TooManyEmptyRecords),
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn warning_alert_flood_is_capped() {
    let (mut c, srv) = connected();
    let mut s = HandSealer::new(&srv.server_ap);
    // user_canceled warnings are survived, up to the bound; data ends the run.
    let mut bytes = Vec::new();
    for _ in 0..MAX_WARNING_ALERTS_IN_A_ROW {
        bytes.extend(s.seal(21, &[1, 90]));
    }
    bytes.extend(s.seal(23, b"w"));
    assert_eq!(pump(&mut c, &bytes).0.unwrap(), vec![Event::Plaintext(1)]);
    common::received();
    let mut bytes = Vec::new();
    for _ in 0..=MAX_WARNING_ALERTS_IN_A_ROW {
        // Empty records between them are no progress either.
        bytes.extend(s.seal(21, &[1, 90]));
        bytes.extend(s.seal(23, &[]));
    }
    let (r, sent) = pump(&mut c, &bytes);
    let ap = srv.client_ap.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&ap),
        Error::TooManyWarningAlerts,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
    assert_eq!(
        Error::TooManyWarningAlerts.code(),
        "TLS_TOO_MANY_WARNING_ALERTS"
    );
}

// ---------------------------------------------------------------------------------------------
// ServerHello, HelloRetryRequest, EncryptedExtensions, Certificate and post-handshake messages
// that are wrong in one field each.

/// The client refuses the plaintext bytes `server` sends first with `want` and its alert.
fn refused_in_plaintext(
    server: impl FnOnce(&Server) -> Vec<u8>,
    want: Error,
    alert: AlertDescription,
) {
    let (mut c, srv) = setup();
    let bytes = server(&srv);
    let (r, sent) = pump(&mut c, &bytes);
    check(r, &sent, &srv, None, want, alert);
}

/// A normal ServerHello, then what `flight` seals: refused with `want`, the alert under the
/// client's handshake key.
fn refused_after_hello(
    profile: Profile,
    flight: impl FnOnce(&mut Server) -> Vec<u8>,
    want: Error,
    alert: AlertDescription,
) {
    let (mut c, ch) = client(profile, SignatureCheck::Inline);
    let mut srv = Server::new(&ch);
    let mut bytes = srv.server_hello();
    bytes.extend(flight(&mut srv));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(r, &sent, &srv, Some(&hs), want, alert);
}

/// After the handshake, `m` under the server's traffic key: refused with `want`.
fn refused_after_handshake(m: &[u8], want: Error, alert: AlertDescription) {
    let (mut c, mut srv) = connected();
    let rec = srv.seal(ContentType::HANDSHAKE, m);
    let (r, sent) = pump(&mut c, &rec);
    let ap = srv.client_ap.clone();
    check(r, &sent, &srv, Some(&ap), want, alert);
}

/// A Certificate message with this request context and (DER, extensions block) entries.
fn certificate_of(ctx: &[u8], entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let mut list = Vec::new();
    for (der, exts) in entries {
        list.extend_from_slice(&(der.len() as u32).to_be_bytes()[1..]);
        list.extend_from_slice(der);
        list.extend_from_slice(&(exts.len() as u16).to_be_bytes());
        list.extend_from_slice(exts);
    }
    let mut body = vec![ctx.len() as u8];
    body.extend_from_slice(ctx);
    body.extend_from_slice(&(list.len() as u32).to_be_bytes()[1..]);
    body.extend(list);
    msg(11, &body)
}

/// (type, body) of each extension of the ClientHello in `record` (one handshake record).
fn hello_extensions(record: &[u8]) -> Vec<(u16, Vec<u8>)> {
    assert_eq!(record[0], 22);
    let b = &record[9..];
    let mut i = 2 + 32;
    i += 1 + b[i] as usize;
    i += 2 + u16::from_be_bytes([b[i], b[i + 1]]) as usize;
    i += 1 + b[i] as usize;
    let end = i + 2 + u16::from_be_bytes([b[i], b[i + 1]]) as usize;
    i += 2;
    let mut out = Vec::new();
    while i < end {
        let t = u16::from_be_bytes([b[i], b[i + 1]]);
        let n = u16::from_be_bytes([b[i + 2], b[i + 3]]) as usize;
        out.push((t, b[i + 4..i + 4 + n].to_vec()));
        i += 4 + n;
    }
    out
}

fn has_extension(record: &[u8], t: u16) -> bool {
    hello_extensions(record).iter().any(|e| e.0 == t)
}

#[test]
fn server_hello_fields_and_extensions_are_checked() {
    use AlertDescription as A;
    let sv13 = || ext(43, &[3, 4]);
    let share = || ext(51, &x25519_share());
    // supported_versions may only select TLS 1.3 (RFC 8446 §4.2.1).
    refused_in_plaintext(
        |s| hello_with(s, [7; 32], 0x1301, &[ext(43, &[3, 3]), share()]),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    // A TLS 1.2 suite in a TLS 1.3 ServerHello: offered, but not for this version.
    refused_in_plaintext(
        |s| hello_with(s, [7; 32], 0xc02b, &[sv13(), share()]),
        Error::UnofferedCipherSuite,
        A::ILLEGAL_PARAMETER,
    );
    // The same extension twice.
    refused_in_plaintext(
        |s| hello_with(s, [7; 32], 0x1301, &[sv13(), share(), sv13()]),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    // pre_shared_key with no PSK offered; an extension TLS 1.3 does not allow in ServerHello.
    refused_in_plaintext(
        |s| hello_with(s, [7; 32], 0x1301, &[sv13(), share(), ext(41, &[0, 0])]),
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    refused_in_plaintext(
        |s| hello_with(s, [7; 32], 0x1301, &[sv13(), share(), ext(16, &[])]),
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    // An empty key_exchange.
    refused_in_plaintext(
        |s| hello_with(s, [7; 32], 0x1301, &[sv13(), ext(51, &[0, 0x1d, 0, 0])]),
        Error::Decode,
        A::DECODE_ERROR,
    );
    // No key share at all (psk_dhe_ke is the only mode offered).
    refused_in_plaintext(
        |s| hello_with(s, [7; 32], 0x1301, &[sv13()]),
        Error::MissingExtension,
        A::MISSING_EXTENSION,
    );
    // More than 64 extensions, all distinct.
    refused_in_plaintext(
        |s| {
            let many: Vec<Vec<u8>> = (0..65u16).map(|i| ext(0x2000 + i, &[])).collect();
            hello_with(s, [7; 32], 0x1301, &many)
        },
        Error::Decode,
        A::DECODE_ERROR,
    );
    // compression_method must be 0.
    refused_in_plaintext(
        |s| {
            let mut sh = hello_with(s, [7; 32], 0x1301, &[sv13(), share()]);
            let at = 5 + 4 + 2 + 32 + 1 + s.session_id.len() + 2;
            assert_eq!(sh[at], 0);
            sh[at] = 1;
            sh
        },
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    // TLS 1.1 with the TLS 1.1 downgrade sentinel.
    refused_in_plaintext(
        |s| {
            let mut random = [7u8; 32];
            random[24..].copy_from_slice(b"DOWNGRD\x00");
            let mut sh = hello_with(s, random, 0xc02f, &[]);
            sh[9..11].copy_from_slice(&[3, 2]);
            sh
        },
        Error::Downgrade,
        A::ILLEGAL_PARAMETER,
    );
    // The first message is not a ServerHello.
    refused_in_plaintext(
        |_| {
            let ee = Server::encrypted_extensions(&[]);
            let mut rec = vec![22, 3, 3, 0, ee.len() as u8];
            rec.extend(ee);
            rec
        },
        Error::UnexpectedMessage,
        A::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn hello_retry_request_extensions_are_checked() {
    use AlertDescription as A;
    let sv13 = || ext(43, &[3, 4]);
    let hrr = |exts: Vec<Vec<u8>>| move |s: &Server| hello_with(s, HRR_RANDOM, 0x1301, &exts);
    refused_in_plaintext(
        hrr(vec![sv13(), ext(44, &[0, 0])]),
        Error::Decode,
        A::DECODE_ERROR,
    );
    refused_in_plaintext(
        hrr(vec![sv13(), ext(0x1234, &[])]),
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    // Neither a group nor a cookie: the retry would change nothing.
    refused_in_plaintext(hrr(vec![sv13()]), Error::HrrPointless, A::ILLEGAL_PARAMETER);
    // P-521 is not in default_web's supported_groups.
    refused_in_plaintext(
        hrr(vec![sv13(), ext(51, &[0x00, 0x19])]),
        Error::UnofferedGroup,
        A::ILLEGAL_PARAMETER,
    );
}

#[test]
fn a_cookie_only_retry_echoes_the_cookie_and_pins_the_suite() {
    let (mut c, srv) = setup();
    let hrr = hello_with(
        &srv,
        HRR_RANDOM,
        0x1301,
        &[ext(43, &[3, 4]), ext(44, &[0, 3, 0xc0, 0x0c, 0x1e])],
    );
    let (r, sent) = pump(&mut c, &hrr);
    assert_eq!(r.unwrap(), vec![]);
    assert_eq!(
        &sent[..6],
        &[20, 3, 3, 0, 1, 1],
        "compatibility change_cipher_spec"
    );
    let ch2 = &sent[6..];
    let exts = hello_extensions(ch2);
    assert_eq!(
        exts.iter().find(|e| e.0 == 44).map(|e| e.1.clone()),
        Some(vec![0, 3, 0xc0, 0x0c, 0x1e]),
        "the cookie is sent back as given"
    );
    // Same X25519 share as before: no group was asked for.
    let share = &exts.iter().find(|e| e.0 == 51).unwrap().1;
    assert_eq!(&share[6..], &srv.client_share[..]);
    // The ServerHello must keep the HelloRetryRequest's suite (RFC 8446 §4.1.4).
    let sh = hello_with(
        &srv,
        [7; 32],
        0x1302,
        &[ext(43, &[3, 4]), ext(51, &x25519_share())],
    );
    let (r, sent) = pump(&mut c, &sh);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::IllegalParameter,
        AlertDescription::ILLEGAL_PARAMETER,
    );
}

/// A NewSessionTicket from the scripted server with these extensions.
fn ticket_from_server(exts: &[u8]) -> Ticket {
    let (mut c, mut srv) = connected();
    let mut body = vec![0, 0, 0x0e, 0x10, 1, 2, 3, 4, 1, 0, 0, 3, 9, 9, 9];
    body.extend_from_slice(&(exts.len() as u16).to_be_bytes());
    body.extend_from_slice(exts);
    let (r, _) = pump(&mut c, &srv.seal(ContentType::HANDSHAKE, &msg(4, &body)));
    match &r.unwrap()[..] {
        [Event::NewSessionTicket(t)] => t.clone(),
        other => panic!("{other:?}"),
    }
}

/// A client offering `ticket` with `profile`; its ClientHello record.
fn resuming_client(profile: Profile, ticket: Ticket) -> (Connection, Vec<u8>) {
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut cfg = Config::new(profile, Some("example.test"));
    cfg.resumption = Some(ticket);
    let mut c = Connection::new(cfg, entropy, common::server::NOW + 1000).unwrap();
    let ch = c.take_transmit();
    (c, ch)
}

#[test]
fn a_retry_to_another_hash_drops_the_psk() {
    let t = ticket_from_server(&[]);
    assert_eq!(t.cipher_suite(), CipherSuite::TLS13_AES_128_GCM_SHA256);
    for (suite, psk_kept) in [(0x1301u16, true), (0x1302, false)] {
        let (mut c, ch) = resuming_client(Profile::default_web(), t.clone());
        assert!(has_extension(&ch, 41), "pre_shared_key offered");
        let srv = Server::new(&ch);
        let hrr = hello_with(
            &srv,
            HRR_RANDOM,
            suite,
            &[ext(43, &[3, 4]), ext(51, &[0x00, 0x17])],
        );
        let (r, sent) = pump(&mut c, &hrr);
        assert_eq!(r.unwrap(), vec![]);
        let ch2 = &sent[6..];
        let exts = hello_extensions(ch2);
        assert_eq!(
            exts.iter().find(|e| e.0 == 51).map(|e| &e.1[..6]),
            Some(&[0x00, 0x45, 0x00, 0x17, 0x00, 0x41][..]),
            "one fresh P-256 share"
        );
        assert_eq!(
            has_extension(ch2, 41),
            psk_kept,
            "a SHA-256 ticket is offered after a retry to suite {suite:#06x} only if its hash is SHA-256"
        );
    }
}

#[test]
fn early_data_allowance_of_a_ticket_is_what_offers_early_data() {
    let mut profile = Profile::default_web();
    let at = profile
        .extension_order
        .iter()
        .position(|s| *s == ExtensionSlot::PreSharedKey)
        .unwrap();
    profile.extension_order.insert(at, ExtensionSlot::EarlyData);
    // max_early_data_size 16384.
    let with = ticket_from_server(&ext(42, &[0, 0, 0x40, 0]));
    let without = ticket_from_server(&[]);
    let (_, ch) = resuming_client(profile.clone(), with);
    assert!(has_extension(&ch, 42), "early_data offered");
    let (_, ch) = resuming_client(profile, without);
    assert!(
        !has_extension(&ch, 42),
        "no early_data without the ticket's allowance"
    );
    // A malformed early_data extension in the ticket.
    let mut body = vec![0, 0, 0x0e, 0x10, 1, 2, 3, 4, 1, 0, 0, 3, 9, 9, 9];
    let e = ext(42, &[0, 0, 0x40]);
    body.extend_from_slice(&(e.len() as u16).to_be_bytes());
    body.extend(e);
    refused_after_handshake(
        &msg(4, &body),
        Error::Decode,
        AlertDescription::DECODE_ERROR,
    );
}

#[test]
fn ticket_accessors_and_debug() {
    let t = ticket_from_server(&[]);
    assert_eq!(t.cipher_suite(), CipherSuite::TLS13_AES_128_GCM_SHA256);
    assert!(!t.is_tls12());
    assert_eq!(t.identity(), &[9, 9, 9]);
    assert!(
        !t.is_usable(common::server::NOW - 1),
        "not before it was received"
    );
    assert!(t.is_usable(common::server::NOW));
    let shown = format!("{t:?}");
    assert!(
        shown.starts_with("Ticket { suite: ")
            && shown.contains("lifetime_s: 3600")
            && shown.contains(&format!("received_ms: {}", common::server::NOW))
            && shown.contains("server_name: Some(\"example.test\")")
            && shown.ends_with(", .. }"),
        "{shown}"
    );
    assert!(
        !shown.contains("psk") && !shown.contains("ticket:"),
        "{shown}"
    );
}

#[test]
fn encrypted_extensions_accept_only_what_was_offered_there() {
    use AlertDescription as A;
    let ee =
        |exts: Vec<Vec<u8>>| move |s: &mut Server| s.flight(&[Server::encrypted_extensions(&exts)]);
    for (e, want, alert) in [
        // Extensions that belong in other messages.
        (ext(5, &[]), Error::IllegalParameter, A::ILLEGAL_PARAMETER),
        (ext(18, &[]), Error::IllegalParameter, A::ILLEGAL_PARAMETER),
        (
            ext(51, &x25519_share()),
            Error::IllegalParameter,
            A::ILLEGAL_PARAMETER,
        ),
        // Not offered.
        (
            ext(28, &[0x40, 0]),
            Error::UnsupportedExtension,
            A::UNSUPPORTED_EXTENSION,
        ),
        (
            ext(42, &[]),
            Error::UnsupportedExtension,
            A::UNSUPPORTED_EXTENSION,
        ),
        // server_name must be empty.
        (
            ext(0, &[0]),
            Error::UnsupportedExtension,
            A::UNSUPPORTED_EXTENSION,
        ),
        // An empty protocol name.
        (ext(16, &[0, 1, 0]), Error::Decode, A::DECODE_ERROR),
    ] {
        refused_after_hello(Profile::default_web(), ee(vec![e]), want, alert);
    }
    refused_after_hello(
        Profile::default_web(),
        ee(vec![ext(0, &[]), ext(0, &[])]),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
}

fn record_size_limit_profile() -> Profile {
    let mut p = Profile::default_web();
    p.record_size_limit = Some(0x4001);
    let at = p
        .extension_order
        .iter()
        .position(|s| *s == ExtensionSlot::PreSharedKey)
        .unwrap();
    p.extension_order.insert(at, ExtensionSlot::RecordSizeLimit);
    p
}

#[test]
fn record_size_limit_from_encrypted_extensions_bounds_our_records() {
    // Below the RFC 8449 minimum of 64.
    refused_after_hello(
        record_size_limit_profile(),
        |s| s.flight(&[Server::encrypted_extensions(&[ext(28, &[0, 63])])]),
        Error::IllegalParameter,
        AlertDescription::ILLEGAL_PARAMETER,
    );
    let (mut c, ch) = client(record_size_limit_profile(), SignatureCheck::Inline);
    assert_eq!(
        hello_extensions(&ch)
            .iter()
            .find(|e| e.0 == 28)
            .map(|e| e.1.clone()),
        Some(vec![0x40, 0x01])
    );
    let mut srv = Server::new(&ch);
    let mut bytes = srv.server_hello();
    // 64: inner plaintext (content and type byte) at most 64 bytes; with SNI, groups and ALPN.
    let ee = Server::encrypted_extensions(&[
        ext(0, &[]),
        ext(10, &[0, 2, 0, 0x1d]),
        ext(
            16,
            &[0, 9, 8, b'h', b't', b't', b'p', b'/', b'1', b'.', b'1'],
        ),
        ext(28, &[0, 64]),
    ]);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, cert]));
    let cv = srv.certificate_verify(false);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    let (r, _) = pump(&mut c, &bytes);
    match &r.unwrap()[..] {
        [Event::HandshakeDone(s)] => assert_eq!(s.alpn.as_deref(), Some(&b"http/1.1"[..])),
        other => panic!("{other:?}"),
    }
    srv.enter_traffic();
    let data: Vec<u8> = (0..200u8).collect();
    c.send(&data).unwrap();
    let recs = srv.open_client(&c.take_transmit(), &srv.client_ap.clone());
    let lens: Vec<usize> = recs.iter().map(|r| r.1.len()).collect();
    assert_eq!(lens, vec![63, 63, 63, 11]);
    let plain: Vec<u8> = recs.into_iter().flat_map(|(_, d)| d).collect();
    assert_eq!(plain, data);
}

/// Drives the flight in `bytes` to the NeedVerify request.
fn verify_request(c: &mut Connection, bytes: &[u8]) -> VerifyRequest {
    c.feed(bytes).unwrap();
    loop {
        match c.poll_event(common::server::NOW).unwrap() {
            Event::NeedVerify(r) => return r,
            Event::Transmit => {
                let _ = c.take_transmit();
            }
            e => panic!("{e:?}"),
        }
    }
}

#[test]
fn the_leafs_staple_and_scts_go_to_the_verifier() {
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    let der = srv.certificate_der();
    let leaf_exts = [
        ext(5, &[1, 0, 0, 4, b'O', b'C', b'S', b'P']),
        ext(18, b"\x00\x02ab"),
    ]
    .concat();
    // The intermediate's own staple and SCTs are not the leaf's.
    let ca_exts = [ext(5, &[1, 0, 0, 1, 9]), ext(18, b"zz")].concat();
    let cert = certificate_of(
        &[],
        &[
            (der.clone(), leaf_exts),
            (b"intermediate".to_vec(), ca_exts),
        ],
    );
    bytes.extend(srv.flight(&[Server::encrypted_extensions(&[]), cert]));
    let cv = srv.certificate_verify(false);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    let req = verify_request(&mut c, &bytes);
    assert_eq!(req.chain, vec![der, b"intermediate".to_vec()]);
    assert_eq!(req.ocsp_response.as_deref(), Some(&b"OCSP"[..]));
    assert_eq!(req.scts.as_deref(), Some(&b"\x00\x02ab"[..]));
    assert_eq!(req.now_ms, common::server::NOW);
    c.complete(Answer::Verified).unwrap();
    let (r, _) = pump(&mut c, &[]);
    assert!(matches!(r.unwrap()[..], [Event::HandshakeDone(_)]));
}

#[test]
fn malformed_certificates_are_refused() {
    use AlertDescription as A;
    let der = || {
        let (_, ch) = client(Profile::default_web(), SignatureCheck::Inline);
        Server::new(&ch).certificate_der()
    };
    let flight =
        |cert: Vec<u8>| move |s: &mut Server| s.flight(&[Server::encrypted_extensions(&[]), cert]);
    let web = Profile::default_web;
    // status_request: only ocsp(1), and a non-empty response.
    let bad_type = certificate_of(&[], &[(der(), ext(5, &[2, 0, 0, 1, 9]))]);
    refused_after_hello(
        web(),
        flight(bad_type),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    let empty_ocsp = certificate_of(&[], &[(der(), ext(5, &[1, 0, 0, 0]))]);
    refused_after_hello(web(), flight(empty_ocsp), Error::Decode, A::DECODE_ERROR);
    // A request context, though none was asked for.
    let ctx = certificate_of(&[1], &[(der(), Vec::new())]);
    refused_after_hello(
        web(),
        flight(ctx),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    // No certificate at all; an empty one.
    refused_after_hello(
        web(),
        flight(certificate_of(&[], &[])),
        Error::Decode,
        A::DECODE_ERROR,
    );
    let empty = certificate_of(&[], &[(Vec::new(), Vec::new())]);
    refused_after_hello(web(), flight(empty), Error::Decode, A::DECODE_ERROR);
    // Seventeen certificates: over the chain bound.
    let long: Vec<(Vec<u8>, Vec<u8>)> = (0..17).map(|_| (der(), Vec::new())).collect();
    refused_after_hello(
        web(),
        flight(certificate_of(&[], &long)),
        Error::BadCertificate,
        A::BAD_CERTIFICATE,
    );
}

#[test]
fn certificate_request_and_finished_are_checked() {
    use AlertDescription as A;
    let web = Profile::default_web;
    let good_cr = || msg(13, &[0, 0, 8, 0, 13, 0, 4, 0, 2, 8, 7]);
    // A CertificateRequest without signature_algorithms.
    refused_after_hello(
        web(),
        |s| s.flight(&[Server::encrypted_extensions(&[]), msg(13, &[0, 0, 0])]),
        Error::MissingExtension,
        A::MISSING_EXTENSION,
    );
    // Two of them.
    refused_after_hello(
        web(),
        |s| s.flight(&[Server::encrypted_extensions(&[]), good_cr(), good_cr()]),
        Error::UnexpectedMessage,
        A::UNEXPECTED_MESSAGE,
    );
    // A Finished of the wrong length.
    refused_after_hello(
        web(),
        |s| {
            let ee = Server::encrypted_extensions(&[]);
            let cert = s.certificate();
            let mut out = s.flight(&[ee, cert]);
            let cv = s.certificate_verify(false);
            out.extend(s.flight(&[cv]));
            out.extend(s.flight(&[msg(20, &[0; 31])]));
            out
        },
        Error::Decode,
        A::DECODE_ERROR,
    );
}

#[test]
fn post_handshake_messages_are_checked() {
    use AlertDescription as A;
    // A ticket with no ticket.
    refused_after_handshake(
        &msg(4, &[0, 0, 0x0e, 0x10, 1, 2, 3, 4, 1, 0, 0, 0, 0, 0]),
        Error::Decode,
        A::DECODE_ERROR,
    );
    // A lifetime over seven days (604800 s).
    refused_after_handshake(
        &msg(4, &[0, 0x09, 0x3a, 0x81, 1, 2, 3, 4, 1, 0, 0, 1, 9, 0, 0]),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    // KeyUpdate request_update must be 0 or 1.
    refused_after_handshake(
        &msg(24, &[2]),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    refused_after_handshake(&msg(24, &[]), Error::Decode, A::DECODE_ERROR);
    // A handshake message that has no place after the handshake.
    refused_after_handshake(
        &msg(20, &[0; 32]),
        Error::UnexpectedMessage,
        A::UNEXPECTED_MESSAGE,
    );
}

// ---------------------------------------------------------------------------------------------
// The Connection API around the state machine.

#[test]
fn plaintext_is_reported_until_consumed() {
    let (mut c, mut srv) = connected();
    c.feed(&srv.seal(ContentType::APPLICATION_DATA, b"lent bytes"))
        .unwrap();
    let now = common::server::NOW;
    assert_eq!(c.poll_event(now).unwrap(), Event::Plaintext(10));
    assert_eq!(c.poll_event(now).unwrap(), Event::Plaintext(10), "again");
    c.consume_plaintext(5);
    assert_eq!(c.poll_event(now).unwrap(), Event::Plaintext(5));
    assert_eq!(c.plaintext(), b"bytes");
    c.consume_plaintext(5);
    assert_eq!(c.poll_event(now).unwrap(), Event::NeedData);
}

#[test]
fn handshake_messages_must_not_span_a_key_change() {
    // RFC 8446 §5.1: the ServerHello record also carries the start of the next message.
    let (mut c, mut srv) = setup();
    let mut rec = srv.server_hello();
    rec.extend([8, 0, 0, 2]);
    let len = (rec.len() - 5) as u16;
    rec[3..5].copy_from_slice(&len.to_be_bytes());
    let (r, sent) = pump(&mut c, &rec);
    // The client already writes under its handshake key.
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::UnexpectedMessage,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn a_message_split_across_records_is_joined_and_nothing_may_interleave() {
    // The ServerHello in two records: fine.
    let (mut c, mut srv) = setup();
    let rec = srv.server_hello();
    let m = &rec[5..];
    let mut bytes = Vec::new();
    for part in [&m[..10], &m[10..]] {
        bytes.extend([22, 3, 3, 0, part.len() as u8]);
        bytes.extend_from_slice(part);
    }
    bytes.extend(good_flight(&mut srv));
    let (r, _) = pump(&mut c, &bytes);
    assert!(matches!(r.unwrap()[..], [Event::HandshakeDone(_)]));
    // An alert between the two halves.
    let (mut c, mut srv) = setup();
    let rec = srv.server_hello();
    let mut bytes = vec![22, 3, 3, 0, 10];
    bytes.extend_from_slice(&rec[5..15]);
    bytes.extend([21, 3, 3, 0, 2, 1, 90]);
    let (r, sent) = pump(&mut c, &bytes);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::UnexpectedMessage,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn malformed_alerts_and_early_application_data_are_refused() {
    refused_in_plaintext(
        |_| vec![21, 3, 3, 0, 3, 2, 40, 0],
        Error::Decode,
        AlertDescription::DECODE_ERROR,
    );
    // Application data before the handshake is done (under the server's handshake key).
    let (mut c, mut srv) = setup();
    let mut bytes = srv.server_hello();
    if srv.writer.keys().is_none() {
        srv.writer
            .set_keys(Some(common::server::keys(&srv.server_hs)));
    }
    bytes.extend(srv.seal(ContentType::APPLICATION_DATA, b"too early"));
    let (r, sent) = pump(&mut c, &bytes);
    let hs = srv.client_hs.clone();
    check(
        r,
        &sent,
        &srv,
        Some(&hs),
        Error::UnexpectedMessage,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
}

#[test]
fn calls_before_the_handshake_are_misuse_and_leave_the_connection_usable() {
    let (mut c, mut srv) = setup();
    assert_eq!(c.send(b"x").unwrap_err(), Error::Misuse);
    assert_eq!(c.update_keys(false).unwrap_err(), Error::Misuse);
    let mut out = [0u8; 8];
    assert_eq!(
        c.export_keying_material(b"EXPORTER-test", b"", &mut out)
            .unwrap_err(),
        Error::Misuse
    );
    assert_eq!(c.complete(Answer::Verified).unwrap_err(), Error::Misuse);
    assert_eq!(c.complete_seal().unwrap_err(), Error::Misuse, "no seal job");
    assert_eq!(c.pending_seal(), None, "inline mode has no seal jobs");
    assert_eq!(c.error(), None, "misuse is not a connection failure");
    assert_eq!(
        format!("{c:?}"),
        "Connection { error: None, peer_closed: false, .. }"
    );
    let mut bytes = srv.server_hello();
    bytes.extend(good_flight(&mut srv));
    assert!(matches!(
        pump(&mut c, &bytes).0.unwrap()[..],
        [Event::HandshakeDone(_)]
    ));
}

#[test]
fn after_a_failure_every_call_returns_the_error() {
    let (mut c2, _) = connected();
    let (r, _) = pump(&mut c2, &[20, 3, 3, 0, 1, 1]);
    let e = r.unwrap_err();
    assert_eq!(e, Error::Record(RecordError::UnexpectedChangeCipherSpec));
    assert_eq!(c2.error(), Some(e));
    assert_eq!(c2.complete(Answer::Verified).unwrap_err(), e);
    assert_eq!(c2.send(b"x").unwrap_err(), e);
    assert_eq!(c2.send_parts(&[b"x"]).unwrap_err(), e);
    assert_eq!(c2.update_keys(true).unwrap_err(), e);
    assert_eq!(c2.complete_open(true).unwrap_err(), e);
    assert_eq!(c2.feed(b"more").unwrap_err(), e);
    assert_eq!(c2.poll_event(0).unwrap_err(), e);
    assert_eq!(
        format!("{c2:?}"),
        format!("Connection {{ error: Some({e:?}), peer_closed: false, .. }}")
    );
}

#[test]
fn transmit_shows_without_taking_and_transmit_done_clears() {
    let profile = Profile::default_web();
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut c = Connection::new(
        Config::new(profile.clone(), Some("example.test")),
        entropy,
        common::server::NOW,
    )
    .unwrap();
    let (_, ch) = client(profile, SignatureCheck::Inline);
    assert_eq!(c.transmit(), &ch[..], "the ClientHello, not taken");
    assert_eq!(c.transmit(), &ch[..]);
    assert_eq!(c.poll_event(common::server::NOW).unwrap(), Event::Transmit);
    c.transmit_done();
    assert!(c.transmit().is_empty());
    assert!(c.take_transmit().is_empty());
    assert_eq!(c.poll_event(common::server::NOW).unwrap(), Event::NeedData);
}

#[test]
fn entropy_for_another_profile_is_misuse() {
    let one = Profile::default_web();
    let mut two = Profile::default_web();
    two.key_shares = vec![NamedGroup::X25519, NamedGroup::SECP256R1];
    let pool = vec![3u8; Entropy::pool_len(&one)];
    let entropy = Entropy::from_pool(&one, &pool).unwrap();
    let e = Connection::new(Config::new(two, Some("example.test")), entropy, 0).unwrap_err();
    assert_eq!(e, Error::Misuse);
}

#[test]
fn offloaded_fatal_alert_is_sealed_through_pending_seal() {
    use common::rfc8448::drain_offload;
    let profile = Profile::default_web();
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut cfg = Config::new(profile, Some("example.test"));
    cfg.aead_offload = true;
    let mut c = Connection::new(cfg, entropy, common::server::NOW).unwrap();
    let mut srv = Server::new(&c.take_transmit());
    let (mut keys, mut jobs) = (std::collections::HashMap::new(), 0usize);
    let mut sent = Vec::new();
    let mut bytes = srv.server_hello();
    bytes.extend(srv.flight(&[Server::encrypted_extensions(&[ext(0x1234, &[])])]));
    c.feed(&bytes).unwrap();
    let e =
        drain_offload(&mut c, common::server::NOW, &mut sent, &mut keys, &mut jobs).unwrap_err();
    assert_eq!(e, Error::UnsupportedExtension);
    assert_eq!(
        jobs, 1,
        "the EncryptedExtensions record was opened by the caller"
    );
    // The alert waits for its seal: nothing leaves until it is done.
    assert!(c.take_transmit().is_empty());
    assert!(c.transmit().is_empty());
    let job = c.pending_seal().expect("the fatal alert is a seal job");
    let buf = c.seal_buffer().unwrap();
    let (pt, tag_out) = buf.split_at_mut(job.len);
    let tag = keys[&job.key_id]
        .seal_in_place(&job.nonce, &job.aad, pt)
        .unwrap();
    tag_out.copy_from_slice(&tag);
    c.complete_seal().unwrap();
    assert_eq!(c.pending_seal(), None);
    let out = c.take_transmit();
    assert_eq!(
        srv.open_client(&out, &srv.client_hs.clone()),
        vec![(21, vec![2, AlertDescription::UNSUPPORTED_EXTENSION.0])]
    );
}

#[test]
fn key_share_and_psk_selection_must_match_the_offer() {
    // P-256 is in supported_groups but had no share: the server should have retried.
    refused_in_plaintext(
        |s| {
            let mut ks = vec![0x00, 0x17, 0x00, 0x41, 0x04];
            ks.extend([1u8; 64]);
            hello_with(s, [7; 32], 0x1301, &[ext(43, &[3, 4]), ext(51, &ks)])
        },
        Error::IllegalParameter,
        AlertDescription::ILLEGAL_PARAMETER,
    );
    // One PSK identity offered (index 0); the server selects index 1.
    let (mut c, ch) = resuming_client(Profile::default_web(), ticket_from_server(&[]));
    let srv = Server::new(&ch);
    let sh = hello_with(
        &srv,
        [7; 32],
        0x1301,
        &[ext(43, &[3, 4]), ext(51, &x25519_share()), ext(41, &[0, 1])],
    );
    let (r, sent) = pump(&mut c, &sh);
    check(
        r,
        &sent,
        &srv,
        None,
        Error::IllegalParameter,
        AlertDescription::ILLEGAL_PARAMETER,
    );
}
