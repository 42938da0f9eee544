//! The fuzz entry points (`burrow_h2::fuzz`) run here on random and vector-derived inputs, so
//! their round-trip assertions (debug builds) are exercised by `cargo test` too.
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

use common::Rng;

#[test]
fn connection_entry_point_on_random_and_scripted_input() {
    let mut rng = Rng(2024);
    for _ in 0..3000 {
        let n = rng.below(300);
        let data: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        burrow_h2::fuzz::connection(&data);
    }
    // Well-formed frames with random mutations.
    let mut s = common::Script::new();
    s.headers(1, &[(":status", "200"), ("content-length", "3")], false)
        .data(1, b"abc", true);
    s.headers_split(3, &[(":status", "204"), ("x", "y")], true, 3)
        .ping([1; 8])
        .window_update(0, 5);
    let base = s.take();
    for _ in 0..3000 {
        let mut m = base.clone();
        for _ in 0..rng.below(4) {
            let i = rng.below(m.len());
            m[i] = rng.next() as u8;
        }
        burrow_h2::fuzz::connection(&m);
    }
}

#[test]
fn hpack_entry_point_round_trips_story_blocks() {
    let Some(root) = burrow_testkit::vectors::dir("hpack stories (fuzz bridge)") else {
        return;
    };
    let mut blocks = 0;
    for enc in ["nghttp2", "haskell-http2-linear", "go-hpack"] {
        for entry in std::fs::read_dir(root.join("hpack").join(enc)).unwrap() {
            let path = entry.unwrap().path();
            let json: serde_json::Value =
                serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            let mut input = Vec::new();
            for case in json["cases"].as_array().unwrap() {
                let wire = burrow_testkit::hex::decode(case["wire"].as_str().unwrap());
                input.extend_from_slice(&(wire.len() as u16).to_be_bytes());
                input.extend_from_slice(&wire);
                blocks += 1;
            }
            burrow_h2::fuzz::hpack_decoder(&input);
        }
    }
    assert!(blocks > 3000, "{blocks}");
    let mut rng = Rng(77);
    for _ in 0..5000 {
        let n = rng.below(200);
        let data: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        burrow_h2::fuzz::hpack_decoder(&data);
    }
}
