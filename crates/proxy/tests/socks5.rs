//! SOCKS5: request encoding and every reply branch under every chunking.
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

use burrow_proxy::socks5::Socks5Handshake;
use burrow_proxy::{Credentials, Error, Handshake, Progress, Socks5Reply, Stage, Target};
use common::{drive, run_all};

fn creds(user: &str, pass: &str) -> Credentials {
    Credentials {
        username: user.into(),
        password: pass.into(),
    }
}

fn domain() -> Target {
    Target::Domain("example.com".into(), 443)
}

fn plain() -> Socks5Handshake {
    Socks5Handshake::new(&domain(), None).unwrap()
}

fn with_creds() -> Socks5Handshake {
    Socks5Handshake::new(&domain(), Some(&creds("user", "pw"))).unwrap()
}

const GREETING: &[u8] = &[5, 1, 0];
const GREETING_AUTH: &[u8] = &[5, 2, 0, 2];
const AUTH: &[u8] = b"\x01\x04user\x02pw";
const CONNECT_DOMAIN: &[u8] = b"\x05\x01\x00\x03\x0bexample.com\x01\xbb";
/// Success reply with an IPv4 bound address.
const REPLY_V4: &[u8] = &[5, 0, 0, 1, 127, 0, 0, 1, 0x1f, 0x90];

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

#[test]
fn requests_for_each_address_type() {
    let mut h = plain();
    assert_eq!(h.take_transmit(), GREETING);
    assert_eq!(
        h.take_transmit(),
        b"",
        "nothing more before the method reply"
    );
    assert_eq!(h.feed(&[5, 0]), Ok(Progress::NeedMore));
    assert_eq!(h.take_transmit(), CONNECT_DOMAIN);

    let v4 = Target::Ip("10.1.2.3".parse().unwrap(), 80);
    let mut h = Socks5Handshake::new(&v4, None).unwrap();
    let _ = h.take_transmit();
    h.feed(&[5, 0]).unwrap();
    assert_eq!(h.take_transmit(), [5, 1, 0, 1, 10, 1, 2, 3, 0, 80]);

    let v6 = Target::Ip("2001:db8::1".parse().unwrap(), 8443);
    let mut h = Socks5Handshake::new(&v6, None).unwrap();
    let _ = h.take_transmit();
    h.feed(&[5, 0]).unwrap();
    let mut want = vec![5, 1, 0, 4, 0x20, 0x01, 0x0d, 0xb8];
    want.extend_from_slice(&[0; 11]);
    want.extend_from_slice(&[1, 0x20, 0xfb]);
    assert_eq!(h.take_transmit(), want);
}

#[test]
fn success_without_auth_keeps_leftover() {
    for (reply, tunnel) in [
        (REPLY_V4.to_vec(), &b""[..]),
        (cat(&[REPLY_V4, b"\x16\x03\x03data"]), b"\x16\x03\x03data"),
        // Domain bound address: its length byte is honoured, even when the bytes look like
        // another reply.
        (
            cat(&[
                &[5, 0, 0, 3, 9],
                b"\x05\x00\x00\x01abcde",
                &[0, 80],
                b"tail",
            ]),
            b"tail",
        ),
        (cat(&[&[5, 0, 0, 3, 0, 0, 80], b"t"]), b"t"),
        (
            cat(&[&[5, 0, 0, 4], &[0xab; 16], &[1, 2], b"v6-tail"]),
            b"v6-tail",
        ),
        // RSV is ignored.
        (cat(&[&[5, 0, 7, 1, 0, 0, 0, 0, 0, 0], b"x"]), b"x"),
    ] {
        let stream = cat(&[&[5, 0], &reply]);
        let run = run_all(plain, &stream);
        assert_eq!(run.sent, cat(&[GREETING, CONNECT_DOMAIN]));
        assert_eq!(run.result, Ok(tunnel.to_vec()), "{reply:?}");
    }
}

#[test]
fn success_with_username_password() {
    let stream = cat(&[&[5, 2], &[1, 0], REPLY_V4, b"after"]);
    let run = run_all(with_creds, &stream);
    assert_eq!(run.sent, cat(&[GREETING_AUTH, AUTH, CONNECT_DOMAIN]));
    assert_eq!(run.result, Ok(b"after".to_vec()));
    // The proxy may pick "no authentication" although credentials were offered.
    let stream = cat(&[&[5, 0], REPLY_V4]);
    let run = run_all(with_creds, &stream);
    assert_eq!(run.sent, cat(&[GREETING_AUTH, CONNECT_DOMAIN]));
    assert_eq!(run.result, Ok(Vec::new()));
}

#[test]
fn messages_are_sent_one_at_a_time() {
    let mut h = with_creds();
    assert_eq!(h.take_transmit(), GREETING_AUTH);
    assert_eq!(h.feed(&[5]), Ok(Progress::NeedMore));
    assert_eq!(h.take_transmit(), b"");
    assert_eq!(h.feed(&[2]), Ok(Progress::NeedMore));
    assert_eq!(h.take_transmit(), AUTH);
    assert_eq!(h.feed(&[1, 0]), Ok(Progress::NeedMore));
    assert_eq!(h.take_transmit(), CONNECT_DOMAIN);
    assert_eq!(
        h.feed(REPLY_V4),
        Ok(Progress::Done {
            leftover: Vec::new()
        })
    );
    assert_eq!(h.take_transmit(), b"");
    assert_eq!(h.feed(b"x").unwrap_err().code(), "PROXY_INVALID_REQUEST");
}

#[test]
fn no_acceptable_method() {
    for make in [plain as fn() -> Socks5Handshake, with_creds] {
        let run = run_all(make, &[5, 0xff]);
        assert_eq!(run.result, Err(Error::Socks5NoAcceptableMethod));
        let e = run.result.unwrap_err();
        assert_eq!(e.code(), "SOCKS5_NO_ACCEPTABLE_METHOD");
        assert!(
            e.to_string().contains("socks5://user:pass@host:port"),
            "{e}"
        );
    }
}

#[test]
fn unoffered_methods_are_protocol_errors() {
    // Username/password chosen although only "no authentication" was offered; GSSAPI; others.
    for (make, method) in [
        (plain as fn() -> Socks5Handshake, 2u8),
        (plain, 1),
        (with_creds, 1),
        (with_creds, 3),
        (with_creds, 0x80),
    ] {
        let e = run_all(make, &[5, method]).result.unwrap_err();
        assert!(
            matches!(
                e,
                Error::ProxyProtocol {
                    stage: Stage::Socks5Method,
                    ..
                }
            ),
            "{e:?}"
        );
    }
}

#[test]
fn auth_failure_is_proxy_auth_required() {
    for status in [1u8, 0xff] {
        let e = run_all(with_creds, &[5, 2, 1, status]).result.unwrap_err();
        assert_eq!(
            e,
            Error::ProxyAuthRequired {
                had_credentials: true,
                proxy_authenticate: None
            }
        );
        assert_eq!(e.code(), "PROXY_AUTH_REQUIRED");
    }
}

#[test]
fn every_reply_code_has_its_own_error() {
    let expected = [
        (
            1u8,
            Socks5Reply::GeneralFailure,
            "SOCKS5_GENERAL_FAILURE",
            "general SOCKS server failure",
        ),
        (
            2,
            Socks5Reply::NotAllowed,
            "SOCKS5_NOT_ALLOWED",
            "not allowed by ruleset",
        ),
        (
            3,
            Socks5Reply::NetworkUnreachable,
            "SOCKS5_NETWORK_UNREACHABLE",
            "network unreachable",
        ),
        (
            4,
            Socks5Reply::HostUnreachable,
            "SOCKS5_HOST_UNREACHABLE",
            "host unreachable",
        ),
        (
            5,
            Socks5Reply::ConnectionRefused,
            "SOCKS5_CONNECTION_REFUSED",
            "connection refused",
        ),
        (
            6,
            Socks5Reply::TtlExpired,
            "SOCKS5_TTL_EXPIRED",
            "TTL expired",
        ),
        (
            7,
            Socks5Reply::CommandNotSupported,
            "SOCKS5_COMMAND_NOT_SUPPORTED",
            "command not supported",
        ),
        (
            8,
            Socks5Reply::AddressTypeNotSupported,
            "SOCKS5_ADDRESS_TYPE_NOT_SUPPORTED",
            "address type not supported",
        ),
        (9, Socks5Reply::Unknown(9), "SOCKS5_UNKNOWN_REPLY", "0x09"),
        (
            0xff,
            Socks5Reply::Unknown(0xff),
            "SOCKS5_UNKNOWN_REPLY",
            "0xff",
        ),
    ];
    for (code, reply, error_code, text) in expected {
        assert_eq!(Socks5Reply::from_code(code), Some(reply));
        assert_eq!(reply.code_byte(), code);
        // Full reply, and the reply cut right after the code (the proxy may close at once).
        for tail in [&[0u8, 1, 0, 0, 0, 0, 0, 0][..], &[]] {
            let stream = cat(&[&[5, 0, 5, code], tail]);
            let e = run_all(plain, &stream).result.unwrap_err();
            assert_eq!(e, Error::Socks5 { reply });
            assert_eq!(e.code(), error_code);
            assert!(e.to_string().contains(text), "{e}");
        }
    }
    assert_eq!(Socks5Reply::from_code(0), None);
}

fn protocol_error(make: fn() -> Socks5Handshake, stream: &[u8], stage: Stage) {
    let e = run_all(make, stream).result.unwrap_err();
    assert_eq!(e.code(), "PROXY_PROTOCOL");
    assert!(
        matches!(&e, Error::ProxyProtocol { stage: s, .. } if *s == stage),
        "{e:?}"
    );
}

#[test]
fn wrong_versions_and_garbage() {
    protocol_error(plain, &[4, 0], Stage::Socks5Method);
    protocol_error(
        plain,
        b"HTTP/1.1 400 Bad Request\r\n\r\n",
        Stage::Socks5Method,
    );
    let e = drive(plain(), &[b"HTTP/1.1 400".to_vec()])
        .result
        .unwrap_err();
    assert!(e.to_string().contains("http://"), "{e}");
    protocol_error(with_creds, &[5, 2, 5, 0], Stage::Socks5Auth);
    protocol_error(with_creds, &[5, 2, 0, 0], Stage::Socks5Auth);
    protocol_error(
        plain,
        &[5, 0, 4, 0, 0, 1, 0, 0, 0, 0, 0, 0],
        Stage::Socks5Reply,
    );
    protocol_error(
        plain,
        &[5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
        Stage::Socks5Reply,
    );
    for atyp in [0u8, 2, 5, 0xff] {
        protocol_error(
            plain,
            &[5, 0, 5, 0, 0, atyp, 0, 0, 0, 0, 0, 0],
            Stage::Socks5Reply,
        );
    }
}

#[test]
fn truncated_conversations_end_in_proxy_closed_naming_the_stage() {
    let stream = cat(&[&[5, 2], &[1, 0], &[5, 0, 0, 3, 4], b"host", &[0, 80]]);
    for cut in 0..stream.len() {
        let stage = match cut {
            0..=1 => Stage::Socks5Method,
            2..=3 => Stage::Socks5Auth,
            _ => Stage::Socks5Reply,
        };
        let run = run_all(with_creds, &stream[..cut]);
        assert_eq!(
            run.result,
            Err(Error::ProxyClosed { stage }),
            "cut at {cut}"
        );
    }
    assert_eq!(
        run_all(with_creds, &stream).result,
        Ok(Vec::new()),
        "the whole conversation succeeds"
    );
    assert_eq!(plain().eof().code(), "PROXY_CLOSED");
}

#[test]
fn credential_and_target_limits() {
    let u255 = "u".repeat(255);
    assert!(Socks5Handshake::new(&domain(), Some(&creds(&u255, &u255))).is_ok());
    for (user, pass) in [
        ("", "p"),
        ("u", ""),
        (&"u".repeat(256)[..], "p"),
        ("u", &"p".repeat(256)[..]),
    ] {
        let e = Socks5Handshake::new(&domain(), Some(&creds(user, pass))).unwrap_err();
        assert_eq!(e.code(), "PROXY_INVALID_REQUEST");
    }
    // The length limits are in bytes, not characters.
    let e = Socks5Handshake::new(&domain(), Some(&creds(&"é".repeat(128), "p"))).unwrap_err();
    assert_eq!(e.code(), "PROXY_INVALID_REQUEST");

    let name255 = format!("{}.com", "a".repeat(251));
    assert!(Socks5Handshake::new(&Target::Domain(name255, 1), None).is_ok());
    let name256 = format!("{}.com", "a".repeat(252));
    for target in [
        Target::Domain(name256, 1),
        Target::Domain(String::new(), 1),
        Target::Domain("a\0b".into(), 1),
        Target::Domain("example.com".into(), 0),
        Target::Ip("::1".parse().unwrap(), 0),
    ] {
        let e = Socks5Handshake::new(&target, None).unwrap_err();
        assert_eq!(e.code(), "PROXY_INVALID_REQUEST", "{target:?}");
    }
}

#[test]
fn debug_never_shows_the_password() {
    let h = Socks5Handshake::new(&domain(), Some(&creds("user", "hunter2"))).unwrap();
    let text = format!("{h:?}");
    assert!(!text.contains("hunter2"), "{text}");
}
