//! Known answers for every coding and combinations of them, with every DEFLATE backend built in.
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

use burrow_decode::{Coding, Decoder, Error, InflateBackend, ACCEPT_ENCODING, DEFAULT_MAX_DECODED};
use common::*;

#[test]
fn parse_list_accepts_known_codings_in_order() {
    assert_eq!(Coding::parse_list("gzip").unwrap(), vec![Coding::Gzip]);
    assert_eq!(
        Coding::parse_list(" GZip ,\tbr,, identity , zstd,Deflate, x-gzip,").unwrap(),
        vec![
            Coding::Gzip,
            Coding::Br,
            Coding::Zstd,
            Coding::Deflate,
            Coding::Gzip
        ]
    );
    assert_eq!(Coding::parse_list("").unwrap(), vec![]);
    assert_eq!(Coding::parse_list("identity").unwrap(), vec![]);
    assert_eq!(Coding::parse_list(ACCEPT_ENCODING).unwrap().len(), 4);
}

#[test]
fn parse_list_fails_closed_on_unknown_codings() {
    for value in [
        "compress",
        "gzip, x-compress",
        "gzip;q=1",
        "exi",
        "br zstd",
        "gzip\u{0}",
    ] {
        let err = Coding::parse_list(value).unwrap_err();
        assert!(
            matches!(err, Error::UnsupportedCoding(_)),
            "{value:?}: {err:?}"
        );
        assert_eq!(err.code(), "UNSUPPORTED_CONTENT_ENCODING");
    }
    assert_eq!(
        Coding::parse_list("gzip, snappy").unwrap_err(),
        Error::UnsupportedCoding("snappy".into())
    );
}

#[test]
fn names_and_constants() {
    let names: Vec<_> = [Coding::Gzip, Coding::Deflate, Coding::Br, Coding::Zstd]
        .iter()
        .map(|c| c.name())
        .collect();
    assert_eq!(names.join(", "), ACCEPT_ENCODING);
    assert_eq!(DEFAULT_MAX_DECODED, 32 << 20);
}

#[test]
fn every_coding_decodes_with_every_backend() {
    let data = sample(300_000, 7);
    for (encoding, encode) in encoders() {
        let body = encode(&data);
        for &backend in InflateBackend::ALL {
            let out =
                decode_split(encoding, &body, &[], Some(DEFAULT_MAX_DECODED), backend).unwrap();
            assert!(out == data, "{encoding} with {}", backend.name());
        }
    }
}

#[test]
fn empty_data_decodes_for_every_coding() {
    for (encoding, encode) in encoders() {
        assert_eq!(
            decode_all(encoding, &encode(b""), Some(0)).unwrap(),
            b"",
            "{encoding}"
        );
    }
}

#[test]
fn empty_body_is_empty_for_every_coding() {
    for encoding in ["gzip", "deflate", "br", "zstd", "gzip, br"] {
        assert_eq!(decode_all(encoding, b"", None).unwrap(), b"", "{encoding}");
    }
}

#[test]
fn zstd_cli_fixtures_decode() {
    let text = zstd_fixture_text();
    assert_eq!(decode_all("zstd", ZSTD_FIXTURE, None).unwrap(), text);
    assert_eq!(
        decode_all("zstd", ZSTD_FIXTURE_NOCHECK, None).unwrap(),
        text
    );
}

#[test]
fn zstd_concatenated_and_skippable_frames_decode() {
    let text = zstd_fixture_text();
    let mut body = Vec::new();
    body.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 5, 0, 0, 0, 1, 2, 3, 4, 5]); // skippable
    body.extend_from_slice(ZSTD_FIXTURE);
    body.extend_from_slice(&[0x5e, 0x2a, 0x4d, 0x18, 0, 0, 0, 0]); // empty skippable
    body.extend_from_slice(&zstd(b"tail"));
    let mut expected = text.clone();
    expected.extend_from_slice(b"tail");
    assert_eq!(decode_all("zstd", &body, None).unwrap(), expected);
}

#[test]
fn gzip_members_all_decode() {
    let mut body = gzip(b"first member, ");
    body.extend_from_slice(&gzip(b""));
    body.extend_from_slice(&gzip(b"second member"));
    assert_eq!(
        decode_all("gzip", &body, None).unwrap(),
        b"first member, second member"
    );
}

/// A gzip header with every optional field, built by hand (RFC 1952 §2.3).
fn gzip_with_all_fields(data: &[u8], header_crc_delta: u16) -> Vec<u8> {
    let mut header = vec![0x1f, 0x8b, 8, 0b0001_1111, 1, 2, 3, 4, 0, 3];
    header.extend_from_slice(&[5, 0, b'A', b'B', 1, 0, 9]); // FEXTRA: XLEN 5, one subfield
    header.extend_from_slice(b"name.txt\0");
    header.extend_from_slice(b"a comment\0");
    let crc16 = (crc32fast::hash(&header) as u16).wrapping_add(header_crc_delta);
    header.extend_from_slice(&crc16.to_le_bytes());
    header.extend_from_slice(&raw_deflate(data));
    header.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    header.extend_from_slice(&(data.len() as u32).to_le_bytes());
    header
}

#[test]
fn gzip_optional_header_fields_are_parsed_and_checked() {
    let data = sample(5000, 3);
    let body = gzip_with_all_fields(&data, 0);
    for &backend in InflateBackend::ALL {
        // Every 2-way split: the header fields are crossed at every byte.
        for split in 0..=body.len() {
            assert_eq!(
                decode_split("gzip", &body, &[split], None, backend).unwrap(),
                data
            );
        }
    }
    let bad = gzip_with_all_fields(&data, 1);
    let err = decode_all("gzip", &bad, None).unwrap_err();
    assert!(
        matches!(&err, Error::Corrupt { coding: "gzip", what } if what.contains("header CRC")),
        "{err:?}"
    );
}

#[test]
fn deflate_accepts_zlib_and_raw() {
    let data = sample(50_000, 11);
    assert_eq!(decode_all("deflate", &zlib(&data), None).unwrap(), data);
    assert_eq!(
        decode_all("deflate", &raw_deflate(&data), None).unwrap(),
        data
    );
    // A raw stored block (what a level-0 encoder writes) starts with a byte a zlib header can
    // never have.
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::none());
    std::io::Write::write_all(&mut e, b"stored").unwrap();
    assert_eq!(
        decode_all("deflate", &e.finish().unwrap(), None).unwrap(),
        b"stored"
    );
}

#[test]
fn multiple_codings_decode_in_reverse_order() {
    let data = sample(100_000, 5);
    // "gzip, br": gzip applied first, then br.
    let body = brotli(&gzip(&data));
    assert_eq!(
        decode_all("gzip, br", &body, Some(DEFAULT_MAX_DECODED)).unwrap(),
        data
    );
    let body = gzip(&zstd(&zlib(&data)));
    assert_eq!(
        decode_all("deflate, zstd, gzip", &body, Some(DEFAULT_MAX_DECODED)).unwrap(),
        data
    );
    // The wrong order fails rather than handing out still-coded bytes.
    let err = decode_all("br, gzip", &brotli(&gzip(&data)), None).unwrap_err();
    assert_eq!(err.code(), "DECODE_FAILED");
}

#[test]
fn no_codings_is_identity_with_the_cap() {
    let mut decoder = Decoder::new(&[], Some(10));
    let mut out = Vec::new();
    decoder.decode(b"0123456789", &mut out).unwrap();
    assert_eq!(
        decoder.decode(b"a", &mut out),
        Err(Error::TooLarge { limit: 10 })
    );
    assert_eq!(out, b"0123456789");
}

#[test]
fn decoder_is_send_and_debug() {
    fn assert_send<T: Send + 'static>(_: &T) {}
    let decoder = Decoder::new(
        &Coding::parse_list("gzip, br, zstd, deflate").unwrap(),
        None,
    );
    assert_send(&decoder);
    let shown = format!("{decoder:?}");
    assert!(
        shown.contains(r#"["deflate", "zstd", "br", "gzip"]"#),
        "{shown}"
    );
}
