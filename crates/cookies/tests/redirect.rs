//! The redirect policy, one test per branch of `next_request`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_cookies::redirect::{
    next_request, same_origin, Redirect, RedirectError, RedirectPolicy,
};

fn url(s: &str) -> url::Url {
    url::Url::parse(s).unwrap()
}

/// Follows one redirect from `current` (the only URL requested so far).
fn follow(current: &str, method: &str, status: u16, location: &str) -> Redirect {
    let cur = url(current);
    next_request(
        &RedirectPolicy::default(),
        std::slice::from_ref(&cur),
        &cur,
        method,
        status,
        Some(location),
    )
    .unwrap()
    .unwrap()
}

fn follow_err(policy: &RedirectPolicy, history: &[&str], location: &str) -> RedirectError {
    let history: Vec<_> = history.iter().map(|u| url(u)).collect();
    let cur = history.last().unwrap().clone();
    next_request(policy, &history, &cur, "GET", 302, Some(location)).unwrap_err()
}

#[test]
fn defaults() {
    let p = RedirectPolicy::default();
    assert_eq!(p.max_redirects, 20);
    assert!(!p.allow_https_to_http);
}

#[test]
fn non_redirect_statuses_are_returned_as_is() {
    let cur = url("http://a.example/");
    for status in [200, 204, 300, 304, 305, 306, 309, 399, 400, 500] {
        let r = next_request(
            &RedirectPolicy::default(),
            std::slice::from_ref(&cur),
            &cur,
            "GET",
            status,
            Some("/x"),
        );
        assert_eq!(r, Ok(None), "{status}");
    }
}

#[test]
fn missing_location_is_returned_as_is() {
    let cur = url("http://a.example/");
    for status in [301, 302, 303, 307, 308] {
        let r = next_request(
            &RedirectPolicy::default(),
            std::slice::from_ref(&cur),
            &cur,
            "GET",
            status,
            None,
        );
        assert_eq!(r, Ok(None), "{status}");
    }
}

#[test]
fn post_becomes_get_on_301_302_303() {
    for status in [301, 302, 303] {
        let r = follow("http://a.example/form", "POST", status, "/done");
        assert_eq!(r.method, "GET", "{status}");
        assert!(!r.keep_body && r.drop_body_headers, "{status}");
        assert_eq!(r.url.as_str(), "http://a.example/done");
    }
}

#[test]
fn other_methods_keep_method_and_body_on_301_302() {
    for status in [301, 302] {
        for method in ["PUT", "DELETE", "PATCH"] {
            let r = follow("http://a.example/", method, status, "/b");
            assert_eq!(r.method, method);
            assert!(r.keep_body && !r.drop_body_headers);
        }
    }
}

#[test]
fn see_other_makes_everything_but_head_a_get() {
    for method in ["PUT", "DELETE", "PATCH", "OPTIONS"] {
        let r = follow("http://a.example/", method, 303, "/b");
        assert_eq!(r.method, "GET", "{method}");
        assert!(!r.keep_body && r.drop_body_headers);
    }
    let r = follow("http://a.example/", "HEAD", 303, "/b");
    assert_eq!(r.method, "HEAD");
    let r = follow("http://a.example/", "GET", 303, "/b");
    assert_eq!(r.method, "GET");
    assert!(!r.drop_body_headers);
}

#[test]
fn head_stays_head_everywhere() {
    for status in [301, 302, 303, 307, 308] {
        assert_eq!(
            follow("http://a.example/", "HEAD", status, "/b").method,
            "HEAD"
        );
    }
}

#[test]
fn method_names_compared_case_insensitively() {
    assert_eq!(follow("http://a.example/", "post", 302, "/b").method, "GET");
    assert_eq!(
        follow("http://a.example/", "head", 303, "/b").method,
        "HEAD"
    );
}

#[test]
fn temporary_and_permanent_keep_method_and_body() {
    for status in [307, 308] {
        for method in ["POST", "PUT", "GET"] {
            let r = follow("http://a.example/", method, status, "/b");
            assert_eq!(r.method, method);
            assert!(r.keep_body && !r.drop_body_headers);
        }
    }
}

#[test]
fn location_resolved_against_current() {
    let cases = [
        ("http://a.example/x/y?q=1", "z", "http://a.example/x/z"),
        ("http://a.example/x/y", "../z", "http://a.example/z"),
        ("http://a.example/x/y", "?p=2", "http://a.example/x/y?p=2"),
        ("http://a.example/x", "//b.example/w", "http://b.example/w"),
        (
            "https://a.example/",
            "http://b.example:8080/",
            "http://b.example:8080/",
        ),
        ("http://a.example/", " /trimmed", "http://a.example/trimmed"),
        (
            "http://a.example/",
            "http://B%C3%BCcher.example/",
            "http://xn--bcher-kva.example/",
        ),
    ];
    for (cur, loc, want) in cases {
        let policy = RedirectPolicy {
            allow_https_to_http: true,
            ..RedirectPolicy::default()
        };
        let c = url(cur);
        let r = next_request(&policy, std::slice::from_ref(&c), &c, "GET", 302, Some(loc))
            .unwrap()
            .unwrap();
        assert_eq!(r.url.as_str(), want, "{cur} + {loc}");
    }
}

#[test]
fn fragment_inherited_only_when_location_has_none() {
    let r = follow("http://a.example/x#frag", "GET", 302, "/y");
    assert_eq!(r.url.as_str(), "http://a.example/y#frag");
    let r = follow("http://a.example/x#frag", "GET", 302, "/y#own");
    assert_eq!(r.url.as_str(), "http://a.example/y#own");
    let r = follow("http://a.example/x", "GET", 302, "/y");
    assert_eq!(r.url.fragment(), None);
}

#[test]
fn bad_location() {
    let e = follow_err(
        &RedirectPolicy::default(),
        &["http://a.example/"],
        "http://[zz/",
    );
    assert_eq!(e.code(), "REDIRECT_LOCATION");
    assert!(matches!(e, RedirectError::BadLocation { .. }));
    assert!(e.to_string().contains("http://[zz/"));
}

#[test]
fn unsupported_scheme() {
    for loc in [
        "ftp://a.example/",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "data:,x",
    ] {
        let e = follow_err(&RedirectPolicy::default(), &["http://a.example/"], loc);
        assert_eq!(e.code(), "REDIRECT_LOCATION", "{loc}");
        assert!(
            matches!(e, RedirectError::UnsupportedScheme { .. }),
            "{loc}"
        );
    }
}

#[test]
fn https_to_http_refused_unless_allowed() {
    let e = follow_err(
        &RedirectPolicy::default(),
        &["https://a.example/"],
        "http://a.example/",
    );
    assert_eq!(e.code(), "REDIRECT_INSECURE");
    assert!(e.to_string().contains("allow_https_to_http"));
    let allow = RedirectPolicy {
        allow_https_to_http: true,
        ..RedirectPolicy::default()
    };
    let cur = url("https://a.example/");
    let r = next_request(
        &allow,
        std::slice::from_ref(&cur),
        &cur,
        "GET",
        302,
        Some("http://a.example/"),
    );
    assert_eq!(r.unwrap().unwrap().url.scheme(), "http");
    // Upgrades and same-scheme redirects are never refused.
    assert_eq!(
        follow("http://a.example/", "GET", 301, "https://a.example/")
            .url
            .scheme(),
        "https"
    );
}

#[test]
fn limit_counts_redirects_followed() {
    let policy = RedirectPolicy {
        max_redirects: 2,
        ..RedirectPolicy::default()
    };
    let h = ["http://a.example/0", "http://a.example/1"];
    // One followed so far: the second is allowed.
    let hist: Vec<_> = h.iter().map(|u| url(u)).collect();
    let r = next_request(&policy, &hist, &hist[1], "GET", 302, Some("/2"));
    assert!(r.unwrap().is_some());
    // Two followed: the third is refused.
    let e = follow_err(
        &policy,
        &[
            "http://a.example/0",
            "http://a.example/1",
            "http://a.example/2",
        ],
        "/3",
    );
    assert_eq!(e, RedirectError::TooMany { limit: 2 });
    assert_eq!(e.code(), "REDIRECT_LIMIT");
    assert!(e.to_string().contains("max_redirects"));
}

#[test]
fn zero_limit_refuses_every_redirect() {
    let policy = RedirectPolicy {
        max_redirects: 0,
        ..RedirectPolicy::default()
    };
    let e = follow_err(&policy, &["http://a.example/"], "/b");
    assert_eq!(e, RedirectError::TooMany { limit: 0 });
}

#[test]
fn twenty_redirects_by_default() {
    let hist: Vec<_> = (0..=20)
        .map(|i| url(&format!("http://a.example/{i}")))
        .collect();
    let ok = next_request(
        &RedirectPolicy::default(),
        &hist[..20],
        &hist[19],
        "GET",
        302,
        Some("/x"),
    );
    assert!(ok.unwrap().is_some(), "the 20th redirect is followed");
    let e = next_request(
        &RedirectPolicy::default(),
        &hist,
        &hist[20],
        "GET",
        302,
        Some("/x"),
    );
    assert_eq!(e, Err(RedirectError::TooMany { limit: 20 }));
}

#[test]
fn one_revisit_is_allowed_a_second_is_a_loop() {
    // /a -> /b -> /a (cookie bounce) is followed.
    let r = next_request(
        &RedirectPolicy::default(),
        &[url("http://a.example/a"), url("http://a.example/b")],
        &url("http://a.example/b"),
        "GET",
        302,
        Some("/a"),
    );
    assert_eq!(r.unwrap().unwrap().url.as_str(), "http://a.example/a");
    // /a -> /b -> /a -> /b -> /a: the third visit of /a is a loop.
    let e = follow_err(
        &RedirectPolicy::default(),
        &[
            "http://a.example/a",
            "http://a.example/b",
            "http://a.example/a",
            "http://a.example/b",
        ],
        "/a",
    );
    assert_eq!(e.code(), "REDIRECT_LOOP");
    assert!(matches!(&e, RedirectError::Loop { url } if url.path() == "/a"));
}

#[test]
fn self_redirect_loops_on_the_third_request() {
    let e = follow_err(
        &RedirectPolicy::default(),
        &["http://a.example/", "http://a.example/"],
        "/",
    );
    assert_eq!(e.code(), "REDIRECT_LOOP");
}

#[test]
fn loop_ignores_fragments_but_not_queries() {
    let e = follow_err(
        &RedirectPolicy::default(),
        &["http://a.example/a#1", "http://a.example/a#2"],
        "/a#3",
    );
    assert_eq!(e.code(), "REDIRECT_LOOP");
    let hist = [url("http://a.example/a?n=1"), url("http://a.example/a?n=2")];
    let r = next_request(
        &RedirectPolicy::default(),
        &hist,
        &hist[1],
        "GET",
        302,
        Some("/a?n=3"),
    );
    assert!(r.unwrap().is_some());
}

#[test]
fn cross_origin_drops_credentials() {
    let same = follow("https://a.example/x", "GET", 302, "/y");
    assert!(!same.drop_authorization && !same.drop_cookie_header);
    let explicit_port = follow("https://a.example/x", "GET", 302, "https://a.example:443/y");
    assert!(
        !explicit_port.drop_authorization,
        "default port is the same origin"
    );
    for loc in [
        "https://b.example/",
        "https://a.example:8443/",
        "https://sub.a.example/",
    ] {
        let r = follow("https://a.example/x", "GET", 302, loc);
        assert!(r.drop_authorization && r.drop_cookie_header, "{loc}");
    }
    let scheme = follow("http://a.example/", "GET", 302, "https://a.example/");
    assert!(scheme.drop_authorization, "scheme change is cross-origin");
}

#[test]
fn same_origin_helper() {
    assert!(same_origin(
        &url("http://a.example/x"),
        &url("http://A.example:80/y")
    ));
    assert!(!same_origin(
        &url("http://a.example/"),
        &url("https://a.example/")
    ));
    assert!(!same_origin(
        &url("http://a.example/"),
        &url("http://a.example:81/")
    ));
}

#[test]
fn error_checks_come_in_a_fixed_order() {
    // A bad scheme is reported before the limit.
    let policy = RedirectPolicy {
        max_redirects: 0,
        ..RedirectPolicy::default()
    };
    let e = follow_err(&policy, &["https://a.example/"], "ftp://x.example/");
    assert_eq!(e.code(), "REDIRECT_LOCATION");
    // An insecure downgrade is reported before the limit.
    let e = follow_err(&policy, &["https://a.example/"], "http://x.example/");
    assert_eq!(e.code(), "REDIRECT_INSECURE");
}
