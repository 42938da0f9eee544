//! RFC 5869 HKDF and TLS 1.2 PRF vectors from the shared vectors folder (read from disk
//! natively, compiled in on wasm32).

use burrow_crypto::hash::HashAlgorithm;
use burrow_crypto::{hkdf, prf};
use burrow_testkit::hex::decode;
use serde_json::Value;

/// The file's text, or `None` for the loud `BURROW_VECTORS=none` skip.
fn load(rel: &str, embedded: Option<&'static str>) -> Option<String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = embedded;
        burrow_testkit::vectors::read_string(rel)
    }
    #[cfg(target_arch = "wasm32")]
    {
        burrow_testkit::embedded::require(embedded, rel).map(str::to_string)
    }
}

fn hash(name: &str) -> HashAlgorithm {
    match name {
        "SHA-256" => HashAlgorithm::Sha256,
        "SHA-384" => HashAlgorithm::Sha384,
        "SHA-512" => HashAlgorithm::Sha512,
        other => panic!("unexpected hash {other}"),
    }
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_else(|| panic!("field {k} missing"))
}

pub fn rfc5869() {
    let Some(text) = load("hkdf/rfc5869.json", burrow_testkit::embedded::HKDF_RFC5869) else {
        return;
    };
    let doc: Value = serde_json::from_str(&text).expect("json");
    let tests = doc["tests"].as_array().expect("tests");
    let mut n = 0;
    for t in tests {
        let alg = hash(s(t, "hash"));
        let prk = hkdf::extract(alg, &decode(s(t, "salt")), &decode(s(t, "ikm")));
        assert_eq!(
            prk.as_ref(),
            decode(s(t, "prk")).as_slice(),
            "{}: PRK",
            s(t, "name")
        );
        let mut okm = vec![0u8; t["length"].as_u64().expect("length") as usize];
        hkdf::expand(alg, prk.as_ref(), &decode(s(t, "info")), &mut okm).expect("expand");
        assert_eq!(okm, decode(s(t, "okm")), "{}: OKM", s(t, "name"));
        n += 1;
    }
    crate::say(&format!("rfc5869.json: {n} HKDF cases passed"));
    assert!(n > 0, "rfc5869.json held no cases");
}

pub fn tls12_prf() {
    let Some(text) = load("tls12-prf/prf.json", burrow_testkit::embedded::TLS12_PRF) else {
        return;
    };
    let doc: Value = serde_json::from_str(&text).expect("json");
    let tests = doc["tests"].as_array().expect("tests");
    let mut n = 0;
    for t in tests {
        let alg = hash(s(t, "hash"));
        let want = decode(s(t, "output"));
        let mut out = vec![0u8; want.len()];
        prf::tls12(
            alg,
            &decode(s(t, "secret")),
            s(t, "label").as_bytes(),
            &decode(s(t, "seed")),
            &mut out,
        )
        .expect("prf");
        assert_eq!(out, want, "{}", s(t, "name"));
        // A shorter output is a prefix of the longer one.
        let mut short = vec![0u8; 13];
        prf::tls12(
            alg,
            &decode(s(t, "secret")),
            s(t, "label").as_bytes(),
            &decode(s(t, "seed")),
            &mut short,
        )
        .expect("prf");
        assert_eq!(short.as_slice(), &want[..13]);
        n += 1;
    }
    crate::say(&format!("prf.json: {n} TLS 1.2 PRF cases passed"));
    assert!(n > 0, "prf.json held no cases");
}
