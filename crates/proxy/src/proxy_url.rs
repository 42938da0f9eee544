//! Proxy URLs: `http://user:pass@host:3128`, `https://host`, `socks5://[::1]:1080`, `socks5h://host`.

use core::fmt;

use crate::Error;

/// How the client talks to the proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// HTTP CONNECT over plain TCP (`http://`, default port 80).
    Http,
    /// HTTP CONNECT over TLS to the proxy (`https://`, default port 443).
    Https,
    /// SOCKS5; the client resolves the destination name itself (`socks5://`, default port 1080).
    Socks5,
    /// SOCKS5; the proxy resolves the destination name (`socks5h://`, default port 1080).
    Socks5h,
}

impl Scheme {
    /// The port used when the URL has none.
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
            Scheme::Socks5 | Scheme::Socks5h => 1080,
        }
    }

    /// The scheme as written in a URL.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
            Scheme::Socks5 => "socks5",
            Scheme::Socks5h => "socks5h",
        }
    }

    fn from_url_scheme(scheme: &str) -> Option<Scheme> {
        match scheme {
            "http" => Some(Scheme::Http),
            "https" => Some(Scheme::Https),
            "socks5" => Some(Scheme::Socks5),
            "socks5h" => Some(Scheme::Socks5h),
            _ => None,
        }
    }
}

/// User name and password for the proxy (HTTP Basic, or SOCKS5 username/password).
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The user name (percent-decoded).
    pub username: String,
    /// The password (percent-decoded). Never printed by `Debug`.
    pub password: String,
}

impl Credentials {
    /// The `Proxy-Authorization` value `Basic base64(user:pass)` (RFC 7617), for CONNECT and
    /// for absolute-form requests alike. A user name containing ':' cannot be carried.
    pub fn basic_authorization(&self) -> Result<String, Error> {
        use base64::Engine as _;
        if self.username.contains(':') {
            return Err(Error::invalid_request(
                "the proxy user name contains ':', which HTTP Basic authentication cannot \
                 carry (RFC 7617)",
            ));
        }
        let token = base64::engine::general_purpose::STANDARD
            .encode(format!("{}:{}", self.username, self.password));
        Ok(format!("Basic {token}"))
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"<redacted>")
            .finish()
    }
}

/// A parsed proxy URL.
#[derive(Clone, PartialEq, Eq)]
pub struct Proxy {
    /// How to talk to the proxy.
    pub scheme: Scheme,
    /// The proxy's host: an ASCII (IDNA-encoded, lower-case) name, an IPv4 address, or an IPv6
    /// address without brackets.
    pub host: String,
    /// The proxy's port (the scheme's default when the URL has none).
    pub port: u16,
    /// Credentials from the URL's userinfo, if any.
    pub credentials: Option<Credentials>,
}

impl fmt::Debug for Proxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Proxy")
            .field("scheme", &self.scheme)
            .field("host", &self.host)
            .field("port", &self.port)
            .field("credentials", &self.credentials)
            .finish()
    }
}

impl fmt::Display for Proxy {
    /// `scheme://host:port` (IPv6 in brackets), without the credentials: safe for logs and
    /// error messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.host.contains(':') {
            write!(
                f,
                "{}://[{}]:{}",
                self.scheme.as_str(),
                self.host,
                self.port
            )
        } else {
            write!(f, "{}://{}:{}", self.scheme.as_str(), self.host, self.port)
        }
    }
}

impl Proxy {
    /// Parses a proxy URL: `"http://user:pass@host:3128"`, `"https://host:3132"`,
    /// `"socks5://u:p@[::1]:1080"`, `"socks5h://host"`.
    ///
    /// Default ports: http 80, https 443, socks5/socks5h 1080. Userinfo is percent-decoded (and
    /// must be UTF-8). A path other than `/`, a query or a fragment is an error, as is an unknown
    /// scheme, a missing host and port 0. Host names are IDNA-encoded (WHATWG URL rules).
    pub fn parse(url: &str) -> Result<Proxy, Error> {
        let invalid = |reason: String| Error::InvalidUrl { reason };
        let parsed = url::Url::parse(url.trim()).map_err(|e| {
            invalid(match e {
                url::ParseError::RelativeUrlWithoutBase => {
                    "it has no scheme (e.g. http://host:3128)".to_string()
                }
                other => other.to_string(),
            })
        })?;
        let scheme = Scheme::from_url_scheme(parsed.scheme()).ok_or_else(|| {
            // "host:3128" parses as scheme "host"; say what is really missing.
            if !url.contains("://") {
                return invalid("it has no scheme (e.g. http://host:3128)".into());
            }
            invalid(format!(
                "unsupported scheme {:?}; supported: http, https, socks5, socks5h",
                parsed.scheme()
            ))
        })?;
        if !matches!(parsed.path(), "" | "/") {
            return Err(invalid(format!(
                "a proxy URL has no path, found {:?}",
                parsed.path()
            )));
        }
        if parsed.query().is_some() {
            return Err(invalid("a proxy URL has no query (?...)".into()));
        }
        if parsed.fragment().is_some() {
            return Err(invalid("a proxy URL has no fragment (#...)".into()));
        }
        let host = proxy_host(&parsed)?;
        let port = parsed.port().unwrap_or(scheme.default_port());
        if port == 0 {
            return Err(invalid("port 0 is not a usable port".into()));
        }
        let credentials = credentials(&parsed)?;
        Ok(Proxy {
            scheme,
            host,
            port,
            credentials,
        })
    }
}

/// The host in the form [`Proxy::host`] documents. socks5 is not a WHATWG "special" scheme, so
/// `url` keeps its host opaque (no IDNA, no IPv4 parsing); it is parsed here as for http.
fn proxy_host(parsed: &url::Url) -> Result<String, Error> {
    let invalid = |reason: String| Error::InvalidUrl { reason };
    let host = match parsed.host() {
        None => return Err(invalid("it has no host".into())),
        Some(url::Host::Domain(name)) => {
            url::Host::parse(name).map_err(|e| invalid(format!("bad host name: {e}")))?
        }
        Some(url::Host::Ipv4(ip)) => url::Host::Ipv4(ip),
        Some(url::Host::Ipv6(ip)) => url::Host::Ipv6(ip),
    };
    let text = match host {
        url::Host::Domain(name) => name,
        url::Host::Ipv4(ip) => ip.to_string(),
        url::Host::Ipv6(ip) => ip.to_string(),
    };
    if text.is_empty() {
        return Err(invalid("it has no host".into()));
    }
    Ok(text)
}

fn credentials(parsed: &url::Url) -> Result<Option<Credentials>, Error> {
    let username = parsed.username();
    let password = parsed.password();
    if username.is_empty() && password.is_none() {
        return Ok(None);
    }
    let decode = |part: &str, what: &str| {
        percent_encoding::percent_decode_str(part)
            .decode_utf8()
            .map(|s| s.into_owned())
            .map_err(|_| Error::InvalidUrl {
                reason: format!("the {what} is not UTF-8 after percent-decoding"),
            })
    };
    Ok(Some(Credentials {
        username: decode(username, "user name")?,
        password: decode(password.unwrap_or(""), "password")?,
    }))
}
