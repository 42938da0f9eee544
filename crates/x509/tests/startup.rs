//! Startup cost of the `system` trust (natively and under wasm-bindgen-test): creating it
//! decodes nothing; the first lookup builds a subject index; a root is parsed only when a
//! chain reaches it. Timings are printed, never asserted (figures come from runs, see
//! README.md); what is asserted is how many roots got parsed.

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

#[cfg(target_arch = "wasm32")]
mod clock {
    use wasm_bindgen::prelude::wasm_bindgen;
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        fn performance_now() -> f64;
    }
    /// Milliseconds from an arbitrary origin.
    pub(crate) fn ms() -> f64 {
        performance_now()
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod clock {
    use std::sync::OnceLock;
    use std::time::Instant;
    /// Milliseconds from an arbitrary origin.
    pub(crate) fn ms() -> f64 {
        static T0: OnceLock<Instant> = OnceLock::new();
        T0.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
    }
}

fn say(line: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("{line}");
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::console_log!("{}", line);
}

fn verify(v: &Verifier, der: &[u8], host: &str) -> Result<(), Error> {
    let chain = [der];
    let certs = ServerCertificates {
        chain: &chain,
        ocsp_staple: None,
        now: 1_800_000_000,
    };
    match v.verify(&certs, &ServerName::parse(host)?, &CryptoVerifier)? {
        Outcome::Verified(_) => Ok(()),
        Outcome::Decide(_) => panic!("no custom trust here"),
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn system_trust_costs_nothing_until_an_anchor_is_used() {
    let _ = clock::ms();
    let t0 = clock::ms();
    let v = Verifier::new(Trust::system());
    let t1 = clock::ms();
    let (total, parsed) = burrow_x509::probe::system_roots_parsed();
    assert_eq!(parsed, 0);

    // A self-issued certificate whose issuer is not in the store: builds the index, parses none.
    let stranger = unrelated_self_issued();
    let t2 = clock::ms();
    let e = verify(&v, &stranger, "example.com").unwrap_err();
    let t3 = clock::ms();
    assert_eq!(e, Error::Untrusted);
    assert_eq!(burrow_x509::probe::system_roots_parsed().1, 0);

    // A chain that lands on a real root (the root itself presented as the leaf): exactly the
    // roots with that subject get parsed, and the self-signature is checked.
    let root: &[u8] = webpki_root_certs::TLS_SERVER_ROOT_CERTS[0].as_ref();
    let t4 = clock::ms();
    let e = verify(&v, root, "example.com").unwrap_err();
    let t5 = clock::ms();
    assert_eq!(
        e,
        Error::NameMismatch,
        "a root presented as leaf validates, then fails the name"
    );
    let parsed = burrow_x509::probe::system_roots_parsed().1;
    assert!((1..=2).contains(&parsed), "parsed {parsed} roots");

    // Again: nothing new parsed.
    let t6 = clock::ms();
    let _ = verify(&v, root, "example.com");
    let t7 = clock::ms();
    assert_eq!(burrow_x509::probe::system_roots_parsed().1, parsed);
    say(&format!(
        "system trust ({total} roots): create {:.3} ms; first lookup (index build, 0 parsed) {:.3} ms; \
         first chain onto a root ({parsed} parsed + 1 signature) {:.3} ms; same again {:.3} ms",
        t1 - t0,
        t3 - t2,
        t5 - t4,
        t7 - t6
    ));
}

/// A minimal, well-formed self-issued certificate with a name no real root has.
fn unrelated_self_issued() -> Vec<u8> {
    use burrow_der::writer::tlv;
    let seq = |parts: &[Vec<u8>]| tlv(0x30, &parts.concat());
    let name = seq(&[tlv(
        0x31,
        &seq(&[
            tlv(0x06, &[0x55, 0x04, 0x03]),
            tlv(0x0c, b"burrow startup probe"),
        ]),
    )]);
    let alg = seq(&[tlv(0x06, &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02])]);
    let mut point = vec![0x00, 0x04];
    point.extend([7u8; 64]);
    let spki = seq(&[
        seq(&[
            tlv(0x06, &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]),
            tlv(0x06, &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]),
        ]),
        tlv(0x03, &point),
    ]);
    let tbs = seq(&[
        tlv(0x02, &[0x01]),
        alg.clone(),
        name.clone(),
        seq(&[tlv(0x17, b"200101000000Z"), tlv(0x17, b"400101000000Z")]),
        name,
        spki,
    ]);
    seq(&[
        tbs,
        alg,
        tlv(
            0x03,
            &[0x00, 0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01],
        ),
    ])
}
