//! Truncation, corruption and trailing data, for every coding: typed errors, never panics.
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

use burrow_decode::{Coding, Decoder, Error, InflateBackend};
use common::*;

fn is_corrupt(result: &Result<Vec<u8>, Error>, coding: &str) -> bool {
    matches!(result, Err(Error::Corrupt { coding: c, .. }) if *c == coding)
}

#[test]
fn every_strict_prefix_is_truncated() {
    let data = sample(3000, 31);
    let mut bodies: Vec<(&str, &str, Vec<u8>)> = encoders()
        .into_iter()
        .map(|(encoding, encode)| (encoding, encoding, encode(&data)))
        .collect();
    bodies.push(("zstd", "zstd", ZSTD_FIXTURE.to_vec()));
    bodies.push(("gzip, br", "br", brotli(&gzip(&data))));
    for (encoding, coding, body) in &bodies {
        for &backend in InflateBackend::ALL {
            for len in 1..body.len() {
                let result = decode_split(encoding, &body[..len], &[], None, backend);
                let ok = match result {
                    Err(Error::Truncated { coding: c }) => c == *coding,
                    _ => false,
                };
                assert!(ok, "{encoding} prefix {len}/{}: {result:?}", body.len());
            }
        }
    }
}

#[test]
fn error_codes_and_messages() {
    let truncated = Error::Truncated { coding: "gzip" };
    assert_eq!(truncated.code(), "DECODE_FAILED");
    assert!(truncated.to_string().contains("truncated"));
    let corrupt = Error::Corrupt {
        coding: "br",
        what: "x".into(),
    };
    assert_eq!(corrupt.code(), "DECODE_FAILED");
    let large = Error::TooLarge { limit: 5 };
    assert_eq!(large.code(), "BODY_TOO_LARGE");
    assert!(large.to_string().contains("max_body_bytes"));
    let unsupported = Error::UnsupportedCoding("lzma".into());
    assert!(unsupported.to_string().contains("lzma"));
    let _: &dyn std::error::Error = &unsupported;
}

#[test]
fn gzip_checks_crc_isize_and_header() {
    let data = sample(20_000, 32);
    let body = gzip(&data);
    let n = body.len();
    let mut crc = body.clone();
    crc[n - 8] ^= 1;
    assert!(is_corrupt(&decode_all("gzip", &crc, None), "gzip"));
    let mut isize = body.clone();
    isize[n - 1] ^= 1;
    assert!(is_corrupt(&decode_all("gzip", &isize, None), "gzip"));
    let mut magic = body.clone();
    magic[1] = 0x8c;
    assert!(is_corrupt(&decode_all("gzip", &magic, None), "gzip"));
    let mut method = body.clone();
    method[2] = 7;
    assert!(is_corrupt(&decode_all("gzip", &method, None), "gzip"));
    let mut reserved = body.clone();
    reserved[3] |= 0x80;
    assert!(is_corrupt(&decode_all("gzip", &reserved, None), "gzip"));
    let mut deflate = body.clone();
    deflate[10] = 0xff; // block type 3 is reserved
    assert!(is_corrupt(&decode_all("gzip", &deflate, None), "gzip"));
}

#[test]
fn deflate_checks_adler32() {
    let data = sample(20_000, 33);
    let mut body = zlib(&data);
    let n = body.len();
    body[n - 1] ^= 1;
    for &backend in InflateBackend::ALL {
        assert!(
            is_corrupt(
                &decode_split("deflate", &body, &[], None, backend),
                "deflate"
            ),
            "{}",
            backend.name()
        );
    }
    // zlib with a preset dictionary (FDICT) cannot be decoded.
    let fdict = [0x78, 0xbb, 0, 0, 0, 1, 3, 0];
    for &backend in InflateBackend::ALL {
        assert!(
            is_corrupt(
                &decode_split("deflate", &fdict, &[], None, backend),
                "deflate"
            ),
            "{}",
            backend.name()
        );
    }
}

#[test]
fn zstd_checks_checksum_and_frame_header() {
    let text = zstd_fixture_text();
    let n = ZSTD_FIXTURE.len();
    let mut checksum = ZSTD_FIXTURE.to_vec();
    checksum[n - 1] ^= 1;
    assert!(is_corrupt(&decode_all("zstd", &checksum, None), "zstd"));
    assert_eq!(decode_all("zstd", ZSTD_FIXTURE, None).unwrap(), text);
    let mut magic = ZSTD_FIXTURE.to_vec();
    magic[0] ^= 1;
    assert!(is_corrupt(&decode_all("zstd", &magic, None), "zstd"));
    let mut reserved = ZSTD_FIXTURE.to_vec();
    reserved[4] |= 0x08;
    assert!(is_corrupt(&decode_all("zstd", &reserved, None), "zstd"));
    // Reserved block type 3, as the only block of a frame.
    let bad_block = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0b111, 0, 0];
    assert!(is_corrupt(&decode_all("zstd", &bad_block, None), "zstd"));
    // A dictionary ID.
    let dict = [0x28, 0xb5, 0x2f, 0xfd, 0x01, 0x00, 7, 1, 0, 0];
    assert!(is_corrupt(&decode_all("zstd", &dict, None), "zstd"));
}

/// A zstd frame: no checksum, window descriptor `window`, one last RLE block of `len` bytes.
fn zstd_rle_frame(window_descriptor: u8, len: u32, byte: u8) -> Vec<u8> {
    let header = (len << 3) | (1 << 1) | 1;
    vec![
        0x28,
        0xb5,
        0x2f,
        0xfd,
        0x00,
        window_descriptor,
        header as u8,
        (header >> 8) as u8,
        (header >> 16) as u8,
        byte,
    ]
}

#[test]
fn zstd_checks_the_frame_content_size() {
    // Single segment, 1-byte Frame_Content_Size, one last RLE block of 5 bytes.
    let frame = |fcs: u8| {
        let header = (5u32 << 3) | (1 << 1) | 1;
        vec![
            0x28,
            0xb5,
            0x2f,
            0xfd,
            0x20,
            fcs,
            header as u8,
            (header >> 8) as u8,
            (header >> 16) as u8,
            b'q',
        ]
    };
    assert_eq!(decode_all("zstd", &frame(5), None).unwrap(), b"qqqqq");
    assert!(is_corrupt(&decode_all("zstd", &frame(4), None), "zstd"));
    assert!(is_corrupt(&decode_all("zstd", &frame(6), None), "zstd"));
}

#[test]
fn zstd_window_is_limited_to_8_mib() {
    // Window_Log 23 (8 MiB) is accepted; 23 with a mantissa, and 24, are not.
    assert_eq!(
        decode_all("zstd", &zstd_rle_frame(13 << 3, 5, b'z'), None).unwrap(),
        b"zzzzz"
    );
    for descriptor in [(13 << 3) | 1, 14 << 3, 31 << 3] {
        let result = decode_all("zstd", &zstd_rle_frame(descriptor, 5, b'z'), None);
        let Err(Error::Corrupt {
            coding: "zstd",
            what,
        }) = &result
        else {
            panic!("{result:?}")
        };
        assert!(what.contains("window"), "{what}");
    }
    // Single segment: the window is the content size; 8 MiB + 1 is refused.
    let mut big = vec![0x28, 0xb5, 0x2f, 0xfd, 0b1010_0000];
    big.extend_from_slice(&(8u32 * 1024 * 1024 + 1).to_le_bytes());
    big.extend_from_slice(&[1, 0, 0]);
    assert!(is_corrupt(&decode_all("zstd", &big, None), "zstd"));
}

#[test]
fn brotli_rejects_garbage_and_large_window() {
    assert!(is_corrupt(
        &decode_all("br", b"this is not brotli at all, just some text", None),
        "br"
    ));
    // The large-window signature (first 7 bits 0010001).
    assert!(is_corrupt(
        &decode_all("br", &[0x11, 0x00, 0x00, 0x00], None),
        "br"
    ));
}

#[test]
fn trailing_data_after_the_stream_is_refused() {
    let data = sample(2000, 34);
    for (encoding, encode) in encoders() {
        let mut body = encode(&data);
        body.extend_from_slice(b"garbage after the end!");
        let result = decode_all(encoding, &body, None);
        assert!(is_corrupt(&result, encoding), "{encoding}: {result:?}");
        // One stray byte is refused too (as corrupt or as a truncated next member).
        let mut body = encode(&data);
        body.push(0);
        let result = decode_all(encoding, &body, None);
        assert!(
            matches!(result, Err(Error::Corrupt { .. } | Error::Truncated { .. })),
            "{encoding}: {result:?}"
        );
    }
}

#[test]
fn a_failed_decoder_keeps_failing() {
    let mut decoder = Decoder::new(&[Coding::Gzip], None);
    let mut out = Vec::new();
    let first = decoder.decode(b"not gzip at all", &mut out).unwrap_err();
    assert_eq!(decoder.decode(&gzip(b"ok"), &mut out), Err(first.clone()));
    assert_eq!(decoder.finish(&mut out), Err(first));
    assert!(out.is_empty());
}

#[test]
fn random_corruption_never_panics_and_never_exceeds_the_cap() {
    let data = sample(5000, 35);
    let mut rng = Rng(99);
    for (encoding, encode) in encoders() {
        let body = encode(&data);
        for _ in 0..300 {
            let mut bad = body.clone();
            for _ in 0..=rng.below(3) {
                let at = rng.below(bad.len());
                bad[at] ^= 1 << rng.below(8);
            }
            let codings = Coding::parse_list(encoding).unwrap();
            let mut decoder = Decoder::new(&codings, Some(6000));
            let mut out = Vec::new();
            let result = decoder
                .decode(&bad, &mut out)
                .and_then(|()| decoder.finish(&mut out));
            assert!(out.len() <= 6000);
            if result.is_ok() && out != data {
                // br and raw DEFLATE have no checksum (and a flipped zlib header bit can make
                // a body raw DEFLATE): a flipped bit may decode to other bytes.
                assert!(
                    encoding == "br" || encoding == "deflate",
                    "{encoding} decoded corrupt data without an error"
                );
            }
        }
    }
}

/// A peer can stack codings in Content-Encoding; each stage costs buffers and a level of
/// recursion, so more than MAX_CODINGS is refused before anything is allocated.
#[test]
fn too_many_stacked_codings_are_refused() {
    let ok = ["gzip"; burrow_decode::MAX_CODINGS].join(", ");
    assert_eq!(
        Coding::parse_list(&ok).unwrap().len(),
        burrow_decode::MAX_CODINGS
    );
    let over = vec!["br"; 20_000].join(",");
    let e = Coding::parse_list(&over).unwrap_err();
    assert_eq!(e.code(), "UNSUPPORTED_CONTENT_ENCODING", "{e}");
    assert!(e.to_string().contains("MAX_CODINGS"), "{e}");
    // The public constructor refuses it too: the first call fails, and keeps failing.
    let many = vec![Coding::Gzip; burrow_decode::MAX_CODINGS + 1];
    let mut d = Decoder::new(&many, None);
    let mut out = Vec::new();
    let first = d.decode(b"x", &mut out).unwrap_err();
    assert_eq!(first.code(), "UNSUPPORTED_CONTENT_ENCODING");
    assert_eq!(d.finish(&mut out).unwrap_err(), first);
    assert!(out.is_empty());
}
