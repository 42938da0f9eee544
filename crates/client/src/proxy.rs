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

/// The Host / `:authority` value: `host:port` when the URL names a port, else the host;
/// IPv6 in brackets.
pub(crate) fn host_field(host: &str, explicit_port: Option<u16>) -> String {
    match explicit_port {
        Some(port) => Target::from_host(host, port).authority(),
        None if host.contains(':') => format!("[{host}]"),
        None => host.to_string(),
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
    // burrow-proxy already reads tinyproxy's 401 as PROXY_AUTH_REQUIRED.
    drive(s, &mut h).await
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
            let addrs: Vec<IpAddr> = net
                .resolve(&name)
                .await
                .map_err(|e| Error::from_io(e, Error::Connect))?;
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
