//! burrow-client's key log sink (`TlsSettings::key_log`) against openssl s_server
//! (`SSERVER_HRR` runs with `-keylogfile`): every line the client hands out is in the server's
//! own key log, for TLS 1.3 and TLS 1.2; through an HTTPS proxy both sessions are logged.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::cell::RefCell;
use std::future::Future;
use std::path::PathBuf;
use std::rc::Rc;

use burrow_client::{Client, ClientConfig, KeyLogSink, Profile, Proxy, Request, Trust};
use burrow_native::TokioNet;
use burrow_testkit::peers::Peers;

const PEER: &str = "SSERVER_HRR";

fn run<F: Future>(f: F) -> F::Output {
    burrow_native::block_on_local(f).unwrap()
}

/// A sink collecting lines, and the lines.
fn collector() -> (KeyLogSink, Rc<RefCell<Vec<String>>>) {
    let lines = Rc::new(RefCell::new(Vec::new()));
    let l = Rc::clone(&lines);
    let sink = KeyLogSink(Rc::new(move |line: &str| {
        l.borrow_mut().push(line.to_string())
    }));
    (sink, lines)
}

fn config(p: &Peers) -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.proxy_tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg
}

/// GETs `url`, returns the body.
fn get(cfg: ClientConfig, url: &str) -> Vec<u8> {
    run(async {
        let c = Client::new(TokioNet, cfg);
        let mut r = c.fetch(Request::get(url).unwrap()).await.unwrap();
        assert_eq!(r.status, 200);
        r.bytes().await.unwrap()
    })
}

fn server_key_log(p: &Peers) -> Vec<String> {
    let state = PathBuf::from(p.var("PEERS_STATE").unwrap());
    let text = std::fs::read_to_string(state.join("logs").join("sserver-keys.log")).unwrap();
    text.lines().map(str::to_string).collect()
}

fn labels(lines: &[String]) -> Vec<&str> {
    lines.iter().map(|l| l.split(' ').next().unwrap()).collect()
}

#[test]
fn tls13_and_tls12_secrets_match_openssl() {
    let Some(p) = Peers::load("client key log") else {
        return;
    };
    let url = format!("https://localhost:{}/", p.port(PEER));
    let tls12 = {
        let mut prof = Profile::default_web();
        prof.cipher_suites.retain(|s| (s.0 >> 8) != 0x13);
        prof
    };
    for (profile, want) in [
        (
            Profile::default_web(),
            &[
                "CLIENT_HANDSHAKE_TRAFFIC_SECRET",
                "SERVER_HANDSHAKE_TRAFFIC_SECRET",
                "CLIENT_TRAFFIC_SECRET_0",
                "SERVER_TRAFFIC_SECRET_0",
                "EXPORTER_SECRET",
            ][..],
        ),
        (tls12, &["CLIENT_RANDOM"][..]),
    ] {
        let (sink, lines) = collector();
        let mut cfg = config(&p);
        cfg.tls.profile = profile;
        cfg.tls.key_log = Some(sink);
        let body = get(cfg, &url);
        assert!(!body.is_empty());
        let ours = lines.borrow().clone();
        assert_eq!(labels(&ours), want);
        let theirs = server_key_log(&p);
        for line in &ours {
            assert!(theirs.contains(line), "not in s_server's key log: {line}");
        }
    }
}

#[test]
fn https_proxy_sessions_are_logged_and_sinks_are_per_session() {
    let Some(p) = Peers::load("client key log via HTTPS proxy") else {
        return;
    };
    let (sink, lines) = collector();
    let mut cfg = config(&p);
    cfg.proxy =
        Some(Proxy::parse(&format!("https://localhost:{}", p.port("HTTPS_PROXY"))).unwrap());
    cfg.tls.key_log = Some(sink.clone());
    cfg.proxy_tls.key_log = Some(sink);
    let url = format!("https://localhost:{}/", p.port(PEER));
    get(cfg, &url);
    let ours = lines.borrow().clone();
    // Two TLS 1.3 handshakes: the proxy's, then the origin's inside it.
    assert_eq!(ours.len(), 10, "{ours:#?}");
    let randoms: std::collections::BTreeSet<&str> =
        ours.iter().map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(randoms.len(), 2);
    let theirs = server_key_log(&p);
    assert_eq!(
        ours.iter().filter(|l| theirs.contains(l)).count(),
        5,
        "exactly the origin's five lines are s_server's"
    );

    // The sink only on the proxy: only the proxy's five.
    let (sink, lines) = collector();
    let mut cfg = config(&p);
    cfg.proxy =
        Some(Proxy::parse(&format!("https://localhost:{}", p.port("HTTPS_PROXY"))).unwrap());
    cfg.proxy_tls.key_log = Some(sink);
    get(cfg, &url);
    let ours = lines.borrow().clone();
    assert_eq!(ours.len(), 5);
    // Re-read: this connection's origin secrets are in s_server's log now, and none is ours.
    let theirs = server_key_log(&p);
    assert!(ours.iter().all(|l| !theirs.contains(l)));
}
