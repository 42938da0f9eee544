//! An independent decoder (the PyPI `hpack` package) reads our encoder's output.
//!
//! Needs `python3` with `hpack` (`pip install hpack`). Missing is a failure with instructions;
//! only `BURROW_PYHPACK=none` skips, loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_h2::hpack::{Encoder, EncoderPolicy, FieldEncoding, HuffmanMode, Representation};
use burrow_h2::Header;
use serde_json::{json, Value};
use std::process::Command;

const SCRIPT: &str = r#"
import json, sys
from hpack import Decoder
from hpack.struct import NeverIndexedHeaderTuple
doc = json.load(open(sys.argv[1]))
out = []
for seq in doc:
    d = Decoder()
    d.max_header_list_size = 1 << 24
    lists = []
    for block in seq:
        hs = d.decode(bytes.fromhex(block), raw=True)
        lists.append([[n.hex(), v.hex(), isinstance(h, NeverIndexedHeaderTuple)] for h in hs for (n, v) in [h]])
    out.append(lists)
json.dump(out, open(sys.argv[2], "w"))
"#;

fn python_ready() -> bool {
    if std::env::var("BURROW_PYHPACK").as_deref() == Ok("none") {
        burrow_testkit::skip_loudly("hpack_python", "BURROW_PYHPACK=none");
        return false;
    }
    let ok = Command::new("python3")
        .args(["-c", "import hpack"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "python3 with the PyPI `hpack` package is needed to cross-check our HPACK encoder: \
         run `pip install hpack` (or set BURROW_PYHPACK=none to skip loudly)"
    );
    true
}

fn policies() -> Vec<EncoderPolicy> {
    let enc = |representation, h, index_name| FieldEncoding {
        representation,
        huffman_name: h,
        huffman_value: h,
        index_name,
    };
    vec![
        EncoderPolicy::default(),
        EncoderPolicy::uniform(enc(Representation::Indexed, HuffmanMode::Always, true)),
        EncoderPolicy::uniform(enc(Representation::Incremental, HuffmanMode::Never, true)),
        EncoderPolicy::uniform(enc(
            Representation::WithoutIndexing,
            HuffmanMode::Always,
            false,
        )),
        EncoderPolicy::uniform(enc(
            Representation::NeverIndexed,
            HuffmanMode::Shorter,
            true,
        )),
        EncoderPolicy::curl_like(),
    ]
}

#[test]
fn pypi_hpack_decodes_our_encodings() {
    if !python_ready() {
        return;
    }
    let Some(root) = burrow_testkit::vectors::dir("hpack raw-data (python cross-check)") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(root.join("hpack/raw-data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    // Every policy over a third of the stories each (all stories covered), plus table resizes.
    let mut sequences: Vec<Vec<String>> = Vec::new();
    let mut expected: Vec<Vec<Vec<Header>>> = Vec::new();
    let policies = policies();
    for (i, path) in files.iter().enumerate() {
        let json: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        for p in [i % policies.len(), (i + 3) % policies.len()] {
            let mut enc = Encoder::new(policies[p].clone());
            let mut blocks = Vec::new();
            let mut lists = Vec::new();
            for (j, case) in json["cases"].as_array().unwrap().iter().enumerate() {
                if j == 10 {
                    enc.set_peer_limit(512);
                }
                if j == 20 {
                    enc.set_peer_limit(4096);
                }
                let mut hs: Vec<Header> = case["headers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| {
                        let (k, v) = h.as_object().unwrap().iter().next().unwrap();
                        Header::new(k.as_bytes(), v.as_str().unwrap().as_bytes())
                    })
                    .collect();
                // Mark cookies sensitive: the independent decoder must see never-indexed.
                for h in &mut hs {
                    if h.name == b"cookie" {
                        h.sensitive = true;
                    }
                }
                let mut wire = Vec::new();
                enc.encode(&hs, &mut wire);
                blocks.push(burrow_testkit::hex::encode(&wire));
                lists.push(hs);
            }
            sequences.push(blocks);
            expected.push(lists);
        }
    }
    let dir = std::env::temp_dir().join(format!("burrow-h2-pyhpack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.json");
    let output = dir.join("out.json");
    std::fs::write(&input, serde_json::to_vec(&json!(sequences)).unwrap()).unwrap();
    let st = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(&input)
        .arg(&output)
        .status()
        .unwrap();
    assert!(st.success(), "python hpack decoder failed on our encoding");
    let got: Value = serde_json::from_slice(&std::fs::read(&output).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let got = got.as_array().unwrap();
    assert_eq!(got.len(), expected.len());
    let mut blocks = 0;
    let mut sensitive = 0;
    for (seq, exp) in got.iter().zip(&expected) {
        for (list, hs) in seq.as_array().unwrap().iter().zip(exp) {
            let list = list.as_array().unwrap();
            assert_eq!(list.len(), hs.len());
            for (f, h) in list.iter().zip(hs) {
                let n = burrow_testkit::hex::decode(f[0].as_str().unwrap());
                let v = burrow_testkit::hex::decode(f[1].as_str().unwrap());
                assert_eq!(
                    (n.as_slice(), v.as_slice()),
                    (h.name.as_slice(), h.value.as_slice())
                );
                if h.sensitive {
                    assert_eq!(f[2], Value::Bool(true), "cookie must arrive never-indexed");
                    sensitive += 1;
                }
            }
            blocks += 1;
        }
    }
    eprintln!(
        "python hpack decoded {blocks} blocks from {} sequences ({sensitive} never-indexed fields)",
        got.len()
    );
    assert_eq!(blocks, 2 * 3384);
    assert!(sensitive > 0);
}
