//! Interop with real proxies from `../shared/peers`: tinyproxy, squid (HTTP CONNECT) and
//! microsocks (SOCKS5). Each test opens a tunnel over a `std::net::TcpStream` to the PLAIN nginx
//! port and fetches /1k through it, or checks how the proxy refuses.
//!
//! Needs the peers running (`PEERS_STATE` selects which copy); `BURROW_PEERS=none` skips loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpListener, TcpStream};
use std::time::Duration;

use burrow_proxy::connect::{ConnectHandshake, ProxyConnectionHeader};
use burrow_proxy::socks5::Socks5Handshake;
use burrow_proxy::{Credentials, Error, Handshake, Progress, Socks5Reply, Target};
use burrow_testkit::peers::Peers;
use sha2::{Digest, Sha256};

const LOCALHOST: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// Drives `handshake` over a fresh connection to the proxy on `proxy_port`. Returns the stream
/// and the leftover bytes once the tunnel is open.
fn open(proxy_port: u16, handshake: impl Handshake) -> Result<(TcpStream, Vec<u8>), Error> {
    open_reading(proxy_port, handshake, 4096)
}

/// [`open`] reading at most `read_size` bytes at a time (1: the reply arrives byte by byte).
fn open_reading(
    proxy_port: u16,
    mut handshake: impl Handshake,
    read_size: usize,
) -> Result<(TcpStream, Vec<u8>), Error> {
    let mut stream = TcpStream::connect((LOCALHOST, proxy_port))
        .unwrap_or_else(|e| panic!("connecting to the proxy on port {proxy_port}: {e}"));
    // Only so that a silent proxy fails the test instead of hanging it.
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut buf = vec![0u8; read_size];
    loop {
        let out = handshake.take_transmit();
        if !out.is_empty() {
            stream.write_all(&out).unwrap();
        }
        let n = stream.read(&mut buf).expect("reading from the proxy");
        if n == 0 {
            return Err(handshake.eof());
        }
        match handshake.feed(&buf[..n])? {
            Progress::NeedMore => {}
            Progress::Done { leftover } => {
                assert!(handshake.take_transmit().is_empty());
                return Ok((stream, leftover));
            }
        }
    }
}

/// GET /1k through an open tunnel; checks the status, the length and the SHA-256.
fn get_1k(peers: &Peers, (mut stream, leftover): (TcpStream, Vec<u8>)) {
    assert!(leftover.is_empty(), "no tunnel bytes before our request");
    let plain = peers.port("PLAIN");
    let request =
        format!("GET /1k HTTP/1.1\r\nHost: 127.0.0.1:{plain}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let end = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8_lossy(&response[..end]).to_string();
    assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("content-length: 1024"),
        "{head}"
    );
    let body = &response[end + 4..];
    assert_eq!(body.len(), 1024);
    let sums = std::fs::read_to_string(peers.www().join("sha256sums")).unwrap();
    let want = sums
        .lines()
        .find_map(|l| l.strip_suffix("  1k"))
        .expect("sha256sums lists 1k");
    let got: String = Sha256::digest(body)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(got, want);
}

fn plain_target(peers: &Peers) -> Target {
    Target::Ip(LOCALHOST, peers.port("PLAIN"))
}

/// A loopback port nothing listens on (bound, then released).
fn closed_port() -> u16 {
    let listener = TcpListener::bind((LOCALHOST, 0)).unwrap();
    listener.local_addr().unwrap().port()
}

fn creds(peers: &Peers, user: &str, pass: &str) -> Credentials {
    Credentials {
        username: peers.var(user).expect("user in peers.env").to_string(),
        password: peers.var(pass).expect("password in peers.env").to_string(),
    }
}

fn http_creds(peers: &Peers) -> Credentials {
    creds(peers, "PEERS_PROXY_USER", "PEERS_PROXY_PASS")
}

fn socks_creds(peers: &Peers) -> Credentials {
    creds(peers, "PEERS_SOCKS_USER", "PEERS_SOCKS_PASS")
}

fn connect(target: &Target, credentials: Option<&Credentials>) -> ConnectHandshake {
    let extra = [("User-Agent".to_string(), "burrow-proxy-test".to_string())];
    ConnectHandshake::new(
        target,
        credentials,
        ProxyConnectionHeader::KeepAlive,
        &extra,
    )
    .unwrap()
}

const HTTP_PROXIES: [&str; 2] = ["HTTP_PROXY", "SQUID"];
const HTTP_PROXIES_AUTH: [&str; 2] = ["HTTP_PROXY_AUTH", "SQUID_AUTH"];

#[test]
fn http_connect_fetches_1k() {
    let Some(peers) = Peers::load("http_connect_fetches_1k") else {
        return;
    };
    for name in HTTP_PROXIES {
        let tunnel = open(peers.port(name), connect(&plain_target(&peers), None))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        get_1k(&peers, tunnel);
    }
    for name in HTTP_PROXIES_AUTH {
        let c = http_creds(&peers);
        let tunnel = open(peers.port(name), connect(&plain_target(&peers), Some(&c)))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        get_1k(&peers, tunnel);
    }
}

#[test]
fn http_connect_by_name() {
    let Some(peers) = Peers::load("http_connect_by_name") else {
        return;
    };
    // The proxy resolves the name; "localhost" may resolve to ::1 first, where nginx does not
    // listen, so use the IPv4 literal written as a name.
    let target = Target::Domain("127.0.0.1".into(), peers.port("PLAIN"));
    for name in HTTP_PROXIES {
        let tunnel = open(peers.port(name), connect(&target, None))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        get_1k(&peers, tunnel);
    }
}

#[test]
fn http_connect_auth_failures() {
    let Some(peers) = Peers::load("http_connect_auth_failures") else {
        return;
    };
    for name in HTTP_PROXIES_AUTH {
        let port = peers.port(name);
        let mut wrong = http_creds(&peers);
        wrong.password.push_str("-wrong");
        let e = open(port, connect(&plain_target(&peers), Some(&wrong))).unwrap_err();
        assert!(
            matches!(
                e,
                Error::ProxyAuthRequired {
                    had_credentials: true,
                    ..
                }
            ),
            "{name}: {e:?}"
        );
        let e = open(port, connect(&plain_target(&peers), None)).unwrap_err();
        let Error::ProxyAuthRequired {
            had_credentials: false,
            proxy_authenticate,
        } = &e
        else {
            panic!("{name}: {e:?}")
        };
        let challenge = proxy_authenticate.as_deref().unwrap_or_default();
        assert!(challenge.starts_with("Basic"), "{name}: {challenge:?}");
    }
}

#[test]
fn http_connect_to_a_closed_port_is_refused() {
    let Some(peers) = Peers::load("http_connect_to_a_closed_port_is_refused") else {
        return;
    };
    let target = Target::Ip(LOCALHOST, closed_port());
    for name in HTTP_PROXIES {
        let e = open(peers.port(name), connect(&target, None)).unwrap_err();
        let shown = e.to_string();
        let Error::ProxyRefused {
            status,
            reason,
            detail,
        } = e
        else {
            panic!("{name}: {e:?}")
        };
        assert!((500..=599).contains(&status), "{name}: {status}");
        // Each proxy's own words reach the message: squid's error name (with the errno of
        // the refused connect), tinyproxy's reason phrase.
        let own = match name {
            "SQUID" => "X-Squid-Error: ERR_CONNECT_FAIL",
            _ => "Unable to connect",
        };
        assert!(shown.contains(own), "{name}: {shown}");
        eprintln!("{name} answers CONNECT to a closed port with {status} {reason} {detail:?}");
    }
}

#[test]
fn socks5_fetches_1k() {
    let Some(peers) = Peers::load("socks5_fetches_1k") else {
        return;
    };
    let plain = peers.port("PLAIN");
    for target in [
        Target::Ip(LOCALHOST, plain),
        Target::Domain("127.0.0.1".into(), plain),
    ] {
        let h = Socks5Handshake::new(&target, None).unwrap();
        let tunnel = open(peers.port("SOCKS"), h).unwrap_or_else(|e| panic!("{target:?}: {e}"));
        get_1k(&peers, tunnel);
        let c = socks_creds(&peers);
        let h = Socks5Handshake::new(&target, Some(&c)).unwrap();
        let tunnel =
            open(peers.port("SOCKS_AUTH"), h).unwrap_or_else(|e| panic!("{target:?}: {e}"));
        get_1k(&peers, tunnel);
    }
}

#[test]
fn socks5_auth_failures() {
    let Some(peers) = Peers::load("socks5_auth_failures") else {
        return;
    };
    let port = peers.port("SOCKS_AUTH");
    let mut wrong = socks_creds(&peers);
    wrong.password.push_str("-wrong");
    let h = Socks5Handshake::new(&plain_target(&peers), Some(&wrong)).unwrap();
    let e = open(port, h).unwrap_err();
    assert_eq!(
        e,
        Error::ProxyAuthRequired {
            had_credentials: true,
            proxy_authenticate: None
        }
    );
    let h = Socks5Handshake::new(&plain_target(&peers), None).unwrap();
    assert_eq!(open(port, h).unwrap_err(), Error::Socks5NoAcceptableMethod);
}

#[test]
fn socks5_connect_to_a_closed_port_is_refused() {
    let Some(peers) = Peers::load("socks5_connect_to_a_closed_port_is_refused") else {
        return;
    };
    let h = Socks5Handshake::new(&Target::Ip(LOCALHOST, closed_port()), None).unwrap();
    assert_eq!(
        open(peers.port("SOCKS"), h).unwrap_err(),
        Error::Socks5 {
            reply: Socks5Reply::ConnectionRefused
        }
    );
}

#[test]
fn replies_read_byte_by_byte() {
    let Some(peers) = Peers::load("replies_read_byte_by_byte") else {
        return;
    };
    for name in HTTP_PROXIES {
        let tunnel = open_reading(peers.port(name), connect(&plain_target(&peers), None), 1)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        get_1k(&peers, tunnel);
    }
    let c = socks_creds(&peers);
    let h = Socks5Handshake::new(
        &Target::Domain("127.0.0.1".into(), peers.port("PLAIN")),
        Some(&c),
    )
    .unwrap();
    let tunnel = open_reading(peers.port("SOCKS_AUTH"), h, 1).unwrap();
    get_1k(&peers, tunnel);
    // A refusal with a body (squid's error page) read byte by byte ends at the head.
    let mut wrong = http_creds(&peers);
    wrong.password.push('x');
    let e = open_reading(
        peers.port("SQUID_AUTH"),
        connect(&plain_target(&peers), Some(&wrong)),
        1,
    )
    .unwrap_err();
    assert_eq!(e.code(), "PROXY_AUTH_REQUIRED");
}
