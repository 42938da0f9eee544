//! TLS 1.2 interop against the local peers (../shared/peers): the default ClientHello (1.3 +
//! 1.2) against 1.2-only servers, each of the six ECDHE AEAD suites forced through the profile,
//! full chain validation against the peers' CA, `/1k` byte-exact against the docroot, over
//! burrow-client's `TlsStream` ([`burrow_native::fetch`]).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_handshake::{CipherSuite, NamedGroup, Profile, SignatureScheme};
use burrow_native::{fetch, FetchOptions, FetchResult, Trust};
use burrow_testkit::peers::Peers;

const ECDSA_SUITES: [CipherSuite; 3] = [
    CipherSuite::ECDHE_ECDSA_AES_128_GCM_SHA256,
    CipherSuite::ECDHE_ECDSA_AES_256_GCM_SHA384,
    CipherSuite::ECDHE_ECDSA_CHACHA20_POLY1305_SHA256,
];
const RSA_SUITES: [CipherSuite; 3] = [
    CipherSuite::ECDHE_RSA_AES_128_GCM_SHA256,
    CipherSuite::ECDHE_RSA_AES_256_GCM_SHA384,
    CipherSuite::ECDHE_RSA_CHACHA20_POLY1305_SHA256,
];

fn opts(p: &Peers, name: &str, path: &str, profile: Profile) -> FetchOptions {
    let mut o = FetchOptions::new("127.0.0.1", p.port(name), Some("localhost"), path);
    o.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    o.tls.profile = profile;
    o
}

fn get(p: &Peers, name: &str, path: &str, profile: Profile) -> FetchResult {
    let r = fetch(&opts(p, name, path, profile)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(r.response.status, 200, "{name}");
    r
}

fn www_file(p: &Peers, rel: &str) -> Vec<u8> {
    std::fs::read(p.www().join(rel)).unwrap()
}

/// A profile offering only TLS 1.2 and only `suite` (and, for RSA suites, only RSA schemes so
/// a server with both leafs picks the RSA one).
fn only(suite: CipherSuite) -> Profile {
    let mut p = Profile::default_web();
    p.cipher_suites = vec![suite];
    if RSA_SUITES.contains(&suite) {
        p.signature_schemes.retain(|s| {
            matches!(
                *s,
                SignatureScheme::RSA_PSS_RSAE_SHA256
                    | SignatureScheme::RSA_PSS_RSAE_SHA384
                    | SignatureScheme::RSA_PSS_RSAE_SHA512
                    | SignatureScheme::RSA_PKCS1_SHA256
                    | SignatureScheme::RSA_PKCS1_SHA384
                    | SignatureScheme::RSA_PKCS1_SHA512
            )
        });
    }
    p
}

fn check_1k(p: &Peers, name: &str, profile: Profile) -> FetchResult {
    let r = get(p, name, "/1k", profile);
    assert_eq!(
        r.response.body,
        www_file(p, "1k"),
        "{name}: body must be byte-exact"
    );
    r
}

#[test]
fn nginx_tls12_default_hello() {
    let Some(p) = Peers::load("TLS12") else {
        return;
    };
    let r = check_1k(&p, "TLS12", Profile::default_web());
    let suite = CipherSuite(r.tls.cipher_suite);
    assert!(
        ECDSA_SUITES.contains(&suite) || RSA_SUITES.contains(&suite),
        "TLS12: a 1.2 suite must be negotiated, got {suite:?}"
    );
    assert_eq!(NamedGroup(r.tls.group), NamedGroup::X25519);
    assert!(r.close_notify, "nginx ends with close_notify");
}

#[test]
fn nginx_tls12_each_suite_forced() {
    let Some(p) = Peers::load("TLS12") else {
        return;
    };
    for suite in ECDSA_SUITES.into_iter().chain(RSA_SUITES) {
        let r = check_1k(&p, "TLS12", only(suite));
        assert_eq!(CipherSuite(r.tls.cipher_suite), suite);
    }
}

#[test]
fn nginx_tls12_each_group_forced() {
    let Some(p) = Peers::load("TLS12") else {
        return;
    };
    for g in [
        NamedGroup::X25519,
        NamedGroup::SECP256R1,
        NamedGroup::SECP384R1,
    ] {
        // RSA: in TLS 1.2 an ECDSA leaf's curve must itself be in supported_groups
        // (RFC 8422 §5.1), so a single-group profile is forced through the RSA leaf.
        let mut prof = only(CipherSuite::ECDHE_RSA_AES_128_GCM_SHA256);
        prof.groups = vec![g];
        let r = fetch(&opts(&p, "TLS12", "/1k", prof));
        let r = r.unwrap_or_else(|e| panic!("{g:?}: {e}"));
        assert_eq!(r.response.body, www_file(&p, "1k"));
        assert_eq!(NamedGroup(r.tls.group), g);
    }
}

#[test]
fn nginx_default_port_forced_to_tls12() {
    let Some(p) = Peers::load("DEF") else {
        return;
    };
    let mut prof = Profile::default_web();
    prof.cipher_suites.retain(|s| (s.0 >> 8) != 0x13);
    let r = check_1k(&p, "DEF", prof);
    assert!(ECDSA_SUITES.contains(&CipherSuite(r.tls.cipher_suite)));
}

#[test]
fn gnutls_tls12_only() {
    let Some(p) = Peers::load("GNUTLS_TLS12") else {
        return;
    };
    let r = get(&p, "GNUTLS_TLS12", "/", Profile::default_web());
    let page = String::from_utf8_lossy(&r.response.body).to_string();
    assert!(
        page.contains("TLS1.2"),
        "gnutls-serv reports TLS1.2: {page}"
    );
    assert!(ECDSA_SUITES.contains(&CipherSuite(r.tls.cipher_suite)));
}

/// Caddy 2.6.2 (its Go) does not implement extended master secret: the default options accept
/// it (full chain validation, each ECDSA suite, byte-exact body), the TLS info says there was
/// no EMS and no ticket comes out (such a session is never resumed), and
/// `require_extended_master_secret` refuses it with the stable code.
#[test]
fn caddy_tls12_without_ems() {
    let Some(p) = Peers::load("CADDY_TLS12") else {
        return;
    };
    for suite in ECDSA_SUITES {
        let r = fetch(&opts(&p, "CADDY_TLS12", "/1k", only(suite)))
            .unwrap_or_else(|e| panic!("CADDY_TLS12 {suite:?}: {e}"));
        assert_eq!(r.response.status, 200);
        assert_eq!(CipherSuite(r.tls.cipher_suite), suite);
        assert_eq!(r.tls.extended_master_secret, Some(false));
        assert!(!r.tls.resumed);
        assert!(
            r.ticket.is_none(),
            "a session without EMS must not be resumable: {:?}",
            r.ticket
        );
        assert_eq!(
            r.response.body,
            www_file(&p, "1k"),
            "CADDY_TLS12: byte-exact body"
        );
    }
    let mut strict = opts(&p, "CADDY_TLS12", "/1k", Profile::default_web());
    strict.tls.require_extended_master_secret = true;
    let e = fetch(&strict).unwrap_err();
    assert_eq!(e.code(), "TLS12_NO_EXTENDED_MASTER_SECRET", "{e}");
}

/// RFC 5077 ticket resumption over TLS 1.2: nginx's `/info` reports the session as reused.
#[test]
fn nginx_tls12_resumes_with_a_ticket() {
    let Some(p) = Peers::load("TLS12") else {
        return;
    };
    let first = get(&p, "TLS12", "/info", Profile::default_web());
    let info = String::from_utf8_lossy(&first.response.body).to_string();
    assert!(info.contains("\"reused\":\".\""), "{info}");
    assert!(!first.tls.resumed);
    let ticket = first.ticket.expect("nginx issues TLS 1.2 tickets");
    assert!(ticket.is_tls12());
    let mut o = opts(&p, "TLS12", "/info", Profile::default_web());
    o.ticket = Some(ticket);
    let second = fetch(&o).unwrap();
    assert!(second.tls.resumed, "the server accepted the ticket");
    assert_eq!(second.tls.cipher_suite, first.tls.cipher_suite);
    let info = String::from_utf8_lossy(&second.response.body).to_string();
    assert!(
        info.contains("\"reused\":\"r\""),
        "nginx /info must report reuse: {info}"
    );
    // And a second resumption from the ticket the resumed connection may renew.
    let again = second.ticket.or(o.ticket).unwrap();
    o.ticket = Some(again);
    let third = fetch(&o).unwrap();
    assert!(third.tls.resumed);
    assert_eq!(third.response.status, 200);
}

/// openssl s_server (1.2 and 1.3) forced to 1.2 by the profile; it staples a good OCSP
/// response, which arrives in a TLS 1.2 CertificateStatus message.
#[test]
fn openssl_s_server_forced_to_tls12_with_staple() {
    let Some(p) = Peers::load("SSERVER_HRR") else {
        return;
    };
    let mut prof = Profile::default_web();
    prof.cipher_suites.retain(|s| (s.0 >> 8) != 0x13);
    let r = get(&p, "SSERVER_HRR", "/", prof);
    let page = String::from_utf8_lossy(&r.response.body).to_string();
    assert!(
        page.contains("TLSv1.2"),
        "s_server -www reports TLSv1.2: {page}"
    );
    assert!(ECDSA_SUITES.contains(&CipherSuite(r.tls.cipher_suite)));
    assert!(
        r.tls.stapled_ocsp.is_some(),
        "the stapled OCSP response (CertificateStatus) reaches the verifier"
    );
}

/// The ServerKeyExchange signed with each RSA scheme family: PKCS#1 v1.5 and PSS (rsae).
#[test]
fn nginx_tls12_rsa_pkcs1_and_pss_signatures() {
    let Some(p) = Peers::load("TLS12") else {
        return;
    };
    for scheme in [
        SignatureScheme::RSA_PKCS1_SHA256,
        SignatureScheme::RSA_PKCS1_SHA384,
        SignatureScheme::RSA_PSS_RSAE_SHA256,
        SignatureScheme::RSA_PSS_RSAE_SHA512,
    ] {
        let mut prof = only(CipherSuite::ECDHE_RSA_AES_128_GCM_SHA256);
        prof.signature_schemes = vec![scheme];
        let r =
            fetch(&opts(&p, "TLS12", "/1k", prof)).unwrap_or_else(|e| panic!("{scheme:?}: {e}"));
        assert_eq!(r.response.body, www_file(&p, "1k"), "{scheme:?}");
    }
}
