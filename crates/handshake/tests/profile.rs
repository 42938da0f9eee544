//! The ClientHello follows the Profile: GREASE, SNI, ALPN, padding, extension order.
#![cfg(not(target_arch = "wasm32"))]
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

use burrow_handshake::*;
use common::server::{client, pump, Server};

/// (type, body) of each ClientHello extension.
fn extensions(ch_record: &[u8]) -> Vec<(u16, Vec<u8>)> {
    let b = &ch_record[9..];
    let mut i = 2 + 32;
    i += 1 + b[i] as usize;
    i += 2 + u16::from_be_bytes([b[i], b[i + 1]]) as usize;
    i += 1 + b[i] as usize;
    let end = i + 2 + u16::from_be_bytes([b[i], b[i + 1]]) as usize;
    i += 2;
    let mut out = Vec::new();
    while i < end {
        let t = u16::from_be_bytes([b[i], b[i + 1]]);
        let n = u16::from_be_bytes([b[i + 2], b[i + 3]]) as usize;
        out.push((t, b[i + 4..i + 4 + n].to_vec()));
        i += 4 + n;
    }
    out
}

fn is_grease(v: u16) -> bool {
    v & 0x0f0f == 0x0a0a && v >> 8 == v & 0xff
}

#[test]
fn grease_everywhere_and_the_handshake_still_works() {
    let mut p = Profile::default_web();
    p.grease = GreasePlaces::ALL;
    let (mut c, ch) = client(p, SignatureCheck::Inline);
    let exts = extensions(&ch);
    assert!(is_grease(exts[0].0), "GREASE extension first");
    let suites_at = 9 + 2 + 32 + 1 + 32 + 2;
    assert!(
        is_grease(u16::from_be_bytes([ch[suites_at], ch[suites_at + 1]])),
        "GREASE cipher suite"
    );
    let groups = &exts.iter().find(|e| e.0 == 10).unwrap().1;
    assert!(is_grease(u16::from_be_bytes([groups[2], groups[3]])));
    let versions = &exts.iter().find(|e| e.0 == 43).unwrap().1;
    assert!(is_grease(u16::from_be_bytes([versions[1], versions[2]])));
    let mut srv = Server::new(&ch);
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, cert]));
    let cv = srv.certificate_verify(false);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    let (r, _) = pump(&mut c, &bytes);
    assert!(matches!(r.unwrap()[0], Event::HandshakeDone(_)));
}

#[test]
fn extension_order_sni_alpn_and_padding_follow_the_profile() {
    let (_, ch) = client(Profile::default_web(), SignatureCheck::Inline);
    let types: Vec<u16> = extensions(&ch).iter().map(|e| e.0).collect();
    // default_web without GREASE: server_name, ems, reneg, groups, session_ticket, alpn,
    // status_request, sigalgs, sct, key_share, psk modes, versions, [padding].
    assert_eq!(
        &types[..12],
        &[0, 23, 0xff01, 10, 35, 16, 5, 13, 18, 51, 45, 43]
    );
    let exts = extensions(&ch);
    assert_eq!(exts[0].1, b"\x00\x0f\x00\x00\x0cexample.test");
    assert_eq!(exts[5].1, b"\x00\x09\x08http/1.1");
    let hs_len = ch.len() - 5;
    if types.contains(&21) {
        assert_eq!(hs_len, 512, "padding brings 256..511-byte hellos to 512");
    } else {
        assert!(!(256..512).contains(&hs_len));
    }
    let mut p = Profile::default_web();
    p.alpn.clear();
    p.extension_order.reverse();
    let (_, ch) = client(p, SignatureCheck::Inline);
    let types: Vec<u16> = extensions(&ch).iter().map(|e| e.0).collect();
    assert!(!types.contains(&16), "no ALPN when none is configured");
    assert_eq!(types[0], 43, "reversed order is honoured");
}

#[test]
fn add_status_request_puts_it_where_openssl_does_and_only_once() {
    use ExtensionSlot as E;
    let mut p = Profile::default_web();
    assert!(p.requests_staple());
    let before = p.extension_order.clone();
    p.add_status_request();
    assert_eq!(p.extension_order, before, "already there");
    // After supported_groups.
    p.extension_order.retain(|s| *s != E::StatusRequest);
    assert!(!p.requests_staple());
    p.add_status_request();
    let at = |p: &Profile, s| p.extension_order.iter().position(|x| *x == s);
    assert_eq!(
        at(&p, E::StatusRequest),
        at(&p, E::SupportedGroups).map(|i| i + 1)
    );
    let (_, ch) = client(p.clone(), SignatureCheck::Inline);
    let types: Vec<u16> = extensions(&ch).iter().map(|e| e.0).collect();
    let sg = types.iter().position(|t| *t == 10).unwrap();
    assert_eq!(types[sg + 1], 5, "status_request follows supported_groups");
    assert_eq!(extensions(&ch)[sg + 1].1, vec![1, 0, 0, 0, 0]);
    // No supported_groups slot: before key_share; neither: before pre_shared_key; else last.
    let mut p = Profile::default_web();
    p.extension_order
        .retain(|s| *s != E::StatusRequest && *s != E::SupportedGroups);
    let ks = at(&p, E::KeyShare).unwrap();
    p.add_status_request();
    assert_eq!(at(&p, E::StatusRequest), Some(ks));
    assert_eq!(at(&p, E::KeyShare), Some(ks + 1));
    p.extension_order
        .retain(|s| *s != E::StatusRequest && *s != E::KeyShare);
    let psk = at(&p, E::PreSharedKey).unwrap();
    p.add_status_request();
    assert_eq!(at(&p, E::StatusRequest), Some(psk));
    p.extension_order
        .retain(|s| *s != E::StatusRequest && *s != E::PreSharedKey);
    p.add_status_request();
    assert_eq!(p.extension_order.last(), Some(&E::StatusRequest));
}

#[test]
fn signature_algorithms_cert_is_sent_only_when_listed() {
    use ExtensionSlot as E;
    let mut p = Profile::default_web();
    let at = p
        .extension_order
        .iter()
        .position(|s| *s == E::SignatureAlgorithms)
        .unwrap();
    p.extension_order.insert(at + 1, E::SignatureAlgorithmsCert);
    let (_, ch) = client(p.clone(), SignatureCheck::Inline);
    assert!(
        !extensions(&ch).iter().any(|e| e.0 == 50),
        "empty list: omitted"
    );
    p.signature_schemes_cert = vec![
        SignatureScheme::ECDSA_SECP256R1_SHA256,
        SignatureScheme::ED25519,
    ];
    let (_, ch) = client(p, SignatureCheck::Inline);
    let exts = extensions(&ch);
    let i = exts.iter().position(|e| e.0 == 13).unwrap();
    assert_eq!(exts[i + 1], (50, vec![0, 4, 4, 3, 8, 7]));
}
