//! x509-limbo harness: `cargo run --release -p burrow-x509 --example limbo < suite.json > results.json`.
//! Reads the suite on stdin, writes the results on stdout, messages on stderr; exits non-zero
//! only for its own errors (unreadable input), never because a case failed.
//!
//! A harness, not the sans-IO core: it may read the clock, and `serde_json::Value` indexing
//! returns `Null` instead of panicking.
#![allow(clippy::indexing_slicing, clippy::disallowed_methods)]

#[path = "../tests/support/limbo.rs"]
mod limbo;
#[path = "../tests/support/ring_verifier.rs"]
mod ring_verifier;

use std::io::Read;

fn main() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("limbo: reading stdin: {e}");
        std::process::exit(2);
    }
    let suite: serde_json::Value = match serde_json::from_str(&input) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("limbo: stdin is not JSON: {e}");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    // burrow-crypto by default; BURROW_X509_VERIFIER=ring cross-checks with ring.
    let sigs: Box<dyn burrow_x509::SignatureVerifier> =
        if std::env::var("BURROW_X509_VERIFIER").as_deref() == Ok("ring") {
            Box::new(ring_verifier::RingVerifier)
        } else {
            Box::new(burrow_x509::CryptoVerifier)
        };
    let out = limbo::run_suite(&suite, &sigs, limbo::now());
    let n = out["results"].as_array().map_or(0, Vec::len);
    eprintln!("limbo: {n} cases in {:?}", start.elapsed());
    println!("{out}");
}
