//! HTTP CONNECT: request encoding and every reply branch under every chunking.
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

use std::net::IpAddr;

use burrow_proxy::connect::{ConnectHandshake, ProxyConnectionHeader};
use burrow_proxy::{
    Credentials, Error, Handshake, Progress, Stage, Target, MAX_CONNECT_HEAD_BYTES,
    MAX_INTERIM_RESPONSES,
};
use common::{drive, run_all};

fn domain() -> Target {
    Target::Domain("example.com".into(), 443)
}

fn creds(user: &str, pass: &str) -> Credentials {
    Credentials {
        username: user.into(),
        password: pass.into(),
    }
}

fn plain() -> ConnectHandshake {
    ConnectHandshake::new(&domain(), None, ProxyConnectionHeader::Omit, &[]).unwrap()
}

fn with_creds() -> ConnectHandshake {
    ConnectHandshake::new(
        &domain(),
        Some(&creds("u", "p")),
        ProxyConnectionHeader::Omit,
        &[],
    )
    .unwrap()
}

const REQUEST: &[u8] = b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n";

#[test]
fn request_for_a_domain() {
    let mut h = plain();
    assert_eq!(h.take_transmit(), REQUEST);
    assert_eq!(h.take_transmit(), b"", "transmit is taken once");
}

#[test]
fn request_for_ipv4_and_ipv6() {
    let v4 = Target::Ip("127.0.0.1".parse().unwrap(), 8080);
    let mut h = ConnectHandshake::new(&v4, None, ProxyConnectionHeader::Omit, &[]).unwrap();
    assert_eq!(
        h.take_transmit(),
        b"CONNECT 127.0.0.1:8080 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"
    );
    let v6 = Target::Ip("::1".parse().unwrap(), 443);
    let mut h = ConnectHandshake::new(&v6, None, ProxyConnectionHeader::Omit, &[]).unwrap();
    assert_eq!(
        h.take_transmit(),
        b"CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\n"
    );
}

#[test]
fn request_with_credentials_proxy_connection_and_extra_headers_in_order() {
    // RFC 7617 §2 example.
    let extra = vec![
        ("User-Agent".to_string(), "burrow/0.1".to_string()),
        ("X-Trace".to_string(), "a\tb".to_string()),
    ];
    let mut h = ConnectHandshake::new(
        &domain(),
        Some(&creds("Aladdin", "open sesame")),
        ProxyConnectionHeader::KeepAlive,
        &extra,
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(h.take_transmit()).unwrap(),
        "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\
         Proxy-Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==\r\n\
         Proxy-Connection: Keep-Alive\r\nUser-Agent: burrow/0.1\r\nX-Trace: a\tb\r\n\r\n"
    );
    let mut h = ConnectHandshake::new(&domain(), None, ProxyConnectionHeader::Close, &[]).unwrap();
    assert_eq!(
        String::from_utf8(h.take_transmit()).unwrap(),
        "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nProxy-Connection: close\r\n\r\n"
    );
    // UTF-8 credentials are encoded as UTF-8 (RFC 7617 charset="UTF-8").
    let mut h = ConnectHandshake::new(
        &domain(),
        Some(&creds("é", "")),
        ProxyConnectionHeader::Omit,
        &[],
    )
    .unwrap();
    let text = String::from_utf8(h.take_transmit()).unwrap();
    assert!(
        text.contains("Proxy-Authorization: Basic w6k6\r\n"),
        "{text}"
    );
}

#[test]
fn refuses_header_injection_and_clashes() {
    let bad_values = ["a\r\nX-Evil: 1", "a\nb", "a\rb", "a\0b", "a\x7fb", "a\x01b"];
    for value in bad_values {
        let extra = vec![("User-Agent".to_string(), value.to_string())];
        let e = ConnectHandshake::new(&domain(), None, ProxyConnectionHeader::Omit, &extra)
            .unwrap_err();
        assert_eq!(e.code(), "PROXY_INVALID_REQUEST", "{value:?}");
        assert!(e.is_caller_error());
    }
    for name in ["", "User Agent", "X:Y", "X\r\nY", "Ü"] {
        let extra = vec![(name.to_string(), "v".to_string())];
        let e = ConnectHandshake::new(&domain(), None, ProxyConnectionHeader::Omit, &extra)
            .unwrap_err();
        assert_eq!(e.code(), "PROXY_INVALID_REQUEST", "{name:?}");
    }
    for name in ["Host", "content-length", "Transfer-Encoding"] {
        let extra = vec![(name.to_string(), "v".to_string())];
        let e = ConnectHandshake::new(&domain(), None, ProxyConnectionHeader::Omit, &extra)
            .unwrap_err();
        assert_eq!(e.code(), "PROXY_INVALID_REQUEST", "{name:?}");
    }
    // Proxy-Authorization is the caller's to send only without credentials; likewise
    // Proxy-Connection only when omitted.
    let auth = vec![("Proxy-Authorization".to_string(), "Bearer t".to_string())];
    assert!(ConnectHandshake::new(&domain(), None, ProxyConnectionHeader::Omit, &auth).is_ok());
    assert!(ConnectHandshake::new(
        &domain(),
        Some(&creds("u", "p")),
        ProxyConnectionHeader::Omit,
        &auth
    )
    .is_err());
    let pc = vec![("Proxy-Connection".to_string(), "x".to_string())];
    assert!(ConnectHandshake::new(&domain(), None, ProxyConnectionHeader::Omit, &pc).is_ok());
    assert!(ConnectHandshake::new(&domain(), None, ProxyConnectionHeader::Close, &pc).is_err());
}

#[test]
fn refuses_bad_targets_and_usernames() {
    for name in [
        "",
        "a b",
        "a\r\nb",
        "a/b",
        "a@b",
        "[::1]",
        "a:1",
        "exämple.com",
    ] {
        let t = Target::Domain(name.into(), 443);
        let e = ConnectHandshake::new(&t, None, ProxyConnectionHeader::Omit, &[]).unwrap_err();
        assert_eq!(e.code(), "PROXY_INVALID_REQUEST", "{name:?}");
    }
    let t = Target::Domain("example.com".into(), 0);
    assert!(ConnectHandshake::new(&t, None, ProxyConnectionHeader::Omit, &[]).is_err());
    let e = ConnectHandshake::new(
        &domain(),
        Some(&creds("a:b", "p")),
        ProxyConnectionHeader::Omit,
        &[],
    )
    .unwrap_err();
    assert_eq!(e.code(), "PROXY_INVALID_REQUEST");
}

#[test]
fn target_from_host() {
    assert_eq!(
        Target::from_host("[::1]", 1),
        Target::Ip("::1".parse::<IpAddr>().unwrap(), 1)
    );
    assert_eq!(
        Target::from_host("::1", 1),
        Target::Ip("::1".parse::<IpAddr>().unwrap(), 1)
    );
    assert_eq!(
        Target::from_host("10.0.0.1", 2),
        Target::Ip("10.0.0.1".parse::<IpAddr>().unwrap(), 2)
    );
    assert_eq!(
        Target::from_host("example.com", 3),
        Target::Domain("example.com".into(), 3)
    );
    assert_eq!(Target::from_host("[::1]", 443).authority(), "[::1]:443");
}

fn ok(stream: &[u8], tunnel: &[u8]) {
    let run = run_all(plain, stream);
    assert_eq!(run.sent, REQUEST);
    assert_eq!(run.result, Ok(tunnel.to_vec()));
}

#[test]
fn success_keeps_leftover_under_every_chunking() {
    ok(b"HTTP/1.1 200 Connection established\r\n\r\n", b"");
    // Bare LF line ends are accepted in the reply head (RFC 9112 §2.2).
    ok(b"HTTP/1.1 200 OK\nX: y\n\n\x16\x03", b"\x16\x03");
    ok(
        b"HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x03tls-bytes",
        b"\x16\x03\x03tls-bytes",
    );
    ok(
        b"HTTP/1.0 200 Connection established\r\nProxy-agent: tinyproxy/1.11\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
        b"HTTP/1.1 200 OK\r\n\r\n",
    );
    // Other 2xx, missing reason phrase.
    ok(b"HTTP/1.1 204\r\n\r\nxy", b"xy");
    ok(b"HTTP/1.1 299 Fine\r\n\r\n\r\n\r\n", b"\r\n\r\n");
}

#[test]
fn content_length_and_transfer_encoding_of_a_2xx_are_ignored() {
    ok(
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcdefgh",
        b"abcdefgh",
    );
    ok(
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello",
        b"5\r\nhello",
    );
}

#[test]
fn interim_responses_are_skipped() {
    ok(
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nX: y\r\n\r\nHTTP/1.1 200 OK\r\n\r\nz",
        b"z",
    );
    let mut many = Vec::new();
    for _ in 0..MAX_INTERIM_RESPONSES {
        many.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut allowed = many.clone();
    allowed.extend_from_slice(b"HTTP/1.1 200 OK\r\n\r\n!");
    assert_eq!(drive(plain(), &[allowed]).result, Ok(b"!".to_vec()));
    many.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n");
    let e = run_all(plain, &many).result.unwrap_err();
    assert_eq!(e.code(), "PROXY_PROTOCOL");
    assert!(e.to_string().contains("MAX_INTERIM_RESPONSES"), "{e}");
}

#[test]
fn switching_protocols_is_refused() {
    let e = run_all(
        plain,
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n",
    )
    .result
    .unwrap_err();
    assert_eq!(e.code(), "PROXY_PROTOCOL");
}

#[test]
fn proxy_auth_required() {
    let reply: &[u8] = b"HTTP/1.1 407 Proxy Authentication Required\r\n\
        Proxy-Authenticate: Basic realm=\"squid\"\r\nProxy-Authenticate: Negotiate\r\n\
        Content-Length: 3\r\n\r\nabc";
    let e = run_all(plain, reply).result.unwrap_err();
    assert_eq!(
        e,
        Error::ProxyAuthRequired {
            had_credentials: false,
            proxy_authenticate: Some("Basic realm=\"squid\", Negotiate".into()),
        }
    );
    assert_eq!(e.code(), "PROXY_AUTH_REQUIRED");
    assert!(e.to_string().contains("http://user:pass@host:port"), "{e}");
    let e = run_all(with_creds, b"HTTP/1.0 407 Nope\r\n\r\n")
        .result
        .unwrap_err();
    assert_eq!(
        e,
        Error::ProxyAuthRequired {
            had_credentials: true,
            proxy_authenticate: None,
        }
    );
    assert!(e.to_string().contains("rejected the credentials"), "{e}");
}

#[test]
fn unauthorized_401_counts_as_proxy_auth_required() {
    // tinyproxy 1.11 answers wrong credentials so.
    let reply: &[u8] =
        b"HTTP/1.0 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"Tinyproxy\"\r\n\
        Connection: close\r\n\r\n<html>";
    assert_eq!(
        run_all(with_creds, reply).result,
        Err(Error::ProxyAuthRequired {
            had_credentials: true,
            proxy_authenticate: Some("Basic realm=\"Tinyproxy\"".into()),
        })
    );
    // Proxy-Authenticate wins over WWW-Authenticate; none at all is fine.
    let reply: &[u8] = b"HTTP/1.1 401 U\r\nWWW-Authenticate: A\r\nProxy-Authenticate: B\r\n\r\n";
    assert_eq!(
        run_all(plain, reply).result,
        Err(Error::ProxyAuthRequired {
            had_credentials: false,
            proxy_authenticate: Some("B".into()),
        })
    );
    assert_eq!(
        run_all(plain, b"HTTP/1.1 401 U\r\n\r\n").result,
        Err(Error::ProxyAuthRequired {
            had_credentials: false,
            proxy_authenticate: None,
        })
    );
}

#[test]
fn other_statuses_are_refusals() {
    for (reply, status, reason) in [
        (&b"HTTP/1.1 403 Forbidden\r\n\r\n"[..], 403, "Forbidden"),
        (
            b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n",
            502,
            "Bad Gateway",
        ),
        (
            b"HTTP/1.0 503 Service Unavailable\r\n\r\nbody",
            503,
            "Service Unavailable",
        ),
        (b"HTTP/1.1 301 Moved\r\nLocation: /x\r\n\r\n", 301, "Moved"),
        (b"HTTP/1.1 400 \xe9t\xe9\r\n\r\n", 400, "\u{fffd}t\u{fffd}"),
    ] {
        let e = run_all(plain, reply).result.unwrap_err();
        assert_eq!(
            e,
            Error::ProxyRefused {
                status,
                reason: reason.into(),
                detail: None,
            }
        );
        assert_eq!(e.code(), "PROXY_REFUSED");
    }
}

#[test]
fn a_refusal_carries_the_proxys_own_reason() {
    let reply = b"HTTP/1.1 503 Service Unavailable\r\nServer: squid/5.7\r\n\
                  X-Squid-Error: ERR_CONNECT_FAIL 111\r\n\
                  Proxy-Status: proxy.test; error=connection_refused\r\n\r\n";
    let e = run_all(plain, reply).result.unwrap_err();
    let Error::ProxyRefused { detail, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(
        detail.as_deref(),
        Some("Proxy-Status: proxy.test; error=connection_refused; X-Squid-Error: ERR_CONNECT_FAIL 111")
    );
    let shown = e.to_string();
    assert!(
        shown.contains("503 Service Unavailable (Proxy-Status: "),
        "{shown}"
    );
    assert!(shown.contains("ERR_CONNECT_FAIL 111"), "{shown}");
    // The proxy's words are peer text: cut, and control characters shown as '?'.
    // U+009B (CSI) in UTF-8: obs-text to HTTP, an escape sequence to a terminal.
    let mut reply = b"HTTP/1.1 403 Forbidden\r\nX-Squid-Error: \xc2\x9b2J".to_vec();
    reply.extend(std::iter::repeat_n(b'e', 5000));
    reply.extend_from_slice(b"\r\n\r\n");
    let Err(Error::ProxyRefused { detail, .. }) = drive(plain(), &[reply]).result else {
        panic!("expected a refusal")
    };
    let detail = detail.unwrap();
    assert_eq!(detail.chars().count(), burrow_proxy::MAX_REASON_CHARS);
    assert!(detail.starts_with("X-Squid-Error: ?2Jeee"), "{detail}");
}

#[test]
fn long_reason_is_cut() {
    let mut reply = b"HTTP/1.1 500 ".to_vec();
    reply.extend(std::iter::repeat_n(b'r', 5000));
    reply.extend_from_slice(b"\r\n\r\n");
    let Err(Error::ProxyRefused { reason, .. }) = drive(plain(), &[reply]).result else {
        panic!("expected a refusal")
    };
    assert_eq!(reason.len(), burrow_proxy::MAX_REASON_CHARS);
}

fn protocol_error(stream: &[u8]) -> Error {
    let e = run_all(plain, stream).result.unwrap_err();
    assert_eq!(e.code(), "PROXY_PROTOCOL", "{e}");
    assert!(matches!(
        e,
        Error::ProxyProtocol {
            stage: Stage::ConnectReply,
            ..
        }
    ));
    e
}

#[test]
fn hostile_replies() {
    protocol_error(b"SSH-2.0-OpenSSH_9.6\r\n");
    protocol_error(b"\x05\x00");
    protocol_error(b"\x16\x03\x01\x00\x05hello");
    protocol_error(b"HTTP/2 200\r\n\r\n");
    protocol_error(b"HTTP/2.0 200 OK\r\n\r\n");
    protocol_error(b"HTTP/1.1 200 OK\r\nX: a\0b\r\n\r\n");
    // A bare LF ends a head line (RFC 9112 §2.2, burrow-h1); a bare CR still does not.
    protocol_error(b"HTTP/1.1 200 OK\nX: y\r\r\n\n");
    protocol_error(b"HTTP/1.1 200 OK\r\nX: y\rz\r\n\r\n");
    protocol_error(b"HTTP/1.1 200 OK\r\n folded\r\n\r\n");
    protocol_error(b"HTTP/1.1 200 OK\r\nNo colon\r\n\r\n");
    protocol_error(b"HTTP/1.1 2000 OK\r\n\r\n");
    protocol_error(b"HTTP/1.1 099 OK\r\n\r\n");
    protocol_error(b"HTTP/1.1 abc OK\r\n\r\n");
    protocol_error(b"HTTP/1.1 200 O\x01K\r\n\r\n");
}

#[test]
fn garbage_is_refused_before_a_line_ends() {
    let mut h = plain();
    let _ = h.take_transmit();
    assert!(h.feed(b"XY").is_err());
    let mut h = plain();
    assert!(h.feed(b"HTTP/1.1 200 OK").is_ok(), "a valid prefix waits");
    let mut h = plain();
    assert!(h.feed(b"garbage without any line end").is_err());
}

#[test]
fn oversized_heads_are_refused() {
    // Exactly at the limit (head bytes include the final CRLF CRLF) is accepted.
    let mut head = b"HTTP/1.1 200 OK\r\nX: ".to_vec();
    head.resize(MAX_CONNECT_HEAD_BYTES - 4, b'a');
    head.extend_from_slice(b"\r\n\r\n");
    assert_eq!(head.len(), MAX_CONNECT_HEAD_BYTES);
    let mut stream = head.clone();
    stream.extend_from_slice(b"tail");
    assert_eq!(drive(plain(), &[stream]).result, Ok(b"tail".to_vec()));
    // One byte more is refused, whole, byte by byte, and in halves.
    let mut big = b"HTTP/1.1 200 OK\r\nX: ".to_vec();
    big.resize(MAX_CONNECT_HEAD_BYTES - 3, b'a');
    big.extend_from_slice(b"\r\n\r\n");
    let whole = drive(plain(), &[big.clone()]).result.unwrap_err();
    assert!(
        whole.to_string().contains("MAX_CONNECT_HEAD_BYTES"),
        "{whole}"
    );
    let bytes: Vec<Vec<u8>> = big.iter().map(|&b| vec![b]).collect();
    assert_eq!(
        drive(plain(), &bytes).result.unwrap_err().code(),
        "PROXY_PROTOCOL"
    );
    let (a, b) = big.split_at(big.len() / 2);
    assert_eq!(
        drive(plain(), &[a.to_vec(), b.to_vec()])
            .result
            .unwrap_err()
            .code(),
        "PROXY_PROTOCOL"
    );
    // An endless head with no line end is refused at the limit, not buffered forever.
    let mut h = plain();
    let chunk = vec![b'a'; 1024];
    assert!(h.feed(b"HTTP/1.1 200 ").is_ok());
    let mut refused = false;
    for _ in 0..(MAX_CONNECT_HEAD_BYTES / 1024 + 1) {
        if h.feed(&chunk).is_err() {
            refused = true;
            break;
        }
    }
    assert!(refused);
}

#[test]
fn too_many_headers_are_refused() {
    let mut reply = b"HTTP/1.1 200 OK\r\n".to_vec();
    for i in 0..=burrow_proxy::MAX_CONNECT_HEADERS {
        reply.extend_from_slice(format!("X-{i}: v\r\n").as_bytes());
    }
    reply.extend_from_slice(b"\r\n");
    let e = drive(plain(), &[reply]).result.unwrap_err();
    assert!(e.to_string().contains("MAX_CONNECT_HEADERS"), "{e}");
}

#[test]
fn truncated_replies_end_in_proxy_closed() {
    let reply: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX: y\r\n\r\n";
    for cut in 0..reply.len() {
        let run = run_all(plain, &reply[..cut]);
        assert_eq!(
            run.result,
            Err(Error::ProxyClosed {
                stage: Stage::ConnectReply
            }),
            "cut at {cut}"
        );
    }
    let e = plain().eof();
    assert_eq!(e.code(), "PROXY_CLOSED");
}

#[test]
fn feed_after_done_is_a_caller_error() {
    let mut h = plain();
    assert_eq!(
        h.feed(b"HTTP/1.1 200 OK\r\n\r\n"),
        Ok(Progress::Done {
            leftover: Vec::new()
        })
    );
    assert_eq!(h.feed(b"x").unwrap_err().code(), "PROXY_INVALID_REQUEST");
}

#[test]
fn debug_never_shows_credentials() {
    let h = ConnectHandshake::new(
        &domain(),
        Some(&creds("user", "hunter2")),
        ProxyConnectionHeader::Omit,
        &[],
    )
    .unwrap();
    let text = format!("{h:?}");
    assert!(
        !text.contains("hunter2") && !text.contains("dXNlcjpodW50ZXIy"),
        "{text}"
    );
}

#[test]
fn control_characters_from_the_proxy_never_reach_messages() {
    // obs-text that decodes to C1 CSI (U+009B); the head parser already refuses C0 bytes.
    let reply: &[u8] = b"HTTP/1.1 403 Go \xc2\x9b31m away\r\n\r\n";
    let e = run_all(plain, reply).result.unwrap_err();
    assert_eq!(e.code(), "PROXY_REFUSED");
    let text = e.to_string();
    assert!(!text.chars().any(char::is_control), "{text:?}");
    assert!(text.contains("Go ?31m away"), "{text:?}");
}

#[test]
fn basic_authorization_is_rfc7617_and_refuses_a_colon_in_the_user() {
    assert_eq!(
        creds("Aladdin", "open sesame")
            .basic_authorization()
            .unwrap(),
        "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
    );
    let e = creds("a:b", "p").basic_authorization().unwrap_err();
    assert_eq!(e.code(), "PROXY_INVALID_REQUEST", "{e}");
}
