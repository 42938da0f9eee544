//! wasm32 (Node, via wasm-bindgen-test-runner): every coding decodes with every backend, bombs
//! stop at the cap, and the content-decoding throughput measurement that bench/README.md quotes.
//!
//! Run: `cargo test -p burrow-decode --features miniz --target wasm32-unknown-unknown --release --test wasm -- --nocapture`
//! (the native tests are the other files in this directory; they are not built for wasm32).
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss
)] // test code

mod common;

use burrow_decode::{Coding, Decoder, Error, InflateBackend};
use common::*;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn every_coding_decodes_with_every_backend() {
    let data = sample(200_000, 7);
    for (encoding, encode) in encoders() {
        let body = encode(&data);
        for &backend in InflateBackend::ALL {
            let splits: Vec<usize> = (1..body.len()).step_by(997).collect();
            let out = decode_split(encoding, &body, &splits, Some(1 << 20), backend).unwrap();
            assert!(out == data, "{encoding} {}", backend.name());
        }
    }
    assert_eq!(
        decode_all("zstd", ZSTD_FIXTURE, None).unwrap(),
        zstd_fixture_text()
    );
    assert_eq!(
        decode_all("gzip, br", &brotli(&gzip(&data)), None).unwrap(),
        data
    );
}

#[wasm_bindgen_test]
fn a_bomb_stops_at_the_cap() {
    // 1 GiB of zeros as 128 KiB zstd RLE blocks, 4 bytes each.
    let mut body = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3];
    let header = (128 * 1024u32) << 3 | 1 << 1;
    for _ in 0..8192 {
        body.extend_from_slice(&[header as u8, (header >> 8) as u8, (header >> 16) as u8, 0]);
    }
    let mut decoder = Decoder::new(&[Coding::Zstd], Some(1 << 20));
    let mut out = Vec::new();
    assert_eq!(
        decoder.decode(&body, &mut out),
        Err(Error::TooLarge { limit: 1 << 20 })
    );
    assert_eq!(out.len(), 1 << 20);
}

/// Throughput of decoded output per coding and backend (wall time from `Date.now()`, so the
/// figure includes whatever else the machine runs). Prints; asserts only correctness.
#[wasm_bindgen_test]
fn decode_throughput() {
    let data = burrow_testkit::corpus::json_like_text(4 * 1024 * 1024);
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    std::io::Write::write_all(&mut e, &data).unwrap();
    let gz = e.finish().unwrap();
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
    std::io::Write::write_all(&mut e, &data).unwrap();
    let zl = e.finish().unwrap();
    let br = brotli(&data);
    let zs =
        ruzstd::encoding::compress_to_vec(&data[..], ruzstd::encoding::CompressionLevel::Fastest);
    let cases = [
        (Coding::Gzip, gz),
        (Coding::Deflate, zl),
        (Coding::Br, br),
        (Coding::Zstd, zs),
    ];
    let mut out = Vec::with_capacity(data.len());
    for (coding, body) in &cases {
        let backends: &[InflateBackend] = match coding {
            Coding::Gzip | Coding::Deflate => InflateBackend::ALL,
            _ => &[InflateBackend::DEFAULT],
        };
        for &backend in backends {
            let run = |out: &mut Vec<u8>| {
                out.clear();
                let mut decoder = Decoder::with_backend(&[*coding], None, backend);
                for piece in body.chunks(16 * 1024) {
                    decoder.decode(piece, out).unwrap();
                }
                decoder.finish(out).unwrap();
            };
            run(&mut out); // warm-up
            assert!(out == data);
            let mut rates = Vec::new();
            for _ in 0..7 {
                let start = js_sys::Date::now();
                let mut rounds = 0u32;
                while rounds < 2 || js_sys::Date::now() - start < 300.0 {
                    run(&mut out);
                    rounds += 1;
                }
                let seconds = (js_sys::Date::now() - start) / 1e3;
                rates.push(f64::from(rounds) * data.len() as f64 / seconds / 1e6);
            }
            rates.sort_by(f64::total_cmp);
            let label = match coding {
                Coding::Gzip | Coding::Deflate => format!("{} ({})", coding.name(), backend.name()),
                _ => coding.name().to_string(),
            };
            console_log!(
                "wasm32 decode {label:<24} {:>6.0} MB/s (median of 7; min {:.0}, max {:.0})",
                rates[3],
                rates[0],
                rates[6]
            );
        }
    }
}
