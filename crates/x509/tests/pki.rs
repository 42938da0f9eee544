//! Unit tests on the peers' test PKI (`PEERS_PKI`, made by ../shared/peers/up.sh): chains,
//! names, stapled OCSP responses, pins and trust modes, at a time derived from the files.

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
// test code

mod support;

use burrow_testkit::peers::Peers;
use burrow_x509::{
    certificates_from_pem, format_pin, spki_sha256, Certificate, Error, OcspResponse, Outcome,
    Revocation, ServerCertificates, ServerName, StapleStatus, Trust, Verified, Verifier,
};

struct Pki {
    dir: std::path::PathBuf,
}

impl Pki {
    fn load(what: &str) -> Option<Pki> {
        let peers = Peers::load(what)?;
        let dir =
            std::path::PathBuf::from(peers.var("PEERS_PKI").expect("peers.env has PEERS_PKI"));
        Some(Pki { dir })
    }
    fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.dir.join(name)).unwrap_or_else(|e| panic!("reading {name}: {e}"))
    }
    fn chain(&self, name: &str) -> Vec<Vec<u8>> {
        certificates_from_pem(&self.read(&format!("{name}.chain.pem"))).unwrap()
    }
    fn trust(&self) -> Trust {
        Trust::anchors_pem(&self.read("root.pem")).unwrap()
    }
    /// A minute after the staples were signed (up.sh re-signs them on every start while the
    /// certificates may be older), and at least an hour after the P-256 leaf's notBefore: inside
    /// every certificate's and every staple's window.
    fn now(&self) -> i64 {
        let leaf = Certificate::from_der(&self.read("leaf-p256.der")).unwrap();
        let produced = produced_at(&self.read("ocsp-good.der"));
        (leaf.validity().0 + 3600).max(produced + 60)
    }
}

/// The staple's producedAt: the first GeneralizedTime (tag 0x18, 15 bytes) in the response.
fn produced_at(ocsp: &[u8]) -> i64 {
    let at = ocsp.windows(2).position(|w| w == [0x18, 0x0f]).unwrap() + 2;
    let t = std::str::from_utf8(&ocsp[at..at + 15]).unwrap();
    let rfc3339 = format!(
        "{}-{}-{}T{}:{}:{}Z",
        &t[0..4],
        &t[4..6],
        &t[6..8],
        &t[8..10],
        &t[10..12],
        &t[12..14]
    );
    burrow_x509::parse_rfc3339(&rfc3339).unwrap()
}

fn run(
    v: &Verifier,
    chain: &[Vec<u8>],
    staple: Option<&[u8]>,
    host: &str,
    now: i64,
) -> Result<Verified, Error> {
    let refs: Vec<&[u8]> = chain.iter().map(Vec::as_slice).collect();
    let certs = ServerCertificates {
        chain: &refs,
        ocsp_staple: staple,
        now,
    };
    match v.verify(&certs, &ServerName::parse(host)?, &support::verifier())? {
        Outcome::Verified(ok) => Ok(ok),
        Outcome::Decide(_) => panic!("unexpected custom decision"),
    }
}

#[test]
fn good_chains_for_every_key_type() {
    let Some(pki) = Pki::load("x509 pki") else {
        return;
    };
    let v = Verifier::new(pki.trust());
    for name in ["leaf-p256", "leaf-p384", "leaf-rsa"] {
        let ok = run(&v, &pki.chain(name), None, "localhost", pki.now()).unwrap();
        assert_eq!(ok.path_len, 3, "{name}");
        assert_eq!(ok.staple, StapleStatus::None);
        let ok = run(&v, &pki.chain(name), None, "127.0.0.1", pki.now()).unwrap();
        assert_eq!(ok.path_len, 3);
    }
    // Intermediates in any order, with junk and duplicates around them.
    let mut chain = pki.chain("leaf-p256");
    let inter = chain[1].clone();
    chain.insert(1, pki.read("leaf-p384.der"));
    chain.push(inter);
    chain.push(b"not a certificate".to_vec());
    run(&v, &chain, None, "localhost", pki.now()).unwrap();
}

#[test]
fn bad_chains_have_their_own_codes() {
    let Some(pki) = Pki::load("x509 pki") else {
        return;
    };
    let v = Verifier::new(pki.trust());
    let now = pki.now();
    let code = |name: &str, host: &str| {
        run(&v, &pki.chain(name), None, host, now)
            .unwrap_err()
            .code()
    };
    assert_eq!(code("expired", "localhost"), "CERT_EXPIRED");
    assert_eq!(code("notyet", "localhost"), "CERT_NOT_YET_VALID");
    assert_eq!(code("wronghost", "localhost"), "CERT_NAME_MISMATCH");
    assert_eq!(code("selfsigned", "localhost"), "CERT_UNTRUSTED");
    assert_eq!(code("leaf-p256", "example.com"), "CERT_NAME_MISMATCH");
    assert_eq!(code("leaf-p256", "127.0.0.2"), "CERT_NAME_MISMATCH");
    assert_eq!(
        run(&v, &pki.chain("leaf-p256"), None, "bücher.localhost", now).unwrap_err(),
        Error::NonAsciiHostName
    );
    // Missing intermediate: untrusted.
    let leaf_only = vec![pki.read("leaf-p256.der")];
    assert_eq!(
        run(&v, &leaf_only, None, "localhost", now).unwrap_err(),
        Error::Untrusted
    );
    // A flipped bit in the leaf's signature.
    let mut chain = pki.chain("leaf-p256");
    let last = chain[0].len() - 1;
    chain[0][last] ^= 1;
    assert_eq!(
        run(&v, &chain, None, "localhost", now).unwrap_err(),
        Error::BadSignature
    );
}

#[test]
fn stapled_ocsp() {
    let Some(pki) = Pki::load("x509 pki") else {
        return;
    };
    let v = Verifier::new(pki.trust());
    let now = pki.now();
    let good = pki.read("ocsp-good.der");
    let ok = run(&v, &pki.chain("leaf-p256"), Some(&good), "localhost", now).unwrap();
    let StapleStatus::Good(g) = ok.staple else {
        panic!("staple not good: {:?}", ok.staple)
    };
    assert!(g.this_update <= now && g.next_update.unwrap() > now);
    for (leaf, staple) in [
        ("leaf-p384", "ocsp-good-p384.der"),
        ("leaf-rsa", "ocsp-good-rsa.der"),
    ] {
        let ok = run(
            &v,
            &pki.chain(leaf),
            Some(&pki.read(staple)),
            "localhost",
            now,
        )
        .unwrap();
        assert!(matches!(ok.staple, StapleStatus::Good(_)), "{leaf}");
    }
    let revoked = pki.read("ocsp-revoked.der");
    assert_eq!(
        run(&v, &pki.chain("revoked"), Some(&revoked), "localhost", now).unwrap_err(),
        Error::OcspRevoked
    );
    // The revoked leaf's chain is otherwise fine.
    run(&v, &pki.chain("revoked"), None, "localhost", now).unwrap();
    // Right issuer, other serial.
    let other = pki.read("ocsp-good-p384.der");
    assert_eq!(
        run(&v, &pki.chain("leaf-p256"), Some(&other), "localhost", now).unwrap_err(),
        Error::OcspMismatch
    );
    // Outside the window (with the skew allowance).
    let g = match run(&v, &pki.chain("leaf-p256"), Some(&good), "localhost", now)
        .unwrap()
        .staple
    {
        StapleStatus::Good(g) => g,
        s => panic!("{s:?}"),
    };
    let late = g.next_update.unwrap() + burrow_x509::OCSP_SKEW_SECS + 1;
    assert_eq!(
        run(&v, &pki.chain("leaf-p256"), Some(&good), "localhost", late).unwrap_err(),
        Error::OcspStale
    );
    let early = g.this_update - burrow_x509::OCSP_SKEW_SECS - 1;
    let leaf_nb = Certificate::from_der(&pki.read("leaf-p256.der"))
        .unwrap()
        .validity()
        .0;
    if early >= leaf_nb {
        assert_eq!(
            run(&v, &pki.chain("leaf-p256"), Some(&good), "localhost", early).unwrap_err(),
            Error::OcspStale
        );
    } else {
        eprintln!(
            "stapled_ocsp: NOT checking a staple used before its thisUpdate: the staple was \
             signed within the skew of the leaf's notBefore (fresh PKI), so no such time exists"
        );
    }
    // Signed data altered (a digit of producedAt, still well-formed): the signature fails.
    let mut bad = good.clone();
    let at = bad.windows(2).position(|w| w == [0x18, 0x0f]).unwrap() + 2 + 13;
    bad[at] = if bad[at] == b'0' { b'1' } else { b'0' };
    let e = run(&v, &pki.chain("leaf-p256"), Some(&bad), "localhost", now).unwrap_err();
    assert_eq!(e.code(), "OCSP_INVALID", "{e}");
    // Required but missing.
    let strict = Verifier::new(pki.trust()).revocation(Revocation::RequireStaple);
    assert_eq!(
        run(&strict, &pki.chain("leaf-p256"), None, "localhost", now).unwrap_err(),
        Error::OcspStapleRequired
    );
    run(
        &strict,
        &pki.chain("leaf-p256"),
        Some(&good),
        "localhost",
        now,
    )
    .unwrap();
}

#[test]
fn truncated_and_corrupted_inputs_are_errors_not_panics() {
    let Some(pki) = Pki::load("x509 pki") else {
        return;
    };
    for name in [
        "leaf-p256.der",
        "leaf-rsa.der",
        "root.der",
        "ocsp-good.der",
        "ocsp-revoked.der",
    ] {
        let der = pki.read(name);
        let is_ocsp = name.starts_with("ocsp");
        let parse = |b: &[u8]| {
            if is_ocsp {
                OcspResponse::from_der(b).map(drop)
            } else {
                Certificate::from_der(b).map(drop)
            }
        };
        assert!(parse(&der).is_ok(), "{name}");
        for cut in 0..der.len() {
            assert!(parse(&der[..cut]).is_err(), "{name} cut at {cut} parsed");
        }
        let mut extended = der.clone();
        extended.push(0);
        assert!(
            parse(&extended).is_err(),
            "{name} with trailing byte parsed"
        );
        // Every single-byte corruption: any result, but no panic.
        for i in 0..der.len() {
            let mut m = der.clone();
            m[i] ^= 0xff;
            let _ = parse(&m);
        }
    }
}

#[test]
fn pins() {
    let Some(pki) = Pki::load("x509 pki") else {
        return;
    };
    let now = pki.now();
    let root = Certificate::from_der(&pki.read("root.der")).unwrap();
    let inter =
        Certificate::from_der(&certificates_from_pem(&pki.read("inter.pem")).unwrap()[0]).unwrap();
    let leaf = Certificate::from_der(&pki.read("leaf-p256.der")).unwrap();
    for pinned in [&root, &inter, &leaf] {
        let pin = format_pin(&spki_sha256(pinned.spki()));
        let v = Verifier::new(pki.trust().pinned(&[&pin]).unwrap());
        run(&v, &pki.chain("leaf-p256"), None, "localhost", now).unwrap();
    }
    let wrong = format_pin(&[7u8; 32]);
    let v = Verifier::new(pki.trust().pinned(&[&wrong]).unwrap());
    let e = run(&v, &pki.chain("leaf-p256"), None, "localhost", now).unwrap_err();
    assert_eq!(e.code(), "CERT_PIN_MISMATCH");
    let msg = e.to_string();
    for c in [&leaf, &inter, &root] {
        let pin = format_pin(&spki_sha256(c.spki()));
        assert!(msg.contains(&pin), "{msg} lacks {pin}");
    }
    // Pins never rescue an invalid chain.
    let leaf_pin = format_pin(&spki_sha256(leaf.spki()));
    let v = Verifier::new(pki.trust().pinned(&[&leaf_pin]).unwrap());
    assert_eq!(
        run(&v, &pki.chain("leaf-p256"), None, "wrong.example", now).unwrap_err(),
        Error::NameMismatch
    );
    assert!(Trust::system().pinned(&["sha256/short"]).is_err());
}

#[test]
fn custom_and_insecure_trust() {
    let Some(pki) = Pki::load("x509 pki") else {
        return;
    };
    let chain = pki.chain("selfsigned");
    let refs: Vec<&[u8]> = chain.iter().map(Vec::as_slice).collect();
    let certs = ServerCertificates {
        chain: &refs,
        ocsp_staple: None,
        now: pki.now(),
    };
    let name = ServerName::parse("localhost").unwrap();
    let custom = Verifier::new(Trust::custom());
    let Outcome::Decide(req) = custom.verify(&certs, &name, &support::verifier()).unwrap() else {
        panic!("custom trust must ask the caller")
    };
    assert_eq!(req.chain, chain);
    assert_eq!(req.server_name, name);
    assert_eq!(req.clone().reject(), Error::CustomRejected);
    let ok = req.accept().unwrap();
    assert!(!ok.insecure);
    let insecure = Verifier::new(Trust::insecure_accept_any_certificate());
    let Outcome::Verified(ok) = insecure
        .verify(&certs, &name, &support::verifier())
        .unwrap()
    else {
        panic!()
    };
    assert!(ok.insecure);
    assert_eq!(ok.staple, StapleStatus::NotChecked);
}

#[test]
fn system_trust_is_lazy() {
    let Some(pki) = Pki::load("x509 pki") else {
        return;
    };
    let v = Verifier::new(Trust::system());
    let (total, parsed) = burrow_x509::probe::system_roots_parsed();
    assert!(total > 100, "bundled roots: {total}");
    assert_eq!(parsed, 0, "creating the system trust must not parse roots");
    // Our private root is not in the Mozilla store: untrusted, and no root got parsed.
    let e = run(&v, &pki.chain("leaf-p256"), None, "localhost", pki.now()).unwrap_err();
    assert_eq!(e, Error::Untrusted);
    assert_eq!(burrow_x509::probe::system_roots_parsed().1, 0);
}

/// The asynchronous seam: signatures answered between rounds (here by burrow-crypto standing
/// in for WebCrypto), and a forged answer is honoured only for what it answers.
#[test]
fn signatures_answered_between_rounds() {
    use burrow_x509::{AnswerBook, SignatureVerifier, MAX_ANSWER_ROUNDS};
    let Some(pki) = Pki::load("x509 pki") else {
        return;
    };
    let v = Verifier::new(pki.trust());
    let chain = pki.chain("leaf-p256");
    let good = pki.read("ocsp-good.der");
    let refs: Vec<&[u8]> = chain.iter().map(Vec::as_slice).collect();
    let certs = ServerCertificates {
        chain: &refs,
        ocsp_staple: Some(&good),
        now: pki.now(),
    };
    let name = ServerName::parse("localhost").unwrap();
    let book = AnswerBook::new();
    let mut asked = 0;
    let mut rounds = 0;
    let result = loop {
        rounds += 1;
        assert!(rounds <= MAX_ANSWER_ROUNDS);
        let r = v.verify(&certs, &name, &book);
        let pending = book.take_pending();
        if pending.is_empty() {
            break r;
        }
        for req in pending {
            asked += 1;
            book.answer(&req, burrow_x509::CryptoVerifier.verify(&req.as_request()));
        }
    };
    let Ok(Outcome::Verified(ok)) = result else {
        panic!("{result:?}")
    };
    assert!(matches!(ok.staple, StapleStatus::Good(_)));
    assert_eq!(asked, 3, "leaf, intermediate, OCSP response");
    assert_eq!(rounds, 2);

    // Same with every answer "invalid": the final verdict is a bad signature.
    let book = AnswerBook::new();
    let mut result = v.verify(&certs, &name, &book);
    for _ in 0..MAX_ANSWER_ROUNDS {
        let pending = book.take_pending();
        if pending.is_empty() {
            break;
        }
        for req in pending {
            book.answer(&req, Err(burrow_x509::SignatureFailure::Invalid));
        }
        result = v.verify(&certs, &name, &book);
    }
    assert!(book.take_pending().is_empty());
    assert_eq!(result.unwrap_err(), Error::BadSignature);
}
