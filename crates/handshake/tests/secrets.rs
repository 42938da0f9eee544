//! Secrets are wiped and never printed: every field of `src/` named like a secret holds a
//! `Secret` (wiped on drop), and `Debug` of the public types that carry one leaves it out.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_handshake::{Entropy, Profile};
use std::path::Path;

/// Field names that hold a secret when their type holds bytes (a key schedule secret, a PSK, key material or a private
/// key's seed).
fn names_a_secret(field: &str) -> bool {
    const PARTS: [&str; 9] = [
        "secret",
        "master",
        "psk",
        "_hs",
        "_ap",
        "exporter",
        "resumption",
        "seed",
        "_key",
    ];
    PARTS.iter().any(|p| field.contains(p)) && field != "key_id"
}

/// Public fields that hand a secret to the caller who asked for it: the key log, an offloaded
/// traffic key and the caller's own entropy.
const HANDED_TO_THE_CALLER: [(&str, &str); 3] = [
    ("keylog.rs", "secret"),
    ("entropy.rs", "key_share_seeds"),
    ("entropy.rs", "retry_seed"),
];

#[test]
fn fields_named_like_secrets_are_wiped_on_drop() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    let mut plain = Vec::new();
    // Every module file, those of nested modules (src/fuzz/…) too, named relative to src/.
    let mut files = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    for path in files {
        let file = path
            .strip_prefix(&src)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let t = line.trim();
            let t = t
                .strip_prefix("pub(crate) ")
                .or(t.strip_prefix("pub "))
                .unwrap_or(t);
            let Some((name, ty)) = t.strip_suffix(',').and_then(|f| f.split_once(": ")) else {
                continue;
            };
            let is_field = name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                && line.starts_with("    ")
                && !line.starts_with("        ");
            // Bytes held as bytes; a borrowed slice is the owner's to wipe.
            let bytes = ty.contains("u8") && !ty.starts_with('&');
            let wiped = ty.contains("Secret");
            if !is_field || !names_a_secret(name) || !(bytes || wiped) {
                continue;
            }
            checked += 1;
            if !wiped && !HANDED_TO_THE_CALLER.contains(&(file.as_str(), name)) {
                plain.push(format!("src/{file}:{}: {name}: {ty}", n + 1));
            }
        }
    }
    assert!(
        checked > 15,
        "only {checked} secret fields found: is the scan broken?"
    );
    assert!(
        plain.is_empty(),
        "secrets held in types that are not wiped on drop (use crate::secret::Secret):\n{}",
        plain.join("\n")
    );
}

#[test]
fn debug_leaves_the_key_share_seeds_out() {
    let profile = Profile::default_web();
    // ClientHello.random (shown) is all 238; every seed byte is below 201.
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| {
            if i < 32 {
                238
            } else {
                u8::try_from(i % 200).unwrap() + 1
            }
        })
        .collect();
    let e = Entropy::from_pool(&profile, &pool).unwrap();
    let shown = format!("{e:?}");
    for seed in e.key_share_seeds.iter().chain([&e.retry_seed]) {
        let window = format!("{:?}", &seed[..4]);
        let window = &window[1..window.len() - 1];
        assert!(!shown.contains(window), "{shown}");
    }
}

#[test]
fn debug_of_an_offloaded_traffic_key_leaves_the_key_out() {
    let k = burrow_handshake::TrafficKeyInfo {
        key_id: 7,
        algorithm: burrow_crypto::aead::AeadAlgorithm::Aes128Gcm,
        key: vec![0xab; 16],
        for_reading: true,
    };
    assert_eq!(
        format!("{k:?}"),
        "TrafficKeyInfo { key_id: 7, algorithm: Aes128Gcm, for_reading: true, .. }"
    );
}
