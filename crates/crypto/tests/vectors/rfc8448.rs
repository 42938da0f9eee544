//! The TLS 1.3 key schedule of RFC 8448 (the scenarios that carry the full set of intermediate
//! secrets), driven only through burrow-crypto: X25519, HKDF-Extract, Derive-Secret,
//! HKDF-Expand-Label and HMAC.

use burrow_crypto::hash::HashAlgorithm::Sha256;
use burrow_crypto::kx::{self, Group, KeyShare};
use burrow_crypto::{hkdf, hmac};
use burrow_testkit::hex::decode;
use serde_json::Value;

fn load() -> Option<String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        burrow_testkit::vectors::read_string("rfc8448/rfc8448.json")
    }
    #[cfg(target_arch = "wasm32")]
    {
        burrow_testkit::embedded::require(burrow_testkit::embedded::RFC8448, "rfc8448/rfc8448.json")
            .map(str::to_string)
    }
}

fn label(secret: &[u8], label: &[u8], context: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    hkdf::expand_label(Sha256, secret, label, context, &mut out).expect("expand_label");
    out
}

const REQUIRED: &[&str] = &[
    "server_x25519_private_key",
    "client_x25519_private_key",
    "ecdhe_shared",
    "empty_hash",
    "early_secret",
    "derived_from_early",
    "handshake_secret",
    "hello_transcript_hash",
    "client_hs_traffic",
    "server_hs_traffic",
    "server_hs_key",
    "server_hs_iv",
    "client_hs_key",
    "client_hs_iv",
    "server_finished_key",
    "client_finished_key",
    "derived_from_handshake",
    "master_secret",
    "finished_transcript_hash",
    "client_finished_verify",
    "client_ap_traffic",
    "server_ap_traffic",
    "server_ap_key",
    "client_ap_iv",
    "exporter_master",
    "resumption_master",
    "client_finished_transcript_hash",
    "resumption_psk",
    "resumption_nonce",
];

pub fn key_schedule() {
    let Some(text) = load() else { return };
    let doc: Value = serde_json::from_str(&text).expect("json");
    let mut scenarios = 0;
    let mut checks = 0;
    for (name, s) in doc["scenarios"].as_object().expect("scenarios") {
        // Only scenarios carrying every intermediate value used below (an ECDHE 1-RTT schedule).
        if REQUIRED
            .iter()
            .any(|k| s.get(*k).and_then(Value::as_str).is_none())
        {
            continue;
        }
        let h = |k: &str| {
            decode(
                s[k].as_str()
                    .unwrap_or_else(|| panic!("{name}: {k} missing")),
            )
        };
        let mut eq = |what: &str, got: &[u8], want: Vec<u8>| {
            assert_eq!(
                burrow_testkit::hex::encode(got),
                burrow_testkit::hex::encode(&want),
                "{name}: {what}"
            );
            checks += 1;
        };
        let mut base = [0u8; 32];
        base[0] = 9;
        let server_public =
            kx::x25519(&h("server_x25519_private_key"), &base).expect("server public");
        let client =
            KeyShare::from_seed(Group::X25519, &h("client_x25519_private_key")).expect("seed");
        let shared = client.complete(server_public.as_ref()).expect("dh");
        eq("ecdhe_shared", shared.as_ref(), h("ecdhe_shared"));

        let empty = h("empty_hash");
        let early = hkdf::extract(Sha256, &[], &[0u8; 32]);
        eq("early_secret", early.as_ref(), h("early_secret"));
        let derived = hkdf::derive_secret(Sha256, early.as_ref(), b"derived", &empty);
        eq(
            "derived_from_early",
            derived.as_ref(),
            h("derived_from_early"),
        );
        let hs = hkdf::extract(Sha256, derived.as_ref(), shared.as_ref());
        eq("handshake_secret", hs.as_ref(), h("handshake_secret"));
        let hello = h("hello_transcript_hash");
        let c_hs = hkdf::derive_secret(Sha256, hs.as_ref(), b"c hs traffic", &hello);
        eq("client_hs_traffic", c_hs.as_ref(), h("client_hs_traffic"));
        let s_hs = hkdf::derive_secret(Sha256, hs.as_ref(), b"s hs traffic", &hello);
        eq("server_hs_traffic", s_hs.as_ref(), h("server_hs_traffic"));
        eq(
            "server_hs_key",
            &label(s_hs.as_ref(), b"key", &[], 16),
            h("server_hs_key"),
        );
        eq(
            "server_hs_iv",
            &label(s_hs.as_ref(), b"iv", &[], 12),
            h("server_hs_iv"),
        );
        eq(
            "client_hs_key",
            &label(c_hs.as_ref(), b"key", &[], 16),
            h("client_hs_key"),
        );
        eq(
            "client_hs_iv",
            &label(c_hs.as_ref(), b"iv", &[], 12),
            h("client_hs_iv"),
        );
        eq(
            "server_finished_key",
            &label(s_hs.as_ref(), b"finished", &[], 32),
            h("server_finished_key"),
        );
        let client_finished_key = label(c_hs.as_ref(), b"finished", &[], 32);
        eq(
            "client_finished_key",
            &client_finished_key,
            h("client_finished_key"),
        );

        let derived2 = hkdf::derive_secret(Sha256, hs.as_ref(), b"derived", &empty);
        eq(
            "derived_from_handshake",
            derived2.as_ref(),
            h("derived_from_handshake"),
        );
        let master = hkdf::extract(Sha256, derived2.as_ref(), &[0u8; 32]);
        eq("master_secret", master.as_ref(), h("master_secret"));
        let fin = h("finished_transcript_hash");
        let verify = hmac::sign(Sha256, &client_finished_key, &fin);
        eq(
            "client_finished_verify",
            verify.as_ref(),
            h("client_finished_verify"),
        );
        hmac::verify(
            Sha256,
            &client_finished_key,
            &fin,
            &h("client_finished_verify"),
        )
        .expect("verify");
        let c_ap = hkdf::derive_secret(Sha256, master.as_ref(), b"c ap traffic", &fin);
        eq("client_ap_traffic", c_ap.as_ref(), h("client_ap_traffic"));
        let s_ap = hkdf::derive_secret(Sha256, master.as_ref(), b"s ap traffic", &fin);
        eq("server_ap_traffic", s_ap.as_ref(), h("server_ap_traffic"));
        eq(
            "server_ap_key",
            &label(s_ap.as_ref(), b"key", &[], 16),
            h("server_ap_key"),
        );
        eq(
            "client_ap_iv",
            &label(c_ap.as_ref(), b"iv", &[], 12),
            h("client_ap_iv"),
        );
        let exp = hkdf::derive_secret(Sha256, master.as_ref(), b"exp master", &fin);
        eq("exporter_master", exp.as_ref(), h("exporter_master"));
        let res = hkdf::derive_secret(
            Sha256,
            master.as_ref(),
            b"res master",
            &h("client_finished_transcript_hash"),
        );
        eq("resumption_master", res.as_ref(), h("resumption_master"));
        eq(
            "resumption_psk",
            &label(res.as_ref(), b"resumption", &h("resumption_nonce"), 32),
            h("resumption_psk"),
        );
        scenarios += 1;
    }
    crate::say(&format!(
        "rfc8448.json: key schedule of {scenarios} scenarios, {checks} values matched"
    ));
    assert!(
        scenarios > 0 && checks > 0,
        "rfc8448.json: no scenario with a full key schedule"
    );
}

pub fn label_limits() {
    let secret = [1u8; 32];
    let mut out = [0u8; 32];
    // 249-byte label is the longest allowed ("tls13 " + 249 = 255).
    assert!(hkdf::expand_label(Sha256, &secret, &[b'a'; 249], &[], &mut out).is_ok());
    assert_eq!(
        hkdf::expand_label(Sha256, &secret, &[b'a'; 250], &[], &mut out),
        Err(burrow_crypto::CryptoError::InputTooLong)
    );
    assert_eq!(
        hkdf::expand_label(Sha256, &secret, b"key", &[0u8; 256], &mut out),
        Err(burrow_crypto::CryptoError::InputTooLong)
    );
    assert!(hkdf::try_derive_secret(Sha256, &secret, &[b'a'; 250], &[]).is_err());
    let mut big = vec![0u8; 255 * 32 + 1];
    assert_eq!(
        hkdf::expand(Sha256, &secret, &[], &mut big),
        Err(burrow_crypto::CryptoError::BadOutputLength)
    );
}
