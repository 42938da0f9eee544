//! `Client::fetch`: pool, HTTP/1.1 exchange, redirects.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use burrow_h1::{BodyFraming, BodyKind, Decoder, Event, Limits, RequestHead, Target, Version};

use burrow_cookies::redirect::next_request;
use burrow_cookies::Jar;
use burrow_proxy::connect::ProxyConnectionHeader;

use crate::config::{ClientConfig, Decompress};
use crate::connect::{connect, proxy_for, ConnInfo, Origin};
use crate::deadline::Clock;
use crate::error::{Error, Phase};
use crate::h2::{request_headers, H2Conn};
use crate::message::{Body, Request, ResponseMeta, Timings};
use crate::net::{Net, NetStream};
use crate::proxy::{auth_required, host_field};
use crate::slots::HeadSlots;
use crate::tls::TicketCache;
use crate::transport::Transport;

/// Bytes read from the transport at a time.
const READ_CHUNK: usize = 16 * 1024;

struct Idle<S: NetStream> {
    stream: Transport<S>,
    info: ConnInfo,
}

pub(crate) struct Inner<N: Net> {
    pub(crate) net: N,
    pub(crate) config: ClientConfig,
    pool: RefCell<HashMap<Origin, Vec<Idle<N::Stream>>>>,
    h2: RefCell<HashMap<Origin, (H2Conn, ConnInfo)>>,
    jar: Option<RefCell<Jar>>,
    tickets: TicketCache,
    heads: Rc<HeadSlots>,
}

impl<N: Net> Inner<N> {
    fn h2_for(&self, origin: &Origin) -> Option<(H2Conn, ConnInfo)> {
        let mut h2 = self.h2.borrow_mut();
        match h2.get(origin) {
            Some((c, _)) if !c.usable() => {
                h2.remove(origin);
                None
            }
            other => other.cloned(),
        }
    }

    fn take_idle(&self, origin: &Origin) -> Option<Idle<N::Stream>> {
        self.pool.borrow_mut().get_mut(origin)?.pop()
    }

    fn put_idle(&self, origin: Origin, stream: Transport<N::Stream>, info: ConnInfo) {
        let mut pool = self.pool.borrow_mut();
        let list = pool.entry(origin).or_default();
        if list.len() < self.config.max_idle_per_origin {
            list.push(Idle { stream, info });
        }
    }
}

impl<N: Net> Drop for Inner<N> {
    fn drop(&mut self) {
        for (h2, _) in self.h2.borrow().values() {
            h2.shut_down();
        }
    }
}

/// An HTTP client over the platform `N`. Cheap to clone (shares the pool).
pub struct Client<N: Net> {
    inner: Rc<Inner<N>>,
}

impl<N: Net> Clone for Client<N> {
    fn clone(&self) -> Self {
        Client {
            inner: Rc::clone(&self.inner),
        }
    }
}

/// A response whose head has arrived; the body streams with [`Response::chunk`].
pub struct Response<N: Net> {
    /// Status code.
    pub status: u16,
    /// Header fields as received, in order (values decoded as UTF-8, lossily). Decoding the
    /// body changes none of them: `Content-Encoding` and `Content-Length` still say what the
    /// server sent (as the platform's `fetch` keeps `Content-Encoding`); whether the body
    /// handed out was decoded, and from what, is [`ResponseMeta::content_encoding`].
    pub headers: Vec<(String, String)>,
    /// The final URL (after redirects).
    pub url: url::Url,
    /// How the response was obtained.
    pub meta: ResponseMeta,
    body: BodySource<N>,
    decoding: Option<Decoding>,
}

/// A content decoder over the body.
struct Decoding {
    decoder: burrow_decode::Decoder,
    fed: bool,
    done: bool,
}

impl<N: Net> core::fmt::Debug for Response<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Response")
            .field("status", &self.status)
            .field("headers", &self.headers)
            .field("url", &self.url.as_str())
            .field("meta", &self.meta)
            .finish_non_exhaustive()
    }
}

struct H1Body<N: Net> {
    client: Rc<Inner<N>>,
    origin: Origin,
    stream: Option<Transport<N::Stream>>,
    info: ConnInfo,
    decoder: Decoder,
    buf: Vec<u8>,
    done: bool,
    wire: u64,
    clock: Clock,
}

impl<N: Net> Response<N> {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The next piece of the body as it arrives; `None` at the end. Each read waits at most
    /// `deadlines.idle` (`TIMEOUT_IDLE`).
    pub async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        loop {
            let raw = match &mut self.body {
                BodySource::H1(b) => b.chunk().await?,
                BodySource::H2(b) => b.chunk().await?,
            };
            let Some(d) = self.decoding.as_mut() else {
                return Ok(raw);
            };
            let mut out = Vec::new();
            match raw {
                Some(coded) => {
                    d.fed = true;
                    d.decoder.decode(&coded, &mut out).map_err(Error::Decode)?;
                    if !out.is_empty() {
                        return Ok(Some(out));
                    }
                }
                None if d.done => return Ok(None),
                None => {
                    d.done = true;
                    // An empty coded body (e.g. Content-Length: 0) has nothing to finish.
                    if d.fed {
                        d.decoder.finish(&mut out).map_err(Error::Decode)?;
                    }
                    return Ok((!out.is_empty()).then_some(out));
                }
            }
        }
    }

    /// Sets up decoding per `decompress` (see [`crate::Decompress`]).
    fn decode_if_coded(&mut self, req: &Request, cfg: &ClientConfig) -> Result<(), Error> {
        let asked = req
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("accept-encoding"));
        let no_body = req.method == "HEAD" || matches!(self.status, 204 | 304);
        if cfg.decompress != Decompress::Auto || asked || no_body {
            return Ok(());
        }
        let coding: Vec<String> = self
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("content-encoding"))
            .map(|(_, v)| v.clone())
            .collect();
        if coding.is_empty() {
            return Ok(());
        }
        let coding = coding.join(", ");
        let codings = burrow_decode::Coding::parse_list(&coding).map_err(Error::Decode)?;
        if codings.is_empty() {
            return Ok(());
        }
        // The headers stay as the server sent them; `meta.content_encoding` says the body is
        // decoded (so `Content-Length`, if any, counts the coded bytes, not the ones handed out).
        self.meta.content_encoding = Some(coding);
        self.decoding = Some(Decoding {
            decoder: burrow_decode::Decoder::new(&codings, cfg.max_body_bytes),
            fed: false,
            done: false,
        });
        Ok(())
    }

    /// The whole body (bounded by `max_body_bytes`).
    pub async fn bytes(&mut self) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        while let Some(c) = self.chunk().await? {
            out.extend_from_slice(&c);
        }
        Ok(out)
    }
}

enum BodySource<N: Net> {
    H1(Box<H1Body<N>>),
    H2(H2Body<N>),
}

struct H2Body<N: Net> {
    client: Rc<Inner<N>>,
    conn: H2Conn,
    id: u32,
    done: bool,
    wire: u64,
    clock: Clock,
}

impl<N: Net> H2Body<N> {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        if self.done {
            return Ok(None);
        }
        let net = &self.client.net;
        let idle = self.client.config.deadlines.idle;
        let got = self
            .clock
            .run(net, Phase::Idle, idle, self.conn.data(self.id))
            .await;
        let piece = match got {
            Ok(Ok(p)) => p,
            Ok(Err(e)) | Err(e) => {
                self.done = true;
                self.conn.cancel(self.id);
                return Err(e);
            }
        };
        let Some(piece) = piece else {
            self.done = true;
            return Ok(None);
        };
        self.wire = self
            .wire
            .saturating_add(u64::try_from(piece.len()).unwrap_or(u64::MAX));
        if let Some(limit) = self.client.config.max_body_bytes {
            if self.wire > limit {
                self.done = true;
                self.conn.cancel(self.id);
                return Err(Error::BodyTooLarge { limit });
            }
        }
        Ok(Some(piece))
    }
}

impl<N: Net> Drop for H2Body<N> {
    fn drop(&mut self) {
        if !self.done {
            self.conn.cancel(self.id);
        }
    }
}

impl<N: Net> H1Body<N> {
    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        loop {
            if self.done {
                return Ok(None);
            }
            let decoded = self.decoder.decode(&self.buf).map_err(Error::Http1)?;
            let consumed = decoded.consumed.min(self.buf.len());
            match decoded.event {
                Event::Data(range) => {
                    let data = self.buf.get(range).unwrap_or(&[]).to_vec();
                    self.buf.drain(..consumed);
                    self.wire = self
                        .wire
                        .saturating_add(u64::try_from(data.len()).unwrap_or(u64::MAX));
                    if let Some(limit) = self.client.config.max_body_bytes {
                        if self.wire > limit {
                            self.done = true;
                            self.stream = None;
                            return Err(Error::BodyTooLarge { limit });
                        }
                    }
                    if data.is_empty() {
                        continue;
                    }
                    return Ok(Some(data));
                }
                Event::End { keep_alive } => {
                    self.buf.drain(..consumed);
                    self.done = true;
                    if let Some(stream) = self.stream.take() {
                        if keep_alive && self.buf.is_empty() {
                            self.client
                                .put_idle(self.origin.clone(), stream, self.info.clone());
                        }
                    }
                    return Ok(None);
                }
                Event::NeedData => {
                    self.buf.drain(..consumed);
                    let Some(stream) = self.stream.as_mut() else {
                        return Err(Error::HttpProtocol("the body ended without its framing"));
                    };
                    let net = &self.client.net;
                    let idle = self.client.config.deadlines.idle;
                    let mut tmp = vec![0u8; READ_CHUNK];
                    let n = self
                        .clock
                        .run(net, Phase::Idle, idle, stream.read(&mut tmp))
                        .await?
                        .map_err(|e| Error::from_io(e, Error::Io))?;
                    if n == 0 {
                        if stream.closure_authenticated()
                            || self.client.config.allow_close_without_close_notify
                        {
                            self.decoder.receive_eof();
                        } else {
                            self.decoder.receive_unauthenticated_eof();
                        }
                    } else {
                        self.buf.extend_from_slice(tmp.get(..n).unwrap_or(&[]));
                    }
                }
                Event::Closed => {
                    self.done = true;
                    self.stream = None;
                    return Ok(None);
                }
                _ => {
                    self.buf.drain(..consumed);
                }
            }
        }
    }
}

/// The lines of an encoded HTTP/1.x request head (up to the empty line), without CRLFs.
fn head_lines(wire: &[u8]) -> Vec<String> {
    let end = wire
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(wire.len());
    String::from_utf8_lossy(wire.get(..end).unwrap_or_default())
        .split("\r\n")
        .map(str::to_string)
        .collect()
}

/// The response head plus the connection state to read its body.
struct Exchange<S: NetStream> {
    status: u16,
    version: Version,
    /// The request head as written (lines without CRLF).
    sent_head: Vec<String>,
    headers: Vec<(String, String)>,
    stream: Transport<S>,
    decoder: Decoder,
    buf: Vec<u8>,
    ttfb: u64,
    clock: Clock,
}

/// Why one attempt failed: `stale` when nothing at all came back on a reused connection.
struct Attempt {
    error: Error,
    stale: bool,
}

impl<N: Net> Client<N> {
    /// A client over `net` with `config`.
    pub fn new(net: N, config: ClientConfig) -> Client<N> {
        let cookies = config.cookies;
        let config_heads = config.max_pending_heads;
        Client {
            inner: Rc::new(Inner {
                net,
                config,
                pool: RefCell::new(HashMap::new()),
                h2: RefCell::new(HashMap::new()),
                jar: cookies.then(|| RefCell::new(Jar::new())),
                tickets: TicketCache::default(),
                heads: HeadSlots::new(config_heads),
            }),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// The platform.
    pub fn net(&self) -> &N {
        &self.inner.net
    }

    /// Sends `req`, follows redirects per the policy, and returns the final response once its
    /// head has arrived.
    pub async fn fetch(&self, req: Request) -> Result<Response<N>, Error> {
        let net = &self.inner.net;
        let cfg = &self.inner.config;
        let start = net.now_ms();
        let clock = Clock {
            total_ends_ms: cfg
                .deadlines
                .total
                .map(|d| start.saturating_add(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))),
        };
        let mut req = req;
        let mut history: Vec<url::Url> = Vec::new();
        loop {
            history.push(req.url.clone());
            let now_s = i64::try_from(net.now_ms() / 1000).unwrap_or(i64::MAX);
            let mut resp = match self.jar_header(&req, now_s) {
                Some(cookie) => {
                    let mut with = req.clone();
                    with.headers.push(("Cookie".to_string(), cookie));
                    self.send(&with, &clock).await?
                }
                None => self.send(&req, &clock).await?,
            };
            self.store_cookies(&resp.url, &resp.headers, now_s);
            resp.meta.timings.total = net.now_ms().saturating_sub(start);
            resp.meta.redirects =
                u32::try_from(history.len().saturating_sub(1)).unwrap_or(u32::MAX);
            let location = resp.header("location").map(str::to_string);
            match redirect(&req, &history, resp.status, location.as_deref(), cfg)? {
                Some(next) => req = next,
                None => {
                    resp.decode_if_coded(&req, cfg)?;
                    return Ok(resp);
                }
            }
        }
    }

    /// The jar's `Cookie` value for `req`, unless cookies are off or the caller set one.
    fn jar_header(&self, req: &Request, now_s: i64) -> Option<String> {
        let jar = self.inner.jar.as_ref()?;
        if req
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("cookie"))
        {
            return None;
        }
        jar.borrow_mut().cookie_header(&req.url, now_s)
    }

    fn store_cookies(&self, url: &url::Url, headers: &[(String, String)], now_s: i64) {
        let Some(jar) = self.inner.jar.as_ref() else {
            return;
        };
        let mut jar = jar.borrow_mut();
        for (n, v) in headers {
            if n.eq_ignore_ascii_case("set-cookie") {
                // A refused cookie (bad domain, public suffix, prefix rules) is simply not kept.
                let _ = jar.store(url, v, now_s);
            }
        }
    }

    /// Most requests that were waiting for their response head at once (see
    /// [`ClientConfig::max_pending_heads`]).
    pub fn pending_heads_high_water(&self) -> usize {
        self.inner.heads.high_water()
    }

    async fn send(&self, req: &Request, clock: &Clock) -> Result<Response<N>, Error> {
        // Held until this hop's response head is here (or it failed).
        let _slot = self.inner.heads.acquire().await;
        self.send_held(req, clock).await
    }

    async fn send_held(&self, req: &Request, clock: &Clock) -> Result<Response<N>, Error> {
        let origin = Origin::of(&req.url)?;
        let mut retried = false;
        loop {
            if let Some((h2, info)) = self.inner.h2_for(&origin) {
                match self.send_h2(req, &h2, info, true, retried, clock).await {
                    Err(e) if !retried && req.retryable() && h2_retryable(&e) => {
                        self.inner.h2.borrow_mut().remove(&origin);
                        retried = true;
                        continue;
                    }
                    other => return other,
                }
            }
            let pooled = self.inner.take_idle(&origin);
            let reused = pooled.is_some();
            let (stream, info) = match pooled {
                Some(idle) => (idle.stream, idle.info),
                None => {
                    let c = connect(
                        &self.inner.net,
                        &self.inner.config,
                        &origin,
                        clock,
                        &self.inner.tickets,
                    )
                    .await?;
                    (c.stream, c.info)
                }
            };
            let alpn_h2 = info
                .tls
                .as_ref()
                .is_some_and(|t| t.alpn.as_deref() == Some("h2"));
            // h2c with prior knowledge: plain http origins reached without an absolute-form
            // proxy (which would speak HTTP/1.1 to the proxy).
            let prior_knowledge = self.inner.config.http2_prior_knowledge
                && !origin.https
                && info.absolute_form.is_none();
            if (alpn_h2 || prior_knowledge) && !reused {
                let (h2, driver) = H2Conn::start(stream, self.inner.config.http.h2.clone());
                self.inner.net.spawn(Box::pin(driver));
                self.inner
                    .h2
                    .borrow_mut()
                    .insert(origin.clone(), (h2.clone(), info.clone()));
                match self.send_h2(req, &h2, info, false, retried, clock).await {
                    // Refused before processing (GOAWAY, REFUSED_STREAM): once more, anew.
                    Err(e) if !retried && req.retryable() && h2_retryable(&e) => {
                        self.inner.h2.borrow_mut().remove(&origin);
                        retried = true;
                        continue;
                    }
                    other => return other,
                }
            }
            match self.exchange(req, &origin, stream, &info, clock).await {
                // Absolute-form: the proxy's own refusal arrives as the response.
                Ok(ex) if ex.status == 407 && info.absolute_form.is_some() => {
                    let had = info
                        .absolute_form
                        .as_ref()
                        .is_some_and(|p| p.credentials.is_some());
                    return Err(auth_required(had));
                }
                Ok(ex) => {
                    let mut info = info;
                    if reused {
                        info.timings = Default::default();
                    }
                    return Ok(self.respond(req, origin, ex, info, reused, retried));
                }
                Err(a) if a.stale && reused && !retried && req.retryable() => retried = true,
                Err(a) => return Err(a.error),
            }
        }
    }

    async fn send_h2(
        &self,
        req: &Request,
        h2: &H2Conn,
        info: ConnInfo,
        reused: bool,
        retried: bool,
        clock: &Clock,
    ) -> Result<Response<N>, Error> {
        let cfg = &self.inner.config;
        let net = &self.inner.net;
        let origin = Origin::of(&req.url)?;
        let authority = host_field(&origin.host, req.url.port().map(|_| origin.port));
        let path = match req.url.query() {
            Some(q) => format!("{}?{q}", req.url.path()),
            None => req.url.path().to_string(),
        };
        let has = |name: &str| {
            req.headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        let mut fields =
            crate::profile::default_fields(&cfg.http, cfg.user_agent.as_deref(), &req.headers);
        fields.extend(req.headers.iter().cloned());
        let (body, mut source, length) = match &req.body {
            Body::Empty => (Vec::new(), None, None),
            Body::Bytes(b) => (b.clone(), None, u64::try_from(b.len()).ok()),
            Body::Stream(s) => (Vec::new(), Some(s.take()?), s.length()),
        };
        if let Some(n) = length.filter(|n| *n > 0 && !has("content-length")) {
            fields.push(("content-length".to_string(), n.to_string()));
        }
        let headers = request_headers(
            &cfg.http.pseudo_order,
            &req.method,
            req.url.scheme(),
            &authority,
            &path,
            &fields,
        );
        let sent_head: Vec<String> = headers
            .iter()
            .map(|h| {
                format!(
                    "{}: {}",
                    String::from_utf8_lossy(&h.name),
                    String::from_utf8_lossy(&h.value)
                )
            })
            .collect();
        let t_sent = net.now_ms();
        let id = h2.send(&headers, body, source.is_some())?;
        if let Some(src) = source.as_mut() {
            if let Err(e) = send_h2_stream(h2, id, src.as_mut(), length).await {
                h2.cancel(id);
                return Err(e);
            }
        }
        let head = clock
            .run(net, Phase::Headers, cfg.deadlines.headers, h2.head(id))
            .await;
        let (status, headers) = match head {
            Ok(Ok(h)) => h,
            Ok(Err(e)) | Err(e) => {
                h2.cancel(id);
                return Err(e);
            }
        };
        let mut timings = if reused {
            Timings::default()
        } else {
            info.timings
        };
        timings.ttfb = net.now_ms().saturating_sub(t_sent);
        let mut body = H2Body {
            client: Rc::clone(&self.inner),
            conn: h2.clone(),
            id,
            done: false,
            wire: 0,
            clock: *clock,
        };
        let declared = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.trim().parse::<u64>().ok());
        if let (Some(limit), Some(n)) = (cfg.max_body_bytes, declared) {
            if n > limit {
                body.done = true;
                h2.cancel(id);
                return Err(Error::BodyTooLarge { limit });
            }
        }
        Ok(Response {
            status,
            headers,
            url: req.url.clone(),
            meta: ResponseMeta {
                tls: info.tls,
                proxy_tls: info.proxy_tls,
                proxied: info.proxied,
                http_version: "HTTP/2",
                reused,
                retried,
                timings,
                redirects: 0,
                content_encoding: None,
                request_head: sent_head,
            },
            body: BodySource::H2(body),
            decoding: None,
        })
    }

    fn respond(
        &self,
        req: &Request,
        origin: Origin,
        ex: Exchange<N::Stream>,
        info: ConnInfo,
        reused: bool,
        retried: bool,
    ) -> Response<N> {
        let mut timings = info.timings;
        timings.ttfb = ex.ttfb;
        let meta = ResponseMeta {
            tls: info.tls.clone(),
            proxy_tls: info.proxy_tls.clone(),
            proxied: info.proxied,
            http_version: match ex.version {
                Version::Http10 => "HTTP/1.0",
                _ => "HTTP/1.1",
            },
            reused,
            retried,
            timings,
            redirects: 0,
            content_encoding: None,
            request_head: ex.sent_head,
        };
        let body = BodySource::H1(Box::new(H1Body {
            client: Rc::clone(&self.inner),
            origin,
            stream: Some(ex.stream),
            info,
            decoder: ex.decoder,
            buf: ex.buf,
            done: false,
            wire: 0,
            clock: ex.clock,
        }));
        Response {
            status: ex.status,
            headers: ex.headers,
            url: req.url.clone(),
            meta,
            body,
            decoding: None,
        }
    }

    async fn exchange(
        &self,
        req: &Request,
        origin: &Origin,
        mut stream: Transport<N::Stream>,
        info: &ConnInfo,
        clock: &Clock,
    ) -> Result<Exchange<N::Stream>, Attempt> {
        let fatal = |error| Attempt {
            error,
            stale: false,
        };
        let cfg = &self.inner.config;
        let net = &self.inner.net;
        let path = match req.url.query() {
            Some(q) => format!("{}?{q}", req.url.path()),
            None => req.url.path().to_string(),
        };
        let mut absolute = req.url.clone();
        absolute.set_fragment(None);
        let host = host_field(&origin.host, req.url.port().map(|_| origin.port));
        let target = match &info.absolute_form {
            Some(_) => Target::Absolute(absolute.as_str()),
            None => Target::Origin(&path),
        };
        let mut head = RequestHead::new(&req.method, target, &host);
        let defaults =
            crate::profile::default_fields(&cfg.http, cfg.user_agent.as_deref(), &req.headers);
        for (n, v) in &defaults {
            head = head.header(n, v);
        }
        for (n, v) in &req.headers {
            head = head.header(n, v);
        }
        let proxy_auth = match info
            .absolute_form
            .as_ref()
            .and_then(|p| p.credentials.as_ref())
        {
            Some(c) => Some(
                c.basic_authorization()
                    .map_err(|e| fatal(Error::Proxy(e)))?,
            ),
            None => None,
        };
        if let Some(a) = proxy_auth.as_deref() {
            head = head.header("Proxy-Authorization", a);
        }
        let pc = info.absolute_form.as_ref().and(match cfg.proxy_connection {
            ProxyConnectionHeader::KeepAlive => Some("keep-alive"),
            ProxyConnectionHeader::Close => Some("close"),
            _ => None,
        });
        if let Some(v) = pc {
            head = head.header("Proxy-Connection", v);
        }
        let mut source = None;
        let body_kind = match (&req.body, req.method.as_str()) {
            (Body::Empty, "POST" | "PUT" | "PATCH") => BodyKind::Length(0),
            (Body::Empty, _) => BodyKind::None,
            (Body::Bytes(b), _) => BodyKind::Length(u64::try_from(b.len()).unwrap_or(u64::MAX)),
            (Body::Stream(s), _) => {
                source = Some(s.take().map_err(fatal)?);
                s.length().map_or(BodyKind::Chunked, BodyKind::Length)
            }
        };
        let mut wire = Vec::new();
        let req_info = head
            .encode(body_kind, &mut wire)
            .map_err(|e| fatal(Error::Http1(e)))?;
        let sent_head = head_lines(&wire);
        if let Body::Bytes(b) = &req.body {
            wire.extend_from_slice(b);
        }
        // A write failing on a pooled connection is the stale case too.
        let sent = clock
            .run(
                net,
                Phase::Headers,
                cfg.deadlines.headers,
                stream.write_all(&wire),
            )
            .await
            .map_err(fatal)?;
        if let Err(e) = sent {
            return Err(Attempt {
                error: Error::from_io(e, Error::Io),
                stale: true,
            });
        }
        if let Some(src) = source {
            send_h1_stream(net, cfg, clock, &mut stream, src, body_kind)
                .await
                .map_err(fatal)?;
        }
        let t_sent = net.now_ms();
        let mut decoder = Decoder::new(Limits::default());
        decoder.expect_response(req_info);
        let mut buf: Vec<u8> = Vec::new();
        let mut got_any = false;
        let mut tmp = vec![0u8; READ_CHUNK];
        let mut ttfb = 0;
        loop {
            let decoded = decoder.decode(&buf).map_err(|e| Attempt {
                stale: !got_any,
                error: Error::Http1(e),
            })?;
            let consumed = decoded.consumed.min(buf.len());
            match decoded.event {
                Event::Head { head, framing } => {
                    buf.drain(..consumed);
                    if let (Some(limit), BodyFraming::Length(n)) = (cfg.max_body_bytes, framing) {
                        if n > limit {
                            return Err(fatal(Error::BodyTooLarge { limit }));
                        }
                    }
                    let headers = head
                        .headers
                        .iter()
                        .map(|(n, v)| {
                            (
                                String::from_utf8_lossy(n).into_owned(),
                                String::from_utf8_lossy(v).into_owned(),
                            )
                        })
                        .collect();
                    return Ok(Exchange {
                        status: head.status,
                        version: head.version,
                        sent_head,
                        headers,
                        stream,
                        decoder,
                        buf,
                        ttfb,
                        clock: *clock,
                    });
                }
                Event::NeedData => {
                    buf.drain(..consumed);
                    let n = clock
                        .run(
                            net,
                            Phase::Headers,
                            cfg.deadlines.headers,
                            stream.read(&mut tmp),
                        )
                        .await
                        .map_err(fatal)?;
                    let n = match n {
                        Ok(n) => n,
                        Err(e) => {
                            return Err(Attempt {
                                error: Error::from_io(e, Error::Io),
                                stale: !got_any,
                            })
                        }
                    };
                    if n == 0 {
                        if stream.closure_authenticated() || cfg.allow_close_without_close_notify {
                            decoder.receive_eof();
                        } else {
                            decoder.receive_unauthenticated_eof();
                        }
                    } else {
                        if !got_any {
                            ttfb = net.now_ms().saturating_sub(t_sent);
                        }
                        got_any = true;
                        buf.extend_from_slice(tmp.get(..n).unwrap_or(&[]));
                    }
                }
                Event::Closed => {
                    return Err(Attempt {
                        error: Error::HttpProtocol("the connection closed before a response"),
                        stale: !got_any,
                    })
                }
                _ => {
                    buf.drain(..consumed);
                }
            }
        }
    }
}

/// Feeds a streamed body into an HTTP/2 stream (the driver frames it as windows allow).
async fn send_h2_stream(
    h2: &H2Conn,
    id: u32,
    src: &mut dyn crate::message::BodySource,
    length: Option<u64>,
) -> Result<(), Error> {
    let mut total: u64 = 0;
    while let Some(piece) = src.next_piece().await.map_err(Error::BodySource)? {
        total = total.saturating_add(u64::try_from(piece.len()).unwrap_or(u64::MAX));
        if length.is_some_and(|n| total > n) {
            return Err(Error::BodySource(std::io::Error::other(
                "the body stream gave more than its declared length",
            )));
        }
        h2.push(id, &piece).await?;
    }
    if length.is_some_and(|n| total != n) {
        return Err(Error::BodySource(std::io::Error::other(format!(
            "the body stream gave {total} bytes, not its declared length"
        ))));
    }
    h2.finish_body(id);
    Ok(())
}

/// Writes a streamed body after the head: raw for a declared length (which must match),
/// chunked otherwise. Each write waits at most `deadlines.idle`.
async fn send_h1_stream<N: Net>(
    net: &N,
    cfg: &ClientConfig,
    clock: &Clock,
    stream: &mut Transport<N::Stream>,
    mut src: Box<dyn crate::message::BodySource>,
    kind: BodyKind,
) -> Result<(), Error> {
    let chunked = kind == BodyKind::Chunked;
    let mut total: u64 = 0;
    loop {
        let piece = src.next_piece().await.map_err(Error::BodySource)?;
        let mut out = Vec::new();
        match &piece {
            Some(p) if p.is_empty() => continue,
            Some(p) => {
                total = total.saturating_add(u64::try_from(p.len()).unwrap_or(u64::MAX));
                if let BodyKind::Length(n) = kind {
                    if total > n {
                        return Err(Error::BodySource(std::io::Error::other(format!(
                            "the body stream gave more than its declared {n} bytes"
                        ))));
                    }
                }
                if chunked {
                    burrow_h1::encode_chunk(p, &mut out);
                } else {
                    out.extend_from_slice(p);
                }
            }
            None => {
                if let BodyKind::Length(n) = kind {
                    if total != n {
                        return Err(Error::BodySource(std::io::Error::other(format!(
                            "the body stream gave {total} bytes, not its declared {n}"
                        ))));
                    }
                }
                if chunked {
                    burrow_h1::encode_last_chunk(&[], &mut out).map_err(Error::Http1)?;
                }
            }
        }
        if !out.is_empty() {
            clock
                .run(net, Phase::Idle, cfg.deadlines.idle, stream.write_all(&out))
                .await?
                .map_err(|e| Error::from_io(e, Error::Io))?;
        }
        if piece.is_none() {
            return Ok(());
        }
    }
}

/// Whether an HTTP/2 failure on a shared connection means the request was not processed:
/// refused by GOAWAY or REFUSED_STREAM, or the connection had died before it was sent.
fn h2_retryable(e: &Error) -> bool {
    match e {
        Error::H2(h) => h.is_retryable(),
        // The server closed a connection it had kept open (stale), not a protocol failure.
        Error::ConnectionFailed { code, .. } => *code == "CONNECTION_LOST",
        _ => false,
    }
}

/// The request for a redirect's target (burrow-cookies decides; RFC 9110 §15.4), `None` when
/// the response is not a redirect to follow.
fn redirect(
    req: &Request,
    history: &[url::Url],
    status: u16,
    location: Option<&str>,
    cfg: &ClientConfig,
) -> Result<Option<Request>, Error> {
    if !cfg.follow_redirects {
        return Ok(None);
    }
    let next = next_request(
        &cfg.redirect,
        history,
        &req.url,
        &req.method,
        status,
        location,
    )
    .map_err(Error::Redirect)?;
    let Some(r) = next else {
        return Ok(None);
    };
    let mut out = req.clone();
    out.url = r.url;
    out.method = r.method;
    if !r.keep_body {
        out.body = Body::Empty;
    }
    if matches!(&out.body, Body::Stream(s) if s.is_spent()) {
        return Err(Error::BodyNotReplayable);
    }
    out.headers.retain(|(n, _)| {
        let n = n.to_ascii_lowercase();
        let credential = n == "authorization" || n == "proxy-authorization";
        !((r.drop_authorization && credential)
            || (r.drop_cookie_header && n == "cookie")
            || (r.drop_body_headers && n.starts_with("content-"))
            || n == "host")
    });
    Ok(Some(out))
}

/// Whether `url` would go through the configured proxy (after no_proxy).
pub fn uses_proxy(config: &ClientConfig, url: &url::Url) -> bool {
    Origin::of(url).is_ok_and(|o| proxy_for(config, &o).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(method: &str, url: &str) -> Request {
        Request::new(method, url)
            .unwrap()
            .header("Authorization", "secret")
            .header("Content-Type", "text/plain")
            .body(b"x".to_vec())
    }

    #[test]
    fn redirects_follow_rfc9110() {
        let cfg = ClientConfig::default();
        let r = req("POST", "https://a.test/x");
        let h = [r.url.clone()];
        let n = redirect(&r, &h, 303, Some("/y"), &cfg).unwrap().unwrap();
        assert_eq!(
            (n.method.as_str(), n.url.as_str()),
            ("GET", "https://a.test/y")
        );
        assert_eq!(n.body, Body::Empty);
        assert!(n.headers.iter().any(|(k, _)| k == "Authorization"));
        assert!(!n.headers.iter().any(|(k, _)| k == "Content-Type"));
        let n = redirect(&r, &h, 307, Some("https://b.test/"), &cfg)
            .unwrap()
            .unwrap();
        assert_eq!(n.method, "POST");
        assert_eq!(n.body, Body::Bytes(b"x".to_vec()));
        assert!(!n.headers.iter().any(|(k, _)| k == "Authorization"));
        let e = redirect(&r, &h, 302, Some("http://a.test/"), &cfg).unwrap_err();
        assert_eq!(e.code(), "REDIRECT_INSECURE");
        assert!(redirect(&r, &h, 200, Some("/y"), &cfg).unwrap().is_none());
        assert!(redirect(&r, &h, 302, None, &cfg).unwrap().is_none());
        let mut off = cfg;
        off.follow_redirects = false;
        assert!(redirect(&r, &h, 302, Some("/y"), &off).unwrap().is_none());
    }
}
