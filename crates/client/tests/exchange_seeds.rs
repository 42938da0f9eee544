//! The seeds of the client exchange fuzz targets (`fuzz/seeds/client_h1`, `client_h2`, written
//! by `burrow-testkit`'s `exchange_corpus` example), replayed through
//! `burrow_testkit::exchange`: each reaches what its name says (a decoded body, a redirect
//! followed, a second response on a reused connection, a typed error), so the fuzzing starts
//! from whole exchanges, and the harness's own checks (no hang, turns bounded, body within
//! `max_body_bytes`) run in every `cargo test`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::path::PathBuf;

use burrow_testkit::exchange::{self, Report};

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    assert!(out.len() >= 10, "{}: too few seeds", dir.display());
    out
}

/// What a seed named `name` must reach.
fn check(name: &str, r: &Report) {
    let expected_error = match name {
        "small-cap-bad-coding" => Some("UNSUPPORTED_CONTENT_ENCODING"),
        "yield-timers-cuts" => Some("TIMEOUT_HEADERS"),
        "reset" => Some("H2_STREAM_RESET"),
        _ => None,
    };
    match expected_error {
        Some(code) => assert_eq!(r.errors, [code], "{name}: {r:?}"),
        None => {
            assert!(r.errors.is_empty(), "{name}: {r:?}");
            assert!(!r.statuses.is_empty(), "{name}: {r:?}");
            assert_eq!(r.bodies_completed, r.statuses.len(), "{name}: {r:?}");
        }
    }
    if name.starts_with("coded-") || name.starts_with("gzip") {
        assert_eq!(r.decoded, 1, "{name}: {r:?}");
        assert_eq!(r.body_bytes, 50, "{name}: {r:?}");
    }
    if name.starts_with("redirect") {
        assert_eq!(r.redirects, 1, "{name}: {r:?}");
    }
    if name == "concurrent" || name == "cookies-second-request" || name == "stale-connection-retry"
    {
        assert_eq!(r.statuses.len(), 2, "{name}: {r:?}");
    }
}

#[test]
fn http1_seeds_reach_what_they_name() {
    for (name, data) in seeds("client_h1") {
        let r = exchange::h1(&data);
        assert_eq!(r.h2_responses, 0, "{name}");
        check(&name, &r);
    }
}

#[test]
fn http2_seeds_reach_what_they_name() {
    for (name, data) in seeds("client_h2") {
        let r = exchange::h2(&data);
        assert_eq!(r.h2_responses, r.statuses.len(), "{name}: {r:?}");
        check(&name, &r);
    }
}

#[test]
fn the_redirect_on_http2_reuses_the_connection() {
    let (_, data) = seeds("client_h2")
        .into_iter()
        .find(|(n, _)| n == "redirect-same-connection")
        .unwrap();
    let r = exchange::h2(&data);
    assert_eq!(
        (r.connections, r.redirects, r.statuses.as_slice()),
        (1, 1, &[200][..])
    );
}

#[test]
fn any_bytes_end_in_a_response_or_a_typed_error() {
    // A deterministic sweep of arbitrary inputs (the fuzz targets do this at scale): every one
    // ends, within its turns, without a panic.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for len in 0..400 {
        let data: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let _ = exchange::h1(&data);
        let _ = exchange::h2(&data);
    }
}
