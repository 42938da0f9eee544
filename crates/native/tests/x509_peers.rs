//! burrow-x509 behind burrow-client's `TlsStream` ([`burrow_native::fetch`]) against the
//! local peers: every bad certificate port fails with its own x509 code, the staple ports fail
//! only when staples are requested and checked, the good ports succeed and report the staple
//! status, and pins report what they saw. Expectations come from peers.tab (`EXPECT`,
//! `STAPLE`), anchors = its root CA.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_client::{CertReport, Error};
use burrow_handshake::AlertDescription;
use burrow_native::{alert_for, fetch, FetchOptions, FetchResult, Revocation, StapleStatus, Trust};
use burrow_testkit::peers::Peers;
use burrow_x509::{certificates_from_pem, format_pin, spki_sha256, Certificate};

fn opts(p: &Peers, name: &str) -> FetchOptions {
    let mut o = FetchOptions::new("127.0.0.1", p.port(name), Some("localhost"), "/");
    o.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    o
}

/// What verification concluded on a full handshake.
fn report(r: &FetchResult) -> &CertReport {
    r.tls
        .certificate
        .as_ref()
        .expect("a full handshake reports its certificate")
}

/// The x509 code a correct client must fail with on `name` (staples requested and checked),
/// or `None` when it must succeed, from peers.tab.
fn expected_code(p: &Peers, name: &str) -> Option<String> {
    let expect = p.prop(name, "EXPECT").unwrap();
    if expect != "ok" {
        return Some(expect.to_ascii_uppercase());
    }
    match p.prop(name, "STAPLE").unwrap() {
        "none" | "good" => None,
        "revoked" => Some("OCSP_REVOKED".into()),
        "wrong_cert" => Some("OCSP_MISMATCH".into()),
        other => panic!("{name}: unknown STAPLE value {other}"),
    }
}

fn fails_with(o: &FetchOptions, name: &str) -> burrow_x509::Error {
    match fetch(o) {
        Err(Error::Certificate(e)) => e,
        Err(other) => panic!("{name}: expected a certificate error, got {other}"),
        Ok(r) => panic!(
            "{name}: expected a certificate error, got status {} ({:?})",
            r.response.status, r.tls.certificate
        ),
    }
}

fn succeeds(o: &FetchOptions, name: &str) -> FetchResult {
    let r = fetch(o).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(r.response.status, 200, "{name}");
    r
}

fn check_rejected(name: &str) {
    let Some(p) = Peers::load(name) else { return };
    let want = expected_code(&p, name).expect("peers.tab says this port must fail");
    let e = fails_with(&opts(&p, name), name);
    assert_eq!(e.code(), want, "{name}: {e}");
    let err = fetch(&opts(&p, name)).unwrap_err();
    assert_eq!(err.code(), want, "Error::code surfaces the x509 code");
    assert!(
        err.to_string().contains(&want),
        "{name}: message names the code: {err}"
    );
}

#[test]
fn expired_port_fails_with_cert_expired() {
    check_rejected("EXPIRED");
}

#[test]
fn notyet_port_fails_with_cert_not_yet_valid() {
    check_rejected("NOTYET");
}

#[test]
fn wronghost_port_fails_with_cert_name_mismatch() {
    check_rejected("WRONGHOST");
}

#[test]
fn selfsigned_port_fails_with_cert_untrusted() {
    check_rejected("SELFSIGNED");
}

#[test]
fn rejected_ports_send_the_matching_alert() {
    let Some(p) = Peers::load("EXPIRED") else {
        return;
    };
    let cases = [
        ("EXPIRED", AlertDescription::CERTIFICATE_EXPIRED),
        ("NOTYET", AlertDescription::CERTIFICATE_EXPIRED),
        ("WRONGHOST", AlertDescription::BAD_CERTIFICATE),
        ("SELFSIGNED", AlertDescription::UNKNOWN_CA),
        ("STAPLE_REVOKED", AlertDescription::CERTIFICATE_REVOKED),
        (
            "STAPLE_MISMATCH",
            AlertDescription::BAD_CERTIFICATE_STATUS_RESPONSE,
        ),
    ];
    for (name, alert) in cases {
        let e = fails_with(&opts(&p, name), name);
        assert_eq!(alert_for(&e), alert, "{name}: {e}");
    }
}

#[test]
fn each_bad_port_has_its_own_code() {
    let Some(p) = Peers::load("x509 ports") else {
        return;
    };
    let names = [
        "EXPIRED",
        "NOTYET",
        "WRONGHOST",
        "SELFSIGNED",
        "STAPLE_REVOKED",
        "STAPLE_MISMATCH",
    ];
    let mut codes: Vec<&str> = names
        .iter()
        .map(|n| fails_with(&opts(&p, n), n).code())
        .collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), names.len(), "codes: {codes:?}");
}

fn check_staple_port(name: &str) {
    let Some(p) = Peers::load(name) else { return };
    let want = expected_code(&p, name).expect("peers.tab says a checking client must fail");
    // Asking for and checking staples: refused with the OCSP code.
    let e = fails_with(&opts(&p, name), name);
    assert_eq!(e.code(), want, "{name}: {e}");
    // Not asking: the server staples nothing and the chain itself is fine (EXPECT=ok).
    assert_eq!(p.prop(name, "EXPECT"), Some("ok"));
    let mut o = opts(&p, name);
    o.tls.request_staple = false;
    let r = succeeds(&o, name);
    assert_eq!(report(&r).staple, StapleStatus::None, "{name}");
    assert!(r.tls.stapled_ocsp.is_none(), "{name}");
}

#[test]
fn staple_revoked_fails_with_ocsp_revoked_when_checked() {
    check_staple_port("STAPLE_REVOKED");
}

#[test]
fn staple_mismatch_fails_with_ocsp_mismatch_when_checked() {
    check_staple_port("STAPLE_MISMATCH");
}

fn check_good(name: &str) -> FetchResult {
    let Some(p) = Peers::load(name) else {
        panic!("unreachable: BURROW_PEERS=none is handled by the caller");
    };
    assert!(expected_code(&p, name).is_none(), "{name} must succeed");
    let r = succeeds(&opts(&p, name), name);
    let c = report(&r);
    assert!(!c.insecure, "{name}");
    assert!(c.path_len >= 2, "{name}: path {c:?}");
    assert!(!c.anchor_subject.is_empty(), "{name}");
    assert!(c.leaf_pin.starts_with("sha256/"), "{name}");
    match p.prop(name, "STAPLE").unwrap() {
        "good" => assert!(
            matches!(c.staple, StapleStatus::Good(g) if g.this_update > 0),
            "{name}: staple {:?}",
            c.staple
        ),
        "none" => assert_eq!(c.staple, StapleStatus::None, "{name}"),
        other => panic!("{name}: STAPLE {other}"),
    }
    eprintln!(
        "{name}: path {} presented {} staple {:?} leaf {}",
        c.path_len, c.presented, c.staple, c.leaf_pin
    );
    r
}

fn peers_up() -> bool {
    Peers::load("x509 good ports").is_some()
}

#[test]
fn staple_good_succeeds_with_a_good_staple() {
    if peers_up() {
        check_good("STAPLE_GOOD");
    }
}

#[test]
fn p384_succeeds() {
    if peers_up() {
        check_good("P384");
    }
}

#[test]
fn rsa_succeeds() {
    if peers_up() {
        check_good("RSA");
    }
}

#[test]
fn gnutls_succeeds_with_its_staple() {
    if peers_up() {
        check_good("GNUTLS");
    }
}

#[test]
fn openssl_s_server_hrr_succeeds_with_its_staple() {
    if peers_up() {
        let r = check_good("SSERVER_HRR");
        assert!(r.tls.hello_retry);
    }
}

#[test]
fn require_staple_refuses_a_server_without_one() {
    let Some(p) = Peers::load("TLS13") else {
        return;
    };
    assert_eq!(p.prop("TLS13", "STAPLE"), Some("none"));
    let mut o = opts(&p, "TLS13");
    o.tls.revocation = Revocation::RequireStaple;
    assert_eq!(fails_with(&o, "TLS13").code(), "OCSP_STAPLE_REQUIRED");
    let mut o = opts(&p, "STAPLE_GOOD");
    o.tls.revocation = Revocation::RequireStaple;
    let r = succeeds(&o, "STAPLE_GOOD");
    assert!(matches!(report(&r).staple, StapleStatus::Good(_)));
}

fn root_pin(p: &Peers) -> String {
    let ders = certificates_from_pem(&p.ca_pem()).unwrap();
    let root = Certificate::from_der(ders.first().unwrap()).unwrap();
    format_pin(&spki_sha256(root.spki()))
}

#[test]
fn pins_accept_the_root_and_report_seen_pins_on_mismatch() {
    let Some(p) = Peers::load("TLS13") else {
        return;
    };
    let root = root_pin(&p);
    let mut o = opts(&p, "TLS13");
    o.tls.pins = vec![root.clone()];
    let ok = succeeds(&o, "TLS13");
    let leaf = report(&ok).leaf_pin.clone();

    let wrong = format!("sha256/{}", "A".repeat(43) + "=");
    o.tls.pins = vec![wrong];
    let err = fetch(&o).unwrap_err();
    assert_eq!(err.code(), "CERT_PIN_MISMATCH");
    let msg = err.to_string();
    assert!(msg.contains(&root), "lists the root's pin: {msg}");
    assert!(msg.contains(&leaf), "lists the leaf's pin: {msg}");
    let Error::Certificate(burrow_x509::Error::PinMismatch(seen)) = err else {
        panic!("{msg}")
    };
    assert!(seen.hashes().len() >= 2);
}

#[test]
fn system_roots_do_not_trust_the_test_ca() {
    let Some(p) = Peers::load("TLS13") else {
        return;
    };
    let mut o = opts(&p, "TLS13");
    o.tls.trust = Trust::System;
    assert_eq!(fails_with(&o, "TLS13").code(), "CERT_UNTRUSTED");
}

#[test]
fn insecure_mode_accepts_the_self_signed_port_and_says_so() {
    let Some(p) = Peers::load("SELFSIGNED") else {
        return;
    };
    let mut o = opts(&p, "SELFSIGNED");
    o.tls.trust = Trust::InsecureAcceptAnyCertificate;
    let r = succeeds(&o, "SELFSIGNED");
    assert!(report(&r).insecure);
    assert_eq!(report(&r).staple, StapleStatus::NotChecked);
}

#[test]
fn a_bad_pin_is_a_configuration_error_before_connecting() {
    let Some(p) = Peers::load("TLS13") else {
        return;
    };
    let mut o = opts(&p, "TLS13");
    o.tls.pins = vec!["sha1/abc".into()];
    let e = fetch(&o).unwrap_err();
    assert!(matches!(e, Error::TrustConfig(_)), "{e}");
}

#[test]
fn ip_literal_without_sni_matches_the_ip_san_and_other_names_do_not() {
    let Some(p) = Peers::load("TLS13") else {
        return;
    };
    let mut o = opts(&p, "TLS13");
    o.server_name = None;
    let r = succeeds(&o, "TLS13 by IP");
    assert!(report(&r).path_len >= 2);
    let mut o = opts(&p, "TLS13");
    o.server_name = Some("example.com".into());
    assert_eq!(
        fails_with(&o, "TLS13 as example.com").code(),
        "CERT_NAME_MISMATCH"
    );
}

#[test]
fn resumption_reports_no_certificate() {
    let Some(p) = Peers::load("TLS13") else {
        return;
    };
    let mut o = opts(&p, "TLS13");
    let first = succeeds(&o, "TLS13");
    assert!(report(&first).presented >= 1);
    o.ticket = first.ticket;
    assert!(o.ticket.is_some(), "nginx issues tickets");
    let second = succeeds(&o, "TLS13 resumed");
    assert!(second.tls.resumed);
    assert_eq!(second.tls.certificate, None);
    assert!(second.tls.peer_chain.is_empty());
    assert_eq!(second.tls.ocsp, StapleStatus::NotChecked);
}
