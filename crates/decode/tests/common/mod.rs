//! Shared test helpers: encoders for every coding, sample data, a seeded PRNG.
#![allow(dead_code, unreachable_pub)]

use std::io::Write;

use burrow_decode::{Coding, Decoder, Error, InflateBackend};

/// Deterministic xorshift64*, so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Mixed text and noise, so every coding has both matches and literals to decode.
pub fn sample(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        if rng.below(3) == 0 {
            for _ in 0..rng.below(200) {
                out.push(rng.next() as u8);
            }
        } else {
            let line = format!(
                "GET /item/{} HTTP/1.1 burrow says hello {}\n",
                rng.below(50),
                rng.below(7)
            );
            out.extend_from_slice(line.as_bytes());
        }
    }
    out.truncate(len);
    out
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub fn raw_deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(data).unwrap();
    }
    out
}

pub fn zstd(data: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}

/// The text the fixtures in tests/fixtures/*.zst were made from (with the zstd CLI 1.5.4:
/// `zstd -19 --check` → text.zst, `zstd -1 --no-check` → text-nocheck.zst).
pub fn zstd_fixture_text() -> Vec<u8> {
    (0..3000u32)
        .map(|i| {
            format!(
                "line {}: burrow zstd fixture, made with the zstd command-line tool\n",
                i * i % 977
            )
        })
        .collect::<String>()
        .into_bytes()
}

pub const ZSTD_FIXTURE: &[u8] = include_bytes!("../fixtures/text.zst");
pub const ZSTD_FIXTURE_NOCHECK: &[u8] = include_bytes!("../fixtures/text-nocheck.zst");

pub type Encode = fn(&[u8]) -> Vec<u8>;

/// Every single coding with an encoder: (Content-Encoding value, encode).
pub fn encoders() -> Vec<(&'static str, Encode)> {
    vec![
        ("gzip", gzip as Encode),
        ("deflate", zlib),
        ("deflate", raw_deflate),
        ("br", brotli),
        ("zstd", zstd),
    ]
}

/// Decodes `body` split at `splits` (ascending offsets) with one decoder, then finishes.
pub fn decode_split(
    encoding: &str,
    body: &[u8],
    splits: &[usize],
    cap: Option<u64>,
    backend: InflateBackend,
) -> Result<Vec<u8>, Error> {
    let codings = Coding::parse_list(encoding)?;
    let mut decoder = Decoder::with_backend(&codings, cap, backend);
    let mut out = Vec::new();
    let mut start = 0;
    for &end in splits.iter().chain(std::iter::once(&body.len())) {
        decoder.decode(&body[start..end], &mut out)?;
        start = end;
    }
    decoder.finish(&mut out)?;
    assert_eq!(decoder.decoded_len(), out.len() as u64);
    Ok(out)
}

pub fn decode_all(encoding: &str, body: &[u8], cap: Option<u64>) -> Result<Vec<u8>, Error> {
    decode_split(encoding, body, &[], cap, InflateBackend::DEFAULT)
}
