//! Proxies: burrow-proxy's sans-IO handshakes (HTTP CONNECT, SOCKS5) driven over a
//! [`NetStream`], and the pieces absolute-form requests need.

use std::net::IpAddr;

use burrow_proxy::connect::{ConnectHandshake, ProxyConnectionHeader};
use burrow_proxy::socks5::Socks5Handshake;
use burrow_proxy::{Credentials, Handshake, Progress, Target};

use crate::error::Error;
use crate::net::{Net, NetStream};

/// Bytes read from the proxy at a time during a handshake.
const HANDSHAKE_READ: usize = 4096;

/// `Basic base64(user:pass)`.
pub(crate) fn basic_auth(c: &Credentials) -> String {
    let raw = format!("{}:{}", c.username, c.password);
    format!("Basic {}", base64(raw.as_bytes()))
}

fn base64(input: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sym = |v: u32| char::from(ALPHABET.get((v & 63) as usize).copied().unwrap_or(b'='));
    let mut out = String::new();
    for chunk in input.chunks(3) {
        let b = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (b(0) << 16) | (b(1) << 8) | b(2);
        out.push(sym(n >> 18));
        out.push(sym(n >> 12));
        out.push(if chunk.len() > 1 { sym(n >> 6) } else { '=' });
        out.push(if chunk.len() > 2 { sym(n) } else { '=' });
    }
    out
}

/// `host:port` for CONNECT / Host, with brackets around IPv6.
pub(crate) fn authority(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// Sends the handshake's bytes and feeds it the proxy's until the tunnel is open. Returns the
/// tunnel bytes that arrived with the reply (they are the first bytes of the tunnel).
async fn drive<S: NetStream, H: Handshake>(s: &mut S, h: &mut H) -> Result<Vec<u8>, Error> {
    let io = |e| Error::from_io(e, Error::Io);
    let mut buf = vec![0u8; HANDSHAKE_READ];
    loop {
        let out = h.take_transmit();
        if !out.is_empty() {
            s.write_all(&out).await.map_err(io)?;
        }
        let n = s.read(&mut buf).await.map_err(io)?;
        if n == 0 {
            return Err(Error::Proxy(h.eof()));
        }
        match h.feed(buf.get(..n).unwrap_or(&[])).map_err(Error::Proxy)? {
            Progress::NeedMore => {}
            Progress::Done { leftover } => {
                // A reply can complete a step whose request is still queued (a script, or a
                // proxy answering early): send it before the tunnel is used.
                let out = h.take_transmit();
                if !out.is_empty() {
                    s.write_all(&out).await.map_err(io)?;
                }
                return Ok(leftover);
            }
        }
    }
}

/// Opens a CONNECT tunnel to `host:port` over `s`.
pub(crate) async fn http_connect<S: NetStream>(
    s: &mut S,
    host: &str,
    port: u16,
    credentials: Option<&Credentials>,
    proxy_connection: ProxyConnectionHeader,
    user_agent: Option<&str>,
) -> Result<Vec<u8>, Error> {
    let extra: Vec<(String, String)> = user_agent
        .map(|ua| ("User-Agent".to_string(), ua.to_string()))
        .into_iter()
        .collect();
    let mut h = ConnectHandshake::new(
        &Target::from_host(host, port),
        credentials,
        proxy_connection,
        &extra,
    )
    .map_err(Error::Proxy)?;
    match drive(s, &mut h).await {
        // tinyproxy answers a bad or missing password with 401, not 407.
        Err(Error::Proxy(burrow_proxy::Error::ProxyRefused { status: 401, .. })) => {
            Err(auth_required(credentials.is_some()))
        }
        other => other,
    }
}

/// `PROXY_AUTH_REQUIRED`.
pub(crate) fn auth_required(had_credentials: bool) -> Error {
    Error::Proxy(burrow_proxy::Error::ProxyAuthRequired {
        had_credentials,
        proxy_authenticate: None,
    })
}

/// Runs the SOCKS5 handshake for `host:port`. `remote_dns` sends names to the proxy
/// (socks5h); otherwise names are resolved with `net` first.
pub(crate) async fn socks5_connect<N: Net, S: NetStream>(
    net: &N,
    s: &mut S,
    host: &str,
    port: u16,
    credentials: Option<&Credentials>,
    remote_dns: bool,
) -> Result<Vec<u8>, Error> {
    let target = match Target::from_host(host, port) {
        Target::Domain(name, port) if !remote_dns => {
            let addrs: Vec<IpAddr> = net.resolve(&name).await.map_err(Error::Connect)?;
            let ip = addrs.into_iter().next().ok_or_else(|| {
                Error::Connect(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the name resolved to no address",
                ))
            })?;
            Target::Ip(ip, port)
        }
        t => t,
    };
    let mut h = Socks5Handshake::new(&target, credentials).map_err(Error::Proxy)?;
    drive(s, &mut h).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
