//! x509-limbo (`$BURROW_VECTORS/x509-limbo/limbo-dev.json`) run in-process: prints pass / fail /
//! skip counts by id prefix and fails on any wrong answer not listed in
//! `limbo-exceptions.txt` (and on listed ids that now pass, so the list stays honest).
//!
//! Two runs: the whole suite with signatures checked by `ring` (fast in a debug build: the
//! unoptimised RustCrypto RSA/ECDSA code makes the whole suite take ~110 s there), and every
//! non-bettertls case (the ones that tell validators apart) with burrow-crypto, the default
//! verifier. `cargo run --release --example limbo` runs the whole suite on burrow-crypto.

#![cfg(not(target_arch = "wasm32"))] // files, sockets and ring: native only
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]
// test code
#![allow(clippy::disallowed_methods)]
// timing the run for the log, not asserting on it

mod support;

use std::collections::{BTreeMap, BTreeSet};

use support::limbo::{now, run_case};

#[test]
fn limbo_dev_suite_ring_signatures() {
    run(|_| true, &support::ring_verifier::RingVerifier, 6700);
}

#[test]
fn limbo_non_bettertls_burrow_crypto_signatures() {
    run(
        |id| !id.starts_with("bettertls::"),
        &burrow_x509::CryptoVerifier,
        120,
    );
}

fn run(select: impl Fn(&str) -> bool, sigs: &dyn burrow_x509::SignatureVerifier, min_pass: usize) {
    let Some(text) = burrow_testkit::vectors::read_string("x509-limbo/limbo-dev.json") else {
        return;
    };
    let suite: serde_json::Value = serde_json::from_str(&text).unwrap();
    let exceptions: BTreeMap<String, String> = include_str!("../limbo-exceptions.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (id, why) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            (id.to_string(), why.trim().to_string())
        })
        .collect();
    for (id, why) in &exceptions {
        assert!(!why.is_empty(), "exception {id} needs a reason");
    }
    let start = std::time::Instant::now();
    let mut counts: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    let mut new_wrong = Vec::new();
    let mut known_wrong = BTreeSet::new();
    let mut skipped = Vec::new();
    let cases: Vec<&serde_json::Value> = suite["testcases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|tc| select(tc["id"].as_str().unwrap()))
        .collect();
    for tc in &cases {
        let id = tc["id"].as_str().unwrap();
        let prefix = id.split("::").next().unwrap().to_string();
        let expected = tc["expected_result"].as_str().unwrap();
        let (actual, context) = run_case(tc, sigs, now());
        let slot = counts.entry(prefix).or_default();
        if actual == "SKIPPED" {
            slot[2] += 1;
            skipped.push(format!("{id}: {}", context.unwrap_or_default()));
        } else if actual == expected {
            slot[0] += 1;
        } else {
            slot[1] += 1;
            if exceptions.contains_key(id) {
                known_wrong.insert(id.to_string());
            } else {
                new_wrong.push(format!(
                    "{id}: expected {expected}, got {actual} ({context:?})"
                ));
            }
        }
    }
    let elapsed = start.elapsed();
    let (mut p, mut f, mut s) = (0, 0, 0);
    eprintln!("x509-limbo {} cases in {elapsed:?}", cases.len());
    for (prefix, [pass, fail, skip]) in &counts {
        eprintln!("  {prefix:<14} pass {pass:>5}  fail {fail:>3}  skip {skip:>3}");
        p += pass;
        f += fail;
        s += skip;
    }
    eprintln!("  {:<14} pass {p:>5}  fail {f:>3}  skip {s:>3}", "TOTAL");
    for sk in &skipped {
        eprintln!("  skipped {sk}");
    }
    let stale: Vec<&String> = exceptions
        .keys()
        .filter(|id| !known_wrong.contains(*id))
        .collect();
    assert!(
        new_wrong.is_empty(),
        "new wrong answers (fix them or list them with a reason):\n{}",
        new_wrong.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed in limbo-exceptions.txt but now right (remove them): {stale:?}"
    );
    assert!(p > min_pass, "suspiciously few passes: {p}");
}
