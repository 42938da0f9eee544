//! Proxy URL parsing and no_proxy matching.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_proxy::{Credentials, NoProxy, Proxy, Scheme};

fn parse(url: &str) -> Proxy {
    Proxy::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"))
}

fn creds(user: &str, pass: &str) -> Option<Credentials> {
    Some(Credentials {
        username: user.into(),
        password: pass.into(),
    })
}

#[test]
fn documented_forms() {
    assert_eq!(
        parse("http://user:pass@host:3128"),
        Proxy {
            scheme: Scheme::Http,
            host: "host".into(),
            port: 3128,
            credentials: creds("user", "pass"),
        }
    );
    assert_eq!(
        parse("https://host:3132"),
        Proxy {
            scheme: Scheme::Https,
            host: "host".into(),
            port: 3132,
            credentials: None,
        }
    );
    assert_eq!(
        parse("socks5://u:p@[::1]:1080"),
        Proxy {
            scheme: Scheme::Socks5,
            host: "::1".into(),
            port: 1080,
            credentials: creds("u", "p"),
        }
    );
    assert_eq!(
        parse("socks5h://host"),
        Proxy {
            scheme: Scheme::Socks5h,
            host: "host".into(),
            port: 1080,
            credentials: None,
        }
    );
}

#[test]
fn default_ports_including_explicit_ones() {
    for (url, port) in [
        ("http://h", 80),
        ("http://h/", 80),
        ("http://h:80", 80),
        ("https://h", 443),
        ("https://h:443/", 443),
        ("socks5://h", 1080),
        ("socks5h://h:1080", 1080),
        ("socks5://h:80", 80),
        ("socks5h://h:443", 443),
        ("http://h:1080", 1080),
        ("HTTP://H:65535", 65535),
    ] {
        assert_eq!(parse(url).port, port, "{url}");
    }
    assert_eq!(Scheme::Http.default_port(), 80);
    assert_eq!(Scheme::Socks5h.as_str(), "socks5h");
}

#[test]
fn hosts_are_normalised() {
    for (url, host) in [
        ("http://EXAMPLE.com", "example.com"),
        ("socks5://EXAMPLE.com", "example.com"),
        ("http://bücher.example", "xn--bcher-kva.example"),
        ("socks5h://bücher.example:1", "xn--bcher-kva.example"),
        ("http://127.0.0.1:3128", "127.0.0.1"),
        ("socks5://127.0.0.1", "127.0.0.1"),
        ("socks5://[2001:DB8::1]", "2001:db8::1"),
        ("https://[::ffff:10.0.0.1]", "::ffff:10.0.0.1"),
    ] {
        assert_eq!(parse(url).host, host, "{url}");
    }
}

#[test]
fn userinfo_is_percent_decoded() {
    assert_eq!(
        parse("http://us%40er:p%3Ass%2F%25w@h").credentials,
        creds("us@er", "p:ss/%w")
    );
    assert_eq!(
        parse("socks5://%C3%A9:%C3%A8@h").credentials,
        creds("é", "è")
    );
    // A user without a password, and a password without a user.
    assert_eq!(parse("http://user@h").credentials, creds("user", ""));
    assert_eq!(parse("http://:pw@h").credentials, creds("", "pw"));
    assert_eq!(parse("http://h").credentials, None);
}

#[test]
fn invalid_urls() {
    for url in [
        "",
        "host:3128",
        "127.0.0.1:3128",
        "http://",
        "http://h/path",
        "http://h/?",
        "http://h?q=1",
        "http://h#frag",
        "http://h:0",
        "http://h:65536",
        "http://h:port",
        "socks5://h/x",
        "socks5://",
        "socks5://h:0",
        "http://u:%FF@h",
        "http://%FF@h",
        "http://[::1",
        "http://a b",
    ] {
        let e = Proxy::parse(url).unwrap_err();
        assert_eq!(e.code(), "PROXY_URL_INVALID", "{url}");
        assert!(e.is_caller_error());
    }
    for url in ["host:3128", "127.0.0.1:3128", "localhost", "mailto:a@b"] {
        let text = Proxy::parse(url).unwrap_err().to_string();
        assert!(
            text.contains("no scheme (e.g. http://host:3128)"),
            "{url}: {text}"
        );
    }
    for url in ["ftp://h", "socks4://h", "socks://h", "file:///x"] {
        let e = Proxy::parse(url).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("http, https, socks5, socks5h") && text.contains("unsupported scheme"),
            "{url}: {text}"
        );
    }
}

#[test]
fn passwords_never_show() {
    let p = parse("http://user:hunter2@h:1");
    let text = format!("{p:?}");
    assert!(!text.contains("hunter2") && text.contains("user"), "{text}");
    assert_eq!(p.to_string(), "http://h:1");
    assert_eq!(
        parse("socks5h://u:hunter2@[::1]").to_string(),
        "socks5h://[::1]:1080"
    );
    let text = format!("{:?}", p.credentials.unwrap());
    assert!(!text.contains("hunter2"), "{text}");
    for url in [
        "http://user:hunter2@h/path",
        "http://user:hunter2@h:0",
        "ftp://user:hunter2@h",
    ] {
        let e = Proxy::parse(url).unwrap_err();
        assert!(!format!("{e} {e:?}").contains("hunter2"), "{url}");
    }
}

#[test]
fn no_proxy_domains() {
    let np = NoProxy::parse("example.com, .Internal.Test,*.wild.test");
    for (host, hit) in [
        ("example.com", true),
        ("EXAMPLE.COM", true),
        ("example.com.", true),
        ("www.example.com", true),
        ("a.b.example.com", true),
        ("notexample.com", false),
        ("example.com.evil", false),
        ("com", false),
        ("internal.test", true),
        ("x.internal.test", true),
        ("wild.test", true),
        ("a.wild.test", true),
        ("other.test", false),
    ] {
        assert_eq!(np.matches(host, 443), hit, "{host}");
    }
    assert!(np.ignored().is_empty());
    assert!(!np.is_empty());
}

#[test]
fn no_proxy_ports() {
    let np = NoProxy::parse("example.com:8080 10.0.0.1:443 [::1]:8443");
    assert!(np.matches("example.com", 8080));
    assert!(np.matches("www.example.com", 8080));
    assert!(!np.matches("example.com", 443));
    assert!(np.matches("10.0.0.1", 443));
    assert!(!np.matches("10.0.0.1", 80));
    assert!(np.matches("::1", 8443));
    assert!(np.matches("[::1]", 8443));
    assert!(!np.matches("::1", 80));
}

#[test]
fn no_proxy_ips_and_cidrs() {
    let np = NoProxy::parse("127.0.0.1,10.0.0.0/8 ::1/128, 192.168.1.77/24 fe80::/10 ::2");
    for (host, hit) in [
        ("127.0.0.1", true),
        ("127.0.0.2", false),
        ("10.255.1.2", true),
        ("11.0.0.1", false),
        ("192.168.1.200", true),
        ("192.168.2.1", false),
        ("::1", true),
        ("[::1]", true),
        ("::2", true),
        ("::3", false),
        ("fe80::1234", true),
        ("fec0::1", false),
        // IPv4 blocks never match IPv6 hosts and names never match IP rules.
        ("::ffff:10.0.0.1", false),
        ("localhost", false),
        ("10.example", false),
    ] {
        assert_eq!(np.matches(host, 1), hit, "{host}");
    }
    let all4 = NoProxy::parse("0.0.0.0/0");
    assert!(all4.matches("1.2.3.4", 1) && !all4.matches("::1", 1) && !all4.matches("a", 1));
    let all6 = NoProxy::parse("::/0");
    assert!(all6.matches("2001:db8::1", 1) && !all6.matches("1.2.3.4", 1));
}

#[test]
fn no_proxy_star_empty_and_ignored_entries() {
    let star = NoProxy::parse("*");
    assert!(star.matches("anything.example", 1) && star.matches("10.0.0.1", 2));
    let star_in_list = NoProxy::parse("localhost, *");
    assert!(star_in_list.matches("example.com", 1));
    let empty = NoProxy::parse("  , ,\t");
    assert!(empty.is_empty());
    assert!(!empty.matches("localhost", 80));
    let np = NoProxy::parse("10.0.0.0/33 ::/129 h:port h:99999 a/b [::1 [::1]x bad!name . ok.test");
    assert_eq!(
        np.ignored(),
        [
            "10.0.0.0/33",
            "::/129",
            "h:port",
            "h:99999",
            "a/b",
            "[::1",
            "[::1]x",
            "bad!name",
            "."
        ]
    );
    assert!(np.matches("ok.test", 1));
    assert!(!np.matches("h", 1));
}
