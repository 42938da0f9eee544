//! `Client::websocket`: a WebSocket (RFC 6455) opened by an HTTP/1.1 Upgrade over a connection
//! made exactly as a fetch makes one (proxy, no_proxy, trust, pins, identity, session cache),
//! then driven by burrow-ws's sans-IO [`Connection`]. The nonce and every masking key come from
//! the platform's random source (`burrow_crypto::rand`).
//!
//! Differences from a fetch's connection: ALPN offers only `http/1.1`; a plain `ws://` origin
//! behind an HTTP(S) proxy is reached by CONNECT (a proxy cannot forward an Upgrade in
//! absolute-form); the connection is never pooled.

use std::future::{poll_fn, Future};
use std::pin::{pin, Pin};
use std::task::Poll;

use burrow_h1::{parse_response_head, BodyKind, Limits as H1Limits, RequestHead, Target};
use burrow_ws::{CloseCode, CloseState, Connection, Event, Handshake, MaskSource, MessageKind};

use super::Client;
use crate::connect::{connect, ConnInfo, Origin, Purpose};
use crate::deadline::{Clock, Deadline};
use crate::error::Error;
use crate::message::{Request, ResponseMeta};
use crate::net::{Net, NetStream};
use crate::proxy::host_field;
use crate::tls::TlsInfo;
use crate::transport::Transport;

/// How [`Client::websocket`] opens a WebSocket.
#[derive(Clone, Debug)]
pub struct WebSocketOptions {
    /// Subprotocols to offer (`Sec-WebSocket-Protocol`), in order of preference; each an HTTP
    /// token, each once.
    pub protocols: Vec<String>,
    /// More header fields for the Upgrade request (`Origin`, `Authorization`, cookies, ...).
    /// The handshake's own fields (`Upgrade`, `Connection`, `Sec-WebSocket-*`) and `Host` are
    /// burrow's and refused here; a `User-Agent` here replaces the client's.
    pub headers: Vec<(String, String)>,
    /// Offer permessage-deflate (RFC 7692) as browsers do (default true).
    pub deflate: bool,
    /// Message size bound, fragmentation, compression level and abuse budgets (burrow-ws).
    pub config: burrow_ws::Config,
}

impl Default for WebSocketOptions {
    fn default() -> WebSocketOptions {
        WebSocketOptions {
            protocols: Vec::new(),
            headers: Vec::new(),
            deflate: true,
            config: burrow_ws::Config::default(),
        }
    }
}

/// Request fields the handshake sets itself (RFC 6455 §4.1; WHATWG's forbidden request
/// headers for a WebSocket), refused in [`WebSocketOptions::headers`].
const OWN_FIELDS: &[&str] = &[
    "host",
    "upgrade",
    "connection",
    "sec-websocket-key",
    "sec-websocket-version",
    "sec-websocket-protocol",
    "sec-websocket-extensions",
    "sec-websocket-accept",
    "content-length",
    "transfer-encoding",
];

/// Masking keys from the platform's random source, drawn in batches. A draw that fails is
/// remembered, and whatever was masked with the stand-in key is never written
/// ([`KeyPool::check`]): masking fails closed.
struct KeyPool {
    batch: [u8; KeyPool::BATCH],
    used: usize,
    failed: bool,
}

impl KeyPool {
    /// 64 keys per call to the random source.
    const BATCH: usize = 256;

    fn new() -> KeyPool {
        KeyPool {
            batch: [0; KeyPool::BATCH],
            used: KeyPool::BATCH,
            failed: false,
        }
    }

    /// `Err(Error::Rng)` if any key since the pool was made could not be drawn.
    fn check(&self) -> Result<(), Error> {
        if self.failed {
            Err(Error::Rng)
        } else {
            Ok(())
        }
    }
}

impl MaskSource for KeyPool {
    fn mask_key(&mut self) -> [u8; 4] {
        if self.used >= KeyPool::BATCH {
            if burrow_crypto::rand::fill(&mut self.batch).is_err() {
                self.failed = true;
                return [0; 4];
            }
            self.used = 0;
        }
        let key = self
            .batch
            .get(self.used..)
            .and_then(|rest| rest.first_chunk::<4>())
            .copied()
            .unwrap_or_default();
        self.used = self.used.saturating_add(4);
        key
    }
}

/// `ws://` → `http://`, `wss://` → `https://` (http and https are taken as they are, as
/// WHATWG's `new WebSocket` takes them). A fragment is refused (WHATWG throws a SyntaxError).
fn http_url(url: &str) -> Result<url::Url, Error> {
    let mut u = url::Url::parse(url).map_err(|e| Error::BadUrl(format!("{url:?}: {e}")))?;
    let scheme = match u.scheme() {
        "ws" | "http" => "http",
        "wss" | "https" => "https",
        other => {
            return Err(Error::BadUrl(format!(
                "scheme {other:?} is not a WebSocket scheme (ws or wss)"
            )))
        }
    };
    if u.fragment().is_some() {
        return Err(Error::BadUrl(format!(
            "{url:?}: a WebSocket URL has no fragment (#...)"
        )));
    }
    // Both are special schemes, so the change is allowed; it cannot fail.
    let _ = u.set_scheme(scheme);
    Ok(u)
}

impl<N: Net> Client<N> {
    /// Opens a WebSocket to `url` (`ws://` or `wss://`): a connection made as a fetch makes one
    /// (the same proxy and no_proxy, trust, pins, TLS profile and session cache; ALPN
    /// `http/1.1` only), a `GET` with the handshake's fields, `Host`, the client's
    /// `User-Agent` and cookies (when its jar is on) and `options.headers`, and the 101 response
    /// checked by burrow-ws. Opening runs under the connect, proxy, TLS and headers deadlines
    /// and the total one; the open WebSocket has no deadline but the idle one while closing.
    ///
    /// A server that answers anything but 101 fails with `WS_HANDSHAKE_STATUS` (the status in
    /// [`burrow_ws::Kind::NotSwitchingProtocols`]); a 101 that is not a valid WebSocket
    /// handshake with `WS_HANDSHAKE`.
    pub async fn websocket(
        &self,
        url: &str,
        options: WebSocketOptions,
    ) -> Result<WebSocket<N>, Error> {
        let url = http_url(url)?;
        let origin = Origin::of(&url)?;
        if let Some((n, _)) = options
            .headers
            .iter()
            .find(|(n, _)| OWN_FIELDS.iter().any(|o| n.eq_ignore_ascii_case(o)))
        {
            return Err(Error::BadRequest(own_field_message(n)));
        }
        let mut nonce = [0u8; 16];
        burrow_crypto::rand::fill(&mut nonce).map_err(|_| Error::Rng)?;
        let offer = options.deflate.then(burrow_ws::DeflateOffer::default);
        let handshake = Handshake::new(nonce)
            .with_protocols(&options.protocols)
            .and_then(|h| h.with_deflate(offer))
            .map_err(Error::WebSocket)?;
        let net = &self.inner.net;
        let cfg = &self.inner.config;
        let start = net.now_ms();
        let clock = Clock {
            total_ends_ms: cfg
                .deadlines
                .total
                .map(|d| start.saturating_add(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))),
        };
        // Counted with the fetches waiting for their heads (a Worker's six).
        let _slot = self.inner.heads.acquire().await;
        let purpose = Purpose {
            http1_only: true,
            tunnel: true,
        };
        let connected = connect(
            net,
            cfg,
            &origin,
            &clock,
            &self.inner.sessions,
            &self.inner.scope,
            purpose,
        )
        .await?;
        let mut stream = connected.stream;
        let mut info = connected.info;

        let now_s = i64::try_from(net.now_ms() / 1000).unwrap_or(i64::MAX);
        let mut for_jar = Request::get(url.as_str())?;
        for_jar.headers.clone_from(&options.headers);
        let cookie = self.jar_header(&for_jar, now_s);
        let path = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        };
        let authority = host_field(&origin.host, url.port().map(|_| origin.port));
        let mut head = RequestHead::new("GET", Target::Origin(&path), &authority);
        let fields = handshake.request_fields();
        for (n, v) in &fields {
            head = head.header(n, v);
        }
        let has_ua = options
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("user-agent"));
        if let (Some(ua), false) = (cfg.user_agent.as_deref(), has_ua) {
            head = head.header("User-Agent", ua);
        }
        for (n, v) in &options.headers {
            head = head.header(n, v);
        }
        if let Some(c) = cookie.as_deref() {
            head = head.header("Cookie", c);
        }
        let mut wire = Vec::new();
        head.encode(BodyKind::None, &mut wire)
            .map_err(Error::Http1)?;
        let headers_deadline = cfg.deadlines.headers;
        clock
            .run(
                net,
                Deadline::Headers,
                headers_deadline,
                pin!(stream.write_all(&wire)),
            )
            .await?
            .map_err(|e| Error::from_io(e, Error::Io))?;
        let t_sent = net.now_ms();
        let read = read_head(net, &clock, headers_deadline, &mut stream);
        let (response, rest) = clock
            .run(net, Deadline::Headers, headers_deadline, pin!(read))
            .await??;
        info.timings.ttfb = net.now_ms().saturating_sub(t_sent);
        info.timings.total = net.now_ms().saturating_sub(start);
        let headers = response.fields_lossy();
        self.store_cookies(&url, &headers, now_s);
        let accepted = handshake
            .check_response(response.status, response.headers.iter())
            .map_err(Error::WebSocket)?;
        let mut conn = Connection::new(options.config, accepted.deflate);
        // Frames right behind the head are the connection's; an error in them is reported by
        // the first `recv`, after the events before it.
        let _ = conn.handle_input(&rest);
        let extensions = headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("sec-websocket-extensions"))
            .map(|(_, v)| v.trim())
            .collect::<Vec<_>>()
            .join(", ");
        Ok(WebSocket {
            client: self.clone(),
            meta: meta(info, &wire, &response),
            headers,
            protocol: accepted.protocol,
            extensions,
            stream,
            conn,
            keys: KeyPool::new(),
            state: State::Open,
        })
    }
}

fn own_field_message(name: &str) -> &'static str {
    if name.eq_ignore_ascii_case("host") {
        "the WebSocket's Host comes from its URL; drop Host from the WebSocket's headers"
    } else {
        "the WebSocket handshake sets Upgrade, Connection, Sec-WebSocket-* and the body framing \
         itself; drop them from the WebSocket's headers (offer subprotocols with its protocols)"
    }
}

/// What is known about the 101 response, as a fetch reports it.
fn meta(info: ConnInfo, wire: &[u8], head: &burrow_h1::ResponseHead) -> ResponseMeta {
    let end = wire
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(wire.len());
    ResponseMeta {
        tls: info.tls,
        proxy_tls: info.proxy_tls,
        proxied: info.proxied,
        http_version: "HTTP/1.1",
        reason: String::from_utf8_lossy(&head.reason).into_owned(),
        timings: info.timings,
        request_head: String::from_utf8_lossy(wire.get(..end).unwrap_or_default())
            .split("\r\n")
            .map(str::to_string)
            .collect(),
        ..ResponseMeta::default()
    }
}

/// Reads until the response head is parsed; the bytes after it are returned with it.
async fn read_head<N: Net>(
    net: &N,
    clock: &Clock,
    limit: Option<std::time::Duration>,
    stream: &mut Transport<N::Stream>,
) -> Result<(burrow_h1::ResponseHead, Vec<u8>), Error> {
    let limits = H1Limits::default();
    let mut buf: Vec<u8> = Vec::new();
    loop {
        if let Some((head, used)) = parse_response_head(&buf, &limits).map_err(Error::Http1)? {
            buf.drain(..used.min(buf.len()));
            return Ok((head, buf));
        }
        let data = clock
            .run(net, Deadline::Headers, limit, pin!(stream.fill_buf()))
            .await?
            .map_err(|e| Error::from_io(e, Error::Io))?;
        let n = data.len();
        buf.extend_from_slice(data);
        stream.consume(n);
        if n == 0 {
            return Err(Error::HttpProtocol(
                "the connection closed before the WebSocket handshake's response",
            ));
        }
    }
}

/// What [`WebSocket::recv_unless`] got.
#[derive(Debug)]
pub enum Received {
    /// The next event, as [`WebSocket::recv`] gives it.
    Event(Event),
    /// The interrupt completed while waiting for the server: nothing was lost.
    Interrupted,
    /// The WebSocket has closed (`recv`'s `None`).
    Done,
}

/// Where the transport stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Reading and writing.
    Open,
    /// The closing handshake is complete or the connection failed: the transport is closed and
    /// `recv` has nothing more.
    Done,
}

/// An open WebSocket ([`Client::websocket`]): send with [`send_text`](Self::send_text),
/// [`send_binary`](Self::send_binary), [`ping`](Self::ping); receive with
/// [`recv`](Self::recv), which also answers the server's Pings and completes the closing
/// handshake; close with [`close`](Self::close) and then `recv` until `None`.
///
/// Pings are answered while `recv` runs: a caller that stops calling it stops answering.
pub struct WebSocket<N: Net> {
    client: Client<N>,
    meta: ResponseMeta,
    headers: Vec<(String, String)>,
    protocol: Option<String>,
    extensions: String,
    stream: Transport<N::Stream>,
    conn: Connection,
    keys: KeyPool,
    state: State,
}

impl<N: Net> core::fmt::Debug for WebSocket<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("WebSocket")
            .field("protocol", &self.protocol)
            .field("extensions", &self.extensions)
            .field("conn", &self.conn)
            .finish_non_exhaustive()
    }
}

impl<N: Net> WebSocket<N> {
    /// The subprotocol the server selected (`None`: none, even if some were offered; the
    /// caller decides whether that will do, as browsers let it).
    pub fn protocol(&self) -> Option<&str> {
        self.protocol.as_deref()
    }

    /// The extensions the server accepted, as it named them (`Sec-WebSocket-Extensions`;
    /// empty for none): WHATWG's `WebSocket.extensions`.
    pub fn extensions(&self) -> &str {
        &self.extensions
    }

    /// The agreed permessage-deflate parameters.
    pub fn deflate(&self) -> Option<burrow_ws::DeflateParams> {
        self.conn.deflate()
    }

    /// The 101 response's header fields.
    pub fn response_headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// How the connection was made: TLS, proxy, timings, the Upgrade request as sent.
    pub fn meta(&self) -> &ResponseMeta {
        &self.meta
    }

    /// The origin's TLS session (`None` for `ws://`).
    pub fn tls(&self) -> Option<&TlsInfo> {
        self.meta.tls.as_ref()
    }

    /// Where the closing handshake stands.
    pub fn close_state(&self) -> CloseState {
        self.conn.close_state()
    }

    /// Sends a text message.
    pub async fn send_text(&mut self, text: &str) -> Result<(), Error> {
        self.send(MessageKind::Text, text.as_bytes()).await
    }

    /// Sends a binary message.
    pub async fn send_binary(&mut self, data: &[u8]) -> Result<(), Error> {
        self.send(MessageKind::Binary, data).await
    }

    /// Sends a message of `kind`.
    pub async fn send(&mut self, kind: MessageKind, data: &[u8]) -> Result<(), Error> {
        self.conn
            .send(kind, data, &mut self.keys)
            .map_err(Error::WebSocket)?;
        self.flush().await
    }

    /// Sends a Ping (at most 125 bytes); its Pong comes from [`recv`](Self::recv).
    pub async fn ping(&mut self, payload: &[u8]) -> Result<(), Error> {
        self.conn
            .ping(payload, &mut self.keys)
            .map_err(Error::WebSocket)?;
        self.flush().await
    }

    /// Starts the closing handshake: a Close with `code` (`None`: an empty Close, reported as
    /// 1005 by the server) and a UTF-8 `reason` of at most 123 bytes. Nothing may be sent
    /// afterwards; [`recv`](Self::recv) still hands out messages until the server's Close,
    /// then `None`.
    pub async fn close(&mut self, code: Option<u16>, reason: &str) -> Result<(), Error> {
        self.conn
            .close(code.map(CloseCode), reason, &mut self.keys)
            .map_err(Error::WebSocket)?;
        self.flush().await
    }

    /// The next event: a whole message (reassembled, decompressed), a Pong, a Ping (already
    /// answered), or the server's Close (the closing handshake is then complete and the
    /// transport closed). `None` once the WebSocket has closed. A protocol violation by the
    /// server fails with burrow-ws's code (`WS_PROTOCOL`, `WS_MESSAGE_TOO_BIG`, ...) after the
    /// Close naming it was sent; a transport ending without a Close with `WS_ABNORMAL_CLOSURE`.
    pub async fn recv(&mut self) -> Result<Option<Event>, Error> {
        loop {
            if let Some(ev) = self.conn.poll_event() {
                if let Event::Close(_) = &ev {
                    self.finish().await;
                }
                return Ok(Some(ev));
            }
            if self.state == State::Done {
                return Ok(None);
            }
            // The Pong, our Close reply, or the Close naming an error go out first.
            self.flush().await?;
            if let Some(e) = self.conn.error() {
                self.shut().await;
                return Err(Error::WebSocket(e));
            }
            self.read_some().await?;
        }
    }

    /// [`recv`](Self::recv) for a driver that also sends: when `interrupt` completes while
    /// waiting for the server, the wait ends with [`Received::Interrupted`] (the dropped read
    /// loses nothing: the transports' reads are cancel-safe, and nothing is cut mid-write,
    /// since writes are never raced). `interrupt` is polled again at every wait, so it should
    /// be a "something is queued" check, not a one-shot.
    pub async fn recv_unless(
        &mut self,
        mut interrupt: Pin<&mut dyn Future<Output = ()>>,
    ) -> Result<Received, Error> {
        loop {
            if let Some(ev) = self.conn.poll_event() {
                if let Event::Close(_) = &ev {
                    self.finish().await;
                }
                return Ok(Received::Event(ev));
            }
            if self.state == State::Done {
                return Ok(Received::Done);
            }
            self.flush().await?;
            if let Some(e) = self.conn.error() {
                self.shut().await;
                return Err(Error::WebSocket(e));
            }
            if !self.read_some_unless(Some(interrupt.as_mut())).await? {
                return Ok(Received::Interrupted);
            }
        }
    }

    /// One transport read fed to the connection (an error in it is reported by `recv` after
    /// the events before it). Waits without limit while open, under the idle deadline once
    /// our Close is out.
    async fn read_some(&mut self) -> Result<(), Error> {
        self.read_some_unless(None).await.map(|_| ())
    }

    /// [`read_some`](Self::read_some), given up for `interrupt` (then `Ok(false)`).
    async fn read_some_unless(
        &mut self,
        mut interrupt: Option<Pin<&mut dyn Future<Output = ()>>>,
    ) -> Result<bool, Error> {
        let idle = match self.conn.close_state() {
            CloseState::Open => None,
            _ => self.client.inner.config.deadlines.idle,
        };
        let net = &self.client.inner.net;
        let clock = Clock {
            total_ends_ms: None,
        };
        let read = {
            let fill = pin!(self.stream.fill_buf());
            let mut read = pin!(clock.run(net, Deadline::Idle, idle, fill));
            poll_fn(|cx| {
                if let Some(i) = interrupt.as_mut() {
                    if i.as_mut().poll(cx).is_ready() {
                        return Poll::Ready(None);
                    }
                }
                read.as_mut().poll(cx).map(Some)
            })
            .await
        };
        let Some(read) = read else {
            return Ok(false);
        };
        let data = match read {
            Ok(Ok(d)) => d,
            Ok(Err(e)) => {
                let e = Error::from_io(e, Error::Io);
                self.shut().await;
                return Err(e);
            }
            Err(timeout) => {
                self.shut().await;
                return Err(timeout);
            }
        };
        let n = data.len();
        if n == 0 {
            // Clean only after the server's Close; otherwise 1006, reported at the loop's top.
            let _ = self.conn.handle_eof();
            if self.conn.error().is_none() {
                self.shut().await;
            }
            return Ok(true);
        }
        let _ = self.conn.handle_input(data);
        self.stream.consume(n);
        Ok(true)
    }

    /// Writes what the connection has to send (under the idle deadline); a failure closes
    /// the transport.
    async fn flush(&mut self) -> Result<(), Error> {
        if self.state == State::Done || !self.conn.wants_transmit() {
            return Ok(());
        }
        let out = self.conn.take_transmit(&mut self.keys);
        if let Err(e) = self.keys.check() {
            self.shut().await;
            return Err(e);
        }
        let net = &self.client.inner.net;
        let idle = self.client.inner.config.deadlines.idle;
        let clock = Clock {
            total_ends_ms: None,
        };
        let written = clock
            .run(net, Deadline::Idle, idle, pin!(self.stream.write_all(&out)))
            .await
            .and_then(|r| r.map_err(|e| Error::from_io(e, Error::Io)));
        if let Err(e) = written {
            self.shut().await;
            return Err(e);
        }
        Ok(())
    }

    /// After the server's Close: our reply out, then the server ends TCP first (§7.1.1), which
    /// is waited for under the idle deadline; then the transport is closed.
    async fn finish(&mut self) {
        if self.flush().await.is_err() {
            return;
        }
        while self.state == State::Open {
            if self.read_some().await.is_err() {
                return;
            }
        }
    }

    /// Closes the transport (once).
    async fn shut(&mut self) {
        if self.state == State::Done {
            return;
        }
        self.state = State::Done;
        self.stream.farewell();
        let _ = self.stream.close().await;
    }
}
