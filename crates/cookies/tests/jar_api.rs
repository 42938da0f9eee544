//! Jar behaviour outside the header round trip: stored attributes, expiry bookkeeping, codes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_cookies::{Jar, Limits, Rejected, SameSite, MAX_AGE_LIMIT_SECONDS};

const T0: i64 = 1_700_000_000;

fn url(s: &str) -> url::Url {
    url::Url::parse(s).unwrap()
}

#[test]
fn attributes_are_stored_5_7() {
    let mut jar = Jar::new();
    jar.store(
        &url("https://www.example.com/a/b"),
        "id=1; Domain=example.com; Path=/p; Secure; HttpOnly; SameSite=Lax; Max-Age=60",
        T0,
    )
    .unwrap();
    let c = jar.iter().next().unwrap();
    assert_eq!((c.name(), c.value()), ("id", "1"));
    // Without the public suffix list, a Domain attribute keeps the cookie with its host.
    let (domain, host_only) = if cfg!(feature = "psl") {
        ("example.com", false)
    } else {
        ("www.example.com", true)
    };
    assert_eq!((c.domain(), c.host_only()), (domain, host_only));
    assert_eq!(c.path(), "/p");
    assert!(c.secure());
    assert!(c.http_only());
    assert_eq!(c.same_site(), SameSite::Lax);
    assert_eq!(c.expires(), Some(T0 + 60));
    assert_eq!(c.creation_time(), T0);
    assert_eq!(c.last_access_time(), T0);
}

#[test]
fn session_cookie_has_no_expiry_and_defaults_5_7() {
    let mut jar = Jar::new();
    jar.store(&url("http://example.com/x/y"), "s=1", T0)
        .unwrap();
    let c = jar.iter().next().unwrap();
    assert_eq!(c.expires(), None);
    assert!(c.host_only());
    assert_eq!(c.domain(), "example.com");
    assert_eq!(c.path(), "/x");
    assert_eq!(c.same_site(), SameSite::Default);
    assert!(!c.secure() && !c.http_only());
}

#[test]
fn retrieval_updates_last_access_only_for_sent_cookies_5_8_3() {
    let mut jar = Jar::new();
    jar.store(&url("http://example.com/"), "a=1", T0).unwrap();
    jar.store(&url("http://example.com/"), "b=1; Path=/b", T0)
        .unwrap();
    assert_eq!(
        jar.cookie_header(&url("http://example.com/"), T0 + 5)
            .as_deref(),
        Some("a=1")
    );
    let times: Vec<_> = jar
        .iter()
        .map(|c| (c.name().to_owned(), c.last_access_time()))
        .collect();
    assert!(times.contains(&("a".to_owned(), T0 + 5)));
    assert!(times.contains(&("b".to_owned(), T0)));
}

#[test]
fn replacement_keeps_creation_and_updates_access_5_7() {
    let mut jar = Jar::new();
    jar.store(&url("http://example.com/"), "a=1", T0).unwrap();
    jar.store(&url("http://example.com/"), "a=2", T0 + 10)
        .unwrap();
    assert_eq!(jar.len(), 1);
    let c = jar.iter().next().unwrap();
    assert_eq!(c.value(), "2");
    assert_eq!(c.creation_time(), T0);
    assert_eq!(c.last_access_time(), T0 + 10);
}

#[test]
fn expired_cookies_are_removed_on_access() {
    let mut jar = Jar::new();
    jar.store(&url("http://example.com/"), "a=1; Max-Age=10", T0)
        .unwrap();
    jar.store(&url("http://other.example/"), "b=1; Max-Age=100", T0)
        .unwrap();
    assert_eq!(jar.len(), 2);
    assert_eq!(
        jar.cookie_header(&url("http://other.example/"), T0 + 10)
            .as_deref(),
        Some("b=1")
    );
    assert_eq!(
        jar.len(),
        1,
        "the expired cookie of another host is dropped too"
    );
    jar.store(&url("http://example.com/"), "=", T0 + 100)
        .unwrap_err();
    assert_eq!(jar.len(), 1, "refused before expiry sweep: jar unchanged");
    assert_eq!(
        jar.cookie_header(&url("http://other.example/"), T0 + 99)
            .as_deref(),
        Some("b=1"),
        "the refused store left b in place"
    );
    jar.store(&url("http://example.com/"), "c=1", T0 + 100)
        .unwrap();
    assert_eq!(jar.len(), 1, "b expired at T0+100, c stored");
}

#[test]
fn expiry_is_capped_at_400_days() {
    let mut jar = Jar::new();
    jar.store(&url("http://example.com/"), "a=1; Max-Age=99999999999", T0)
        .unwrap();
    assert_eq!(
        jar.iter().next().unwrap().expires(),
        Some(T0 + MAX_AGE_LIMIT_SECONDS)
    );
}

#[test]
fn clear_and_is_empty() {
    let mut jar = Jar::new();
    assert!(jar.is_empty());
    jar.store(&url("http://example.com/"), "a=1", T0).unwrap();
    assert!(!jar.is_empty());
    let copy = jar.clone();
    jar.clear();
    assert!(jar.is_empty());
    assert_eq!(copy.len(), 1, "Clone is a deep copy");
    assert_eq!(jar.cookie_header(&url("http://example.com/"), T0), None);
}

#[test]
fn limits_default_and_custom() {
    let d = Limits::default();
    assert_eq!(
        (d.max_cookie_bytes, d.max_per_domain, d.max_total),
        (4096, 50, 3000)
    );
    let small = Limits {
        max_cookie_bytes: 8,
        ..d
    };
    let mut jar = Jar::with_limits(small);
    assert_eq!(jar.limits(), small);
    jar.store(&url("http://example.com/"), "abc=12345", T0)
        .unwrap();
    let err = jar
        .store(&url("http://example.com/"), "abc=123456", T0)
        .unwrap_err();
    assert_eq!(err, Rejected::TooLarge { bytes: 9, limit: 8 });
    assert!(err.to_string().contains("Limits::max_cookie_bytes"));
}

#[test]
fn many_domains_stay_within_the_total_limit() {
    let limits = Limits {
        max_total: 100,
        max_per_domain: 5,
        ..Limits::default()
    };
    let mut jar = Jar::with_limits(limits);
    for i in 0..300 {
        let u = url(&format!("http://h{}.example/", i % 40));
        jar.store(&u, &format!("c{i}=v"), T0 + i).unwrap();
        assert!(jar.len() <= 100);
        let mut per: std::collections::HashMap<&str, usize> = Default::default();
        for c in jar.iter() {
            *per.entry(c.domain()).or_default() += 1;
        }
        assert!(per.values().all(|&n| n <= 5));
    }
    assert_eq!(jar.len(), 100);
}

#[test]
fn codes_are_distinct_and_messages_say_why() {
    let all = [
        Rejected::SetCookieTooLong {
            bytes: 9000,
            limit: 8192,
        },
        Rejected::TooLarge {
            bytes: 5000,
            limit: 4096,
        },
        Rejected::Syntax,
        Rejected::Empty,
        Rejected::NonHttpUrl,
        Rejected::NonAsciiDomain,
        Rejected::PublicSuffix {
            domain: "com".into(),
        },
        Rejected::DomainMismatch {
            domain: "a.example".into(),
            host: "b.example".into(),
        },
        Rejected::SecureFromInsecure,
        Rejected::OverwriteSecure,
        Rejected::SameSiteNoneInsecure,
        Rejected::SecurePrefix,
        Rejected::HostPrefix,
        Rejected::NamelessPrefix,
    ];
    let mut codes = std::collections::HashSet::new();
    for r in &all {
        assert!(r.code().starts_with("COOKIE_REJECTED_"), "{}", r.code());
        assert!(r
            .code()
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b == b'_'));
        assert!(codes.insert(r.code()), "duplicate {}", r.code());
        assert!(r.to_string().len() > 10);
    }
    assert!(all[0].to_string().contains("MAX_SET_COOKIE_BYTES"));
    assert!(all[6].to_string().contains("com"));
    assert!(all[7].to_string().contains("b.example"));
}
