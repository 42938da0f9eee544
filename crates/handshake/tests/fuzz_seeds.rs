//! The committed seeds of the `tls13_connection` and `tls12_connection` fuzz targets: they are
//! what `burrow_handshake::fuzz::seeds13` / `seeds12` generate (rewrite them with
//! `BURROW_WRITE_SEEDS=1 cargo test -p burrow-handshake --test fuzz_seeds`), and outside fuzzer
//! mode each one gets through ServerHello, the encrypted flight, the certificate and its
//! signature request up to the server's Finished — where the real MAC check refuses the fixed
//! fuzzer-mode value — or stops earlier at the error its name says. That they go on to
//! application data in fuzzer mode is checked by `script/fuzz`, which replays them in the
//! cargo-fuzz build.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

mod common;

use burrow_handshake::fuzz::{self, Family, Rfc8448, Seed};
use burrow_handshake::Error;
use std::path::PathBuf;

fn scenario() -> Option<common::rfc8448::Scenario> {
    let json = common::rfc8448_json()?;
    Some(common::rfc8448::Scenario::load(&json, "simple_1rtt"))
}

fn rfc8448_parts() -> Option<Rfc8448> {
    let s = scenario()?;
    Some(Rfc8448 {
        server_hello_record: s.hex("record_server_hello"),
        messages: vec![
            s.hex("message_encrypted_extensions"),
            s.hex("message_server_certificate"),
            s.hex("message_server_certificate_verify"),
        ],
        new_session_ticket: s.hex("new_session_ticket"),
        app_data: s.hex("server_app_data"),
    })
}

/// The RFC 8448 server certificate, out of its TLS 1.3 Certificate message.
fn rsa_certificate() -> Option<Vec<u8>> {
    let m = scenario()?.hex("message_server_certificate");
    // header 4, empty context 1, list length 3, then the first entry's length and DER.
    let len = u32::from_be_bytes([0, m[8], m[9], m[10]]) as usize;
    Some(m[11..11 + len].to_vec())
}

fn all() -> Vec<(&'static str, Family, Vec<Seed>)> {
    let parts = rfc8448_parts();
    let rsa = rsa_certificate();
    vec![
        (
            "tls13_connection",
            Family::Tls13,
            fuzz::seeds13(parts.as_ref()).unwrap(),
        ),
        (
            "tls12_connection",
            Family::Tls12,
            fuzz::seeds12(rsa.as_deref()).unwrap(),
        ),
    ]
}

fn dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../fuzz/seeds/{target}"))
}

#[test]
fn committed_seeds_are_the_generated_ones() {
    let write = std::env::var_os("BURROW_WRITE_SEEDS").is_some();
    let vectors = scenario().is_some();
    for (target, _, seeds) in all() {
        let dir = dir(target);
        if write {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
        }
        for s in &seeds {
            let path = dir.join(&s.name);
            if write {
                std::fs::write(&path, &s.input).unwrap();
            }
            let on_disk = std::fs::read(&path).unwrap_or_else(|e| {
                panic!("{}: {e} (BURROW_WRITE_SEEDS=1 writes it)", path.display())
            });
            assert_eq!(
                on_disk,
                s.input,
                "{} is stale (BURROW_WRITE_SEEDS=1 rewrites it)",
                path.display()
            );
        }
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let mut want: Vec<String> = seeds.iter().map(|s| s.name.clone()).collect();
        want.sort();
        if vectors {
            assert_eq!(names, want, "{target}: seeds on disk");
        } else {
            // Without the vectors the RFC 8448 seeds are not generated; the rest must match.
            names.retain(|n| !n.contains("rfc8448"));
            assert_eq!(names, want, "{target}: seeds on disk");
        }
        assert!(seeds.len() >= 10, "{target}: {} seeds", seeds.len());
    }
}

#[test]
fn seeds_reach_the_real_finished_check_outside_fuzzer_mode() {
    for (target, family, seeds) in all() {
        for s in seeds {
            let o = fuzz::connection(&s.input, family);
            let what = format!("{target}/{}: {o}", s.name);
            assert!(
                o.verify_requests >= 1,
                "{what}: the certificate was reached"
            );
            assert!(
                !o.handshake_done,
                "{what}: the fixed Finished must not pass the real check"
            );
            match o.error {
                Some(Error::BadFinished) => {}
                Some(e) => assert_eq!(e.code(), s.expect(), "{what}: stopped early"),
                None => panic!("{what}: no error"),
            }
        }
    }
}

#[test]
fn a_flipped_null_tag_is_bad_record_mac() {
    // The driver's null cipher still authenticates: the first encrypted record with one tag
    // byte changed fails as a real AEAD would.
    let (_, family, seeds) = all().remove(0);
    let mut input = seeds[0].input.clone();
    let tag_byte = input.windows(16).position(|w| w == fuzz::NULL_TAG).unwrap() + 15;
    let good = fuzz::connection(&input, family);
    input[tag_byte] ^= 1;
    let bad = fuzz::connection(&input, family);
    assert_ne!(good.error, bad.error, "{good} vs {bad}");
    assert_eq!(
        bad.error.map(|e| e.code()),
        Some("TLS_BAD_RECORD_MAC"),
        "{bad}"
    );
}

#[test]
fn mutated_seeds_end_in_ok_or_a_typed_error() {
    // What the fuzzer does, a little and deterministically, in the normal build: byte flips,
    // cuts and repeats of every seed must leave the driver's own checks (progress, lent
    // lengths) holding and end in an outcome.
    let mut state = 0x2545_f491_u32;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state as usize % n.max(1)
    };
    let mut runs = 0;
    for (_, family, seeds) in all() {
        for s in seeds {
            for _ in 0..60 {
                let mut m = s.input.clone();
                match next(3) {
                    0 => {
                        let at = next(m.len());
                        m[at] ^= 1 << next(8);
                    }
                    1 => m.truncate(next(m.len())),
                    _ => {
                        let at = next(m.len());
                        let piece = m[at..(at + 1 + next(40)).min(m.len())].to_vec();
                        m.splice(at..at, piece);
                    }
                }
                let _ = fuzz::connection(&m, family);
                runs += 1;
            }
        }
    }
    assert!(runs > 1000, "{runs} runs");
}
