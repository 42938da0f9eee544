//! Runs x509-limbo through burrow-x509 and through rustls-webpki on the same cases and prints
//! right / wrong / skipped per id prefix for each, so "beat webpki" is a measurement:
//! `cargo run --release -p burrow-x509 --example limbo_compare < limbo-dev.json`.
//! With `LIMBO_IDS=id1,id2,...` it also prints, per listed id, the expected result and what
//! burrow and webpki answered (how `limbo-exceptions.txt` entries are compared).
//!
//! webpki gets the same inputs: trust anchors, intermediates, leaf, validation time and peer
//! name, with server-auth usage. Cases burrow skips (CRLs, no peer name, non-SERVER) are
//! skipped for both; webpki's fixed depth limit and key-usage handling are its own.
#![allow(clippy::indexing_slicing, clippy::disallowed_methods)]
#![allow(clippy::arithmetic_side_effects)] // counters of a few thousand cases

#[path = "../tests/support/limbo.rs"]
#[allow(dead_code)] // run_suite serves examples/limbo.rs
mod limbo;

use rustls_pki_types::{CertificateDer, ServerName, UnixTime};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Read;

fn pems(tc: &Value, key: &str) -> Vec<Vec<u8>> {
    tc[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .flat_map(|p| burrow_x509::certificates_from_pem(p.as_bytes()).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default()
}

/// webpki's answer for one case: true = SUCCESS.
fn webpki_case(tc: &Value, now: i64) -> bool {
    let anchors_der = pems(tc, "trusted_certs");
    let inters: Vec<CertificateDer<'_>> = pems(tc, "untrusted_intermediates")
        .into_iter()
        .map(CertificateDer::from)
        .collect();
    let Some(leaf) = burrow_x509::certificates_from_pem(
        tc["peer_certificate"].as_str().unwrap_or("").as_bytes(),
    )
    .unwrap_or_default()
    .into_iter()
    .next() else {
        return false;
    };
    let mut anchors = Vec::new();
    for der in &anchors_der {
        match webpki::anchor_from_trusted_cert(&CertificateDer::from(der.as_slice())) {
            Ok(a) => anchors.push(a.to_owned()),
            Err(_) => return false,
        }
    }
    let time = tc["validation_time"]
        .as_str()
        .and_then(burrow_x509::parse_rfc3339)
        .unwrap_or(now);
    let Ok(secs) = u64::try_from(time) else {
        return false;
    };
    let leaf = CertificateDer::from(leaf);
    let Ok(ee) = webpki::EndEntityCert::try_from(&leaf) else {
        return false;
    };
    let at = UnixTime::since_unix_epoch(std::time::Duration::from_secs(secs));
    if ee
        .verify_for_usage(
            webpki::ALL_VERIFICATION_ALGS,
            &anchors,
            &inters,
            at,
            webpki::KeyUsage::server_auth(),
            None,
            None,
        )
        .is_err()
    {
        return false;
    }
    let Some(name) = tc["expected_peer_name"]["value"].as_str() else {
        return false;
    };
    let Ok(name) = ServerName::try_from(name.to_string()) else {
        return false;
    };
    ee.verify_is_valid_for_subject_name(&name).is_ok()
}

#[derive(Default)]
struct Tally {
    right: usize,
    wrong: usize,
    skipped: usize,
}

fn main() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("limbo_compare: reading stdin: {e}");
        std::process::exit(2);
    }
    let suite: Value = match serde_json::from_str(&input) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("limbo_compare: stdin is not JSON: {e}");
            std::process::exit(2);
        }
    };
    let now = limbo::now();
    let ids: Vec<String> = std::env::var("LIMBO_IDS")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let mut table: BTreeMap<String, (Tally, Tally)> = BTreeMap::new();
    for tc in suite["testcases"].as_array().into_iter().flatten() {
        let id = tc["id"].as_str().unwrap_or("?");
        let prefix = id.split("::").next().unwrap_or(id).to_string();
        let expected = tc["expected_result"].as_str() == Some("SUCCESS");
        let (ours, _) = limbo::run_case(tc, &burrow_x509::CryptoVerifier, now);
        let row = table.entry(prefix).or_default();
        if ours == "SKIPPED" {
            row.0.skipped += 1;
            row.1.skipped += 1;
            continue;
        }
        let tally = |t: &mut Tally, got: bool| {
            if got == expected {
                t.right += 1;
            } else {
                t.wrong += 1;
            }
        };
        let webpki = webpki_case(tc, now);
        tally(&mut row.0, ours == "SUCCESS");
        tally(&mut row.1, webpki);
        if ids.iter().any(|i| i == id) {
            println!(
                "{id}: expected {}, burrow {ours}, webpki {}",
                if expected { "SUCCESS" } else { "FAILURE" },
                if webpki { "SUCCESS" } else { "FAILURE" }
            );
        }
    }
    println!("| prefix | burrow right | burrow wrong | webpki right | webpki wrong | skipped |");
    println!("|---|---|---|---|---|---|");
    let mut total = (Tally::default(), Tally::default());
    for (prefix, (b, w)) in &table {
        println!(
            "| {prefix} | {} | {} | {} | {} | {} |",
            b.right, b.wrong, w.right, w.wrong, b.skipped
        );
        total.0.right += b.right;
        total.0.wrong += b.wrong;
        total.1.right += w.right;
        total.1.wrong += w.wrong;
        total.0.skipped += b.skipped;
    }
    println!(
        "| **total** | **{}** | **{}** | **{}** | **{}** | **{}** |",
        total.0.right, total.0.wrong, total.1.right, total.1.wrong, total.0.skipped
    );
}
