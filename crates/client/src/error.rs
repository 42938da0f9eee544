//! The client's one error type. Every failure has a stable [`Error::code`], and two things read
//! off the value itself (never parsed from the code): the [`Phase`] of the fetch it happened in
//! and its [`Class`]. Its message names the [`Setting`] that changes the outcome, in the words of
//! whoever shows it: [`Error::message`] takes the front end's names (the Rust fields for
//! `Display`, the JS options in the Worker, the flags in the CLI).

use core::fmt;
use std::sync::Arc;

use crate::deadline::Deadline;

/// Where in a fetch a failure happened (`BurrowError.phase` in JS, by [`Phase::name`]).
/// Exhaustive on purpose, as [`Class`] and [`Setting`] are: a front end matches every value, so
/// a new one cannot land in a default arm unnoticed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The request as given: its URL, head or body, or the client it was given to.
    Request,
    /// TCP to the first hop (origin or proxy).
    Connect,
    /// The proxy handshake (CONNECT, SOCKS5, TLS to an HTTPS proxy).
    Proxy,
    /// A TLS handshake.
    Tls,
    /// Sending the request and waiting for its response head.
    Headers,
    /// Reading the body.
    Body,
    /// Deciding whether to follow a redirect.
    Redirect,
    /// The whole fetch: its total deadline ran out, wherever it was.
    Total,
}

impl Phase {
    /// The phase's name in JS (`"request"`, `"connect"`, `"proxy"`, `"tls"`, `"headers"`,
    /// `"body"`, `"redirect"`, `"total"`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Request => "request",
            Phase::Connect => "connect",
            Phase::Proxy => "proxy",
            Phase::Tls => "tls",
            Phase::Headers => "headers",
            Phase::Body => "body",
            Phase::Redirect => "redirect",
            Phase::Total => "total",
        }
    }
}

/// What kind of failure an error is: what a caller branches on (the CLI's exit codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The caller's input cannot be used (a header, the request body, trust anchors or pins);
    /// the URL has its own class.
    Usage,
    /// The URL cannot be fetched (scheme, host).
    Url,
    /// The first hop could not be reached.
    Connect,
    /// The proxy refused, wants credentials, broke its protocol, or its URL is unusable.
    Proxy,
    /// TLS failed (an alert, a protocol violation).
    Tls,
    /// A certificate or its OCSP staple was rejected.
    Certificate,
    /// HTTP broke (a malformed response, a stream reset, a GOAWAY).
    Http,
    /// A deadline ran out.
    Timeout,
    /// A redirect was refused.
    Redirect,
    /// The connection was lost after it was made, or cut where TLS could not tell a cut from
    /// the end.
    ConnectionLost,
    /// The content coding could not be decoded.
    Decode,
    /// The body is larger than `max_body_bytes`.
    TooLarge,
    /// The platform refused or failed (randomness, a Worker's limits).
    Platform,
}

/// A setting an error's message names as the way to change the outcome. Each front end has
/// its own name for each ([`SettingNames`]); [`Setting::rust_name`] is the `ClientConfig` one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The origin's trust anchors (`TlsSettings::trust`).
    Trust,
    /// The origin's SPKI pins.
    Pins,
    /// An HTTPS proxy's trust anchors.
    ProxyTrust,
    /// An HTTPS proxy's SPKI pins.
    ProxyPins,
    /// Whether an OCSP staple is required.
    Revocation,
    /// The proxy URL.
    Proxy,
    /// The hosts that bypass the proxy.
    NoProxy,
    /// The body cap.
    MaxBodyBytes,
    /// One deadline.
    Deadline(Deadline),
    /// HTTP/1.1 only, set so that it avoids HTTP/2.
    Http1Only,
    /// Content decoding, set so that the coded bytes are handed on.
    Decompress,
    /// The redirect mode, set so that redirects are returned rather than followed.
    RedirectManual,
    /// The redirect limit.
    MaxRedirects,
    /// Whether an https → http redirect is followed.
    AllowHttpsToHttp,
    /// Whether a body cut without TLS close_notify is accepted.
    AllowCloseWithoutCloseNotify,
    /// Whether a TLS 1.2 server must support extended master secret.
    RequireExtendedMasterSecret,
    /// The client certificate offered to the origin.
    ClientCert,
    /// The client certificate offered to an HTTPS proxy.
    ProxyClientCert,
}

/// How a front end names each [`Setting`]; `None` when it has no such setting (the message
/// then leaves out the advice that would name it).
pub type SettingNames = fn(Setting) -> Option<&'static str>;

impl Setting {
    /// The name in Rust: the `ClientConfig` field (with the value that helps, where there is
    /// one to choose).
    pub fn rust_name(self) -> Option<&'static str> {
        Some(match self {
            Setting::Trust => "ClientConfig.tls.trust",
            Setting::Pins => "ClientConfig.tls.pins",
            Setting::ProxyTrust => "ClientConfig.proxy_tls.trust",
            Setting::ProxyPins => "ClientConfig.proxy_tls.pins",
            Setting::Revocation => "ClientConfig.tls.revocation",
            Setting::Proxy => "ClientConfig.proxy",
            Setting::NoProxy => "ClientConfig.no_proxy",
            Setting::MaxBodyBytes => "ClientConfig.max_body_bytes (None = no limit)",
            Setting::Deadline(d) => match d {
                Deadline::Connect => "ClientConfig.deadlines.connect",
                Deadline::Proxy => "ClientConfig.deadlines.proxy",
                Deadline::Tls => "ClientConfig.deadlines.tls",
                Deadline::Headers => "ClientConfig.deadlines.headers",
                Deadline::Idle => "ClientConfig.deadlines.idle",
                Deadline::Total => "ClientConfig.deadlines.total",
            },
            Setting::Http1Only => "ClientConfig.http1_only = true",
            Setting::Decompress => "ClientConfig.decompress = Decompress::Passthrough",
            Setting::RedirectManual => "RedirectMode::Manual",
            Setting::MaxRedirects => "ClientConfig.redirect.max_redirects",
            Setting::AllowHttpsToHttp => "ClientConfig.redirect.allow_https_to_http",
            Setting::AllowCloseWithoutCloseNotify => {
                "ClientConfig.allow_close_without_close_notify"
            }
            Setting::RequireExtendedMasterSecret => {
                "ClientConfig.tls.require_extended_master_secret"
            }
            Setting::ClientCert => "ClientConfig.tls.client_cert",
            Setting::ProxyClientCert => "ClientConfig.proxy_tls.client_cert",
        })
    }
}

/// Which TLS connection a failure is about (the settings that change it differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TlsHop {
    Origin,
    Proxy,
}

/// Why a fetch failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A deadline ran out.
    Timeout(Deadline),
    /// The TCP connection to the first hop (origin or proxy) could not be made.
    Connect(std::io::Error),
    /// The connection failed after it was made (reset, broken pipe).
    Io(std::io::Error),
    /// The TLS handshake or record layer failed.
    Tls(burrow_handshake::Error),
    /// The server's certificate was rejected.
    Certificate(burrow_x509::Error),
    /// The trust configuration (anchors, pins, host name) is unusable; nothing was sent.
    TrustConfig(burrow_x509::Error),
    /// The TLS connection to an HTTPS proxy failed: `Tls`, `Certificate`, `TrustConfig` (or
    /// `Io`) about the proxy's TLS rather than the origin's. Code, phase and class are the
    /// inner error's.
    ProxyTls(Box<Error>),
    /// The HTTP/1.1 response was malformed, or the request could not be encoded.
    Http1(burrow_h1::Error),
    /// HTTP/2 failed (burrow-h2's code: `H2_PROTOCOL`, `H2_STREAM_RESET`, `H2_REFUSED`, ...).
    H2(burrow_h2::Error),
    /// The shared connection this request was on had already failed with this error (its
    /// code, phase and class are this one's).
    ConnectionFailed(Arc<Error>),
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
    /// The server redirected and the request's mode is [`crate::RedirectMode::Error`]
    /// (`REDIRECT_FORBIDDEN`).
    RedirectForbidden {
        /// The redirect's status.
        status: u16,
        /// Its `Location`.
        location: String,
    },
    /// The URL cannot be fetched (scheme, missing host).
    BadUrl(String),
    /// The request cannot be sent as given (bad header, body on a method that forbids it).
    BadRequest(&'static str),
    /// A WebSocket failed (burrow-ws's error and code): its opening handshake
    /// (`WS_HANDSHAKE_STATUS` for an answer other than 101, with the status in
    /// [`burrow_ws::Kind::NotSwitchingProtocols`]; `WS_HANDSHAKE`), the open connection
    /// (`WS_PROTOCOL`, `WS_INVALID_UTF8`, `WS_MESSAGE_TOO_BIG`, `WS_COMPRESSION`, `WS_FLOOD`,
    /// `WS_ABNORMAL_CLOSURE`), or a call the caller got wrong (`WS_INVALID_ARGUMENT`,
    /// `WS_CLOSED`).
    WebSocket(burrow_ws::Error),
    /// The system random number generator failed.
    Rng,
    /// The runtime refused something (in a Worker: `connect()` to an address the platform
    /// forbids, a client used from another request or after it was closed). `code` is stable
    /// (`CONNECT_FORBIDDEN`, `CROSS_REQUEST`, `CLIENT_CLOSED`, ...); `message` says what to
    /// change.
    Platform {
        /// Stable machine-readable code.
        code: &'static str,
        /// Where in the fetch the runtime refused.
        phase: Phase,
        /// What happened and what to do.
        message: String,
    },
}

impl Error {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Timeout(d) => d.code(),
            Error::Connect(_) => "CONNECT_FAILED",
            Error::Io(_) => "CONNECTION_LOST",
            Error::Tls(e) => e.code(),
            Error::Certificate(e) | Error::TrustConfig(e) => e.code(),
            Error::ProxyTls(e) => e.code(),
            Error::Http1(e) if e.is_caller_error() => "BAD_REQUEST",
            Error::Http1(burrow_h1::Error::UnauthenticatedClose) => "BODY_TRUNCATED",
            Error::Http1(_) | Error::HttpProtocol(_) => "HTTP_PROTOCOL",
            Error::H2(e) => e.code(),
            Error::ConnectionFailed(e) => e.code(),
            Error::Proxy(e) => e.code(),
            Error::BodyTooLarge { .. } => "BODY_TOO_LARGE",
            Error::BodySource(_) => "BODY_SOURCE_FAILED",
            Error::BodyNotReplayable => "BODY_NOT_REPLAYABLE",
            Error::Decode(e) => e.code(),
            Error::Redirect(e) => e.code(),
            Error::RedirectForbidden { .. } => "REDIRECT_FORBIDDEN",
            Error::BadUrl(_) => "BAD_URL",
            Error::BadRequest(_) => "BAD_REQUEST",
            Error::WebSocket(e) => e.code(),
            Error::Rng => "RNG_FAILED",
            Error::Platform { code, .. } => code,
        }
    }

    /// Where in the fetch it happened. A failure while reading the body of a response whose
    /// head had arrived is [`Phase::Body`] whatever this says (the reader knows; the value
    /// does not).
    pub fn phase(&self) -> Phase {
        match self {
            Error::Timeout(d) => match d {
                Deadline::Connect => Phase::Connect,
                Deadline::Proxy => Phase::Proxy,
                Deadline::Tls => Phase::Tls,
                Deadline::Headers => Phase::Headers,
                Deadline::Idle => Phase::Body,
                Deadline::Total => Phase::Total,
            },
            Error::Connect(_) => Phase::Connect,
            Error::Tls(_) | Error::Certificate(_) | Error::TrustConfig(_) | Error::Rng => {
                Phase::Tls
            }
            Error::ProxyTls(e) => e.phase(),
            Error::ConnectionFailed(e) => e.phase(),
            Error::Http1(e) if e.is_caller_error() => Phase::Request,
            Error::H2(e) if is_caller_h2(e) => Phase::Request,
            Error::Io(_) | Error::Http1(_) | Error::H2(_) | Error::HttpProtocol(_) => {
                Phase::Headers
            }
            Error::Proxy(_) => Phase::Proxy,
            Error::Decode(_) | Error::BodyTooLarge { .. } => Phase::Body,
            Error::BodySource(_) | Error::BadUrl(_) | Error::BadRequest(_) => Phase::Request,
            Error::BodyNotReplayable | Error::Redirect(_) | Error::RedirectForbidden { .. } => {
                Phase::Redirect
            }
            Error::WebSocket(e) => match e.scope() {
                burrow_ws::Scope::Handshake => Phase::Headers,
                // An open WebSocket's messages are its exchange's body.
                burrow_ws::Scope::Connection => Phase::Body,
                burrow_ws::Scope::Call => Phase::Request,
            },
            Error::Platform { phase, .. } => *phase,
        }
    }

    /// What kind of failure it is.
    pub fn class(&self) -> Class {
        match self {
            Error::Timeout(_) => Class::Timeout,
            Error::Connect(_) => Class::Connect,
            Error::Io(_) => Class::ConnectionLost,
            Error::Tls(_) => Class::Tls,
            Error::Certificate(_) => Class::Certificate,
            Error::TrustConfig(_) => Class::Usage,
            Error::ProxyTls(e) => e.class(),
            Error::ConnectionFailed(e) => e.class(),
            Error::Http1(e) if e.is_caller_error() => Class::Usage,
            Error::Http1(burrow_h1::Error::UnauthenticatedClose) => Class::ConnectionLost,
            Error::Http1(_) | Error::HttpProtocol(_) => Class::Http,
            Error::H2(e) if is_caller_h2(e) => Class::Usage,
            Error::H2(_) => Class::Http,
            Error::Proxy(_) => Class::Proxy,
            Error::Decode(burrow_decode::Error::TooLarge { .. }) | Error::BodyTooLarge { .. } => {
                Class::TooLarge
            }
            Error::Decode(_) => Class::Decode,
            Error::BodySource(_) | Error::BadRequest(_) => Class::Usage,
            Error::BodyNotReplayable | Error::Redirect(_) | Error::RedirectForbidden { .. } => {
                Class::Redirect
            }
            Error::BadUrl(_) => Class::Url,
            Error::WebSocket(e) => ws_class(e),
            Error::Rng | Error::Platform { .. } => Class::Platform,
        }
    }

    /// The message with each [`Setting`] named by `names` (the `Display` of an error is this
    /// with [`Setting::rust_name`]).
    pub fn message(&self, names: SettingNames) -> Message<'_> {
        Message { error: self, names }
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

    /// This error, as a failure of the TLS connection to an HTTPS proxy.
    pub(crate) fn at_proxy(self) -> Error {
        match self {
            e @ (Error::Tls(_) | Error::Certificate(_) | Error::TrustConfig(_) | Error::Io(_)) => {
                Error::ProxyTls(Box::new(e))
            }
            other => other,
        }
    }
}

/// A WebSocket error's class: the caller's call, a bound, a lost connection, or the server
/// breaking the protocol.
fn ws_class(e: &burrow_ws::Error) -> Class {
    match (e.scope(), e.kind()) {
        (burrow_ws::Scope::Call, _) => Class::Usage,
        (_, burrow_ws::Kind::MessageTooBig) => Class::TooLarge,
        (_, burrow_ws::Kind::AbnormalClosure) => Class::ConnectionLost,
        _ => Class::Http,
    }
}

/// An HTTP/2 error the caller caused (the request's own fields), detected before sending.
fn is_caller_h2(e: &burrow_h2::Error) -> bool {
    matches!(e.kind(), burrow_h2::Kind::InvalidRequestHeaders)
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

/// An error's message with its settings named by one front end ([`Error::message`]).
pub struct Message<'a> {
    error: &'a Error,
    names: SettingNames,
}

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_message(f, self.error, self.names, TlsHop::Origin)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message(Setting::rust_name).fmt(f)
    }
}

impl std::error::Error for Error {}

/// `{advice}{name}`, or nothing when the front end has no such setting.
fn advise(
    f: &mut fmt::Formatter<'_>,
    names: SettingNames,
    advice: &str,
    setting: Setting,
) -> fmt::Result {
    match names(setting) {
        Some(name) => write!(f, "{advice}{name}"),
        None => Ok(()),
    }
}

fn write_message(
    f: &mut fmt::Formatter<'_>,
    e: &Error,
    names: SettingNames,
    hop: TlsHop,
) -> fmt::Result {
    let code = e.code();
    match e {
        Error::Timeout(d) => {
            write!(f, "{code}: the {} deadline ran out", d.what())?;
            advise(f, names, "; raise ", Setting::Deadline(*d))
        }
        Error::Connect(e) => {
            write!(
                f,
                "{code}: could not connect ({e}); check the host and port"
            )?;
            advise(f, names, ", or ", Setting::Proxy)
        }
        Error::Io(e) => write!(f, "{code}: the connection failed ({e})"),
        Error::Tls(burrow_handshake::Error::ExtendedMasterSecretMissing) => {
            write!(
                f,
                "{code}: TLS failed: the TLS 1.2 server does not support extended master secret \
                 (RFC 7627), which is required"
            )?;
            advise(
                f,
                names,
                "; to accept such servers (their sessions are then never resumed), drop ",
                Setting::RequireExtendedMasterSecret,
            )
        }
        Error::Tls(burrow_handshake::Error::ClientCertificateRequired) => {
            // The handshake's own text names the Rust field; each front end names its own.
            write!(
                f,
                "{code}: TLS failed: the server requires a client certificate \
                 (it refused the handshake once none was sent)"
            )?;
            let setting = match hop {
                TlsHop::Origin => Setting::ClientCert,
                TlsHop::Proxy => Setting::ProxyClientCert,
            };
            advise(f, names, "; configure one its CA accepts with ", setting)
        }
        Error::Tls(e) => write!(f, "{code}: TLS failed: {e}"),
        Error::Certificate(x) => write_certificate(f, code, x, names, hop),
        Error::TrustConfig(x) => {
            write!(f, "{code}: the trust configuration is unusable: {x}")?;
            match hop {
                TlsHop::Origin => {
                    advise(f, names, "; check ", Setting::Trust)?;
                    advise(f, names, " and ", Setting::Pins)
                }
                TlsHop::Proxy => {
                    advise(f, names, "; check ", Setting::ProxyTrust)?;
                    advise(f, names, " and ", Setting::ProxyPins)
                }
            }
        }
        Error::ProxyTls(inner) => {
            f.write_str("the HTTPS proxy's TLS connection: ")?;
            write_message(f, inner, names, TlsHop::Proxy)
        }
        Error::Http1(burrow_h1::Error::UnauthenticatedClose) => {
            write!(
                f,
                "{code}: HTTP/1.1: the body has no length and the TLS connection closed without \
                 close_notify, so it may be truncated (RFC 9112 §9.8)"
            )?;
            advise(
                f,
                names,
                "; to accept such servers, use ",
                Setting::AllowCloseWithoutCloseNotify,
            )
        }
        Error::Http1(e) => write_http1(f, code, e),
        Error::HttpProtocol(m) => write!(f, "{code}: {m}"),
        Error::H2(e) => {
            write!(f, "{code}: HTTP/2: {e}")?;
            advise(f, names, "; to avoid HTTP/2, use ", Setting::Http1Only)
        }
        Error::ConnectionFailed(inner) => {
            f.write_str("the shared connection had failed: ")?;
            write_message(f, inner, names, hop)
        }
        Error::Proxy(p @ burrow_proxy::Error::ProxyAuthRequired { .. }) => {
            write!(f, "{code}: {p}")?;
            advise(
                f,
                names,
                "; put the right user:password in the URL of ",
                Setting::Proxy,
            )
        }
        Error::Proxy(p) => {
            write!(f, "{code}: {p}")?;
            advise(f, names, "; check ", Setting::Proxy)?;
            advise(f, names, ", or list the host in ", Setting::NoProxy)
        }
        Error::Decode(d) => write_decode(f, code, d, names),
        Error::BodySource(e) => write!(f, "{code}: the request body stream failed: {e}"),
        Error::BodyNotReplayable => write!(
            f,
            "{code}: a redirect needs the streamed request body again; give the body as bytes \
             (not a stream) so it can be sent twice"
        ),
        Error::BodyTooLarge { limit } => {
            write!(f, "{code}: the body exceeds {limit} bytes")?;
            advise(f, names, "; raise ", Setting::MaxBodyBytes)
        }
        Error::Redirect(r) => write_redirect(f, code, r, names),
        Error::RedirectForbidden { status, location } => write!(
            f,
            "{code}: the server redirected ({status} to {location:?}) and this request's \
             redirect mode is \"error\""
        ),
        Error::BadUrl(m) => write!(f, "{code}: {m}"),
        Error::BadRequest(m) => write!(f, "{code}: {m}"),
        Error::WebSocket(w) => write_websocket(f, code, w),
        Error::Rng => write!(f, "{code}: the system random number generator failed"),
        Error::Platform { message, .. } => write!(f, "{code}: {message}"),
    }
}

/// burrow-h1's error, but its bounds (which a client cannot change) said without their
/// `Limits` field.
fn write_http1(f: &mut fmt::Formatter<'_>, code: &str, e: &burrow_h1::Error) -> fmt::Result {
    use burrow_h1::Error as H;
    write!(f, "{code}: HTTP/1.1: ")?;
    match e {
        H::HeadersTooLarge { limit } => write!(f, "the response head exceeds {limit} bytes"),
        H::TooManyHeaders { limit } => {
            write!(f, "the response has more than {limit} header fields")
        }
        H::TooManyInterim { limit } => {
            write!(f, "the server sent more than {limit} 1xx responses")
        }
        H::ChunkLineTooLong { limit } => write!(f, "a chunk-size line exceeds {limit} bytes"),
        H::TrailersTooLarge { limit } => {
            write!(f, "the trailer section exceeds {limit} bytes")
        }
        other => return write!(f, "{other}"),
    }?;
    f.write_str(", over burrow's bound")
}

/// burrow-ws's message, but a refused Upgrade said with its status.
fn write_websocket(f: &mut fmt::Formatter<'_>, code: &str, w: &burrow_ws::Error) -> fmt::Result {
    match w.kind() {
        burrow_ws::Kind::NotSwitchingProtocols { status } => write!(
            f,
            "{code}: the server answered the WebSocket handshake with status {status}, not 101 \
             Switching Protocols; check the URL, the credentials in the headers, and that the \
             server speaks WebSocket there"
        ),
        _ => write!(f, "{code}: {w}"),
    }
}

fn write_certificate(
    f: &mut fmt::Formatter<'_>,
    code: &str,
    x: &burrow_x509::Error,
    names: SettingNames,
    hop: TlsHop,
) -> fmt::Result {
    use burrow_x509::Error as X;
    let whose = match hop {
        TlsHop::Origin => "server's",
        TlsHop::Proxy => "proxy's",
    };
    match x {
        // Revoked is final: no setting makes it right.
        X::OcspRevoked => write!(
            f,
            "{code}: the {whose} certificate is revoked (its stapled OCSP response says so)"
        ),
        X::OcspStapleRequired => {
            write!(
                f,
                "{code}: an OCSP staple is required but the {whose} TLS handshake carried none; \
                 enable stapling on the server"
            )?;
            advise(f, names, ", or relax ", Setting::Revocation)
        }
        X::Untrusted => {
            write!(f, "{code}: the {whose} certificate was rejected: {x}")?;
            match hop {
                TlsHop::Origin => advise(f, names, "; trust its CA with ", Setting::Trust),
                TlsHop::Proxy => advise(f, names, "; trust its CA with ", Setting::ProxyTrust),
            }
        }
        X::PinMismatch(_) => {
            write!(f, "{code}: the {whose} certificate was rejected: {x}")?;
            match hop {
                TlsHop::Origin => advise(f, names, "; check ", Setting::Pins),
                TlsHop::Proxy => advise(f, names, "; check ", Setting::ProxyPins),
            }
        }
        other => write!(f, "{code}: the {whose} certificate was rejected: {other}"),
    }
}

fn write_decode(
    f: &mut fmt::Formatter<'_>,
    code: &str,
    d: &burrow_decode::Error,
    names: SettingNames,
) -> fmt::Result {
    use burrow_decode::Error as D;
    match d {
        D::TooLarge { limit } => {
            write!(f, "{code}: the decoded body exceeds {limit} bytes")?;
            advise(f, names, "; raise ", Setting::MaxBodyBytes)
        }
        D::UnsupportedCoding(name) => write!(
            f,
            "{code}: unsupported Content-Encoding {name:?}: gzip, deflate, br and zstd can be \
             decoded"
        ),
        D::TooManyCodings { count } => write!(
            f,
            "{code}: Content-Encoding stacks {count} or more codings, over {} (a real server \
             applies one)",
            burrow_decode::MAX_CODINGS
        ),
        other => write!(f, "{code}: {other}"),
    }?;
    match d {
        D::TooLarge { .. } => Ok(()),
        _ => advise(
            f,
            names,
            "; to receive the bytes as sent, use ",
            Setting::Decompress,
        ),
    }
}

fn write_redirect(
    f: &mut fmt::Formatter<'_>,
    code: &str,
    r: &burrow_cookies::redirect::RedirectError,
    names: SettingNames,
) -> fmt::Result {
    use burrow_cookies::redirect::RedirectError as R;
    match r {
        R::TooMany { limit } => {
            write!(f, "{code}: more than {limit} redirects")?;
            advise(f, names, "; raise ", Setting::MaxRedirects)?;
        }
        R::Loop { url } => write!(
            f,
            "{code}: redirect loop: {url} was already requested twice in this chain"
        )?,
        R::HttpsToHttp { url } => {
            write!(f, "{code}: refusing the https to http redirect to {url}")?;
            advise(f, names, "; to follow it, use ", Setting::AllowHttpsToHttp)?;
        }
        other => write!(f, "{code}: {other}")?,
    }
    advise(
        f,
        names,
        "; to get the redirect itself instead, use ",
        Setting::RedirectManual,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io(kind: std::io::ErrorKind) -> std::io::Error {
        std::io::Error::new(kind, "x")
    }

    /// burrow-ws's error for a 403 answer to the Upgrade.
    fn refused_upgrade() -> burrow_ws::Error {
        burrow_ws::Handshake::new([7; 16])
            .check_response(403, std::iter::empty())
            .unwrap_err()
    }

    fn h2_errors() -> (burrow_h2::Error, burrow_h2::Error) {
        let mut c = burrow_h2::Connection::new(burrow_h2::Config::default());
        let bad = [burrow_h2::Header::new(b"connection", b"close")];
        let caller = c.send_request(&bad, true).unwrap_err();
        let mut c = burrow_h2::Connection::new(burrow_h2::Config::default());
        let peer = c.handle_input(&[0xff; 64]).unwrap_err();
        (caller, peer)
    }

    /// One value of every variant (and of each inner kind that changes phase or class), with
    /// the code, phase and class it must have.
    fn every_error() -> Vec<(Error, &'static str, Phase, Class)> {
        use std::io::ErrorKind::{ConnectionRefused, ConnectionReset, Other};
        use Class as C;
        use Phase as P;
        let (h2_caller, h2_peer) = h2_errors();
        let redirect = burrow_cookies::redirect::RedirectError::TooMany { limit: 20 };
        let mut rows = vec![
            (
                Error::Timeout(Deadline::Connect),
                "TIMEOUT_CONNECT",
                P::Connect,
                C::Timeout,
            ),
            (
                Error::Timeout(Deadline::Proxy),
                "TIMEOUT_PROXY",
                P::Proxy,
                C::Timeout,
            ),
            (
                Error::Timeout(Deadline::Tls),
                "TIMEOUT_TLS",
                P::Tls,
                C::Timeout,
            ),
            (
                Error::Timeout(Deadline::Headers),
                "TIMEOUT_HEADERS",
                P::Headers,
                C::Timeout,
            ),
            (
                Error::Timeout(Deadline::Idle),
                "TIMEOUT_IDLE",
                P::Body,
                C::Timeout,
            ),
            (
                Error::Timeout(Deadline::Total),
                "TIMEOUT_TOTAL",
                P::Total,
                C::Timeout,
            ),
            (
                Error::Connect(io(ConnectionRefused)),
                "CONNECT_FAILED",
                P::Connect,
                C::Connect,
            ),
            (
                Error::Io(io(ConnectionReset)),
                "CONNECTION_LOST",
                P::Headers,
                C::ConnectionLost,
            ),
            (
                Error::Tls(burrow_handshake::Error::Decode),
                "TLS_DECODE",
                P::Tls,
                C::Tls,
            ),
            (
                Error::Certificate(burrow_x509::Error::OcspRevoked),
                "OCSP_REVOKED",
                P::Tls,
                C::Certificate,
            ),
            (
                Error::TrustConfig(burrow_x509::Error::BadTrustAnchor("pem")),
                "CERT_BAD_TRUST_ANCHOR",
                P::Tls,
                C::Usage,
            ),
            (
                Error::ProxyTls(Box::new(Error::Certificate(burrow_x509::Error::Untrusted))),
                "CERT_UNTRUSTED",
                P::Tls,
                C::Certificate,
            ),
            (
                Error::Http1(burrow_h1::Error::InvalidHeaderName),
                "BAD_REQUEST",
                P::Request,
                C::Usage,
            ),
            (
                Error::Http1(burrow_h1::Error::UnauthenticatedClose),
                "BODY_TRUNCATED",
                P::Headers,
                C::ConnectionLost,
            ),
            (
                Error::Http1(burrow_h1::Error::BadStatusLine),
                "HTTP_PROTOCOL",
                P::Headers,
                C::Http,
            ),
            (
                Error::H2(h2_caller),
                "H2_INVALID_REQUEST_HEADERS",
                P::Request,
                C::Usage,
            ),
            (Error::H2(h2_peer), h2_peer.code(), P::Headers, C::Http),
            (
                Error::ConnectionFailed(Arc::new(Error::Io(io(ConnectionReset)))),
                "CONNECTION_LOST",
                P::Headers,
                C::ConnectionLost,
            ),
            (
                Error::HttpProtocol("x"),
                "HTTP_PROTOCOL",
                P::Headers,
                C::Http,
            ),
            (
                Error::Proxy(burrow_proxy::Error::Socks5NoAcceptableMethod),
                "SOCKS5_NO_ACCEPTABLE_METHOD",
                P::Proxy,
                C::Proxy,
            ),
            (
                Error::Decode(burrow_decode::Error::TooLarge { limit: 1 }),
                "BODY_TOO_LARGE",
                P::Body,
                C::TooLarge,
            ),
            (
                Error::Decode(burrow_decode::Error::Truncated { coding: "gzip" }),
                "DECODE_FAILED",
                P::Body,
                C::Decode,
            ),
            (
                Error::BodySource(io(Other)),
                "BODY_SOURCE_FAILED",
                P::Request,
                C::Usage,
            ),
            (
                Error::BodyNotReplayable,
                "BODY_NOT_REPLAYABLE",
                P::Redirect,
                C::Redirect,
            ),
            (
                Error::BodyTooLarge { limit: 1 },
                "BODY_TOO_LARGE",
                P::Body,
                C::TooLarge,
            ),
            (
                Error::Redirect(redirect),
                "REDIRECT_LIMIT",
                P::Redirect,
                C::Redirect,
            ),
            (
                Error::RedirectForbidden {
                    status: 302,
                    location: "/x".into(),
                },
                "REDIRECT_FORBIDDEN",
                P::Redirect,
                C::Redirect,
            ),
            (Error::BadUrl("x".into()), "BAD_URL", P::Request, C::Url),
            (Error::BadRequest("x"), "BAD_REQUEST", P::Request, C::Usage),
            (Error::Rng, "RNG_FAILED", P::Tls, C::Platform),
            (
                Error::WebSocket(refused_upgrade()),
                "WS_HANDSHAKE_STATUS",
                P::Headers,
                C::Http,
            ),
            (
                Error::Platform {
                    code: "CLIENT_CLOSED",
                    phase: P::Request,
                    message: "closed".into(),
                },
                "CLIENT_CLOSED",
                P::Request,
                C::Platform,
            ),
        ];
        // The proxy's own TLS keeps its inner error's phase and class.
        rows.push((
            Error::Connect(io(ConnectionRefused)).at_proxy(),
            "CONNECT_FAILED",
            P::Connect,
            C::Connect,
        ));
        rows
    }

    /// No arm is a wildcard: a new variant fails to compile here until `every_error` has a
    /// row for it.
    fn listed(e: &Error) -> bool {
        match e {
            Error::Timeout(_)
            | Error::Connect(_)
            | Error::Io(_)
            | Error::Tls(_)
            | Error::Certificate(_)
            | Error::TrustConfig(_)
            | Error::ProxyTls(_)
            | Error::Http1(_)
            | Error::H2(_)
            | Error::ConnectionFailed(_)
            | Error::HttpProtocol(_)
            | Error::Proxy(_)
            | Error::Decode(_)
            | Error::BodySource(_)
            | Error::BodyNotReplayable
            | Error::BodyTooLarge { .. }
            | Error::Redirect(_)
            | Error::RedirectForbidden { .. }
            | Error::BadUrl(_)
            | Error::BadRequest(_)
            | Error::WebSocket(_)
            | Error::Rng
            | Error::Platform { .. } => true,
        }
    }

    #[test]
    fn every_error_has_its_code_phase_and_class() {
        let rows = every_error();
        for (e, code, phase, class) in &rows {
            assert!(listed(e));
            assert_eq!(e.code(), *code, "{e:?}");
            assert_eq!(e.phase(), *phase, "{code}");
            assert_eq!(e.class(), *class, "{code}");
            assert!(
                e.to_string().starts_with(code) || e.to_string().contains(code),
                "{e}"
            );
        }
        // Every variant has a row: the discriminants seen cover the enum.
        let kinds: std::collections::BTreeSet<String> = rows
            .iter()
            .map(|(e, ..)| {
                format!("{e:?}")
                    .split(['(', ' ', '{'])
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(kinds.len(), 23, "{kinds:?}");
    }

    #[test]
    fn errors_cross_io_boundaries_typed() {
        let io = Error::BadRequest("x").into_io();
        assert_eq!(Error::from_io(io, Error::Io).code(), "BAD_REQUEST");
        let plain = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "reset");
        assert_eq!(Error::from_io(plain, Error::Io).code(), "CONNECTION_LOST");
    }

    /// A front end with names of its own for some settings and none for the rest.
    fn short_names(s: Setting) -> Option<&'static str> {
        match s {
            Setting::Trust => Some("`trust`"),
            Setting::ProxyTrust => Some("`proxyTrust`"),
            Setting::MaxBodyBytes => Some("`maxBodyBytes`"),
            Setting::Deadline(Deadline::Idle) => Some("`timeouts.idleMs`"),
            Setting::Proxy => Some("`proxy`"),
            Setting::NoProxy => Some("`noProxy`"),
            _ => None,
        }
    }

    #[test]
    fn messages_name_settings_in_the_front_ends_words() {
        let cases = [
            (Error::Timeout(Deadline::Idle), "raise `timeouts.idleMs`"),
            (Error::BodyTooLarge { limit: 5 }, "raise `maxBodyBytes`"),
            (
                Error::Certificate(burrow_x509::Error::Untrusted),
                "trust its CA with `trust`",
            ),
            (
                Error::ProxyTls(Box::new(Error::Certificate(burrow_x509::Error::Untrusted))),
                "trust its CA with `proxyTrust`",
            ),
            (
                Error::Proxy(burrow_proxy::Error::Socks5NoAcceptableMethod),
                "check `proxy`, or list the host in `noProxy`",
            ),
        ];
        for (e, want) in cases {
            let shown = e.message(short_names).to_string();
            assert!(shown.contains(want), "{shown}");
            assert!(!shown.contains("ClientConfig"), "{shown}");
            assert!(e.to_string().contains("ClientConfig."), "{e}");
        }
        // A setting the front end does not have: no advice, and no Rust name instead.
        let e = Error::Timeout(Deadline::Connect);
        assert_eq!(
            e.message(short_names).to_string(),
            "TIMEOUT_CONNECT: the connect deadline ran out"
        );
        let e = Error::Http1(burrow_h1::Error::UnauthenticatedClose);
        assert!(e.to_string().contains("allow_close_without_close_notify"));
        assert!(!e.message(short_names).to_string().contains("allow_close"));
        let e = Error::Tls(burrow_handshake::Error::ExtendedMasterSecretMissing);
        assert!(e
            .to_string()
            .contains("drop ClientConfig.tls.require_extended_master_secret"));
        assert!(!e.message(short_names).to_string().contains("require_"));
        // burrow-h1's bounds are not the client's settings: no Rust name for them either.
        let e = Error::Http1(burrow_h1::Error::HeadersTooLarge { limit: 65536 });
        assert_eq!(
            e.to_string(),
            "HTTP_PROTOCOL: HTTP/1.1: the response head exceeds 65536 bytes, over burrow's bound"
        );
    }

    #[test]
    fn a_revoked_certificate_is_revoked_and_nothing_else() {
        for e in [
            Error::Certificate(burrow_x509::Error::OcspRevoked),
            Error::ProxyTls(Box::new(Error::Certificate(
                burrow_x509::Error::OcspRevoked,
            ))),
        ] {
            let shown = e.to_string();
            assert!(shown.contains("revoked"), "{shown}");
            for word in ["trust", "pins", "insecure", "ClientConfig", "set "] {
                assert!(!shown.contains(word), "{shown}");
            }
        }
    }
}
