//! The verified-chain cache through the TLS handshake (`TlsSettings::chain_cache`): a second
//! full handshake to a chain already validated checks only the handshake signature, whether
//! signatures are checked inline or through an offload provider (the Worker's WebCrypto path),
//! and the host name is still checked on a hit.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

mod common;

use std::rc::Rc;

use burrow_client::{
    ChainCache, CryptoOffload, Error, InlineOffload, Offload, TlsSettings, TlsStream, Trust,
};
use burrow_testkit::tls13_server::{ServerConfig, Tls13Server};

use common::{now, settings, wire_to, MemStream};

/// A server whose leaf its own CA issued (one chain signature to check), and trust in that CA.
fn server() -> (ServerConfig, Trust) {
    let config = ServerConfig {
        with_ca: true,
        ..ServerConfig::new("origin.test")
    };
    let ca = Tls13Server::new(config.clone())
        .ca_certificate_der()
        .unwrap()
        .to_vec();
    (
        config,
        Trust::AnchorsPem(vec![burrow_testkit::pem::certificate(&ca)]),
    )
}

/// A full handshake to a fresh server for `host`.
fn connect(
    config: &ServerConfig,
    host: &str,
    s: &TlsSettings,
) -> Result<TlsStream<MemStream>, Error> {
    let wire = wire_to(config.clone());
    // A refused certificate makes the client send an alert, which the server refuses in turn.
    wire.borrow_mut().allow_refusal = true;
    now(TlsStream::connect(
        MemStream(wire),
        host,
        s,
        1_700_000_000_000,
    ))
}

#[test]
fn a_second_full_handshake_checks_only_the_handshake_signature() {
    let (config, trust) = server();
    let offload = Rc::new(InlineOffload::new());
    let cache = ChainCache::new();
    let s = TlsSettings {
        trust,
        offload: Some(Offload(Rc::clone(&offload) as Rc<dyn CryptoOffload>)),
        chain_cache: cache.clone(),
        ..settings()
    };
    let first = connect(&config, "origin.test", &s).unwrap();
    // CertificateVerify and the leaf's signature by the CA.
    assert_eq!(offload.counts().verifies, 2);
    assert_eq!((cache.stats().misses, cache.len()), (1, 1));
    let second = connect(&config, "origin.test", &s).unwrap();
    assert_eq!(offload.counts().verifies, 3, "CertificateVerify only");
    assert_eq!(cache.stats().hits, 1);
    assert_eq!(second.info().certificate, first.info().certificate);
    assert_eq!(second.info().certificate.as_ref().unwrap().path_len, 2);

    // The name is checked on a hit.
    let e = connect(&config, "other.test", &s).err().unwrap();
    assert_eq!(e.code(), "CERT_NAME_MISMATCH");
    assert_eq!(cache.stats().hits, 2);
    assert_eq!(offload.counts().verifies, 4);

    // Off: the chain is checked every time.
    let off = TlsSettings {
        chain_cache: ChainCache::disabled(),
        ..s.clone()
    };
    connect(&config, "origin.test", &off).unwrap();
    assert_eq!(offload.counts().verifies, 6);
    assert_eq!(cache.stats().hits, 2);
}

#[test]
fn inline_signature_checks_use_the_cache_too() {
    let (config, trust) = server();
    let cache = ChainCache::new();
    let s = TlsSettings {
        trust,
        chain_cache: cache.clone(),
        ..settings()
    };
    connect(&config, "origin.test", &s).unwrap();
    connect(&config, "origin.test", &s).unwrap();
    let stats = cache.stats();
    assert_eq!((stats.hits, stats.misses, stats.entries), (1, 1, 1));
    // Insecure trust, given the same cache, validates nothing and leaves it alone.
    let insecure = TlsSettings {
        chain_cache: cache.clone(),
        ..settings()
    };
    connect(&config, "origin.test", &insecure).unwrap();
    assert_eq!(cache.stats(), stats);
}
