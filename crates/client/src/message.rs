//! Requests and responses as the caller sees them.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use crate::config::RedirectMode;
use crate::error::Error;
use crate::tls::TlsInfo;
use burrow_proxy::Scheme as ProxyScheme;

/// Where a streamed request body comes from (a file, a Worker `ReadableStream`, ...).
pub trait BodySource {
    /// The next piece of the body; `Ok(None)` at its end.
    #[allow(clippy::type_complexity)] // the boxed future is the object-safe async fn
    fn next_piece(
        &mut self,
    ) -> Pin<Box<dyn Future<Output = std::io::Result<Option<Vec<u8>>>> + '_>>;
}

/// A request body read once from a [`BodySource`]. HTTP/1.1 sends it with `Content-Length`
/// when `length` is known (the source must then give exactly that many bytes) and chunked
/// otherwise; HTTP/2 as DATA frames paced by the server's windows. It cannot be replayed:
/// the request is not retried, and a 307/308 redirect that keeps the body fails with
/// `BODY_NOT_REPLAYABLE`.
#[derive(Clone)]
pub struct BodyStream {
    source: Rc<RefCell<Option<Box<dyn BodySource>>>>,
    length: Option<u64>,
}

impl BodyStream {
    /// A body from `source`; `length` if known in advance.
    pub fn new(source: impl BodySource + 'static, length: Option<u64>) -> BodyStream {
        BodyStream {
            source: Rc::new(RefCell::new(Some(Box::new(source)))),
            length,
        }
    }

    /// The declared length.
    pub fn length(&self) -> Option<u64> {
        self.length
    }

    /// Whether the body was sent already (it cannot be sent again).
    pub fn is_spent(&self) -> bool {
        self.source.borrow().is_none()
    }

    /// Takes the source for sending (once).
    pub(crate) fn take(&self) -> Result<Box<dyn BodySource>, Error> {
        self.source
            .borrow_mut()
            .take()
            .ok_or(Error::BodyNotReplayable)
    }
}

impl core::fmt::Debug for BodyStream {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BodyStream")
            .field("length", &self.length)
            .field("sent", &self.source.borrow().is_none())
            .finish()
    }
}

impl PartialEq for BodyStream {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.source, &other.source)
    }
}

impl Eq for BodyStream {}

/// A request body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Body {
    /// No body.
    #[default]
    Empty,
    /// These bytes (sent with `Content-Length`; replayable, so redirects and retries can resend).
    /// Shared, not copied: a redirect's new request, a retry and the HTTP/2 driver that writes
    /// them all hold this one buffer.
    Bytes(Rc<Vec<u8>>),
    /// Pieces from a source, sent as they come (not replayable).
    Stream(BodyStream),
}

/// One request.
#[derive(Clone, Debug)]
pub struct Request {
    /// The method, e.g. `GET`.
    pub method: String,
    /// The URL (http or https).
    pub url: url::Url,
    /// Header fields, sent in this order with this case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Body,
    /// What a redirect does for this request; `None`: the client's
    /// [`crate::ClientConfig::redirect_mode`].
    pub redirect_mode: Option<RedirectMode>,
}

impl Request {
    /// A request for `method` and `url` (parsed by the `url` crate; IDNA names become punycode).
    pub fn new(method: &str, url: &str) -> Result<Request, Error> {
        let url = url::Url::parse(url).map_err(|e| Error::BadUrl(format!("{url:?}: {e}")))?;
        Ok(Request {
            method: method.to_string(),
            url,
            headers: Vec::new(),
            body: Body::Empty,
            redirect_mode: None,
        })
    }

    /// `GET url`.
    pub fn get(url: &str) -> Result<Request, Error> {
        Request::new("GET", url)
    }

    /// Appends a header.
    pub fn header(mut self, name: &str, value: &str) -> Request {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Sets what a redirect does for this request (overriding the client's default).
    pub fn redirect(mut self, mode: RedirectMode) -> Request {
        self.redirect_mode = Some(mode);
        self
    }

    /// Sets the body.
    pub fn body(mut self, bytes: Vec<u8>) -> Request {
        self.body = Body::Bytes(Rc::new(bytes));
        self
    }

    /// Whether a failed attempt may be sent again (RFC 9110 §9.2.2 idempotent methods, with a
    /// body that can be replayed).
    pub(crate) fn retryable(&self) -> bool {
        matches!(
            self.method.as_str(),
            "GET" | "HEAD" | "OPTIONS" | "PUT" | "DELETE" | "TRACE"
        ) && !matches!(self.body, Body::Stream(_))
    }

    /// Sets a streamed body.
    pub fn body_stream(mut self, stream: BodyStream) -> Request {
        self.body = Body::Stream(stream);
        self
    }
}

/// Milliseconds spent in each phase of the final request (0 for phases that did not happen,
/// e.g. on a reused connection).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timings {
    /// TCP connect to the first hop.
    pub connect: u64,
    /// Proxy handshake (including TLS to an HTTPS proxy).
    pub proxy: u64,
    /// Origin TLS handshake.
    pub tls: u64,
    /// From the request written to the first response-head byte decoded.
    pub ttfb: u64,
    /// From the start of the fetch (first redirect hop included) to the response head.
    pub total: u64,
}

/// What is known about how a response was obtained.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResponseMeta {
    /// The origin's TLS session (`None` for http URLs).
    pub tls: Option<TlsInfo>,
    /// The proxy's TLS session, for HTTPS proxies.
    pub proxy_tls: Option<TlsInfo>,
    /// The kind of proxy used, if any (`None` also when no_proxy bypassed it).
    pub proxied: Option<ProxyScheme>,
    /// `"HTTP/1.1"` (or `"HTTP/1.0"` when the server answered with 1.0).
    pub http_version: &'static str,
    /// The status line's reason phrase as sent (lossy UTF-8; empty for HTTP/2, which has none).
    pub reason: String,
    /// Whether the connection came from the pool.
    pub reused: bool,
    /// Whether the request was retried once on a fresh connection after a stale pooled one.
    pub retried: bool,
    /// Time spent per phase.
    pub timings: Timings,
    /// Redirects followed to get here.
    pub redirects: u32,
    /// The `Content-Encoding` that was decoded (`None`: the body is as the server sent it).
    /// This is how a caller tells the body was decoded: the response headers still carry the
    /// server's `Content-Encoding` and `Content-Length` (of the coded bytes).
    pub content_encoding: Option<String>,
    /// The request head exactly as sent on this hop, one line per entry, for diagnostics
    /// (curl's `-v`): HTTP/1.x the request line and header lines of the encoded head (framing
    /// headers included, no CRLFs); HTTP/2 `name: value` per field in the order encoded,
    /// pseudo-header fields first. Credentials sent (Authorization, Proxy-Authorization) are
    /// included, as on the wire.
    pub request_head: Vec<String>,
}
