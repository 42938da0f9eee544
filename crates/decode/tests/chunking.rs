//! The same body decodes to the same bytes however it is split: whole, byte by byte, every
//! 2-way split of a small body, random splits of a large one.
#![cfg(not(target_arch = "wasm32"))] // wasm32: tests/wasm.rs
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)] // test code

mod common;

use burrow_decode::InflateBackend;
use common::*;

#[test]
fn byte_by_byte() {
    let data = sample(4000, 21);
    for (encoding, encode) in encoders() {
        let body = encode(&data);
        let splits: Vec<usize> = (1..body.len()).collect();
        for &backend in InflateBackend::ALL {
            let out = decode_split(encoding, &body, &splits, None, backend).unwrap();
            assert!(out == data, "{encoding} {}", backend.name());
        }
    }
    let splits: Vec<usize> = (1..ZSTD_FIXTURE.len()).collect();
    let out = decode_split("zstd", ZSTD_FIXTURE, &splits, None, InflateBackend::DEFAULT).unwrap();
    assert!(out == zstd_fixture_text());
}

#[test]
fn every_two_way_split() {
    let data = sample(1500, 22);
    let mut bodies: Vec<(&str, Vec<u8>)> = encoders()
        .into_iter()
        .map(|(encoding, encode)| (encoding, encode(&data)))
        .collect();
    bodies.push(("gzip, br", brotli(&gzip(&data))));
    bodies.push(("zstd, deflate", zlib(&zstd(&data))));
    for (encoding, body) in &bodies {
        for &backend in InflateBackend::ALL {
            for split in 0..=body.len() {
                let out = decode_split(encoding, body, &[split], None, backend).unwrap();
                assert!(
                    out == data,
                    "{encoding} split at {split} {}",
                    backend.name()
                );
            }
        }
    }
}

#[test]
fn random_splits_of_large_bodies() {
    let data = sample(600_000, 23);
    let mut bodies: Vec<(&str, Vec<u8>)> = encoders()
        .into_iter()
        .map(|(encoding, encode)| (encoding, encode(&data)))
        .collect();
    bodies.push(("gzip, br", brotli(&gzip(&data))));
    for (encoding, body) in &bodies {
        for seed in 1..=6u64 {
            let mut rng = Rng(seed * 0x9E37_79B9);
            let mut splits = Vec::new();
            let mut at = 0;
            loop {
                // Mostly small pieces, sometimes large: both sides of every internal buffer.
                at += if rng.below(4) == 0 {
                    rng.below(200_000)
                } else {
                    rng.below(300)
                } + 1;
                if at >= body.len() {
                    break;
                }
                splits.push(at);
            }
            for &backend in InflateBackend::ALL {
                let out = decode_split(encoding, body, &splits, None, backend).unwrap();
                assert!(out == data, "{encoding} seed {seed} {}", backend.name());
            }
        }
    }
}
