//! The hpack-test-case stories in `$BURROW_VECTORS/hpack`: every story decodes to its headers
//! with one table per story; our encoder round-trips every `raw-data` story under several
//! representation / Huffman settings.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_h2::hpack::{
    Decoder, Encoder, EncoderPolicy, FieldEncoding, HuffmanMode, Representation,
};
use burrow_h2::Header;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn stories(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

fn headers_of(case: &Value) -> Vec<Header> {
    case["headers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let (k, v) = h.as_object().unwrap().iter().next().unwrap();
            Header::new(k.as_bytes(), v.as_str().unwrap().as_bytes())
        })
        .collect()
}

fn strip_sensitive(v: Vec<Header>) -> Vec<(Vec<u8>, Vec<u8>)> {
    v.into_iter().map(|h| (h.name, h.value)).collect()
}

#[test]
fn every_story_decodes_with_a_shared_table() {
    let Some(root) = burrow_testkit::vectors::dir("hpack stories") else {
        return;
    };
    let mut total_stories = 0;
    let mut total_cases = 0;
    for enc in [
        "go-hpack",
        "haskell-http2-linear",
        "nghttp2",
        "nghttp2-change-table-size",
    ] {
        let mut n_stories = 0;
        let mut n_cases = 0;
        for path in stories(&root.join("hpack").join(enc)) {
            let json: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let mut dec = Decoder::new(4096);
            for case in json["cases"].as_array().unwrap() {
                if let Some(size) = case.get("header_table_size").and_then(Value::as_u64) {
                    dec.set_table_size_limit(size as usize);
                }
                let wire = burrow_testkit::hex::decode(case["wire"].as_str().unwrap());
                let got = dec
                    .decode(&wire)
                    .unwrap_or_else(|e| panic!("{} case {}: {e}", path.display(), case["seqno"]));
                assert_eq!(
                    strip_sensitive(got),
                    strip_sensitive(headers_of(case)),
                    "{} case {}",
                    path.display(),
                    case["seqno"]
                );
                n_cases += 1;
            }
            n_stories += 1;
        }
        eprintln!("{enc}: {n_stories} stories, {n_cases} cases decoded");
        assert!(n_stories > 0 && n_cases > 0, "{enc}: no stories found");
        total_stories += n_stories;
        total_cases += n_cases;
    }
    // SELECTION.md: 32+32+32+31 stories, 3384*3+3267 cases.
    assert_eq!(total_stories, 127);
    assert_eq!(total_cases, 3384 * 3 + 3267);
}

fn policies() -> Vec<(&'static str, EncoderPolicy)> {
    let enc = |representation, h: HuffmanMode, index_name| FieldEncoding {
        representation,
        huffman_name: h,
        huffman_value: h,
        index_name,
    };
    vec![
        ("indexed+shorter", EncoderPolicy::default()),
        (
            "indexed+huffman",
            EncoderPolicy::uniform(enc(Representation::Indexed, HuffmanMode::Always, true)),
        ),
        (
            "incremental+raw",
            EncoderPolicy::uniform(enc(Representation::Incremental, HuffmanMode::Never, true)),
        ),
        (
            "without-indexing+literal-names+huffman",
            EncoderPolicy::uniform(enc(
                Representation::WithoutIndexing,
                HuffmanMode::Always,
                false,
            )),
        ),
        (
            "never-indexed+raw",
            EncoderPolicy::uniform(enc(Representation::NeverIndexed, HuffmanMode::Never, true)),
        ),
        ("curl-like", EncoderPolicy::curl_like()),
    ]
}

#[test]
fn encoder_round_trips_every_raw_data_story() {
    let Some(root) = burrow_testkit::vectors::dir("hpack raw-data") else {
        return;
    };
    let files = stories(&root.join("hpack").join("raw-data"));
    assert!(!files.is_empty());
    for (name, policy) in policies() {
        let mut n_cases = 0;
        let mut bytes = 0usize;
        for path in &files {
            let json: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            let mut enc = Encoder::new(policy.clone());
            let mut dec = Decoder::new(4096);
            for (i, case) in json["cases"].as_array().unwrap().iter().enumerate() {
                // Also exercise table size changes: shrink and grow now and then.
                if i % 17 == 16 {
                    let size = if i % 34 == 33 { 4096 } else { 1024 };
                    enc.set_peer_limit(size);
                }
                let input = headers_of(case);
                let mut wire = Vec::new();
                enc.encode(&input, &mut wire);
                bytes += wire.len();
                let got = dec
                    .decode(&wire)
                    .unwrap_or_else(|e| panic!("{name} {} case {i}: {e}", path.display()));
                assert_eq!(
                    strip_sensitive(got),
                    strip_sensitive(input),
                    "{name} {} case {i}",
                    path.display()
                );
                n_cases += 1;
            }
        }
        eprintln!(
            "{name}: {} stories, {n_cases} cases round-tripped, {bytes} bytes",
            files.len()
        );
        assert_eq!(n_cases, 3384);
    }
}
