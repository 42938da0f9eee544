//! The client's one error type: every failure has a stable [`Error::code`] and a message that
//! names the option that changes the outcome.

use core::fmt;

/// Which deadline ran out (see [`crate::Deadlines`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// TCP connect to the first hop.
    Connect,
    /// The proxy handshake (CONNECT reply, SOCKS5 exchange, TLS to an HTTPS proxy).
    Proxy,
    /// The origin's TLS handshake.
    Tls,
    /// Waiting for the response head after the request was sent.
    Headers,
    /// The gap between two body reads.
    Idle,
    /// The whole fetch, redirects included.
    Total,
}

impl Phase {
    fn code(self) -> &'static str {
        match self {
            Phase::Connect => "TIMEOUT_CONNECT",
            Phase::Proxy => "TIMEOUT_PROXY",
            Phase::Tls => "TIMEOUT_TLS",
            Phase::Headers => "TIMEOUT_HEADERS",
            Phase::Idle => "TIMEOUT_IDLE",
            Phase::Total => "TIMEOUT_TOTAL",
        }
    }

    fn option(self) -> &'static str {
        match self {
            Phase::Connect => "connect",
            Phase::Proxy => "proxy",
            Phase::Tls => "tls",
            Phase::Headers => "headers",
            Phase::Idle => "idle",
            Phase::Total => "total",
        }
    }
}

/// Why a fetch failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A deadline ran out.
    Timeout(Phase),
    /// The TCP connection to the first hop (origin or proxy) could not be made.
    Connect(std::io::Error),
    /// The connection failed after it was made (reset, broken pipe).
    Io(std::io::Error),
    /// The TLS handshake or record layer failed.
    Tls(burrow_handshake::Error),
    /// The server's (or HTTPS proxy's) certificate was rejected.
    Certificate(burrow_x509::Error),
    /// The trust configuration (anchors, pins, host name) is unusable; nothing was sent.
    TrustConfig(burrow_x509::Error),
    /// The HTTP/1.1 response was malformed, or the request could not be encoded.
    Http1(burrow_h1::Error),
    /// HTTP/2 failed (burrow-h2's code: `H2_PROTOCOL`, `H2_STREAM_RESET`, `H2_REFUSED`, ...).
    H2(burrow_h2::Error),
    /// The shared connection this request was on had already failed; `code` is the code of
    /// that failure.
    ConnectionFailed {
        /// The original failure's code.
        code: &'static str,
        /// The original failure's message.
        message: String,
    },
    /// The server broke HTTP in a way no codec reports (closed before a response, ...).
    HttpProtocol(&'static str),
    /// The proxy handshake failed or the proxy URL is unusable (burrow-proxy's error and
    /// code: `PROXY_AUTH_REQUIRED`, `PROXY_REFUSED`, `SOCKS5_*`, `PROXY_PROTOCOL`, ...).
    Proxy(burrow_proxy::Error),
    /// The content coding failed (burrow-decode's code: `DECODE_FAILED`,
    /// `UNSUPPORTED_CONTENT_ENCODING`, or `BODY_TOO_LARGE` for decoded bytes over the cap).
    Decode(burrow_decode::Error),
    /// A streamed request body failed: its source returned an error, or gave a different
    /// number of bytes than the length declared.
    BodySource(std::io::Error),
    /// A streamed request body was needed a second time (a 307/308 redirect).
    BodyNotReplayable,
    /// The body exceeds `max_body_bytes` (Content-Length, wire bytes or decoded bytes).
    BodyTooLarge {
        /// The configured cap.
        limit: u64,
    },
    /// A redirect was refused (burrow-cookies' code: `REDIRECT_LIMIT`, `REDIRECT_LOOP`,
    /// `REDIRECT_INSECURE`, `REDIRECT_LOCATION`).
    Redirect(burrow_cookies::redirect::RedirectError),
    /// The URL cannot be fetched (scheme, missing host).
    BadUrl(String),
    /// The request cannot be sent as given (bad header, body on a method that forbids it).
    BadRequest(&'static str),
    /// The system random number generator failed.
    Rng,
    /// The runtime refused something (in a Worker: `connect()` to an address the platform
    /// forbids, a client used from another request, name resolution that does not exist
    /// there). `code` is stable (`CONNECT_FORBIDDEN`, `CROSS_REQUEST`, `DNS_UNAVAILABLE`, ...);
    /// `message` says what to change.
    Platform {
        /// Stable machine-readable code.
        code: &'static str,
        /// What happened and what to do.
        message: String,
    },
}

impl Error {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Timeout(p) => p.code(),
            Error::Connect(_) => "CONNECT_FAILED",
            Error::Io(_) => "CONNECTION_LOST",
            Error::Tls(e) => e.code(),
            Error::Certificate(e) | Error::TrustConfig(e) => e.code(),
            Error::Http1(e) if e.is_caller_error() => "BAD_REQUEST",
            Error::Http1(burrow_h1::Error::UnauthenticatedClose) => "BODY_TRUNCATED",
            Error::Http1(_) | Error::HttpProtocol(_) => "HTTP_PROTOCOL",
            Error::H2(e) => e.code(),
            Error::ConnectionFailed { code, .. } => code,
            Error::Proxy(e) => e.code(),
            Error::BodyTooLarge { .. } => "BODY_TOO_LARGE",
            Error::BodySource(_) => "BODY_SOURCE_FAILED",
            Error::BodyNotReplayable => "BODY_NOT_REPLAYABLE",
            Error::Decode(e) => e.code(),
            Error::Redirect(e) => e.code(),
            Error::BadUrl(_) => "BAD_URL",
            Error::BadRequest(_) => "BAD_REQUEST",
            Error::Rng => "RNG_FAILED",
            Error::Platform { code, .. } => code,
        }
    }

    /// Wraps an error inside an `io::Error` so it can cross a [`crate::NetStream`] boundary
    /// (a TLS stream under another TLS stream) and come back out typed.
    pub fn into_io(self) -> std::io::Error {
        std::io::Error::other(Boxed(self))
    }

    /// Turns an I/O error back into the client error it carries, or `wrap` it.
    pub fn from_io(e: std::io::Error, wrap: fn(std::io::Error) -> Error) -> Error {
        if e.get_ref().is_some_and(|inner| inner.is::<Boxed>()) {
            if let Some(inner) = e.into_inner() {
                if let Ok(b) = inner.downcast::<Boxed>() {
                    return b.0;
                }
            }
            return Error::HttpProtocol("an error was lost crossing a stream boundary");
        }
        wrap(e)
    }
}

/// Carries an [`Error`] inside `io::Error` (which needs `Send + Sync`; all variants are).
#[derive(Debug)]
struct Boxed(Error);

impl fmt::Display for Boxed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Boxed {}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = self.code();
        match self {
            Error::Timeout(p) => write!(
                f,
                "{code}: the {} deadline ran out; raise deadlines.{} in ClientConfig",
                p.option(),
                p.option()
            ),
            Error::Connect(e) => write!(
                f,
                "{code}: could not connect ({e}); check the host and port, or the proxy option"
            ),
            Error::Io(e) => write!(f, "{code}: the connection failed ({e})"),
            Error::Tls(e) => write!(f, "{code}: TLS failed: {e}"),
            Error::Certificate(e) => write!(
                f,
                "{code}: the certificate was rejected: {e}; if this server is expected, set ClientConfig.tls.trust / tls.pins (proxy_tls for an HTTPS proxy)"
            ),
            Error::TrustConfig(e) => write!(f, "{code}: the trust configuration is unusable: {e}"),
            Error::Http1(burrow_h1::Error::UnauthenticatedClose) => write!(
                f,
                "{code}: HTTP/1.1: the body has no length and the TLS connection closed without \
                 close_notify, so it may be truncated (RFC 9112 §9.8); set \
                 ClientConfig.allow_close_without_close_notify to accept such servers"
            ),
            Error::Http1(e) => write!(f, "{code}: HTTP/1.1: {e}"),
            Error::HttpProtocol(m) => write!(f, "{code}: {m}"),
            Error::H2(e) => write!(
                f,
                "{code}: HTTP/2: {e}; set http1_only in ClientConfig to avoid HTTP/2"
            ),
            Error::ConnectionFailed { message, .. } => {
                write!(f, "the shared connection had failed: {message}")
            }
            Error::Proxy(e) if e.code() == "PROXY_AUTH_REQUIRED" => write!(
                f,
                "{code}: {e}; put the right user:password in ClientConfig.proxy's URL"
            ),
            Error::Proxy(e) => write!(
                f,
                "{code}: {e}; check ClientConfig.proxy, or list the host in no_proxy"
            ),
            Error::Decode(e) => write!(
                f,
                "{code}: {e} (decompress = Passthrough keeps the coded bytes)"
            ),
            Error::BodySource(e) => write!(f, "{code}: the request body stream failed: {e}"),
            Error::BodyNotReplayable => write!(
                f,
                "{code}: a redirect needs the streamed request body again; send Body::Bytes to allow it"
            ),
            Error::BodyTooLarge { limit } => write!(
                f,
                "{code}: the body exceeds max_body_bytes ({limit}); raise it or set None for no limit"
            ),
            Error::Redirect(e) => write!(
                f,
                "{code}: {e} (ClientConfig.redirect, or follow_redirects = false)"
            ),
            Error::BadUrl(m) => write!(f, "{code}: {m}"),
            Error::BadRequest(m) => write!(f, "{code}: {m}"),
            Error::Rng => write!(f, "{code}: the system random number generator failed"),
            Error::Platform { message, .. } => write!(f, "{code}: {message}"),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_cross_io_boundaries_typed() {
        let io = Error::BadRequest("x").into_io();
        assert_eq!(Error::from_io(io, Error::Io).code(), "BAD_REQUEST");
        let plain = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset");
        assert_eq!(Error::from_io(plain, Error::Io).code(), "CONNECTION_LOST");
    }

    #[test]
    fn truncated_close_delimited_body_has_its_code_and_names_the_option() {
        let e = Error::Http1(burrow_h1::Error::UnauthenticatedClose);
        assert_eq!(e.code(), "BODY_TRUNCATED");
        assert!(e.to_string().contains("allow_close_without_close_notify"));
    }

    #[test]
    fn timeout_messages_name_the_option() {
        let e = Error::Timeout(Phase::Idle);
        assert_eq!(e.code(), "TIMEOUT_IDLE");
        assert!(e.to_string().contains("deadlines.idle"));
    }
}
