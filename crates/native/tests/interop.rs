//! Interop against the local peers (../shared/peers): handshake, one GET, byte-exact body,
//! resumption, over burrow-client's `TlsStream` ([`burrow_native::fetch`]). The chain is
//! validated by burrow-x509 against the peers' root CA for "localhost", and the
//! CertificateVerify is checked against the leaf's key.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_handshake::{CipherSuite, NamedGroup};
use burrow_native::{fetch, FetchOptions, FetchResult, Trust};
use burrow_testkit::peers::Peers;

fn opts(p: &Peers, name: &str, path: &str) -> FetchOptions {
    let mut o = FetchOptions::new("127.0.0.1", p.port(name), Some("localhost"), path);
    o.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    // The suite and group expectations below are those of burrow's original profile
    // (AES-128 first, an X25519 share); the default is now curl's (AES-256 first).
    o.tls.profile = burrow_handshake::Profile::default_web();
    o
}

fn get(p: &Peers, name: &str, path: &str) -> FetchResult {
    let r = fetch(&opts(p, name, path)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(r.response.status, 200, "{name}");
    assert!(
        r.close_notify,
        "{name}: the server should end with close_notify"
    );
    r
}

fn www_file(p: &Peers, rel: &str) -> Vec<u8> {
    std::fs::read(p.www().join(rel)).unwrap()
}

fn check_static(name: &str, suite: CipherSuite, group: NamedGroup, hrr: bool) {
    let Some(p) = Peers::load(name) else { return };
    let r = get(&p, name, "/1k");
    assert_eq!(
        r.response.body,
        www_file(&p, "1k"),
        "{name}: body must be byte-exact"
    );
    assert_eq!(CipherSuite(r.tls.cipher_suite), suite, "{name}");
    assert_eq!(NamedGroup(r.tls.group), group, "{name}");
    assert_eq!(r.tls.hello_retry, hrr, "{name}");
}

#[test]
fn nginx_tls13_aes128() {
    check_static(
        "TLS13",
        CipherSuite::TLS13_AES_128_GCM_SHA256,
        NamedGroup::X25519,
        false,
    );
}

#[test]
fn nginx_tls13_aes256_only() {
    check_static(
        "TLS13_AES256",
        CipherSuite::TLS13_AES_256_GCM_SHA384,
        NamedGroup::X25519,
        false,
    );
}

#[test]
fn nginx_tls13_chacha_only() {
    check_static(
        "TLS13_CHACHA",
        CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
        NamedGroup::X25519,
        false,
    );
}

#[test]
fn nginx_hrr_to_secp384r1() {
    check_static(
        "HRR",
        CipherSuite::TLS13_AES_128_GCM_SHA256,
        NamedGroup::SECP384R1,
        true,
    );
}

#[test]
fn caddy_tls13() {
    check_static(
        "CADDY",
        CipherSuite::TLS13_AES_128_GCM_SHA256,
        NamedGroup::X25519,
        false,
    );
}

#[test]
fn openssl_s_server_hrr() {
    let Some(p) = Peers::load("SSERVER_HRR") else {
        return;
    };
    let r = get(&p, "SSERVER_HRR", "/");
    assert!(r.tls.hello_retry);
    assert_eq!(NamedGroup(r.tls.group), NamedGroup::SECP384R1);
    assert!(
        String::from_utf8_lossy(&r.response.body).contains("TLSv1.3"),
        "s_server -www reports the protocol"
    );
}

#[test]
fn gnutls_serv() {
    let Some(p) = Peers::load("GNUTLS") else {
        return;
    };
    let r = get(&p, "GNUTLS", "/");
    assert!(!r.response.body.is_empty());
    assert_eq!(r.tls.alpn.as_deref(), Some("http/1.1"));
}

#[test]
fn nginx_resumes_with_a_ticket() {
    let Some(p) = Peers::load("TLS13") else {
        return;
    };
    let first = get(&p, "TLS13", "/info");
    assert!(String::from_utf8_lossy(&first.response.body).contains("\"reused\":\".\""));
    let ticket = first.ticket.expect("nginx issues tickets");
    let mut o = opts(&p, "TLS13", "/info");
    o.ticket = Some(ticket);
    let second = fetch(&o).unwrap();
    assert!(second.tls.resumed, "the server accepted the ticket");
    let info = String::from_utf8_lossy(&second.response.body).to_string();
    assert!(
        info.contains("\"reused\":\"r\""),
        "nginx /info must report reuse: {info}"
    );
}

#[test]
fn wrong_leaf_is_refused_in_pinned_leaf_mode() {
    let Some(p) = Peers::load("TLS13") else {
        return;
    };
    let mut o = opts(&p, "TLS13", "/1k");
    o.tls.trust = Trust::PinnedLeaf(b"not the leaf".to_vec());
    let e = fetch(&o).unwrap_err();
    assert_eq!(e.code(), "CERT_UNTRUSTED");
}

#[test]
fn offering_x25519mlkem768_share_interoperates_with_caddy() {
    let Some(p) = Peers::load("CADDY") else {
        return;
    };
    let mut o = opts(&p, "CADDY", "/1k");
    o.tls.profile.groups.insert(0, NamedGroup::X25519MLKEM768);
    o.tls.profile.key_shares = vec![NamedGroup::X25519MLKEM768, NamedGroup::X25519];
    let r = fetch(&o).unwrap();
    assert_eq!(r.response.body, www_file(&p, "1k"));
    let group = NamedGroup(r.tls.group);
    eprintln!("caddy negotiated group {group:?}");
    assert!(group == NamedGroup::X25519MLKEM768 || group == NamedGroup::X25519);
}

#[test]
fn stapled_ocsp_reaches_the_verifier() {
    for name in ["GNUTLS", "SSERVER_HRR"] {
        let Some(p) = Peers::load(name) else { return };
        assert_eq!(p.prop(name, "STAPLE"), Some("good"));
        let r = get(&p, name, "/");
        assert!(
            r.tls.stapled_ocsp.as_ref().is_some_and(|o| o.len() > 100),
            "{name}: OCSP staple expected"
        );
    }
}
