//! Key log interop: openssl s_server (`SSERVER_HRR`) runs with `-keylogfile`, so every line
//! burrow logs for a connection must appear verbatim in the server's own key log — TLS 1.3
//! (after a HelloRetryRequest to secp384r1) and TLS 1.2 forced through the profile.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_handshake::{KeyLogEntry, Profile};
use burrow_native::{fetch, FetchOptions, FetchResult, Trust};
use burrow_testkit::peers::Peers;
use std::path::PathBuf;

const PEER: &str = "SSERVER_HRR";

fn fetch_logged(p: &Peers, profile: Profile) -> FetchResult {
    let mut o = FetchOptions::new("127.0.0.1", p.port(PEER), Some("localhost"), "/");
    o.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    o.tls.profile = profile;
    o.key_log = true;
    let r = fetch(&o).unwrap_or_else(|e| panic!("{PEER}: {e}"));
    assert_eq!(r.response.status, 200);
    r
}

/// The lines s_server wrote to `$PEERS_STATE/logs/sserver-keys.log` (see peers/up.sh).
fn server_key_log(p: &Peers) -> Vec<String> {
    let state = p.var("PEERS_STATE").expect("PEERS_STATE in peers.env");
    let path = PathBuf::from(state).join("logs").join("sserver-keys.log");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (s_server runs with -keylogfile)", path.display()));
    text.lines().map(str::to_string).collect()
}

/// `line` with the lowest bit of its secret (the last hex digit) flipped.
fn flip_secret_bit(line: &str) -> String {
    let (rest, last) = line.split_at(line.len() - 1);
    let digit = u32::from_str_radix(last, 16).unwrap() ^ 1;
    format!("{rest}{}", char::from_digit(digit, 16).unwrap())
}

fn assert_in_server_log(p: &Peers, ours: &[String]) {
    let theirs = server_key_log(p);
    // Negative control: one flipped bit in a secret is not found.
    let wrong = flip_secret_bit(ours.first().expect("some entries"));
    assert!(!theirs.contains(&wrong));
    for line in ours {
        assert!(
            theirs.contains(line),
            "{line} is not in the server's key log"
        );
    }
}

fn labels(log: &[String]) -> Vec<&str> {
    log.iter().map(|l| l.split(' ').next().unwrap()).collect()
}

/// The length in bytes of each line's secret (the third field, hex).
fn secret_lens(log: &[String]) -> Vec<usize> {
    log.iter()
        .map(|l| l.split(' ').nth(2).unwrap().len() / 2)
        .collect()
}

#[test]
fn tls13_key_log_matches_openssl() {
    let Some(p) = Peers::load(PEER) else { return };
    let r = fetch_logged(&p, Profile::default_web());
    assert!(r.tls.hello_retry, "s_server asks for secp384r1");
    assert_eq!(
        labels(&r.key_log),
        [
            KeyLogEntry::CLIENT_HANDSHAKE_TRAFFIC_SECRET,
            KeyLogEntry::SERVER_HANDSHAKE_TRAFFIC_SECRET,
            KeyLogEntry::CLIENT_TRAFFIC_SECRET_0,
            KeyLogEntry::SERVER_TRAFFIC_SECRET_0,
            KeyLogEntry::EXPORTER_SECRET,
        ]
    );
    assert!(secret_lens(&r.key_log).iter().all(|n| *n == 32 || *n == 48));
    assert_in_server_log(&p, &r.key_log);
}

#[test]
fn tls12_key_log_matches_openssl() {
    let Some(p) = Peers::load(PEER) else { return };
    let mut prof = Profile::default_web();
    prof.cipher_suites.retain(|s| (s.0 >> 8) != 0x13);
    let r = fetch_logged(&p, prof);
    let page = String::from_utf8_lossy(&r.response.body).to_string();
    assert!(page.contains("TLSv1.2"), "s_server -www reports TLSv1.2");
    assert_eq!(labels(&r.key_log), [KeyLogEntry::CLIENT_RANDOM]);
    assert_eq!(secret_lens(&r.key_log), [48]);
    assert_in_server_log(&p, &r.key_log);
}

#[test]
fn no_key_log_by_default() {
    let Some(p) = Peers::load(PEER) else { return };
    let mut o = FetchOptions::new("127.0.0.1", p.port(PEER), Some("localhost"), "/");
    o.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    let r = fetch(&o).unwrap_or_else(|e| panic!("{PEER}: {e}"));
    assert_eq!(r.response.status, 200);
    assert!(r.key_log.is_empty());
}
