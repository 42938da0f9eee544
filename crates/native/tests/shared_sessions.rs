//! Clients sharing one `SessionCache` (as a Worker's isolate does) resume each other's TLS
//! sessions with nginx, and only when they would have made the session the same way: other
//! trust settings, another proxy or a disabled cache make a full handshake.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_client::{Client, ClientConfig, Proxy, Request, SessionCache, Trust};
use burrow_native::TokioNet;
use burrow_testkit::peers::Peers;

fn config(p: &Peers) -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg
}

/// One GET of `/1k` on nginx's TLS 1.3 server with a new client; whether it resumed, and
/// whether the server saw a resumed session (nginx's `$ssl_session_reused` in `/info`).
fn resumed(p: &Peers, cfg: ClientConfig, sessions: &SessionCache) -> bool {
    let url = format!("https://localhost:{}/info", p.port("TLS13"));
    burrow_native::block_on_local(async {
        let c = Client::with_sessions(TokioNet, cfg, sessions.clone());
        let mut r = c.fetch(Request::get(&url).unwrap()).await.unwrap();
        assert_eq!(r.status, 200);
        let body = String::from_utf8(r.bytes().await.unwrap()).unwrap();
        let tls = r.meta.tls.as_ref().expect("an https origin");
        // The client's and the server's view agree, and a resumed session has no chain.
        assert_eq!(tls.resumed, body.contains("\"reused\":\"r\""), "{body}");
        assert_eq!(tls.resumed, tls.certificate.is_none());
        tls.resumed
    })
    .unwrap()
}

/// The leaf's SPKI pin, from a full handshake.
fn leaf_pin(p: &Peers) -> String {
    let url = format!("https://localhost:{}/1k", p.port("TLS13"));
    burrow_native::block_on_local(async {
        let c = Client::with_sessions(TokioNet, config(p), SessionCache::disabled());
        let mut r = c.fetch(Request::get(&url).unwrap()).await.unwrap();
        r.bytes().await.unwrap();
        r.meta
            .tls
            .as_ref()
            .unwrap()
            .certificate
            .as_ref()
            .unwrap()
            .leaf_pin
            .clone()
    })
    .unwrap()
}

#[test]
fn a_second_client_resumes_the_first_ones_session() {
    let Some(p) = Peers::load("shared sessions") else {
        return;
    };
    let sessions = SessionCache::new();
    assert!(!resumed(&p, config(&p), &sessions), "nothing to resume yet");
    assert_eq!(sessions.len(), 1, "nginx's ticket is kept");
    assert!(resumed(&p, config(&p), &sessions));
    // Each connection takes one ticket and keeps the newest its server sends.
    assert!(resumed(&p, config(&p), &sessions));
    sessions.clear();
    assert!(!resumed(&p, config(&p), &sessions));
}

#[test]
fn other_trust_settings_never_resume_a_session() {
    let Some(p) = Peers::load("shared sessions") else {
        return;
    };
    let sessions = SessionCache::new();
    assert!(!resumed(&p, config(&p), &sessions));
    // The same anchors with the leaf's own pin on top: the session was made without the
    // pin's check, so it is not resumed (and the full handshake passes the pin).
    let mut pinned = config(&p);
    pinned.tls.pins = vec![leaf_pin(&p)];
    assert!(
        !resumed(&p, pinned.clone(), &sessions),
        "pins: full handshake"
    );
    assert!(resumed(&p, pinned, &sessions), "its own session resumes");
    // Another anchor bundle (the same CA twice) is another trust setting.
    let mut bundle = config(&p);
    bundle.tls.trust = Trust::AnchorsPem(vec![p.ca_pem(), p.ca_pem()]);
    assert!(
        !resumed(&p, bundle, &sessions),
        "other anchors: full handshake"
    );
    // The first settings still find their own ticket.
    assert!(resumed(&p, config(&p), &sessions));
}

#[test]
fn a_session_made_directly_is_not_resumed_through_a_proxy() {
    let Some(p) = Peers::load("shared sessions") else {
        return;
    };
    let sessions = SessionCache::new();
    assert!(!resumed(&p, config(&p), &sessions));
    let mut proxied = config(&p);
    proxied.proxy =
        Some(Proxy::parse(&format!("http://127.0.0.1:{}", p.port("HTTP_PROXY"))).unwrap());
    assert!(
        !resumed(&p, proxied.clone(), &sessions),
        "new route: full handshake"
    );
    assert!(resumed(&p, proxied, &sessions), "its own session resumes");
    assert!(
        resumed(&p, config(&p), &sessions),
        "the direct one is still there"
    );
}

#[test]
fn clients_do_not_share_sessions_unless_given_one_cache() {
    let Some(p) = Peers::load("shared sessions") else {
        return;
    };
    let url = format!("https://localhost:{}/info", p.port("TLS13"));
    let fresh = || {
        burrow_native::block_on_local(async {
            let c = Client::new(TokioNet, config(&p));
            let mut r = c.fetch(Request::get(&url).unwrap()).await.unwrap();
            r.bytes().await.unwrap();
            r.meta.tls.as_ref().unwrap().resumed
        })
        .unwrap()
    };
    assert!(!fresh());
    assert!(!fresh());

    let off = SessionCache::disabled();
    assert!(!resumed(&p, config(&p), &off));
    assert!(!resumed(&p, config(&p), &off));
    assert!(off.is_empty());
}
