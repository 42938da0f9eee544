//! Hostile chains: a server that sends many same-named CAs must hit the path-building budget
//! (fatal, `CERT_BUDGET_EXCEEDED`) quickly instead of exploring every permutation.
//! Certificates are assembled by a tiny DER writer; their signatures are junk on purpose.

#![cfg(not(target_arch = "wasm32"))] // files, sockets and ring: native only
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]
#![allow(clippy::disallowed_methods)]
// timing for the log only

use burrow_x509::{
    CryptoVerifier, Error, Outcome, ServerCertificates, ServerName, Trust, Verifier,
};

use burrow_der::writer::tlv;
fn seq(parts: &[Vec<u8>]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}
fn oid(b: &[u8]) -> Vec<u8> {
    tlv(0x06, b)
}
fn name(cn: &str) -> Vec<u8> {
    seq(&[tlv(
        0x31,
        &seq(&[oid(&[0x55, 0x04, 0x03]), tlv(0x0c, cn.as_bytes())]),
    )])
}
fn ext(id: &[u8], critical: bool, value: Vec<u8>) -> Vec<u8> {
    let mut parts = vec![oid(id)];
    if critical {
        parts.push(vec![0x01, 0x01, 0xff]);
    }
    parts.push(tlv(0x04, &value));
    seq(&parts)
}

const ECDSA_SHA256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];

fn cert(serial: u8, issuer: &str, subject: &str, key: u8, ca: bool) -> Vec<u8> {
    let alg = seq(&[oid(ECDSA_SHA256)]);
    let mut point = vec![0x00, 0x04];
    point.extend([key; 64]);
    let spki = seq(&[
        seq(&[
            oid(&[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]),
            oid(&[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]),
        ]),
        tlv(0x03, &point),
    ]);
    let mut exts = vec![ext(&[0x55, 0x1d, 0x0e], false, tlv(0x04, b"same-key-id"))];
    if ca {
        exts.push(ext(
            &[0x55, 0x1d, 0x13],
            true,
            seq(&[vec![0x01, 0x01, 0xff]]),
        ));
    } else {
        exts.push(ext(
            &[0x55, 0x1d, 0x23],
            false,
            seq(&[tlv(0x80, b"same-key-id")]),
        ));
        exts.push(ext(
            &[0x55, 0x1d, 0x11],
            false,
            seq(&[tlv(0x82, b"example.com")]),
        ));
    }
    let tbs = seq(&[
        tlv(0xa0, &[0x02, 0x01, 0x02]),
        tlv(0x02, &[serial]),
        alg.clone(),
        name(issuer),
        seq(&[tlv(0x17, b"200101000000Z"), tlv(0x17, b"400101000000Z")]),
        name(subject),
        spki,
        tlv(0xa3, &seq(&exts)),
    ]);
    let mut sig = vec![0x00];
    sig.extend(seq(&[tlv(0x02, &[0x01]), tlv(0x02, &[0x01])]));
    seq(&[tbs, alg, tlv(0x03, &sig)])
}

const NOW: i64 = 1_700_000_000;

fn verify(trust: Trust, chain: &[Vec<u8>]) -> Result<(), Error> {
    let refs: Vec<&[u8]> = chain.iter().map(Vec::as_slice).collect();
    let certs = ServerCertificates {
        chain: &refs,
        ocsp_staple: None,
        now: NOW,
    };
    let name = ServerName::parse("example.com").unwrap();
    match Verifier::new(trust).verify(&certs, &name, &CryptoVerifier)? {
        Outcome::Verified(_) => Ok(()),
        Outcome::Decide(_) => panic!("no custom trust here"),
    }
}

/// Leaf issued by "X", then `n` distinct self-issued "X" CAs (distinct keys).
fn hostile(n: u8) -> Vec<Vec<u8>> {
    let mut chain = vec![cert(1, "X", "leaf", 200, false)];
    for i in 0..n {
        chain.push(cert(10 + i, "X", "X", i, true));
    }
    chain
}

#[test]
fn many_same_named_cas_exhaust_the_step_budget_fast() {
    let unrelated_root = cert(99, "R", "R", 250, true);
    let trust = Trust::anchors_der(&[&unrelated_root]).unwrap();
    let start = std::time::Instant::now();
    let e = verify(trust.clone(), &hostile(12)).unwrap_err();
    eprintln!("12 same-named CAs: {e:?} after {:?}", start.elapsed());
    assert_eq!(e, Error::BudgetExceeded);
    assert_eq!(e.code(), "CERT_BUDGET_EXCEEDED");
    // A few of them: explored fully, plain "untrusted".
    assert_eq!(verify(trust, &hostile(3)).unwrap_err(), Error::Untrusted);
}

#[test]
fn many_failing_signature_checks_exhaust_the_signature_budget() {
    // The anchor is named "X" too, so every node offers an anchor whose signature check fails.
    let anchor = cert(98, "X", "X", 251, true);
    let trust = Trust::anchors_der(&[&anchor]).unwrap();
    let e = verify(trust.clone(), &hostile(12)).unwrap_err();
    assert_eq!(e, Error::BudgetExceeded);
    // Leaf alone against that anchor: one failing check, a specific (non-budget) error.
    let e = verify(trust, &hostile(0)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::BadSignature | Error::UnsupportedSignatureAlgorithm
        ),
        "{e:?}"
    );
}
