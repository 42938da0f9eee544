//! Proxies: the proxy URL, the no_proxy list, and the two tunnel handshakes (HTTP CONNECT and
//! SOCKS5 with RFC 1929 user/password), run over any [`NetStream`].
//!
//! Written here because burrow-proxy had not landed when this crate was started; the wire
//! logic is small and bounded, and swapping it for burrow-proxy's sans-IO handshakes changes
//! only this file.

use std::net::IpAddr;

use burrow_h1::{parse_response_head, Limits};

use crate::error::Error;
use crate::net::{Net, NetStream};

/// Largest CONNECT reply head accepted (bytes); a proxy sending more is refused.
pub const MAX_PROXY_REPLY_HEAD: usize = 16 * 1024;

/// Which protocol the proxy speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProxyScheme {
    /// HTTP proxy: CONNECT tunnels for https, absolute-form requests for http.
    Http,
    /// HTTP proxy reached over TLS (its own certificate checked against `proxy_tls`).
    Https,
    /// SOCKS5, names resolved locally.
    Socks5,
    /// SOCKS5, names resolved by the proxy.
    Socks5h,
}

/// Proxy user name and password (from the URL's userinfo, percent-decoded).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Credentials {
    /// User name.
    pub username: String,
    /// Password.
    pub password: String,
}

impl core::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"<redacted>")
            .finish()
    }
}

/// A proxy, parsed from `http://`, `https://`, `socks5://` or `socks5h://` URLs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Proxy {
    /// Protocol.
    pub scheme: ProxyScheme,
    /// Host name or IP literal (IPv6 without brackets).
    pub host: String,
    /// Port (default 80 for http, 443 for https, 1080 for socks).
    pub port: u16,
    /// Credentials, if the URL had any.
    pub credentials: Option<Credentials>,
}

impl Proxy {
    /// Parses a proxy URL such as `http://user:pass@proxy.example:3128`.
    pub fn parse(s: &str) -> Result<Proxy, Error> {
        let url = url::Url::parse(s)
            .map_err(|e| Error::ProxyConfig(format!("proxy URL {s:?} does not parse: {e}")))?;
        let (scheme, default_port) = match url.scheme() {
            "http" => (ProxyScheme::Http, 80),
            "https" => (ProxyScheme::Https, 443),
            "socks5" => (ProxyScheme::Socks5, 1080),
            "socks5h" => (ProxyScheme::Socks5h, 1080),
            other => {
                return Err(Error::ProxyConfig(format!(
                    "proxy scheme {other:?} is not supported (use http, https, socks5 or socks5h)"
                )))
            }
        };
        let host = match url.host() {
            Some(url::Host::Domain(d)) => d.to_string(),
            Some(url::Host::Ipv4(a)) => a.to_string(),
            Some(url::Host::Ipv6(a)) => a.to_string(),
            None => return Err(Error::ProxyConfig("the proxy URL has no host".into())),
        };
        let credentials = if url.username().is_empty() && url.password().is_none() {
            None
        } else {
            Some(Credentials {
                username: percent_decode(url.username()),
                password: percent_decode(url.password().unwrap_or("")),
            })
        };
        Ok(Proxy {
            scheme,
            host,
            port: url.port().unwrap_or(default_port),
            credentials,
        })
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0usize;
    while let Some(&c) = b.get(i) {
        let hex = |j: usize| {
            b.get(j)
                .and_then(|h| char::from(*h).to_digit(16))
                .and_then(|d| u8::try_from(d).ok())
        };
        match (c, hex(i.saturating_add(1)), hex(i.saturating_add(2))) {
            (b'%', Some(h), Some(l)) => {
                out.push(h.saturating_mul(16).saturating_add(l));
                i = i.saturating_add(3);
            }
            _ => {
                out.push(c);
                i = i.saturating_add(1);
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A `no_proxy` list: comma-separated host names (`example.com` also matches subdomains; a
/// leading `.` or `*.` is the same), IP literals, optional `:port`, or `*` for everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoProxy {
    entries: Vec<(String, Option<u16>)>,
}

impl NoProxy {
    /// Parses the list; empty items are ignored.
    pub fn parse(list: &str) -> NoProxy {
        let entries = list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|item| {
                let (host, port) = match item.rsplit_once(':') {
                    Some((h, p)) if !h.contains(':') || h.ends_with(']') => match p.parse() {
                        Ok(p) => (h, Some(p)),
                        Err(_) => (item, None),
                    },
                    _ => (item, None),
                };
                let host = host
                    .trim_start_matches("*.")
                    .trim_start_matches('.')
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_ascii_lowercase();
                (host, port)
            })
            .collect();
        NoProxy { entries }
    }

    /// Whether `host:port` bypasses the proxy.
    pub fn matches(&self, host: &str, port: u16) -> bool {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let host = host.to_ascii_lowercase();
        self.entries.iter().any(|(h, p)| {
            if p.is_some_and(|p| p != port) {
                return false;
            }
            h == "*"
                || *h == host
                || (host.len() > h.len()
                    && host.ends_with(h.as_str())
                    && host
                        .get(..host.len().saturating_sub(h.len()))
                        .is_some_and(|s| s.ends_with('.')))
        })
    }
}

/// Whether CONNECT (and absolute-form requests) carry `Proxy-Connection`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProxyConnectionHeader {
    /// `Proxy-Connection: keep-alive` (what browsers and curl send).
    #[default]
    KeepAlive,
    /// `Proxy-Connection: close`.
    Close,
    /// No such header.
    Omit,
}

impl ProxyConnectionHeader {
    pub(crate) fn value(self) -> Option<&'static str> {
        match self {
            ProxyConnectionHeader::KeepAlive => Some("keep-alive"),
            ProxyConnectionHeader::Close => Some("close"),
            ProxyConnectionHeader::Omit => None,
        }
    }
}

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

/// Sends CONNECT and reads the reply. Returns the tunnel bytes that arrived with the reply.
pub(crate) async fn http_connect<S: NetStream>(
    s: &mut S,
    host: &str,
    port: u16,
    credentials: Option<&Credentials>,
    proxy_connection: ProxyConnectionHeader,
) -> Result<Vec<u8>, Error> {
    let target = authority(host, port);
    let mut req = format!("CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n");
    if let Some(c) = credentials {
        req.push_str(&format!("Proxy-Authorization: {}\r\n", basic_auth(c)));
    }
    if let Some(v) = proxy_connection.value() {
        req.push_str(&format!("Proxy-Connection: {v}\r\n"));
    }
    req.push_str("\r\n");
    let io = |e| Error::from_io(e, Error::Io);
    s.write_all(req.as_bytes()).await.map_err(io)?;
    let limits = Limits {
        max_head_bytes: MAX_PROXY_REPLY_HEAD,
        ..Limits::default()
    };
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match parse_response_head(&buf, &limits) {
            Ok(Some((head, len))) => {
                if head.is_interim() {
                    buf.drain(..len.min(buf.len()));
                    continue;
                }
                return match head.status {
                    200..=299 => Ok(buf.split_off(len.min(buf.len()))),
                    // tinyproxy answers a bad or missing password with 401, not 407.
                    401 | 407 => Err(Error::ProxyAuthRequired),
                    status => Err(Error::ProxyRefused {
                        status,
                        reason: "the CONNECT request was refused",
                    }),
                };
            }
            Ok(None) => {}
            Err(_) => return Err(Error::ProxyProtocol("malformed or oversized CONNECT reply")),
        }
        let n = s.read(&mut chunk).await.map_err(io)?;
        if n == 0 {
            return Err(Error::ProxyProtocol(
                "the proxy closed the connection before answering CONNECT",
            ));
        }
        buf.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
    }
}

/// What the SOCKS5 reply code (RFC 1928 §6) means.
pub(crate) fn socks_reply_reason(rep: u8) -> &'static str {
    match rep {
        1 => "general SOCKS server failure",
        2 => "connection not allowed by ruleset",
        3 => "network unreachable",
        4 => "host unreachable",
        5 => "connection refused",
        6 => "TTL expired",
        7 => "command not supported",
        8 => "address type not supported",
        _ => "unassigned reply code",
    }
}

/// Reads until `buf` holds at least `want` bytes.
async fn fill<S: NetStream>(s: &mut S, buf: &mut Vec<u8>, want: usize) -> Result<(), Error> {
    let mut chunk = [0u8; 512];
    while buf.len() < want {
        let n = s
            .read(&mut chunk)
            .await
            .map_err(|e| Error::from_io(e, Error::Io))?;
        if n == 0 {
            return Err(Error::ProxyProtocol(
                "the SOCKS5 proxy closed the connection mid-handshake",
            ));
        }
        buf.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
    }
    Ok(())
}

/// Runs the SOCKS5 handshake for `host:port`. `remote_dns` sends names to the proxy
/// (socks5h); otherwise names are resolved with `net` first. Returns early tunnel bytes.
pub(crate) async fn socks5_connect<N: Net, S: NetStream>(
    net: &N,
    s: &mut S,
    host: &str,
    port: u16,
    credentials: Option<&Credentials>,
    remote_dns: bool,
) -> Result<Vec<u8>, Error> {
    let io = |e| Error::from_io(e, Error::Io);
    let greeting: &[u8] = if credentials.is_some() {
        &[5, 2, 0, 2]
    } else {
        &[5, 1, 0]
    };
    s.write_all(greeting).await.map_err(io)?;
    let mut buf = Vec::new();
    fill(s, &mut buf, 2).await?;
    match (buf.first(), buf.get(1)) {
        (Some(5), Some(0)) => {}
        (Some(5), Some(2)) => {
            let c = credentials.ok_or(Error::ProxyProtocol(
                "the SOCKS5 proxy chose user/password authentication, which was not offered",
            ))?;
            let (u, p) = (c.username.as_bytes(), c.password.as_bytes());
            let (Ok(ul), Ok(pl)) = (u8::try_from(u.len()), u8::try_from(p.len())) else {
                return Err(Error::ProxyConfig(
                    "SOCKS5 user name and password are limited to 255 bytes each".into(),
                ));
            };
            let mut auth = vec![1, ul];
            auth.extend_from_slice(u);
            auth.push(pl);
            auth.extend_from_slice(p);
            s.write_all(&auth).await.map_err(io)?;
            buf.drain(..2);
            fill(s, &mut buf, 2).await?;
            if buf.get(1) != Some(&0) {
                return Err(Error::ProxyAuthRequired);
            }
        }
        (Some(5), Some(0xff)) => return Err(Error::ProxyAuthRequired),
        _ => return Err(Error::ProxyProtocol("malformed SOCKS5 method selection")),
    }
    buf.drain(..2);
    let mut req = vec![5, 1, 0];
    let ip = match host.parse::<IpAddr>() {
        Ok(ip) => Some(ip),
        Err(_) if remote_dns => None,
        Err(_) => {
            let addrs = net.resolve(host).await.map_err(Error::Connect)?;
            Some(addrs.into_iter().next().ok_or_else(|| {
                Error::Connect(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the name resolved to no address",
                ))
            })?)
        }
    };
    match ip {
        Some(IpAddr::V4(a)) => {
            req.push(1);
            req.extend_from_slice(&a.octets());
        }
        Some(IpAddr::V6(a)) => {
            req.push(4);
            req.extend_from_slice(&a.octets());
        }
        None => {
            let len = u8::try_from(host.len()).map_err(|_| {
                Error::BadUrl("host names sent to SOCKS5 are limited to 255 bytes".into())
            })?;
            req.push(3);
            req.push(len);
            req.extend_from_slice(host.as_bytes());
        }
    }
    req.extend_from_slice(&port.to_be_bytes());
    s.write_all(&req).await.map_err(io)?;
    fill(s, &mut buf, 5).await?;
    if buf.first() != Some(&5) {
        return Err(Error::ProxyProtocol("malformed SOCKS5 reply"));
    }
    let rep = buf.get(1).copied().unwrap_or(1);
    if rep != 0 {
        return Err(Error::ProxyRefused {
            status: u16::from(rep),
            reason: socks_reply_reason(rep),
        });
    }
    let addr_len = match buf.get(3) {
        Some(1) => 4,
        Some(4) => 16,
        Some(3) => 1usize.saturating_add(usize::from(buf.get(4).copied().unwrap_or(0))),
        _ => {
            return Err(Error::ProxyProtocol(
                "unknown address type in the SOCKS5 reply",
            ))
        }
    };
    let total = 4usize.saturating_add(addr_len).saturating_add(2);
    fill(s, &mut buf, total).await?;
    Ok(buf.split_off(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_proxy_urls() {
        let p = Proxy::parse("http://us%40er:p%3Ass@proxy.test:3128").unwrap();
        assert_eq!(p.scheme, ProxyScheme::Http);
        assert_eq!((p.host.as_str(), p.port), ("proxy.test", 3128));
        let c = p.credentials.unwrap();
        assert_eq!(
            (c.username.as_str(), c.password.as_str()),
            ("us@er", "p:ss")
        );
        let p = Proxy::parse("socks5h://[::1]").unwrap();
        assert_eq!(
            (p.scheme, p.host.as_str(), p.port),
            (ProxyScheme::Socks5h, "::1", 1080)
        );
        assert_eq!(Proxy::parse("ftp://x").unwrap_err().code(), "PROXY_CONFIG");
        assert_eq!(
            Proxy::parse("not a url").unwrap_err().code(),
            "PROXY_CONFIG"
        );
    }

    #[test]
    fn no_proxy_matching() {
        let n = NoProxy::parse("example.com, .internal,10.0.0.1, [::1]:8443, *.corp");
        assert!(n.matches("example.com", 443));
        assert!(n.matches("www.example.com", 443));
        assert!(!n.matches("badexample.com", 443));
        assert!(n.matches("a.internal", 80));
        assert!(n.matches("10.0.0.1", 1));
        assert!(n.matches("::1", 8443));
        assert!(!n.matches("::1", 443));
        assert!(n.matches("x.corp", 1));
        assert!(NoProxy::parse("*").matches("anything", 1));
        assert!(!NoProxy::parse("").matches("anything", 1));
    }

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
