//! The Rust API, for Workers written with workers-rs (feature `workers-rs`): [`Client::fetch`]
//! takes a `worker::Request`, an `http::Request` or a `burrow_client::Request` and gives a
//! [`Response`] once its head has arrived; the body streams ([`Response::next_chunk`],
//! [`Body`] as a `futures_core::Stream`), and [`Response::into_worker_response`] hands it to
//! the Worker's caller chunk by chunk.
//!
//! The client is the JS `Client`'s ([`Config`] has its defaults: WebCrypto offload on both
//! TLS hops, six connections awaiting headers, the isolate's session cache); `connect` comes
//! from `cloudflare:sockets` through the import below, so a Worker writes none of it. Like the
//! JS one, a client belongs to the request it was made in (Workers do not let sockets cross
//! requests): make one per invocation.

use std::fmt;
use std::future::{poll_fn, Future};
use std::io;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use burrow_client::{BodySource, BodyStream, Class, Phase, ResponseMeta, TlsInfo};
use bytes::Bytes;
use futures_core::Stream;
use js_sys::{Function, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::js_body::JsBody;
use crate::net::{js_message, WorkerNet};
use crate::setup::{self, Config, Core};
use crate::webcrypto::WebCryptoCounts;

#[wasm_bindgen(module = "cloudflare:sockets")]
extern "C" {
    /// The `connect` of `cloudflare:sockets`, which [`WorkerNet`] opens sockets with. An
    /// import of the module wasm-bindgen's glue makes; worker-build's bundler keeps
    /// `cloudflare:*` imports for the runtime to resolve.
    #[wasm_bindgen(thread_local_v2, js_name = connect)]
    static SOCKETS_CONNECT: JsValue;
}

/// A failure of a burrow fetch: a stable [`code`](Error::code) (`CERT_EXPIRED`,
/// `PROXY_AUTH_REQUIRED`, ...), the [`phase`](Error::phase) it happened in, and a message
/// (`Display`) that names the `ClientConfig` field (in [`Config::client`]) that changes the
/// outcome.
#[derive(Debug)]
pub struct Error {
    error: burrow_client::Error,
    phase: Phase,
}

impl Error {
    /// `error`, in the phase it says.
    fn new(error: burrow_client::Error) -> Error {
        let phase = error.phase();
        Error { error, phase }
    }

    /// `error`, met while reading a body.
    fn in_body(error: burrow_client::Error) -> Error {
        Error {
            error,
            phase: Phase::Body,
        }
    }

    /// The stable machine-readable code (`BurrowError.code` in JS).
    pub fn code(&self) -> &'static str {
        self.error.code()
    }

    /// Where in the fetch it happened (`BurrowError.phase` in JS): a body read's failure is
    /// [`Phase::Body`], whatever broke.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// What kind of failure it is.
    pub fn class(&self) -> Class {
        self.error.class()
    }

    /// burrow-client's error.
    pub fn get_ref(&self) -> &burrow_client::Error {
        &self.error
    }

    /// burrow-client's error, owned.
    pub fn into_inner(self) -> burrow_client::Error {
        self.error
    }
}

impl From<burrow_client::Error> for Error {
    fn from(error: burrow_client::Error) -> Error {
        Error::new(error)
    }
}

impl fmt::Display for Error {
    /// `CODE: what happened; the setting to change` (burrow-client's message, Rust names).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl From<Error> for worker::Error {
    /// The message, code first (`worker::Error::RustError`), for `?` in a handler.
    fn from(e: Error) -> worker::Error {
        worker::Error::RustError(e.to_string())
    }
}

/// burrow's HTTP client in a workers-rs Worker.
pub struct Client {
    core: Core,
}

impl Client {
    /// A client set up as `config` says: a [`Config`], or a `burrow_client::ClientConfig`
    /// with the Worker's defaults for the rest. Fails (`WEBCRYPTO_UNAVAILABLE`) only when
    /// offloading and the global has no `crypto.subtle`.
    pub fn new(config: impl Into<Config>) -> Result<Client, Error> {
        let connect = SOCKETS_CONNECT
            .with(JsValue::clone)
            .dyn_into::<Function>()
            .map_err(|_| {
                platform(
                    "CONNECT_UNAVAILABLE",
                    "cloudflare:sockets has no `connect` function here: burrow's Rust API runs \
                     inside workerd (a Worker)"
                        .to_string(),
                )
            })?;
        let core = Core::new(connect, config.into()).map_err(|e| {
            platform(
                "WEBCRYPTO_UNAVAILABLE",
                format!(
                    "{}: set Config.offload = false to keep all cryptography in wasm",
                    js_message(&e)
                ),
            )
        })?;
        Ok(Client { core })
    }

    /// Sends `req` (a `worker::Request`, an `http::Request`, a `burrow_client::Request` or a
    /// URL to GET) and resolves once the response head has arrived; the body is read from the
    /// [`Response`]. Dropping the future gives up the fetch.
    pub async fn fetch(&self, req: impl IntoRequest) -> Result<Response, Error> {
        let req = req.into_request()?;
        let context = &self.core.context;
        context.check()?;
        let resp = self
            .core
            .http
            .fetch(req)
            .await
            .map_err(|e| setup::fetch_error(context, e))?;
        Ok(Response {
            inner: Box::new(resp),
        })
    }

    /// burrow-client's settings as this client uses them (offload and the pending-heads cap
    /// applied).
    pub fn config(&self) -> &burrow_client::ClientConfig {
        self.core.http.config()
    }

    /// What WebCrypto has done for this client (`None` without offload).
    pub fn webcrypto_counts(&self) -> Option<WebCryptoCounts> {
        self.core.crypto.as_ref().map(|c| c.counts())
    }

    /// The most connections that were awaiting response headers at once (at most six).
    pub fn pending_heads_high_water(&self) -> usize {
        self.core.http.pending_heads_high_water()
    }
}

fn platform(code: &'static str, message: String) -> Error {
    Error::new(burrow_client::Error::Platform {
        code,
        phase: Phase::Request,
        message,
    })
}

/// What [`Client::fetch`] can send.
pub trait IntoRequest {
    /// The request burrow-client sends (`BAD_URL`, `BAD_REQUEST`: what cannot be sent).
    fn into_request(self) -> Result<burrow_client::Request, Error>;
}

impl IntoRequest for burrow_client::Request {
    fn into_request(self) -> Result<burrow_client::Request, Error> {
        Ok(self)
    }
}

impl IntoRequest for &str {
    /// A GET of this URL.
    fn into_request(self) -> Result<burrow_client::Request, Error> {
        Ok(burrow_client::Request::get(self)?)
    }
}

impl IntoRequest for String {
    /// A GET of this URL.
    fn into_request(self) -> Result<burrow_client::Request, Error> {
        self.as_str().into_request()
    }
}

/// The fields that frame a body: burrow writes them from the body itself.
fn is_framing(name: &str) -> bool {
    name.eq_ignore_ascii_case("content-length") || name.eq_ignore_ascii_case("transfer-encoding")
}

impl IntoRequest for worker::Request {
    /// Method, URL and headers as they are; a body is streamed from the request's
    /// `ReadableStream` as it comes, never buffered (its `Content-Length`, when it has one, is
    /// sent as the length; the runtime's framing fields are not copied).
    fn into_request(self) -> Result<burrow_client::Request, Error> {
        let inner = self.inner();
        let mut req = burrow_client::Request::new(&inner.method(), &inner.url())?;
        let mut length = None;
        for (n, v) in self.headers().entries() {
            if is_framing(&n) {
                if n.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse::<u64>().ok();
                }
                continue;
            }
            req.headers.push((n, v));
        }
        if let Some(stream) = inner.body() {
            req.body = burrow_client::Body::Stream(JsBody::stream(&stream, length)?);
        }
        Ok(req)
    }
}

impl<B: Into<RequestBody>> IntoRequest for http::Request<B> {
    /// Method, URI and headers as they are (a header value must be visible ASCII; burrow
    /// refuses `Content-Length` and `Transfer-Encoding` set by hand: it frames the body
    /// itself), and the body.
    fn into_request(self) -> Result<burrow_client::Request, Error> {
        let (parts, body) = self.into_parts();
        let mut req = burrow_client::Request::new(parts.method.as_str(), &parts.uri.to_string())?;
        for (n, v) in &parts.headers {
            let v = v.to_str().map_err(|_| {
                Error::new(burrow_client::Error::BadRequest(
                    "a request header value is not visible ASCII",
                ))
            })?;
            req.headers.push((n.as_str().to_string(), v.to_string()));
        }
        req.body = body.into().0;
        Ok(req)
    }
}

/// A request body for an `http::Request`: empty, bytes (replayable: redirects and retries
/// resend them), or a stream sent as it comes.
pub struct RequestBody(burrow_client::Body);

impl RequestBody {
    /// No body.
    pub fn empty() -> RequestBody {
        RequestBody(burrow_client::Body::Empty)
    }

    /// These bytes, sent with their length.
    pub fn bytes(bytes: impl Into<Bytes>) -> RequestBody {
        RequestBody(burrow_client::Body::Bytes(Rc::new(Vec::from(bytes.into()))))
    }

    /// Pieces from `stream`, sent as they come (not replayable: no retry, and a 307/308
    /// redirect fails with `BODY_NOT_REPLAYABLE`); with `length`, exactly that many bytes are
    /// sent with `Content-Length`, else chunked (HTTP/1.1) or as DATA frames (HTTP/2).
    pub fn stream<S>(stream: S, length: Option<u64>) -> RequestBody
    where
        S: Stream<Item = io::Result<Bytes>> + 'static,
    {
        RequestBody(burrow_client::Body::Stream(BodyStream::new(
            StreamSource(Box::pin(stream)),
            length,
        )))
    }
}

impl From<()> for RequestBody {
    fn from((): ()) -> RequestBody {
        RequestBody::empty()
    }
}

impl From<Bytes> for RequestBody {
    fn from(b: Bytes) -> RequestBody {
        RequestBody::bytes(b)
    }
}

impl From<Vec<u8>> for RequestBody {
    fn from(b: Vec<u8>) -> RequestBody {
        RequestBody::bytes(b)
    }
}

impl From<String> for RequestBody {
    fn from(s: String) -> RequestBody {
        RequestBody::bytes(s)
    }
}

impl From<&'static str> for RequestBody {
    fn from(s: &'static str) -> RequestBody {
        RequestBody::bytes(s)
    }
}

impl From<&'static [u8]> for RequestBody {
    fn from(s: &'static [u8]) -> RequestBody {
        RequestBody::bytes(s)
    }
}

/// A Rust stream as a [`BodySource`].
struct StreamSource(Pin<Box<dyn Stream<Item = io::Result<Bytes>>>>);

impl BodySource for StreamSource {
    fn next_piece(&mut self) -> Pin<Box<dyn Future<Output = io::Result<Option<Vec<u8>>>> + '_>> {
        Box::pin(async move {
            loop {
                match poll_fn(|cx| self.0.as_mut().poll_next(cx)).await {
                    None => return Ok(None),
                    Some(Err(e)) => return Err(e),
                    Some(Ok(b)) if b.is_empty() => continue,
                    Some(Ok(b)) => return Ok(Some(Vec::from(b))),
                }
            }
        })
    }
}

/// Statuses whose response has no body (a `Response` refuses one).
const NULL_BODY: [u16; 5] = [101, 103, 204, 205, 304];

/// Hop-by-hop fields: about the connection burrow read the response from, not the one the
/// Worker answers on.
const HOP_BY_HOP: [&str; 7] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// A response whose head has arrived; the body is read as it comes.
pub struct Response {
    inner: Box<burrow_client::Response<WorkerNet>>,
}

impl fmt::Debug for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

impl Response {
    /// Status code.
    pub fn status(&self) -> u16 {
        self.inner.status
    }

    /// The status line's reason phrase (`""` over HTTP/2, which has none).
    pub fn status_text(&self) -> &str {
        &self.inner.meta.reason
    }

    /// Header fields as received, in order. Decoding the body changes none of them
    /// (`Content-Encoding` and `Content-Length` describe the coded bytes):
    /// [`ResponseMeta::content_encoding`] says what was decoded.
    pub fn headers(&self) -> &[(String, String)] {
        &self.inner.headers
    }

    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.inner.header(name)
    }

    /// The headers as an `http::HeaderMap` (`BAD_RESPONSE_HEADER`: one it cannot hold).
    pub fn header_map(&self) -> Result<http::HeaderMap, Error> {
        let mut map = http::HeaderMap::with_capacity(self.inner.headers.len());
        for (n, v) in &self.inner.headers {
            let name = http::HeaderName::from_bytes(n.as_bytes());
            let value = http::HeaderValue::from_str(v);
            let (Ok(name), Ok(value)) = (name, value) else {
                return Err(platform(
                    "BAD_RESPONSE_HEADER",
                    format!("the response header {n:?} cannot be an http::HeaderMap entry"),
                ));
            };
            map.append(name, value);
        }
        Ok(map)
    }

    /// The final URL (after redirects).
    pub fn url(&self) -> &url::Url {
        &self.inner.url
    }

    /// The origin's TLS session (`None` over plain HTTP).
    pub fn tls(&self) -> Option<&TlsInfo> {
        self.inner.meta.tls.as_ref()
    }

    /// An HTTPS proxy's TLS session.
    pub fn proxy_tls(&self) -> Option<&TlsInfo> {
        self.inner.meta.proxy_tls.as_ref()
    }

    /// How the response was obtained: proxy, HTTP version, reuse, timings, decoding.
    pub fn meta(&self) -> &ResponseMeta {
        &self.inner.meta
    }

    /// The next piece of the body, lent from the response's own buffer (no copy, no
    /// allocation per chunk); `None` at the end.
    pub async fn next_chunk(&mut self) -> Result<Option<&[u8]>, Error> {
        self.inner.next_chunk().await.map_err(Error::in_body)
    }

    /// The body as a stream of owned chunks (one copy each, within wasm memory). Dropped
    /// before its end, it releases the connection.
    pub fn into_body(self) -> Body {
        Body {
            chunks: Chunks::new(self.inner, Bytes::copy_from_slice),
        }
    }

    /// This response as an `http::Response` (`BAD_RESPONSE_HEADER`: a header it cannot hold).
    pub fn into_http(self) -> Result<http::Response<Body>, Error> {
        let headers = self.header_map()?;
        let status = http::StatusCode::from_u16(self.status()).map_err(|_| {
            platform(
                "BAD_RESPONSE_STATUS",
                format!("status {} is not an http::StatusCode", self.status()),
            )
        })?;
        let mut r = http::Response::new(self.into_body());
        *r.status_mut() = status;
        *r.headers_mut() = headers;
        Ok(r)
    }

    /// This response for the Worker's caller: the status, the headers (less the hop-by-hop
    /// ones, and less `Content-Length` and `Content-Encoding` when burrow decoded the body:
    /// they describe the coded bytes), and the body streamed as it arrives, each chunk copied
    /// once, out of wasm memory into the JS stream. Fails for a status a Workers `Response`
    /// cannot have (outside 200..=599) or a header it refuses.
    ///
    /// To hand a coded body on as it came (no decoding here, no re-encoding by the runtime),
    /// set `ClientConfig::decompress` to `Decompress::Passthrough`: the headers then say what
    /// the bytes are.
    pub fn into_worker_response(self) -> Result<worker::Response, worker::Error> {
        let status = self.status();
        if !(200..=599).contains(&status) {
            return Err(worker::Error::RustError(format!(
                "burrow: status {status} cannot be a Workers Response (200..=599)"
            )));
        }
        let decoded = self.inner.meta.content_encoding.is_some();
        let headers = worker::Headers::new();
        for (n, v) in &self.inner.headers {
            let lower = n.to_ascii_lowercase();
            if HOP_BY_HOP.contains(&lower.as_str())
                || (decoded && (lower == "content-length" || lower == "content-encoding"))
            {
                continue;
            }
            headers.append(n, v)?;
        }
        let builder = worker::ResponseBuilder::new()
            .with_status(status)
            .with_headers(headers);
        if NULL_BODY.contains(&status) {
            return Ok(builder.empty());
        }
        let chunks = JsChunks(Chunks::new(self.inner, |c| Uint8Array::from(c).into()));
        let stream = wasm_streams::ReadableStream::from_stream(chunks)
            .into_raw()
            .unchecked_into::<worker::web_sys::ReadableStream>();
        Ok(builder.stream(stream))
    }
}

impl TryFrom<Response> for worker::Response {
    type Error = worker::Error;

    /// [`Response::into_worker_response`].
    fn try_from(r: Response) -> Result<worker::Response, worker::Error> {
        r.into_worker_response()
    }
}

type Inner = Box<burrow_client::Response<WorkerNet>>;
type Reading<T> = Pin<Box<dyn Future<Output = (Inner, Result<Option<T>, burrow_client::Error>)>>>;

/// A response's body as chunks of `T`, each made from the lent chunk by `make` (the one copy).
enum ChunkState<T> {
    /// Between reads: the response.
    Idle(Inner),
    /// A read in flight, which holds the response and gives it back.
    Reading(Reading<T>),
    /// Ended, failed or given up: the response (and its hold on the connection) is gone.
    Done,
}

struct Chunks<T: 'static> {
    state: ChunkState<T>,
    make: fn(&[u8]) -> T,
}

impl<T: 'static> Chunks<T> {
    fn new(inner: Inner, make: fn(&[u8]) -> T) -> Chunks<T> {
        Chunks {
            state: ChunkState::Idle(inner),
            make,
        }
    }

    fn poll_chunk(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, Error>>> {
        loop {
            match std::mem::replace(&mut self.state, ChunkState::Done) {
                ChunkState::Done => return Poll::Ready(None),
                ChunkState::Idle(mut inner) => {
                    let make = self.make;
                    self.state = ChunkState::Reading(Box::pin(async move {
                        let got = inner.next_chunk().await.map(|c| c.map(make));
                        (inner, got)
                    }));
                }
                ChunkState::Reading(mut read) => {
                    return match read.as_mut().poll(cx) {
                        Poll::Pending => {
                            self.state = ChunkState::Reading(read);
                            Poll::Pending
                        }
                        Poll::Ready((inner, Ok(Some(chunk)))) => {
                            self.state = ChunkState::Idle(inner);
                            Poll::Ready(Some(Ok(chunk)))
                        }
                        // The response is dropped: its connection goes back to the pool.
                        Poll::Ready((_, Ok(None))) => Poll::Ready(None),
                        Poll::Ready((_, Err(e))) => Poll::Ready(Some(Err(Error::in_body(e)))),
                    };
                }
            }
        }
    }
}

/// A response body as a stream of owned chunks ([`Response::into_body`]). `worker::Response::
/// from_stream` takes it too, at one more copy per chunk than
/// [`Response::into_worker_response`].
pub struct Body {
    chunks: Chunks<Bytes>,
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Body")
            .field("done", &matches!(self.chunks.state, ChunkState::Done))
            .finish()
    }
}

impl Stream for Body {
    type Item = Result<Bytes, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().chunks.poll_chunk(cx)
    }
}

/// The chunks as `Uint8Array`s for a JS stream; an error becomes a JS `Error` with `code` and
/// `phase`, as a `BurrowError` has them.
struct JsChunks(Chunks<JsValue>);

impl Stream for JsChunks {
    type Item = Result<JsValue, JsValue>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().0.poll_chunk(cx).map(|o| {
            o.map(|r| {
                r.map_err(|e| {
                    let js = js_sys::Error::new(&e.to_string());
                    // Setting a property on a fresh Error cannot fail.
                    let _ = js_sys::Reflect::set(&js, &"code".into(), &e.code().into());
                    let _ = js_sys::Reflect::set(&js, &"phase".into(), &e.phase().name().into());
                    js.into()
                })
            })
        })
    }
}
