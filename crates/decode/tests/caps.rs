//! The output cap: decompression bombs (10 GiB of zeros, built lazily while decoding) are
//! stopped at a 1 MiB cap after bounded input, `out` never exceeds the cap, a cap equal to the
//! size passes, and no cap decodes a 64 MiB body.
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

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use burrow_decode::{Coding, Decoder, Error, InflateBackend};
use common::*;

const MIB: usize = 1024 * 1024;
const CAP: u64 = MIB as u64;
/// The bombs claim 10 GiB of zeros.
const BOMB_MIBS: usize = 10 * 1024;

/// What happened when a lazily generated body was fed to a decoder chunk by chunk.
struct Outcome {
    result: Result<(), Error>,
    out: Vec<u8>,
    /// Coded bytes handed to the decoder before it stopped (or in all).
    fed: usize,
    max_out_seen: usize,
}

fn feed(
    codings: &[Coding],
    cap: Option<u64>,
    backend: InflateBackend,
    chunks: impl Iterator<Item = Vec<u8>>,
) -> Outcome {
    let mut decoder = Decoder::with_backend(codings, cap, backend);
    let mut out = Vec::new();
    let mut fed = 0;
    let mut max_out_seen = 0;
    for chunk in chunks {
        fed += chunk.len();
        let result = decoder.decode(&chunk, &mut out);
        max_out_seen = max_out_seen.max(out.len());
        if let Err(error) = result {
            return Outcome {
                result: Err(error),
                out,
                fed,
                max_out_seen,
            };
        }
    }
    let result = decoder.finish(&mut out);
    assert_eq!(decoder.decoded_len(), out.len() as u64);
    let max_out_seen = max_out_seen.max(out.len());
    Outcome {
        result,
        out,
        fed,
        max_out_seen,
    }
}

fn assert_stopped_at_cap(outcome: &Outcome, what: &str, max_fed: usize) {
    assert_eq!(
        outcome.result,
        Err(Error::TooLarge { limit: CAP }),
        "{what}"
    );
    assert_eq!(outcome.out.len(), MIB, "{what}: out holds exactly the cap");
    assert!(outcome.max_out_seen <= MIB, "{what}");
    assert!(outcome.out.iter().all(|&b| b == 0), "{what}");
    assert!(
        outcome.fed <= max_fed,
        "{what}: {} coded bytes fed before the stop",
        outcome.fed
    );
}

/// Raw DEFLATE of 1 MiB of zeros ending in a full flush: self-contained and byte-aligned, so
/// it can be repeated to make a stream of any length.
fn deflate_zeros_segment() -> Vec<u8> {
    let mut compress = flate2::Compress::new(flate2::Compression::best(), false);
    let mut out = Vec::with_capacity(64 * 1024);
    let status = compress
        .compress_vec(&vec![0; MIB], &mut out, flate2::FlushCompress::Full)
        .unwrap();
    assert_eq!(status, flate2::Status::Ok);
    assert_eq!(compress.total_in(), MIB as u64);
    out
}

/// A gzip stream of `mibs` MiB of zeros, generated as it is consumed.
fn gzip_zeros(mibs: usize) -> impl Iterator<Item = Vec<u8>> {
    let segment = deflate_zeros_segment();
    let mut one_mib = crc32fast::Hasher::new();
    one_mib.update(&vec![0; MIB]);
    let mut crc = crc32fast::Hasher::new();
    for _ in 0..mibs {
        crc.combine(&one_mib);
    }
    let mut tail = vec![0x03, 0x00]; // final empty fixed-Huffman block
    tail.extend_from_slice(&crc.finalize().to_le_bytes());
    tail.extend_from_slice(&((mibs as u64 * MIB as u64) as u32).to_le_bytes());
    std::iter::once(vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255])
        .chain(std::iter::repeat_n(segment, mibs))
        .chain(std::iter::once(tail))
}

/// A zlib stream of `mibs` MiB of zeros (the Adler-32 is only reached if the cap fails).
fn zlib_zeros(mibs: usize) -> impl Iterator<Item = Vec<u8>> {
    let segment = deflate_zeros_segment();
    std::iter::once(vec![0x78, 0xda])
        .chain(std::iter::repeat_n(segment, mibs))
        .chain(std::iter::once(vec![0x03, 0x00, 0, 0, 0, 0]))
}

/// A zstd frame of `mibs` MiB of zeros as 128 KiB RLE blocks, with the given window log.
fn zstd_zeros(mibs: usize, window_log: u8) -> impl Iterator<Item = Vec<u8>> {
    let blocks = mibs * 8;
    let header = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, (window_log - 10) << 3];
    let block = |last: bool| {
        let h = (128 * 1024u32) << 3 | 1 << 1 | u32::from(last);
        [h as u8, (h >> 8) as u8, (h >> 16) as u8, 0]
    };
    std::iter::once(header).chain((0..blocks).step_by(1024).map(move |first| {
        (first..(first + 1024).min(blocks))
            .flat_map(|i| block(i + 1 == blocks))
            .collect()
    }))
}

/// A brotli stream of `mibs` MiB of zeros, compressed as it is consumed.
fn brotli_zeros(mibs: usize) -> impl Iterator<Item = Vec<u8>> {
    #[derive(Clone)]
    struct Shared(Rc<RefCell<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let sink = Shared(Rc::new(RefCell::new(Vec::new())));
    let mut writer = Some(brotli::CompressorWriter::new(
        sink.clone(),
        64 * 1024,
        1,
        22,
    ));
    let zeros = vec![0; MIB];
    let mut written = 0;
    std::iter::from_fn(move || {
        if written < mibs {
            writer.as_mut()?.write_all(&zeros).unwrap();
            written += 1;
        } else {
            drop(writer.take()?); // finishes the stream
        }
        Some(std::mem::take(&mut *sink.0.borrow_mut()))
    })
}

#[test]
fn gzip_and_deflate_bombs_stop_at_the_cap() {
    let segment = deflate_zeros_segment().len();
    for &backend in InflateBackend::ALL {
        let outcome = feed(&[Coding::Gzip], Some(CAP), backend, gzip_zeros(BOMB_MIBS));
        assert_stopped_at_cap(
            &outcome,
            &format!("gzip {}", backend.name()),
            10 + 2 * segment,
        );
        let outcome = feed(
            &[Coding::Deflate],
            Some(CAP),
            backend,
            zlib_zeros(BOMB_MIBS),
        );
        assert_stopped_at_cap(
            &outcome,
            &format!("deflate {}", backend.name()),
            2 + 2 * segment,
        );
    }
}

#[test]
fn zstd_bomb_stops_at_the_cap() {
    let outcome = feed(
        &[Coding::Zstd],
        Some(CAP),
        InflateBackend::DEFAULT,
        zstd_zeros(BOMB_MIBS, 17),
    );
    assert_stopped_at_cap(&outcome, "zstd 128 KiB window", 6 + 2 * 4096);
    // With the largest window ruzstd holds back up to 8 MiB before handing it out: the work is
    // still bounded by the window.
    let outcome = feed(
        &[Coding::Zstd],
        Some(CAP),
        InflateBackend::DEFAULT,
        zstd_zeros(BOMB_MIBS, 23),
    );
    assert_stopped_at_cap(&outcome, "zstd 8 MiB window", 6 + 4 * 4096);
}

#[test]
fn brotli_bomb_stops_at_the_cap() {
    let outcome = feed(
        &[Coding::Br],
        Some(CAP),
        InflateBackend::DEFAULT,
        brotli_zeros(BOMB_MIBS),
    );
    // The encoder emits its first output after several MiB of input; what matters is that the
    // decoder stops within the first few KiB of coded data.
    assert_stopped_at_cap(&outcome, "br", 64 * 1024);
}

#[test]
fn bomb_inside_another_coding_is_bounded_too() {
    // br around a gzip member that is only empty stored blocks: the final output never grows,
    // so only the cap on the intermediate stage stops the work.
    let mut inner = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    for _ in 0..2_000_000 {
        inner.extend_from_slice(&[0x00, 0x00, 0x00, 0xff, 0xff]);
    }
    let body = brotli(&inner);
    let outcome = feed(
        &[Coding::Gzip, Coding::Br],
        Some(CAP),
        InflateBackend::DEFAULT,
        std::iter::once(body),
    );
    assert_eq!(outcome.result, Err(Error::TooLarge { limit: CAP }));
    assert!(outcome.out.is_empty());
    // Without a cap it is just a truncated gzip member.
    let outcome = feed(
        &[Coding::Gzip, Coding::Br],
        None,
        InflateBackend::DEFAULT,
        std::iter::once(brotli(&inner)),
    );
    assert_eq!(outcome.result, Err(Error::Truncated { coding: "gzip" }));
}

#[test]
fn cap_equal_to_the_size_passes_and_one_less_fails() {
    let data = sample(200_000, 41);
    let size = data.len() as u64;
    let mut bodies: Vec<(&str, Vec<u8>)> = encoders()
        .into_iter()
        .map(|(e, encode)| (e, encode(&data)))
        .collect();
    bodies.push(("gzip, br", brotli(&gzip(&data))));
    for (encoding, body) in &bodies {
        for &backend in InflateBackend::ALL {
            let exact =
                decode_split(encoding, body, &[body.len() / 2], Some(size), backend).unwrap();
            assert!(exact == data, "{encoding}");
            let mut decoder = Decoder::with_backend(
                &Coding::parse_list(encoding).unwrap(),
                Some(size - 1),
                backend,
            );
            let mut out = Vec::new();
            let result = decoder
                .decode(body, &mut out)
                .and_then(|()| decoder.finish(&mut out));
            assert_eq!(
                result,
                Err(Error::TooLarge { limit: size - 1 }),
                "{encoding}"
            );
            assert_eq!(
                out,
                data[..data.len() - 1],
                "{encoding}: out holds exactly the cap"
            );
            assert_eq!(decoder.decoded_len(), size - 1);
        }
    }
    // The same at a MiB boundary, for the lazily built streams.
    let outcome = feed(
        &[Coding::Gzip],
        Some(2 * CAP),
        InflateBackend::DEFAULT,
        gzip_zeros(2),
    );
    assert_eq!(outcome.result, Ok(()));
    assert_eq!(outcome.out.len(), 2 * MIB);
    let outcome = feed(
        &[Coding::Zstd],
        Some(2 * CAP),
        InflateBackend::DEFAULT,
        zstd_zeros(2, 17),
    );
    assert_eq!(outcome.result, Ok(()));
    assert_eq!(outcome.out.len(), 2 * MIB);
}

#[test]
fn no_cap_decodes_64_mib() {
    for &backend in InflateBackend::ALL {
        let outcome = feed(&[Coding::Gzip], None, backend, gzip_zeros(64));
        assert_eq!(outcome.result, Ok(()), "{}", backend.name());
        assert_eq!(outcome.out.len(), 64 * MIB);
        assert!(outcome.out.iter().all(|&b| b == 0));
    }
    let outcome = feed(
        &[Coding::Zstd],
        None,
        InflateBackend::DEFAULT,
        zstd_zeros(64, 20),
    );
    assert_eq!(outcome.result, Ok(()));
    assert_eq!(outcome.out.len(), 64 * MIB);
    let outcome = feed(
        &[Coding::Br],
        None,
        InflateBackend::DEFAULT,
        brotli_zeros(64),
    );
    assert_eq!(outcome.result, Ok(()));
    assert_eq!(outcome.out.len(), 64 * MIB);
}
