//! The destination a tunnel should reach.

use std::net::IpAddr;

use crate::Error;

/// What the tunnel should reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A host name and port (an ASCII, IDNA-encoded name; the proxy resolves it).
    Domain(String, u16),
    /// An IP address and port.
    Ip(IpAddr, u16),
}

impl Target {
    /// `Target::Ip` when `host` is an IP literal (IPv6 with or without brackets), otherwise
    /// `Target::Domain`.
    pub fn from_host(host: &str, port: u16) -> Target {
        let bare = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        match bare.parse::<IpAddr>() {
            Ok(ip) => Target::Ip(ip, port),
            Err(_) => Target::Domain(host.to_string(), port),
        }
    }

    /// The port.
    pub fn port(&self) -> u16 {
        match self {
            Target::Domain(_, port) | Target::Ip(_, port) => *port,
        }
    }

    /// `host:port` as in a `CONNECT` request line (IPv6 in brackets).
    pub fn authority(&self) -> String {
        match self {
            Target::Domain(name, port) => format!("{name}:{port}"),
            Target::Ip(IpAddr::V4(ip), port) => format!("{ip}:{port}"),
            Target::Ip(IpAddr::V6(ip), port) => format!("[{ip}]:{port}"),
        }
    }

    /// Refuses a domain that is empty or holds bytes outside an URI reg-name (RFC 3986 §3.2.2:
    /// unreserved, sub-delims, `%`), so that nothing can be smuggled into a request line.
    pub(crate) fn check_domain(name: &str) -> Result<(), Error> {
        if name.is_empty() {
            return Err(Error::invalid_request("the target host name is empty"));
        }
        let ok = name.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'-' | b'.'
                        | b'_'
                        | b'~'
                        | b'!'
                        | b'$'
                        | b'&'
                        | b'\''
                        | b'('
                        | b')'
                        | b'*'
                        | b'+'
                        | b','
                        | b';'
                        | b'='
                        | b'%'
                )
        });
        if ok {
            Ok(())
        } else {
            Err(Error::invalid_request(format!(
                "the target host name {name:?} holds characters not allowed in a host name \
                 (IDNA-encode non-ASCII names first)"
            )))
        }
    }
}
