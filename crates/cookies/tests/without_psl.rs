//! The jar built without the public suffix list (`--no-default-features`): a Domain attribute
//! never widens a cookie beyond the host that set it. (With the list, `jar_rules.rs` holds the
//! Domain cases.)
#![cfg(not(feature = "psl"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_cookies::Jar;

const NOW: i64 = 1_700_000_000;

fn url(s: &str) -> url::Url {
    url::Url::parse(s).unwrap()
}

#[test]
fn domain_cookies_are_host_only() {
    let mut jar = Jar::new();
    let www = url("https://www.example.com/");
    jar.store(&www, "a=1; Domain=example.com", NOW).unwrap();
    // `com` may be a public suffix and nothing says otherwise: kept, but only for its host.
    jar.store(&www, "b=2; Domain=com", NOW).unwrap();
    assert_eq!(
        jar.cookie_header(&www, NOW + 1).as_deref(),
        Some("a=1; b=2")
    );
    assert_eq!(
        jar.cookie_header(&url("https://api.example.com/"), NOW + 1),
        None
    );
    assert_eq!(
        jar.cookie_header(&url("https://example.com/"), NOW + 1),
        None
    );
    assert_eq!(jar.cookie_header(&url("https://other.com/"), NOW + 1), None);
}

#[test]
fn a_domain_the_host_is_not_in_is_still_refused() {
    let mut jar = Jar::new();
    let err = jar
        .store(
            &url("https://www.example.com/"),
            "a=1; Domain=other.com",
            NOW,
        )
        .unwrap_err();
    assert_eq!(err.code(), "COOKIE_REJECTED_DOMAIN_MISMATCH");
}
