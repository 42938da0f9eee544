//! Clients sharing one `ChainCache` (as a Worker's isolate does) against nginx with session
//! resumption off: the second client's full handshake checks only the server's
//! CertificateVerify, its chain answered from the cache (counted through the offload seam,
//! the path the Worker's WebCrypto takes); other trust settings or a disabled cache validate
//! the chain again.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::rc::Rc;

use burrow_client::{
    ChainCache, Client, ClientConfig, InlineOffload, Offload, Request, SessionCache, Trust,
};
use burrow_native::TokioNet;
use burrow_testkit::peers::Peers;

/// Anchored at the peers' CA, signatures through `provider`, validated chains in `chains`.
fn config(p: &Peers, provider: &Rc<InlineOffload>, chains: &ChainCache) -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.tls.offload = Some(Offload(provider.clone()));
    cfg.tls.chain_cache = chains.clone();
    cfg
}

/// One GET of `/1k` on nginx's TLS 1.3 server by a new client that keeps no tickets: the
/// signatures it checked.
fn signatures(p: &Peers, cfg: ClientConfig, provider: &Rc<InlineOffload>) -> u64 {
    signatures_at(p, "TLS13", cfg, provider)
}

/// [`signatures`] on the peer `name`.
fn signatures_at(p: &Peers, name: &str, cfg: ClientConfig, provider: &Rc<InlineOffload>) -> u64 {
    let url = format!("https://localhost:{}/1k", p.port(name));
    let before = provider.counts().verifies;
    burrow_native::block_on_local(async {
        let c = Client::with_sessions(TokioNet, cfg, SessionCache::disabled());
        let mut r = c.fetch(Request::get(&url).unwrap()).await.unwrap();
        assert_eq!(r.status, 200);
        r.bytes().await.unwrap();
        let tls = r.meta.tls.as_ref().expect("an https origin");
        assert!(!tls.resumed, "no session cache: a full handshake");
        assert!(tls.certificate.as_ref().unwrap().path_len >= 2);
    })
    .unwrap();
    provider.counts().verifies - before
}

#[test]
fn a_second_client_skips_the_chain_the_first_one_validated() {
    let Some(p) = Peers::load("shared chains") else {
        return;
    };
    let provider = Rc::new(InlineOffload::new());
    let chains = ChainCache::new();
    let cold = signatures(&p, config(&p, &provider, &chains), &provider);
    assert!(
        cold >= 2,
        "CertificateVerify and at least the leaf's: {cold}"
    );
    assert_eq!((chains.stats().misses, chains.len()), (1, 1));
    let warm = signatures(&p, config(&p, &provider, &chains), &provider);
    assert_eq!(warm, 1, "CertificateVerify only ({cold} uncached)");
    assert_eq!(chains.stats().hits, 1);
    // The same chain on another origin (nginx's TLS 1.2 + 1.3 server): a hit too, as the cache
    // is filed by chain and trust, not by origin.
    assert_eq!(p.var("PEER_DEF__CERT"), p.var("PEER_TLS13__CERT"));
    assert_eq!(
        signatures_at(&p, "DEF", config(&p, &provider, &chains), &provider),
        1
    );
    assert_eq!(chains.stats().hits, 2);

    // Other anchors (the same CA twice): another trust setting, validated again.
    let mut bundle = config(&p, &provider, &chains);
    bundle.tls.trust = Trust::AnchorsPem(vec![p.ca_pem(), p.ca_pem()]);
    assert_eq!(signatures(&p, bundle, &provider), cold);
    // A disabled cache, or a client's own new one: validated again.
    let off = config(&p, &provider, &ChainCache::disabled());
    assert_eq!(signatures(&p, off, &provider), cold);
    let own = config(&p, &provider, &ChainCache::new());
    assert_eq!(signatures(&p, own, &provider), cold);
    assert_eq!(chains.stats().hits, 2);
}
