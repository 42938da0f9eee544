//! Fuzz the cookie jar with arbitrary Set-Cookie values (and the redirect policy with arbitrary
//! Location values).
//!
//! Invariants: no panic; the jar never holds more cookies than its limits allow, in total or
//! per domain; every Cookie header it produces is free of CR, LF and NUL (no header injection);
//! a refused value leaves the stored cookies as they were, apart from expiry.
#![no_main]

use burrow_cookies::redirect::{next_request, RedirectPolicy};
use burrow_cookies::{Jar, Limits};
use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;

const URLS: [&str; 6] = [
    "http://example.com/a/b",
    "https://www.example.com/",
    "https://sub.www.example.co.uk/x/y/z",
    "http://127.0.0.1:8080/p",
    "https://[::1]/",
    "http://xn--bcher-kva.example/",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let limits = Limits {
        max_cookie_bytes: 64 + usize::from(first & 0x0f) * 64,
        max_per_domain: 3,
        max_total: 8,
    };
    let mut jar = Jar::with_limits(limits);
    let text = String::from_utf8_lossy(rest);
    let mut now: i64 = 1_700_000_000;
    for (i, value) in text.split('\n').enumerate() {
        let url = url::Url::parse(URLS[(i + usize::from(first)) % URLS.len()]).unwrap();
        now += i64::from(first >> 4);
        let before: Vec<_> = jar.iter().cloned().collect();
        let stored = jar.store(&url, value, now);
        if let Err(e) = &stored {
            assert!(e.code().starts_with("COOKIE_REJECTED_"));
            let after: Vec<_> = jar.iter().cloned().collect();
            assert!(after.iter().all(|c| before.contains(c)));
        }
        assert!(jar.len() <= limits.max_total);
        let mut per: HashMap<&str, usize> = HashMap::new();
        for c in jar.iter() {
            *per.entry(c.domain()).or_default() += 1;
            assert!(c.name().len() + c.value().len() <= limits.max_cookie_bytes);
        }
        assert!(per.values().all(|&n| n <= limits.max_per_domain));
        for u in URLS {
            if let Some(h) = jar.cookie_header(&url::Url::parse(u).unwrap(), now) {
                assert!(!h.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0)));
            }
        }
        let current = url::Url::parse(URLS[i % URLS.len()]).unwrap();
        let _ = next_request(
            &RedirectPolicy::default(),
            std::slice::from_ref(&current),
            &current,
            "POST",
            302,
            Some(value),
        );
    }
});
