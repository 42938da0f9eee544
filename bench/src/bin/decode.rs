//! Native content-decoding benchmark: MB/s of decoded output per coding and DEFLATE backend,
//! through burrow-decode's public API, fed in 16 KiB pieces (one TLS record each).
//!
//! Run: `cargo run --release -p burrow-bench --bin decode` (add `-- --quick` for a fast pass).
//! The wasm32 counterpart is crates/decode/tests/wasm_bench.rs.

use std::io::Write;
use std::time::Duration;

use burrow_bench::{corpus, measure};
use burrow_decode::{Coding, Decoder, InflateBackend};

const PIECE: usize = 16 * 1024;

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    e.write_all(data).expect("gzip");
    e.finish().expect("gzip")
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
    e.write_all(data).expect("zlib");
    e.finish().expect("zlib")
}

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        // Quality 5, 4 MiB window: a typical on-the-fly CDN setting.
        let mut w = brotli::CompressorWriter::new(&mut out, 64 * 1024, 5, 22);
        w.write_all(data).expect("brotli");
    }
    out
}

fn zstd(data: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}

fn decode(coding: Coding, backend: InflateBackend, body: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut decoder = Decoder::with_backend(&[coding], None, backend);
    for piece in body.chunks(PIECE) {
        decoder.decode(piece, out).expect("decode");
    }
    decoder.finish(out).expect("finish");
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (round, rounds) = if quick {
        (Duration::from_millis(100), 3)
    } else {
        (Duration::from_millis(400), 7)
    };
    let data = corpus::json_like_text(4 * 1024 * 1024);
    let bodies = [
        (Coding::Gzip, gzip(&data)),
        (Coding::Deflate, zlib(&data)),
        (Coding::Br, brotli(&data)),
        (Coding::Zstd, zstd(&data)),
    ];
    println!("decoding {} bytes of JSON-like text, fed in {PIECE}-byte pieces; MB/s of decoded output (thread CPU time)", data.len());
    let mut out = Vec::with_capacity(data.len());
    for (coding, body) in &bodies {
        let backends: &[InflateBackend] = match coding {
            Coding::Gzip | Coding::Deflate => InflateBackend::ALL,
            _ => &[InflateBackend::DEFAULT],
        };
        for &backend in backends {
            decode(*coding, backend, body, &mut out);
            assert!(out == data, "{} round trip", coding.name());
            let m = measure(round, rounds, || decode(*coding, backend, body, &mut out));
            let mb_s = data.len() as f64 / m.per_op.as_secs_f64() / 1e6;
            let wall = data.len() as f64 / m.wall_per_op.as_secs_f64() / 1e6;
            let label = match coding {
                Coding::Gzip | Coding::Deflate => format!("{} ({})", coding.name(), backend.name()),
                _ => coding.name().to_string(),
            };
            println!(
                "{label:<24} {mb_s:>8.0} MB/s   ratio {:>5.2}x   (wall {wall:.0} MB/s)",
                data.len() as f64 / body.len() as f64
            );
        }
    }
}
