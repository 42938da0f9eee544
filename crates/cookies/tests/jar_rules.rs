//! Table-driven RFC 6265bis suite: each case is a sequence of stores and retrievals on a fresh
//! jar, named after the section it exercises. Some cases follow the spirit of the old
//! http-state test corpus (name/value oddities, attribute case, path defaults); all are our own.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_cookies::{Jar, Limits};

/// 2023-11-14 22:13:20 UTC.
const T0: i64 = 1_700_000_000;
const DAY: i64 = 86_400;

enum Op {
    /// Store `header` from `url` at T0 + `at`; expect Ok or the given error code.
    Set(&'static str, String, i64, Option<&'static str>),
    /// The Cookie header for `url` at T0 + `at`.
    Get(&'static str, i64, Option<&'static str>),
    /// The Cookie header length for `url` at T0 + `at` (for headers too long to write out).
    GetLen(&'static str, i64, usize),
}

struct Case {
    name: &'static str,
    limits: Limits,
    ops: Vec<Op>,
}

fn set(url: &'static str, header: impl Into<String>) -> Op {
    Op::Set(url, header.into(), 0, None)
}
fn set_at(url: &'static str, header: impl Into<String>, at: i64) -> Op {
    Op::Set(url, header.into(), at, None)
}
fn refuse(url: &'static str, header: impl Into<String>, code: &'static str) -> Op {
    Op::Set(url, header.into(), 0, Some(code))
}
fn get(url: &'static str, want: Option<&'static str>) -> Op {
    Op::Get(url, 0, want)
}
fn get_at(url: &'static str, at: i64, want: Option<&'static str>) -> Op {
    Op::Get(url, at, want)
}
fn case(name: &'static str, ops: Vec<Op>) -> Case {
    Case {
        name,
        limits: Limits::default(),
        ops,
    }
}
fn case_with(name: &'static str, limits: Limits, ops: Vec<Op>) -> Case {
    Case { name, limits, ops }
}

const H: &str = "http://example.com/";
const S: &str = "https://example.com/";

fn cases() -> Vec<Case> {
    let long_value = "v".repeat(4093);
    let too_long_value = "v".repeat(4094);
    let long_path = format!("/{}", "p".repeat(1030));
    vec![
        // ---- §5.6: name and value ----
        case(
            "5.6 basic name=value",
            vec![set(H, "foo=bar"), get(H, Some("foo=bar"))],
        ),
        case("5.6 no cookie, no header", vec![get(H, None)]),
        case(
            "5.6 WSP around name and value trimmed",
            vec![set(H, " \tfoo \t= \tbar\t "), get(H, Some("foo=bar"))],
        ),
        case(
            "5.6 inner spaces of the value kept",
            vec![set(H, "foo=bar baz"), get(H, Some("foo=bar baz"))],
        ),
        case(
            "5.6 value split at the first '='",
            vec![set(H, "foo=bar=baz"), get(H, Some("foo=bar=baz"))],
        ),
        case(
            "5.6 quotes are part of the value",
            vec![set(H, "foo=\"bar\""), get(H, Some("foo=\"bar\""))],
        ),
        case(
            "5.6 nameless cookie without '=' is sent as its value",
            vec![set(H, "bar; Path=/"), get(H, Some("bar"))],
        ),
        case(
            "5.6 '=value' is a nameless cookie",
            vec![set(H, "=bar"), get(H, Some("bar"))],
        ),
        case(
            "5.6 empty value kept",
            vec![set(H, "foo="), get(H, Some("foo="))],
        ),
        case(
            "5.7 empty name and value refused",
            vec![
                refuse(H, "=", "COOKIE_REJECTED_EMPTY"),
                refuse(H, "", "COOKIE_REJECTED_EMPTY"),
                refuse(H, " ; Path=/", "COOKIE_REJECTED_EMPTY"),
                get(H, None),
            ],
        ),
        case(
            "5.6 control characters refused (NUL, LF, DEL)",
            vec![
                refuse(H, "foo=b\0ar", "COOKIE_REJECTED_SYNTAX"),
                refuse(H, "foo=bar\nSet-Cookie: x=y", "COOKIE_REJECTED_SYNTAX"),
                refuse(H, "foo=bar\r", "COOKIE_REJECTED_SYNTAX"),
                refuse(H, "foo=bar; Path=/\x7f", "COOKIE_REJECTED_SYNTAX"),
                get(H, None),
            ],
        ),
        case(
            "5.6 HTAB inside the value allowed",
            vec![set(H, "foo=b\tar"), get(H, Some("foo=b\tar"))],
        ),
        case(
            "5.6 non-ASCII value bytes kept",
            vec![set(H, "foo=bär"), get(H, Some("foo=bär"))],
        ),
        // ---- §5.6: attributes ----
        case(
            "5.6 attribute names case-insensitive (sEcUrE)",
            vec![
                set(S, "foo=bar; sEcUrE"),
                get(H, None),
                get(S, Some("foo=bar")),
            ],
        ),
        case(
            "5.6 unknown attributes ignored",
            vec![
                set(H, "foo=bar; Frobnicate=1; Priority=High"),
                get(H, Some("foo=bar")),
            ],
        ),
        case(
            "5.6 empty attributes and stray semicolons ignored",
            vec![set(H, "foo=bar;;; ;Path=/"), get(H, Some("foo=bar"))],
        ),
        case(
            "5.6 attribute value over 1024 bytes ignored (Path falls back to default-path)",
            vec![
                set(
                    "http://example.com/a/b",
                    format!("foo=bar; Path={long_path}"),
                ),
                get("http://example.com/a/x", Some("foo=bar")),
                get("http://example.com/", None),
            ],
        ),
        case(
            "5.6 attribute WSP trimmed around name and value",
            vec![
                set("http://example.com/a/b", "foo=bar ;  Path  =  /  "),
                get(H, Some("foo=bar")),
            ],
        ),
        // ---- §5.6.1/§5.6.2: Expires and Max-Age ----
        case(
            "5.6.2 Max-Age: alive before, gone at the deadline",
            vec![
                set(H, "foo=bar; Max-Age=100"),
                get_at(H, 99, Some("foo=bar")),
                get_at(H, 100, None),
            ],
        ),
        case(
            "5.6.2 Max-Age=0 deletes a stored cookie",
            vec![
                set(H, "foo=bar"),
                set(H, "foo=gone; Max-Age=0"),
                get(H, None),
            ],
        ),
        case(
            "5.6.2 negative Max-Age deletes",
            vec![
                set(H, "foo=bar"),
                set(H, "foo=gone; Max-Age=-1"),
                get(H, None),
            ],
        ),
        case(
            "5.6.2 Max-Age with a non-digit ignored: session cookie",
            vec![
                set(H, "foo=bar; Max-Age=1x"),
                set(H, "baz=qux; Max-Age=+10"),
                set(H, "e=1; Max-Age="),
                get_at(H, 3650 * DAY, Some("foo=bar; baz=qux; e=1")),
            ],
        ),
        case(
            "5.6.2 last Max-Age wins",
            vec![
                set(H, "foo=bar; Max-Age=10; max-age=1000"),
                get_at(H, 500, Some("foo=bar")),
            ],
        ),
        case(
            "5.7 Max-Age beats a later Expires",
            vec![
                set(
                    H,
                    "foo=bar; Max-Age=10; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
                ),
                get_at(H, 5, Some("foo=bar")),
                get_at(H, 10, None),
            ],
        ),
        case(
            "5.7 Max-Age beats an earlier Expires",
            vec![
                set(
                    H,
                    "foo=bar; Expires=Wed, 15 Nov 2023 00:00:00 GMT; Max-Age=10",
                ),
                get_at(H, 10, None),
            ],
        ),
        case(
            "5.6.2 Max-Age capped at 400 days",
            vec![
                set(H, "foo=bar; Max-Age=999999999999999999999999"),
                get_at(H, 400 * DAY - 1, Some("foo=bar")),
                get_at(H, 400 * DAY, None),
            ],
        ),
        case(
            "5.6.1 Expires in the future (IMF-fixdate)",
            vec![
                set(H, "foo=bar; Expires=Tue, 14 Nov 2023 22:30:00 GMT"),
                get_at(H, 999, Some("foo=bar")),
                get_at(H, 1000, None),
            ],
        ),
        case(
            "5.1.1 Expires in RFC 850 form with a two-digit year",
            vec![
                set(H, "foo=bar; expires=Tuesday, 14-Nov-23 22:30:00 GMT"),
                get_at(H, 999, Some("foo=bar")),
                get_at(H, 1000, None),
            ],
        ),
        case(
            "5.1.1 Expires in asctime form",
            vec![
                set(H, "foo=bar; Expires=Tue Nov 14 22:30:00 2023"),
                get_at(H, 1000, None),
            ],
        ),
        case(
            "5.1.1 two-digit year 70-99 is 19xx: in the past, deletes",
            vec![
                set(H, "foo=bar"),
                set(H, "foo=x; Expires=14 Nov 99 22:30:00"),
                get(H, None),
            ],
        ),
        case(
            "5.1.1 two-digit year 00-69 is 20xx",
            vec![
                set(H, "foo=bar; Expires=14 Nov 24 00:00:00"),
                get_at(H, 300 * DAY, Some("foo=bar")),
                get_at(H, 366 * DAY, None),
            ],
        ),
        case(
            "5.1.1 Expires in the past deletes",
            vec![
                set(H, "foo=bar"),
                set(H, "foo=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT"),
                get(H, None),
            ],
        ),
        case(
            "5.1.1 invalid Expires ignored: session cookie",
            vec![
                set(H, "a=1; Expires=soon"),
                set(H, "b=2; Expires=30 Feb 2024 00:00:00"),
                set(H, "c=3; Expires=01 Jan 1600 00:00:00"),
                set(H, "d=4; Expires=14 Nov 2023 24:00:00"),
                get_at(H, 3650 * DAY, Some("a=1; b=2; c=3; d=4")),
            ],
        ),
        case(
            "5.6.1 last valid Expires wins, an invalid one does not erase it",
            vec![
                set(
                    H,
                    "foo=bar; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Expires=bogus",
                ),
                get(H, None),
            ],
        ),
        case(
            "5.6.1 Expires far in the future capped at 400 days",
            vec![
                set(H, "foo=bar; Expires=Fri, 31 Dec 9999 23:59:59 GMT"),
                get_at(H, 400 * DAY - 1, Some("foo=bar")),
                get_at(H, 400 * DAY, None),
            ],
        ),
        // ---- §5.6.3/§5.7: Domain ----
        case(
            "5.7 no Domain: host-only",
            vec![
                set(H, "foo=bar"),
                get(H, Some("foo=bar")),
                get("http://www.example.com/", None),
            ],
        ),
        case(
            "5.6.3 Domain leading dot stripped; sent to the domain and its subdomains",
            vec![
                set("http://www.example.com/", "foo=bar; Domain=.example.com"),
                get(H, Some("foo=bar")),
                get("http://a.b.example.com/", Some("foo=bar")),
                get("http://badexample.com/", None),
            ],
        ),
        case(
            "5.6.3 Domain lowercased",
            vec![
                set("http://www.example.com/", "foo=bar; Domain=EXAMPLE.COM"),
                get("http://x.example.com/", Some("foo=bar")),
            ],
        ),
        case(
            "5.6.3 Domain equal to the host: not host-only",
            vec![
                set(H, "foo=bar; Domain=example.com"),
                get("http://www.example.com/", Some("foo=bar")),
            ],
        ),
        case(
            "5.6.3 empty Domain ignored: host-only",
            vec![
                set("http://www.example.com/", "foo=bar; Domain="),
                get("http://www.example.com/", Some("foo=bar")),
                get("http://a.www.example.com/", None),
            ],
        ),
        case(
            "5.6.3 last Domain wins",
            vec![
                set(
                    "http://www.example.com/",
                    "foo=bar; Domain=other.com; Domain=example.com",
                ),
                get("http://x.example.com/", Some("foo=bar")),
            ],
        ),
        case(
            "5.7 Domain not covering the host refused",
            vec![
                refuse(
                    H,
                    "foo=bar; Domain=other.com",
                    "COOKIE_REJECTED_DOMAIN_MISMATCH",
                ),
                refuse(
                    H,
                    "foo=bar; Domain=www.example.com",
                    "COOKIE_REJECTED_DOMAIN_MISMATCH",
                ),
                get(H, None),
            ],
        ),
        case(
            "5.1.3 domain-match only on a label boundary",
            vec![refuse(
                "http://badexample.com/",
                "foo=bar; Domain=example.com",
                "COOKIE_REJECTED_DOMAIN_MISMATCH",
            )],
        ),
        case(
            "5.1.3 Domain with a trailing dot does not match",
            vec![refuse(
                H,
                "foo=bar; Domain=example.com.",
                "COOKIE_REJECTED_DOMAIN_MISMATCH",
            )],
        ),
        case(
            "5.7 Domain=com refused (public suffix)",
            vec![
                refuse(H, "foo=bar; Domain=com", "COOKIE_REJECTED_PUBLIC_SUFFIX"),
                refuse(H, "foo=bar; Domain=.COM", "COOKIE_REJECTED_PUBLIC_SUFFIX"),
            ],
        ),
        case(
            "5.7 Domain=co.uk refused (multi-label public suffix)",
            vec![refuse(
                "http://www.example.co.uk/",
                "foo=bar; Domain=co.uk",
                "COOKIE_REJECTED_PUBLIC_SUFFIX",
            )],
        ),
        case(
            "5.7 Domain=github.io refused (private-section suffix)",
            vec![refuse(
                "https://me.github.io/",
                "foo=bar; Domain=github.io",
                "COOKIE_REJECTED_PUBLIC_SUFFIX",
            )],
        ),
        case(
            "5.7 Domain=example.co.uk accepted (registrable domain)",
            vec![
                set("http://www.example.co.uk/", "foo=bar; Domain=example.co.uk"),
                get("http://example.co.uk/", Some("foo=bar")),
                get("http://other.co.uk/", None),
            ],
        ),
        case(
            "5.7 public suffix equal to the host: host-only",
            vec![
                set("http://co.uk/", "foo=bar; Domain=co.uk"),
                get("http://co.uk/", Some("foo=bar")),
                get("http://example.co.uk/", None),
            ],
        ),
        case(
            "5.7 unknown single-label TLD is a public suffix (default * rule)",
            vec![
                refuse(
                    "http://a.localhost/",
                    "foo=bar; Domain=localhost",
                    "COOKIE_REJECTED_PUBLIC_SUFFIX",
                ),
                set("http://localhost/", "foo=bar; Domain=localhost"),
                get("http://localhost/", Some("foo=bar")),
                get("http://a.localhost/", None),
            ],
        ),
        case(
            "5.7 non-ASCII Domain refused",
            vec![refuse(
                "http://www.xn--bcher-kva.example/",
                "foo=bar; Domain=bücher.example",
                "COOKIE_REJECTED_NON_ASCII_DOMAIN",
            )],
        ),
        case(
            "5.1.2 IDN host compared in punycode form",
            vec![
                set(
                    "http://www.bücher.example/",
                    "foo=bar; Domain=xn--bcher-kva.example",
                ),
                get("http://bücher.example/", Some("foo=bar")),
                get("http://XN--BCHER-KVA.example/", Some("foo=bar")),
            ],
        ),
        case(
            "5.1.2 host compared case-insensitively",
            vec![
                set("http://EXAMPLE.com/", "foo=bar"),
                get(H, Some("foo=bar")),
            ],
        ),
        case(
            "5.1.3 IP host: host-only cookie",
            vec![
                set("http://127.0.0.1/", "foo=bar"),
                get("http://127.0.0.1/", Some("foo=bar")),
                get("http://127.0.0.2/", None),
            ],
        ),
        case(
            "5.1.3 IP host: Domain equal to the IP stays host-only",
            vec![
                set("http://10.0.0.1/", "foo=bar; Domain=10.0.0.1"),
                get("http://10.0.0.1/", Some("foo=bar")),
            ],
        ),
        case(
            "5.1.3 IP host: Domain suffix of the IP refused",
            vec![refuse(
                "http://10.0.0.1/",
                "foo=bar; Domain=0.0.1",
                "COOKIE_REJECTED_DOMAIN_MISMATCH",
            )],
        ),
        case(
            "5.1.3 IPv6 host: Domain with or without brackets",
            vec![
                set("http://[::1]/", "a=1; Domain=::1"),
                set("http://[::1]/", "b=2; Domain=[::1]"),
                get("http://[0:0::1]/", Some("a=1; b=2")),
            ],
        ),
        case(
            "5.7 host-only and domain cookies of one name are distinct",
            vec![
                set(H, "a=1"),
                set_at(H, "a=2; Domain=example.com", 1),
                get_at(H, 2, Some("a=1; a=2")),
                get_at("http://www.example.com/", 2, Some("a=2")),
            ],
        ),
        case(
            "5.8.3 port and scheme do not separate cookies",
            vec![
                set("http://example.com:8080/", "foo=bar"),
                get("https://example.com:9443/", Some("foo=bar")),
            ],
        ),
        // ---- §5.1.4/§5.6.4: Path ----
        case(
            "5.1.4 default-path is the directory of the request path",
            vec![
                set("http://example.com/a/b", "foo=bar"),
                get("http://example.com/a", Some("foo=bar")),
                get("http://example.com/a/zz", Some("foo=bar")),
                get("http://example.com/ab", None),
                get(H, None),
            ],
        ),
        case(
            "5.1.4 default-path of a one-segment path is /",
            vec![
                set("http://example.com/a", "foo=bar"),
                get(H, Some("foo=bar")),
            ],
        ),
        case(
            "5.1.4 default-path ignores the query",
            vec![
                set("http://example.com/a/b?x=/c/d", "foo=bar"),
                get("http://example.com/a/", Some("foo=bar")),
                get("http://example.com/c/", None),
            ],
        ),
        case(
            "5.6.4 Path not starting with '/' means default-path",
            vec![
                set("http://example.com/x/y", "foo=bar; Path=z"),
                get("http://example.com/x/q", Some("foo=bar")),
                get(H, None),
            ],
        ),
        case(
            "5.6.4 empty Path means default-path",
            vec![
                set("http://example.com/x/y", "foo=bar; Path="),
                get("http://example.com/x", Some("foo=bar")),
                get(H, None),
            ],
        ),
        case(
            "5.6.4 last Path wins",
            vec![
                set(H, "foo=bar; Path=/a; Path=/b"),
                get("http://example.com/b/x", Some("foo=bar")),
                get("http://example.com/a/x", None),
            ],
        ),
        case(
            "5.1.4 path-match: cookie path ending in '/'",
            vec![
                set(H, "foo=bar; Path=/a/"),
                get("http://example.com/a/b", Some("foo=bar")),
                get("http://example.com/a", None),
            ],
        ),
        case(
            "5.1.4 path-match is case-sensitive",
            vec![
                set(H, "foo=bar; Path=/A"),
                get("http://example.com/a", None),
                get("http://example.com/A", Some("foo=bar")),
            ],
        ),
        case(
            "5.6.4 Path need not cover the request path",
            vec![
                set("http://example.com/login", "foo=bar; Path=/app"),
                get("http://example.com/app/x", Some("foo=bar")),
            ],
        ),
        // ---- §5.6.5/§5.7: Secure ----
        case(
            "5.7 Secure from http refused",
            vec![
                refuse(H, "foo=bar; Secure", "COOKIE_REJECTED_SECURE_FROM_INSECURE"),
                get(S, None),
            ],
        ),
        case(
            "5.7 Secure from http loopback refused (only https is a secure origin)",
            vec![refuse(
                "http://localhost/",
                "foo=bar; Secure",
                "COOKIE_REJECTED_SECURE_FROM_INSECURE",
            )],
        ),
        case(
            "5.8.3 Secure cookie sent over https only",
            vec![
                set(S, "foo=bar; Secure"),
                get(H, None),
                get(S, Some("foo=bar")),
            ],
        ),
        case(
            "5.8.3 non-Secure cookie from https sent over http",
            vec![set(S, "foo=bar"), get(H, Some("foo=bar"))],
        ),
        case(
            "5.7 http cannot overwrite a Secure cookie of the same name",
            vec![
                set(S, "foo=secret; Secure"),
                refuse(H, "foo=evil", "COOKIE_REJECTED_OVERWRITE_SECURE"),
                refuse(
                    "http://www.example.com/",
                    "foo=evil; Domain=example.com",
                    "COOKIE_REJECTED_OVERWRITE_SECURE",
                ),
                refuse(
                    H,
                    "foo=evil; Path=/deeper",
                    "COOKIE_REJECTED_OVERWRITE_SECURE",
                ),
                get(S, Some("foo=secret")),
            ],
        ),
        case(
            "5.7 leave-secure-alone: other names and non-matching paths still set",
            vec![
                set(S, "foo=secret; Secure; Path=/a"),
                set_at(H, "foo=plain; Path=/", 1),
                set_at(H, "other=1", 2),
                get_at("http://example.com/a", 3, Some("foo=plain; other=1")),
                get_at(
                    "https://example.com/a",
                    3,
                    Some("foo=secret; foo=plain; other=1"),
                ),
            ],
        ),
        case(
            "5.7 https may replace a Secure cookie with a plain one",
            vec![
                set(S, "foo=1; Secure"),
                set(S, "foo=2"),
                get(H, Some("foo=2")),
            ],
        ),
        // ---- §5.6.6: HttpOnly ----
        case(
            "5.6.6 HttpOnly stored and sent (HTTP API)",
            vec![set(H, "foo=bar; HttpOnly"), get(H, Some("foo=bar"))],
        ),
        // ---- §5.6.7: SameSite ----
        case(
            "5.6.7 SameSite stored but not enforced: still sent",
            vec![
                set(H, "a=1; SameSite=Strict"),
                set_at(H, "b=2; samesite=LAX", 1),
                set_at(H, "c=3; SameSite=bogus", 2),
                get_at(H, 3, Some("a=1; b=2; c=3")),
            ],
        ),
        case(
            "5.7 SameSite=None requires Secure",
            vec![
                refuse(
                    S,
                    "foo=bar; SameSite=None",
                    "COOKIE_REJECTED_SAMESITE_NONE_INSECURE",
                ),
                set(S, "foo=bar; SameSite=None; Secure"),
                get(S, Some("foo=bar")),
            ],
        ),
        // ---- §4.1.3: prefixes ----
        case(
            "4.1.3.1 __Secure- without Secure refused",
            vec![refuse(S, "__Secure-a=1", "COOKIE_REJECTED_SECURE_PREFIX")],
        ),
        case(
            "4.1.3.1 __Secure- matched case-insensitively",
            vec![
                refuse(S, "__SECURE-a=1", "COOKIE_REJECTED_SECURE_PREFIX"),
                refuse(S, "__secure-a=1", "COOKIE_REJECTED_SECURE_PREFIX"),
            ],
        ),
        case(
            "4.1.3.1 __Secure- with Secure over http refused",
            vec![refuse(
                H,
                "__Secure-a=1; Secure",
                "COOKIE_REJECTED_SECURE_FROM_INSECURE",
            )],
        ),
        case(
            "4.1.3.1 __Secure- with Secure over https accepted, Domain allowed",
            vec![
                set(
                    "https://www.example.com/",
                    "__Secure-a=1; Secure; Domain=example.com",
                ),
                get(S, Some("__Secure-a=1")),
            ],
        ),
        case(
            "4.1.3.2 __Host- with Secure, Path=/ and no Domain accepted",
            vec![
                set(S, "__Host-a=1; Secure; Path=/"),
                get(S, Some("__Host-a=1")),
                get("https://www.example.com/", None),
            ],
        ),
        case(
            "4.1.3.2 __Host- with a Domain refused",
            vec![refuse(
                S,
                "__Host-a=1; Secure; Path=/; Domain=example.com",
                "COOKIE_REJECTED_HOST_PREFIX",
            )],
        ),
        case(
            "4.1.3.2 __Host- without Path refused (even at /)",
            vec![refuse(
                S,
                "__Host-a=1; Secure",
                "COOKIE_REJECTED_HOST_PREFIX",
            )],
        ),
        case(
            "4.1.3.2 __Host- with Path=/a refused",
            vec![refuse(
                S,
                "__Host-a=1; Secure; Path=/a",
                "COOKIE_REJECTED_HOST_PREFIX",
            )],
        ),
        case(
            "4.1.3.2 __Host- without Secure refused, case-insensitive",
            vec![refuse(
                S,
                "__HoSt-a=1; Path=/",
                "COOKIE_REJECTED_HOST_PREFIX",
            )],
        ),
        case(
            "5.7 nameless cookie with a prefix-looking value refused",
            vec![
                refuse(
                    S,
                    "__Host-a; Secure; Path=/",
                    "COOKIE_REJECTED_NAMELESS_PREFIX",
                ),
                refuse(S, "=__secure-a; Secure", "COOKIE_REJECTED_NAMELESS_PREFIX"),
            ],
        ),
        // ---- §5.8.3: order; §5.7: replacement ----
        case(
            "5.8.3 longer paths first",
            vec![
                set(H, "a=1; Path=/"),
                set_at(H, "b=2; Path=/x/y", 1),
                set_at(H, "c=3; Path=/x", 2),
                get_at("http://example.com/x/y/z", 3, Some("b=2; c=3; a=1")),
            ],
        ),
        case(
            "5.8.3 equal paths: earlier creation first",
            vec![
                set(H, "b=1"),
                set_at(H, "a=2", 1),
                get_at(H, 2, Some("b=1; a=2")),
            ],
        ),
        case(
            "5.8.3 equal creation time: stored order",
            vec![
                set(H, "z=1"),
                set(H, "y=2"),
                set(H, "x=3"),
                get(H, Some("z=1; y=2; x=3")),
            ],
        ),
        case(
            "5.7 replacement keeps the creation time",
            vec![
                set(H, "a=1"),
                set_at(H, "b=1", 1),
                set_at(H, "a=2", 2),
                get_at(H, 3, Some("a=2; b=1")),
            ],
        ),
        case(
            "5.7 same name on different paths: two cookies",
            vec![
                set(H, "a=1; Path=/"),
                set(H, "a=2; Path=/x"),
                get("http://example.com/x", Some("a=2; a=1")),
            ],
        ),
        case(
            "5.7 names are case-sensitive",
            vec![set(H, "a=1"), set(H, "A=2"), get(H, Some("a=1; A=2"))],
        ),
        case(
            "5.7 deleting needs the same domain and path",
            vec![
                set(H, "a=1; Path=/x"),
                set(H, "a=; Max-Age=0"),
                get("http://example.com/x", Some("a=1")),
                set(H, "a=; Max-Age=0; Path=/x"),
                get("http://example.com/x", None),
            ],
        ),
        // ---- inputs from the http-state corpus (abarth/http-state, later WPT), expected
        // results re-derived from 6265bis §5.6/§5.7 ----
        case(
            "http-state 0017 5.6 a comma does not split cookies",
            vec![set(H, "z=y, a=b"), get(H, Some("z=y, a=b"))],
        ),
        case(
            "http-state 0018 5.6 text after ';' is an attribute",
            vec![set(H, "z=y; foo=bar, a=b"), get(H, Some("z=y"))],
        ),
        case(
            "http-state 0019 5.6.2 Max-Age with trailing text ignored",
            vec![
                set(H, "foo=b;max-age=3600, c=d;path=/"),
                get_at(H, 3600, Some("foo=b")),
            ],
        ),
        case(
            "http-state 0020-0022 5.6 '=', '=x' and 'x=' between others",
            vec![
                set(H, "a=b"),
                refuse(H, "=", "COOKIE_REJECTED_EMPTY"),
                set_at(H, "=x", 1),
                set_at(H, "y=", 2),
                set_at(H, "c=d", 3),
                get_at(H, 4, Some("a=b; x; y=; c=d")),
            ],
        ),
        case(
            "http-state 0025/0026/0028 5.7 '; bar', spaces, a tab: empty, ignored",
            vec![
                refuse(H, "; bar", "COOKIE_REJECTED_EMPTY"),
                refuse(H, "   ", "COOKIE_REJECTED_EMPTY"),
                refuse(H, "\t", "COOKIE_REJECTED_EMPTY"),
                get(H, None),
            ],
        ),
        case(
            "http-state 0027 5.7 a second nameless cookie replaces the first",
            vec![
                set(H, "foo"),
                set_at(H, "bar", 1),
                get_at(H, 2, Some("bar")),
            ],
        ),
        case(
            "http-state attribute0003 5.6 a quoted attribute name is unknown",
            vec![set(H, "foo=bar; \"Secure\""), get(H, Some("foo=bar"))],
        ),
        case(
            "http-state attribute0004/0005/0007 5.6.5 Secure ignores its value",
            vec![
                refuse(
                    H,
                    "foo=bar; Secure=",
                    "COOKIE_REJECTED_SECURE_FROM_INSECURE",
                ),
                refuse(
                    H,
                    "foo=bar; Secure=aaaa",
                    "COOKIE_REJECTED_SECURE_FROM_INSECURE",
                ),
                refuse(
                    H,
                    "foo=bar; Secure =aaaaa",
                    "COOKIE_REJECTED_SECURE_FROM_INSECURE",
                ),
                set(S, "foo=bar; Secure= aaaaa"),
                get(H, None),
                get(S, Some("foo=bar")),
            ],
        ),
        case(
            "http-state attribute0006 5.6 'Secure qux' is an unknown attribute",
            vec![set(H, "foo=bar; Secure qux"), get(H, Some("foo=bar"))],
        ),
        case(
            "http-state attribute0014 5.6.4 bare Path means default-path",
            vec![
                set("http://example.com/dir/page", "foo=bar; Path"),
                get("http://example.com/dir", Some("foo=bar")),
                get(H, None),
            ],
        ),
        case(
            "http-state attribute0018-0020 5.6 WSP around Path name and value",
            vec![
                set(H, "a=1; Path    =/qux"),
                set_at(H, "b=2; Path=    /qux", 1),
                set_at(H, "c=3; Path=/qux      ; taz", 2),
                get_at("http://example.com/qux", 3, Some("a=1; b=2; c=3")),
                get_at(H, 3, None),
            ],
        ),
        case(
            "http-state attribute0026 5.6 ';' inside quotes still splits",
            vec![
                set(S, "foo=bar; qux=\"aaa;bbb\"; Secure"),
                get(H, None),
                get(S, Some("foo=bar")),
            ],
        ),
        case(
            "http-state charset0002 5.6 UTF-8 name and value kept as bytes",
            vec![
                set(H, "春节回=家路·春运; 完全手册"),
                get(H, Some("春节回=家路·春运")),
            ],
        ),
        case(
            "http-state chromium0004/0005 5.6 an unbalanced quote is part of the value",
            vec![
                set(H, "aBc=\"zz;pp\" ; ;"),
                set_at(H, "d=\"zz ;", 1),
                get_at(H, 2, Some("aBc=\"zz; d=\"zz")),
            ],
        ),
        case(
            "http-state chromium0009 5.6 nameless cookie with attributes",
            vec![set(H, "BLAHHH; path=/;"), get(H, Some("BLAHHH"))],
        ),
        case(
            "http-state chromium0015 5.6 '=' inside the value",
            vec![set(H, "  A=== BC  ;foo;;;   bar"), get(H, Some("A=== BC"))],
        ),
        // ---- limits ----
        case(
            "5.6 name+value of exactly 4096 bytes accepted",
            vec![
                set(H, format!("foo={long_value}")),
                Op::GetLen(H, 1, 3 + 1 + 4093),
            ],
        ),
        case(
            "5.6 name+value over 4096 bytes refused",
            vec![refuse(
                H,
                format!("foo={too_long_value}"),
                "COOKIE_REJECTED_TOO_LARGE",
            )],
        ),
        case(
            "Set-Cookie value over 8 KiB refused before parsing",
            vec![refuse(
                H,
                format!("a=1; Path=/{}", "x".repeat(8200)),
                "COOKIE_REJECTED_HEADER_TOO_LONG",
            )],
        ),
        case(
            "non-http(s) URLs refused",
            vec![
                refuse("ftp://example.com/", "a=1", "COOKIE_REJECTED_NON_HTTP_URL"),
                refuse("file:///tmp/x", "a=1", "COOKIE_REJECTED_NON_HTTP_URL"),
                refuse("data:text/plain,x", "a=1", "COOKIE_REJECTED_NON_HTTP_URL"),
                set(H, "a=1"),
                get("ws://example.com/", None),
            ],
        ),
        case_with(
            "5.7.3 per-domain limit evicts the least recently used",
            Limits {
                max_per_domain: 2,
                ..Limits::default()
            },
            vec![
                set(H, "a=1"),
                set_at(H, "b=2; Path=/b", 1),
                // Touch only a: b becomes the least recently used.
                get_at(H, 2, Some("a=1")),
                set_at(H, "x=0; Path=/only", 3),
                get_at("http://example.com/b", 4, Some("a=1")),
                get_at("http://example.com/only", 4, Some("x=0; a=1")),
            ],
        ),
        case_with(
            "5.7.3 per-domain limit counts each domain separately",
            Limits {
                max_per_domain: 1,
                ..Limits::default()
            },
            vec![
                set(H, "a=1"),
                set("http://other.example/", "b=2"),
                get(H, Some("a=1")),
                get("http://other.example/", Some("b=2")),
            ],
        ),
        case_with(
            "5.7.3 total limit evicts the least recently used anywhere",
            Limits {
                max_total: 2,
                ..Limits::default()
            },
            vec![
                set("http://a.example/", "a=1"),
                set_at("http://b.example/", "b=1", 1),
                get_at("http://a.example/", 2, Some("a=1")),
                set_at("http://c.example/", "c=1", 3),
                get_at("http://a.example/", 4, Some("a=1")),
                get_at("http://b.example/", 4, None),
                get_at("http://c.example/", 4, Some("c=1")),
            ],
        ),
        case_with(
            "5.7.3 replacing does not count twice",
            Limits {
                max_per_domain: 1,
                ..Limits::default()
            },
            vec![set(H, "a=1"), set(H, "a=2"), get(H, Some("a=2"))],
        ),
    ]
}

fn run(case: &Case) {
    let mut jar = Jar::with_limits(case.limits);
    for (step, op) in case.ops.iter().enumerate() {
        match op {
            Op::Set(url, header, at, want) => {
                let url = url::Url::parse(url).unwrap();
                let got = jar.store(&url, header, T0 + at);
                let got_code = got.as_ref().err().map(|e| e.code());
                assert_eq!(got_code, *want, "case '{}', step {step}: store", case.name);
                if let Err(e) = got {
                    assert!(!e.to_string().is_empty());
                }
            }
            Op::GetLen(url, at, len) => {
                let url = url::Url::parse(url).unwrap();
                let got = jar.cookie_header(&url, T0 + at);
                assert_eq!(
                    got.map(|h| h.len()),
                    Some(*len),
                    "case '{}', step {step}",
                    case.name
                );
            }
            Op::Get(url, at, want) => {
                let url = url::Url::parse(url).unwrap();
                let got = jar.cookie_header(&url, T0 + at);
                assert_eq!(
                    got.as_deref(),
                    *want,
                    "case '{}', step {step}: header",
                    case.name
                );
            }
        }
    }
}

#[test]
fn rfc6265bis_table() {
    let cases = cases();
    assert!(cases.len() >= 60, "{} cases", cases.len());
    let mut names = std::collections::HashSet::new();
    for case in &cases {
        assert!(names.insert(case.name), "duplicate case name {}", case.name);
        run(case);
    }
}

/// Every prefix of every Set-Cookie value in the table is stored or refused without panicking,
/// and a refused one leaves the jar unchanged.
#[test]
fn every_truncation_is_handled() {
    for case in cases() {
        for op in &case.ops {
            let Op::Set(url, header, _, _) = op else {
                continue;
            };
            let url = url::Url::parse(url).unwrap();
            if !matches!(url.scheme(), "http" | "https") {
                continue;
            }
            for cut in (0..=header.len()).filter(|&i| header.is_char_boundary(i)) {
                let mut jar = Jar::new();
                jar.store(&url, "keep=1", T0).unwrap();
                let before: Vec<_> = jar.iter().cloned().collect();
                if jar.store(&url, &header[..cut], T0).is_err() {
                    let after: Vec<_> = jar.iter().cloned().collect();
                    assert_eq!(before, after, "{:?}", &header[..cut]);
                }
                assert!(jar.len() <= 2);
            }
        }
    }
}
