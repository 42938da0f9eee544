//! Distinguished names as text (`name_to_text`) and the built-in HTTP profiles by name.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_client::{name_to_text, HttpProfile, MAX_NAME_TEXT};

/// A DER TLV (definite length, short or long form).
use burrow_der::writer::tlv;

/// A Name of one attribute per RDN: (OID bytes, UTF8String value).
fn name(attrs: &[(&[u8], &str)]) -> Vec<u8> {
    let mut rdns = Vec::new();
    for (oid, value) in attrs {
        let mut atv = tlv(0x06, oid);
        atv.extend(tlv(0x0c, value.as_bytes()));
        rdns.extend(tlv(0x31, &tlv(0x30, &atv)));
    }
    tlv(0x30, &rdns)
}

#[test]
fn every_known_attribute_has_its_short_name() {
    let der = name(&[
        (&[0x55, 0x04, 0x06], "DE"),
        (&[0x55, 0x04, 0x08], "Berlin"),
        (&[0x55, 0x04, 0x07], "Mitte"),
        (&[0x55, 0x04, 0x0a], "Burrow"),
        (&[0x55, 0x04, 0x0b], "Tests"),
        (&[0x55, 0x04, 0x03], "example.test"),
        (&[0x55, 0x04, 0x05], "1234"),
        (&[0x2a, 0x03], "other"),
    ]);
    assert_eq!(
        name_to_text(&der),
        "C=DE, ST=Berlin, L=Mitte, O=Burrow, OU=Tests, CN=example.test, serialNumber=1234, \
         ?=other"
    );
}

#[test]
fn a_long_name_is_cut_at_the_limit_with_an_ellipsis() {
    let long = "x".repeat(MAX_NAME_TEXT + 100);
    let text = name_to_text(&name(&[(&[0x55, 0x04, 0x03], &long)]));
    assert_eq!(text.chars().count(), MAX_NAME_TEXT + 1);
    assert!(text.starts_with("CN=xxx"));
    assert!(text.ends_with("x…"));
    // Exactly at the limit: kept whole.
    let fits = "y".repeat(MAX_NAME_TEXT - 3);
    let text = name_to_text(&name(&[(&[0x55, 0x04, 0x03], &fits)]));
    assert_eq!(text, format!("CN={fits}"));
}

#[test]
fn profiles_by_name() {
    assert_eq!(
        HttpProfile::default().headers,
        HttpProfile::by_name("default_web").unwrap().headers
    );
    for known in ["curl", "curl_7_88", "chrome", "default_web"] {
        assert!(HttpProfile::by_name(known).is_some(), "{known}");
        assert!(HttpProfile::user_agent_of(known).is_some(), "{known}");
    }
    assert_eq!(HttpProfile::user_agent_of("curl"), Some("curl/8.21.0"));
    assert!(HttpProfile::by_name("netscape").is_none());
    assert_eq!(HttpProfile::user_agent_of("netscape"), None);
}
