//! burrow-client over TLS in memory: every connection is a stack of scripted peers (the
//! scripted TLS 1.3 server, an HTTP proxy's CONNECT, an HTTP/1.1 or HTTP/2 server), so https
//! origins, CONNECT tunnels and HTTPS proxies (TLS inside TLS) run end to end without sockets.
//! The same peers without TLS drive the plain-http paths that need a server answering what
//! was asked (proxies' refusals, cookies, request fields, the pending-heads queue).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation,
    clippy::field_reassign_with_default
)]

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use burrow_client::{
    Client, ClientConfig, Error, Net, NetStream, Proxy, ProxyScheme, Request, TlsSettings, Trust,
};
use burrow_testkit::h2::frame;
use burrow_testkit::tls13_server::{ServerConfig, ServerError, Tls13Server};

/// One layer of a scripted server: bytes in from the client, bytes out to it.
trait Peer {
    fn input(&mut self, bytes: &[u8]);
    fn output(&mut self) -> Vec<u8>;
    /// The peer has hung up (after its output is read, the stream ends).
    fn closed(&self) -> bool {
        false
    }
}

/// What the scripted HTTP/1.1 server saw.
#[derive(Clone, Default)]
struct Seen(Rc<RefCell<Vec<Vec<u8>>>>);

impl Seen {
    fn text(&self, i: usize) -> String {
        String::from_utf8(self.0.borrow()[i].clone()).unwrap()
    }
    fn len(&self) -> usize {
        self.0.borrow().len()
    }
}

/// An HTTP/1.1 server: answers each whole request (head, and a Content-Length body) with the
/// next response; hangs up after the last one when `hang_up`.
struct Http1 {
    buf: Vec<u8>,
    responses: VecDeque<Vec<u8>>,
    out: Vec<u8>,
    seen: Seen,
    hang_up: bool,
}

fn http1(responses: &[&[u8]], seen: &Seen) -> Http1 {
    Http1 {
        buf: Vec::new(),
        responses: responses.iter().map(|r| r.to_vec()).collect(),
        out: Vec::new(),
        seen: seen.clone(),
        hang_up: false,
    }
}

impl Peer for Http1 {
    fn input(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
        while let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&self.buf[..end]).to_ascii_lowercase();
            let body_len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(0, |v| v.trim().parse::<usize>().unwrap());
            let total = end + 4 + body_len;
            if self.buf.len() < total {
                return;
            }
            let request: Vec<u8> = self.buf.drain(..total).collect();
            self.seen.0.borrow_mut().push(request);
            if let Some(r) = self.responses.pop_front() {
                self.out.extend(r);
            }
        }
    }
    fn output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }
    fn closed(&self) -> bool {
        self.hang_up && self.responses.is_empty() && self.out.is_empty()
    }
}

/// A server that sends `reply` once the client has sent anything (an HTTP/2 server whose
/// answer does not depend on the request's bytes).
struct Eager {
    reply: Option<Vec<u8>>,
    out: Vec<u8>,
    received: Rc<RefCell<Vec<u8>>>,
}

impl Peer for Eager {
    fn input(&mut self, bytes: &[u8]) {
        self.received.borrow_mut().extend_from_slice(bytes);
        if let Some(r) = self.reply.take() {
            self.out = r;
        }
    }
    fn output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }
}

/// Hangs up at once (a server that closes before the TLS handshake).
struct HangUp;

impl Peer for HangUp {
    fn input(&mut self, _bytes: &[u8]) {}
    fn output(&mut self) -> Vec<u8> {
        Vec::new()
    }
    fn closed(&self) -> bool {
        true
    }
}

/// The server side of TLS 1.3 (the scripted server) with `inner` as its application.
struct Tls {
    server: Tls13Server,
    inner: Box<dyn Peer>,
    /// Why the server refused the client's bytes (an alert the client sent, ...).
    refused: Rc<RefCell<Option<ServerError>>>,
    /// The server received the client's close_notify.
    close_notify: Rc<Cell<bool>>,
    /// Ends with close_notify once the inner peer hangs up (else a bare close).
    notify_on_hang_up: bool,
    notified: bool,
}

impl Tls {
    fn new(host: &str, alpn: &[&[u8]], inner: impl Peer + 'static) -> Tls {
        let mut config = ServerConfig::new(host);
        config.alpn = alpn.iter().map(|a| a.to_vec()).collect();
        Tls {
            server: Tls13Server::new(config),
            inner: Box::new(inner),
            refused: Rc::default(),
            close_notify: Rc::default(),
            notify_on_hang_up: false,
            notified: false,
        }
    }
}

impl Peer for Tls {
    fn input(&mut self, bytes: &[u8]) {
        if self.refused.borrow().is_some() {
            return;
        }
        if let Err(e) = self.server.receive(bytes) {
            *self.refused.borrow_mut() = Some(e);
            return;
        }
        self.close_notify.set(self.server.received_close_notify());
        let app = self.server.take_received();
        if !app.is_empty() {
            self.inner.input(&app);
        }
    }
    fn output(&mut self) -> Vec<u8> {
        let app = self.inner.output();
        if !app.is_empty() {
            self.server.send(&app).unwrap();
        }
        if self.notify_on_hang_up && self.inner.closed() && !self.notified {
            self.notified = true;
            self.server.send_close_notify().unwrap();
        }
        self.server.take_output()
    }
    fn closed(&self) -> bool {
        self.refused.borrow().is_some() || self.inner.closed()
    }
}

/// An HTTP proxy's side of CONNECT: takes the request head, answers `reply`, then tunnels to
/// `inner`.
struct Connect {
    head: Rc<RefCell<Vec<u8>>>,
    reply: Vec<u8>,
    replied: bool,
    inner: Box<dyn Peer>,
}

fn connect(reply: &[u8], head: &Rc<RefCell<Vec<u8>>>, inner: impl Peer + 'static) -> Connect {
    Connect {
        head: Rc::clone(head),
        reply: reply.to_vec(),
        replied: false,
        inner: Box::new(inner),
    }
}

impl Peer for Connect {
    fn input(&mut self, bytes: &[u8]) {
        if self.replied {
            return self.inner.input(bytes);
        }
        let mut head = self.head.borrow_mut();
        head.extend_from_slice(bytes);
        if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = head.split_off(end + 4);
            drop(head);
            self.replied = true;
            if !rest.is_empty() {
                self.inner.input(&rest);
            }
        }
    }
    fn output(&mut self) -> Vec<u8> {
        if !self.replied {
            return Vec::new();
        }
        let mut out = std::mem::take(&mut self.reply);
        out.extend(self.inner.output());
        out
    }
    fn closed(&self) -> bool {
        self.replied && self.reply.is_empty() && self.inner.closed()
    }
}

struct MemStream {
    peer: Box<dyn Peer>,
    pending: Vec<u8>,
    closes: Rc<Cell<usize>>,
}

impl NetStream for MemStream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        std::future::poll_fn(|_| {
            if self.pending.is_empty() {
                self.pending = self.peer.output();
            }
            if !self.pending.is_empty() {
                let n = self.pending.len().min(buf.len());
                buf[..n].copy_from_slice(&self.pending[..n]);
                self.pending.drain(..n);
                return Poll::Ready(Ok(n));
            }
            if self.peer.closed() {
                return Poll::Ready(Ok(0));
            }
            // Nothing yet: `drive` polls again after the other tasks ran.
            Poll::Pending
        })
        .await
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.peer.input(buf);
        Ok(())
    }

    async fn close(&mut self) -> io::Result<()> {
        self.closes.set(self.closes.get() + 1);
        Ok(())
    }
}

type Task = Pin<Box<dyn Future<Output = ()>>>;

#[derive(Clone, Default)]
struct MemNet {
    peers: Rc<RefCell<VecDeque<Box<dyn Peer>>>>,
    connects: Rc<RefCell<Vec<(String, u16)>>>,
    closes: Rc<Cell<usize>>,
    tasks: Rc<RefCell<Vec<Task>>>,
    /// Name lookups find no address.
    no_addresses: bool,
}

impl MemNet {
    fn with(peers: Vec<Box<dyn Peer>>) -> MemNet {
        MemNet {
            peers: Rc::new(RefCell::new(peers.into())),
            ..MemNet::default()
        }
    }
}

impl Net for MemNet {
    type Stream = MemStream;

    async fn connect(&self, host: &str, port: u16) -> io::Result<MemStream> {
        self.connects.borrow_mut().push((host.to_string(), port));
        let peer = self.peers.borrow_mut().pop_front().ok_or_else(|| {
            io::Error::new(io::ErrorKind::ConnectionRefused, "no scripted peer left")
        })?;
        Ok(MemStream {
            peer,
            pending: Vec::new(),
            closes: Rc::clone(&self.closes),
        })
    }

    async fn sleep(&self, _d: Duration) {
        std::future::pending::<()>().await;
    }

    fn now_ms(&self) -> u64 {
        1_700_000_000_000
    }

    fn spawn(&self, task: Task) {
        self.tasks.borrow_mut().push(task);
    }

    async fn resolve(&self, _host: &str) -> io::Result<Vec<IpAddr>> {
        if self.no_addresses {
            return Ok(Vec::new());
        }
        Ok(vec![IpAddr::from([192, 0, 2, 9])])
    }
}

/// Polls `f` and the background tasks in turns until `f` is done.
fn drive<F: Future>(net: &MemNet, f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..10_000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        run_tasks(net, &mut cx);
    }
    panic!("the future never finished");
}

fn run_tasks(net: &MemNet, cx: &mut Context<'_>) {
    let mut tasks: Vec<_> = net.tasks.borrow_mut().drain(..).collect();
    tasks.retain_mut(|t| t.as_mut().poll(cx).is_pending());
    net.tasks.borrow_mut().extend(tasks);
}

/// TLS settings that accept the scripted server's self-signed certificate.
fn insecure() -> TlsSettings {
    TlsSettings {
        trust: Trust::InsecureAcceptAnyCertificate,
        request_staple: false,
        ..TlsSettings::default()
    }
}

fn config() -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.tls = insecure();
    cfg.proxy_tls = insecure();
    cfg
}

const OK: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";

fn get(net: &MemNet, cfg: ClientConfig, url: &str) -> Result<(u16, Vec<u8>), Error> {
    let c = Client::new(net.clone(), cfg);
    drive(net, async {
        let mut r = c.fetch(Request::get(url)?).await?;
        let body = r.bytes().await?;
        Ok((r.status, body))
    })
}

#[test]
fn https_over_http1_reuses_its_tls_connection() {
    let seen = Seen::default();
    let tls = Tls::new(
        "origin.test",
        &[b"h2", b"http/1.1"],
        http1(&[OK, OK], &seen),
    );
    let close_notify = Rc::clone(&tls.close_notify);
    let net = MemNet::with(vec![Box::new(tls)]);
    let mut cfg = config();
    // HTTP/1.1 only: h2 is not offered, so the server (which prefers h2) picks http/1.1.
    cfg.http1_only = true;
    let c = Client::new(net.clone(), cfg);
    drive(&net, async {
        for i in 0..2 {
            let mut r = c
                .fetch(Request::get("https://origin.test/p").unwrap())
                .await
                .unwrap();
            assert_eq!(r.status, 200);
            assert_eq!(r.meta.http_version, "HTTP/1.1");
            assert_eq!(r.meta.reused, i == 1);
            let tls = r.meta.tls.clone().unwrap();
            assert_eq!((tls.version, tls.cipher_suite), (0x0304, 0x1301));
            assert_eq!(tls.alpn.as_deref(), Some("http/1.1"));
            assert_eq!(tls.peer_chain.len(), 1);
            assert_eq!(tls.peer_chain[0].subject_text(), "CN=origin.test");
            assert_eq!(tls.peer_chain[0].issuer_text(), "CN=origin.test");
            assert!(tls.certificate.unwrap().insecure);
            assert_eq!(r.bytes().await.unwrap(), b"hello");
        }
    });
    assert_eq!(
        net.connects.borrow().as_slice(),
        [("origin.test".into(), 443)]
    );
    assert_eq!(seen.len(), 2);
    assert!(seen
        .text(1)
        .starts_with("GET /p HTTP/1.1\r\nHost: origin.test\r\n"));
    assert!(!close_notify.get());
}

#[test]
fn https_negotiates_h2_by_alpn() {
    let mut reply = frame(4, 0, 0, &[]);
    reply.extend(frame(4, 1, 0, &[]));
    reply.extend(frame(1, 0x4, 1, &[0x88]));
    reply.extend(frame(0, 0x1, 1, b"hello"));
    let received = Rc::default();
    let h2 = Eager {
        reply: Some(reply),
        out: Vec::new(),
        received: Rc::clone(&received),
    };
    let net = MemNet::with(vec![Box::new(Tls::new(
        "origin.test",
        &[b"h2", b"http/1.1"],
        h2,
    ))]);
    let c = Client::new(net.clone(), config());
    drive(&net, async {
        let mut r = c
            .fetch(Request::get("https://origin.test/x").unwrap())
            .await
            .unwrap();
        assert_eq!((r.status, r.meta.http_version), (200, "HTTP/2"));
        assert_eq!(r.meta.tls.as_ref().unwrap().alpn.as_deref(), Some("h2"));
        assert_eq!(r.bytes().await.unwrap(), b"hello");
    });
    assert!(received.borrow().starts_with(burrow_testkit::h2::PREFACE));
}

#[test]
fn https_through_an_http_connect_tunnel() {
    let head = Rc::default();
    let seen = Seen::default();
    let origin = Tls::new("origin.test", &[b"http/1.1"], http1(&[OK], &seen));
    let proxy = connect(
        b"HTTP/1.1 200 Connection established\r\n\r\n",
        &head,
        origin,
    );
    let net = MemNet::with(vec![Box::new(proxy)]);
    let mut cfg = config();
    cfg.proxy = Some(Proxy::parse("http://u:p@proxy.test:3128").unwrap());
    let c = Client::new(net.clone(), cfg);
    drive(&net, async {
        let mut r = c
            .fetch(Request::get("https://origin.test:8443/t").unwrap())
            .await
            .unwrap();
        assert_eq!(r.meta.proxied, Some(ProxyScheme::Http));
        assert_eq!(r.meta.proxy_tls, None);
        assert_eq!(
            r.meta.tls.as_ref().unwrap().alpn.as_deref(),
            Some("http/1.1")
        );
        assert_eq!(r.bytes().await.unwrap(), b"hello");
    });
    assert_eq!(
        net.connects.borrow().as_slice(),
        [("proxy.test".into(), 3128)]
    );
    let head = String::from_utf8(head.borrow().clone()).unwrap();
    assert!(
        head.starts_with("CONNECT origin.test:8443 HTTP/1.1\r\n"),
        "{head}"
    );
    assert!(
        head.contains("Proxy-Authorization: Basic dTpw\r\n"),
        "{head}"
    );
    // Inside the tunnel: origin-form, no proxy credentials.
    let req = seen.text(0);
    assert!(
        req.starts_with("GET /t HTTP/1.1\r\nHost: origin.test:8443\r\n"),
        "{req}"
    );
    assert!(!req.contains("Proxy-Authorization"), "{req}");
}

#[test]
fn bytes_after_the_connect_reply_are_the_tunnels_first() {
    // The tunnel's first bytes arrive with the reply: a TLS fatal alert
    // (handshake_failure), which the client's TLS must read before anything else.
    let head = Rc::default();
    let proxy = connect(
        b"HTTP/1.1 200 OK\r\n\r\n\x15\x03\x03\x00\x02\x02\x28",
        &head,
        HangUp,
    );
    let net = MemNet::with(vec![Box::new(proxy)]);
    let mut cfg = config();
    cfg.proxy = Some(Proxy::parse("http://proxy.test:3128").unwrap());
    let e = get(&net, cfg, "https://origin.test/").unwrap_err();
    assert_eq!(
        e.to_string(),
        "TLS_ALERT: TLS failed: the server sent fatal alert 40"
    );
    assert_eq!(e.phase(), burrow_client::Phase::Tls);
}

/// An HTTPS proxy (TLS to `proxy.test`) whose plaintext is `inner`.
fn https_proxy(inner: impl Peer + 'static) -> Tls {
    Tls::new("proxy.test", &[], inner)
}

#[test]
fn https_through_an_https_proxy_is_tls_inside_tls() {
    let head = Rc::default();
    let seen = Seen::default();
    let origin = Tls::new("origin.test", &[b"h2", b"http/1.1"], http1(&[OK], &seen));
    let proxy = https_proxy(connect(b"HTTP/1.1 200 OK\r\n\r\n", &head, origin));
    let net = MemNet::with(vec![Box::new(proxy)]);
    let mut cfg = config();
    cfg.http1_only = true;
    cfg.proxy = Some(Proxy::parse("https://proxy.test:8443").unwrap());
    let c = Client::new(net.clone(), cfg);
    drive(&net, async {
        let mut r = c
            .fetch(Request::get("https://origin.test/in").unwrap())
            .await
            .unwrap();
        assert_eq!(r.meta.proxied, Some(ProxyScheme::Https));
        let outer = r.meta.proxy_tls.clone().unwrap();
        assert_eq!(outer.peer_chain[0].subject_text(), "CN=proxy.test");
        assert_eq!(outer.alpn, None);
        let inner = r.meta.tls.clone().unwrap();
        assert_eq!(inner.peer_chain[0].subject_text(), "CN=origin.test");
        assert_eq!(r.bytes().await.unwrap(), b"hello");
    });
    let head = String::from_utf8(head.borrow().clone()).unwrap();
    assert!(
        head.starts_with("CONNECT origin.test:443 HTTP/1.1\r\n"),
        "{head}"
    );
    assert!(seen.text(0).starts_with("GET /in HTTP/1.1\r\n"));
}

#[test]
fn http_through_an_https_proxy_is_absolute_form_inside_its_tls() {
    let seen = Seen::default();
    let proxy = https_proxy(http1(&[OK], &seen));
    let net = MemNet::with(vec![Box::new(proxy)]);
    let mut cfg = config();
    cfg.proxy = Some(Proxy::parse("https://u:p@proxy.test").unwrap());
    cfg.proxy_connection = burrow_client::ProxyConnectionHeader::Close;
    let c = Client::new(net.clone(), cfg);
    drive(&net, async {
        let mut r = c
            .fetch(Request::get("http://a.test/x?q").unwrap())
            .await
            .unwrap();
        assert_eq!(r.meta.proxied, Some(ProxyScheme::Https));
        assert!(r.meta.proxy_tls.is_some());
        assert_eq!(r.meta.tls, None);
        assert_eq!(r.bytes().await.unwrap(), b"hello");
    });
    assert_eq!(
        net.connects.borrow().as_slice(),
        [("proxy.test".into(), 443)]
    );
    let req = seen.text(0);
    assert!(
        req.starts_with("GET http://a.test/x?q HTTP/1.1\r\n"),
        "{req}"
    );
    assert!(req.contains("Proxy-Authorization: Basic dTpw\r\n"), "{req}");
    assert!(req.contains("Proxy-Connection: close\r\n"), "{req}");
}

/// Trust in exactly the scripted server's self-signed certificate for `host`.
fn anchored(host: &str) -> Trust {
    let server = Tls13Server::new(ServerConfig::new(host));
    Trust::AnchorsPem(vec![burrow_testkit::pem::certificate(
        server.certificate_der(),
    )])
}

#[test]
fn a_rejected_certificate_names_its_hop_and_the_alert_goes_out() {
    // The scripted server's certificate is self-signed and not a CA: as an anchor for
    // itself it is refused (x509's words, no setting to name), and the server hears why.
    let tls = Tls::new(
        "origin.test",
        &[b"http/1.1"],
        http1(&[OK], &Seen::default()),
    );
    let refused = Rc::clone(&tls.refused);
    let net = MemNet::with(vec![Box::new(tls)]);
    let mut cfg = config();
    cfg.tls.trust = anchored("origin.test");
    let e = get(&net, cfg, "https://origin.test/").unwrap_err();
    assert!(matches!(e, Error::Certificate(_)), "{e:?}");
    assert_eq!(e.code(), "CERT_ISSUER_NOT_CA", "{e}");
    assert_eq!(e.class(), burrow_client::Class::Certificate);
    let x509 = burrow_x509::Error::IssuerNotCa.to_string();
    assert_eq!(
        e.to_string(),
        format!("CERT_ISSUER_NOT_CA: the server's certificate was rejected: {x509}")
    );
    // bad_certificate (42).
    assert_eq!(*refused.borrow(), Some(ServerError::Alert(42)));

    // The same of an HTTPS proxy: the proxy's TLS failed, nothing reached the origin.
    let proxy = https_proxy(HangUp);
    let refused = Rc::clone(&proxy.refused);
    let net = MemNet::with(vec![Box::new(proxy)]);
    let mut cfg = config();
    cfg.proxy = Some(Proxy::parse("https://proxy.test:8443").unwrap());
    cfg.proxy_tls.trust = anchored("proxy.test");
    let e = get(&net, cfg, "https://origin.test/").unwrap_err();
    assert!(matches!(&e, Error::ProxyTls(inner) if matches!(**inner, Error::Certificate(_))));
    assert_eq!(e.code(), "CERT_ISSUER_NOT_CA", "{e}");
    assert_eq!(e.phase(), burrow_client::Phase::Tls);
    assert_eq!(
        e.to_string(),
        format!(
            "the HTTPS proxy's TLS connection: CERT_ISSUER_NOT_CA: the proxy's certificate was \
             rejected: {x509}"
        )
    );
    assert_eq!(*refused.borrow(), Some(ServerError::Alert(42)));
    assert_eq!(net.connects.borrow().len(), 1);
}

#[test]
fn a_server_that_hangs_up_during_the_handshake_is_a_protocol_error() {
    let net = MemNet::with(vec![Box::new(HangUp)]);
    let e = get(&net, config(), "https://origin.test/").unwrap_err();
    assert_eq!(e.code(), "HTTP_PROTOCOL");
    assert_eq!(
        e.to_string(),
        "HTTP_PROTOCOL: the peer closed the connection during the TLS handshake"
    );
}

#[test]
fn a_close_delimited_body_over_tls_needs_close_notify() {
    let close_delimited: &[u8] = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it";
    for (notify, allow, want) in [
        (true, false, Ok(b"all of it".to_vec())),
        (false, false, Err("BODY_TRUNCATED")),
        (false, true, Ok(b"all of it".to_vec())),
    ] {
        let seen = Seen::default();
        let mut server = http1(&[close_delimited], &seen);
        server.hang_up = true;
        let mut tls = Tls::new("origin.test", &[b"http/1.1"], server);
        tls.notify_on_hang_up = notify;
        let net = MemNet::with(vec![Box::new(tls)]);
        let mut cfg = config();
        cfg.allow_close_without_close_notify = allow;
        let got = get(&net, cfg, "https://origin.test/").map(|(_, b)| b);
        match (got, want) {
            (Ok(body), Ok(want)) => assert_eq!(body, want),
            (Err(e), Err(code)) => {
                assert_eq!(e.code(), code, "{e}");
                assert!(e.to_string().contains("allow_close_without_close_notify"));
            }
            (got, want) => panic!("notify {notify}, allow {allow}: {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn a_head_cut_without_close_notify_is_truncated() {
    let seen = Seen::default();
    let mut server = http1(&[b"HTTP/1.1 200 OK\r\nContent-"], &seen);
    server.hang_up = true;
    let net = MemNet::with(vec![Box::new(Tls::new("origin.test", &[], server))]);
    let e = get(&net, config(), "https://origin.test/").unwrap_err();
    assert_eq!(
        e.to_string(),
        "HTTP_PROTOCOL: HTTP/1.1: the connection closed in the middle of the response (head); \
         the body is incomplete"
    );
}

// ---- plain peers ----

#[test]
fn an_absolute_form_proxys_407_is_its_auth_failure() {
    let refusal: &[u8] = b"HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n";
    for (url, had) in [
        ("http://u:p@proxy.test:3128", true),
        ("http://proxy.test:3128", false),
    ] {
        let net = MemNet::with(vec![Box::new(http1(&[refusal], &Seen::default()))]);
        let mut cfg = config();
        cfg.proxy = Some(Proxy::parse(url).unwrap());
        let e = get(&net, cfg, "http://a.test/").unwrap_err();
        assert!(
            matches!(
                &e,
                Error::Proxy(burrow_proxy::Error::ProxyAuthRequired {
                    had_credentials,
                    proxy_authenticate: None,
                }) if *had_credentials == had
            ),
            "{e:?}"
        );
        assert_eq!(e.code(), "PROXY_AUTH_REQUIRED");
    }
}

#[test]
fn a_cookie_header_of_the_callers_replaces_the_jars() {
    let set: &[u8] = b"HTTP/1.1 200 OK\r\nSet-Cookie: jar=1\r\nContent-Length: 0\r\n\r\n";
    let empty: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    let seen = Seen::default();
    let net = MemNet::with(vec![Box::new(http1(&[set, empty, empty], &seen))]);
    let mut cfg = config();
    cfg.cookies = true;
    let c = Client::new(net.clone(), cfg);
    drive(&net, async {
        for req in [
            Request::get("http://a.test/").unwrap(),
            Request::get("http://a.test/")
                .unwrap()
                .header("Cookie", "mine=2"),
            Request::get("http://a.test/").unwrap(),
        ] {
            let mut r = c.fetch(req).await.unwrap();
            assert_eq!(r.bytes().await.unwrap(), b"");
        }
    });
    assert!(!seen.text(0).contains("Cookie:"));
    let own = seen.text(1);
    assert!(own.contains("Cookie: mine=2\r\n"), "{own}");
    assert!(!own.contains("jar=1"), "{own}");
    assert!(
        seen.text(2).contains("Cookie: jar=1\r\n"),
        "{}",
        seen.text(2)
    );
}

#[test]
fn the_default_fields_are_what_goes_on_the_wire() {
    let mut cfg = config();
    cfg.user_agent = Some("tester/1".into());
    let fields = cfg.default_fields(&[]);
    assert!(
        fields.contains(&("User-Agent".into(), "tester/1".into())),
        "{fields:?}"
    );
    // A field the request sets is not a default any more.
    let without = cfg.default_fields(&[("user-agent".into(), "mine".into())]);
    assert_eq!(without.len(), fields.len() - 1);
    assert!(!without.iter().any(|(n, _)| n == "User-Agent"));

    let seen = Seen::default();
    let net = MemNet::with(vec![Box::new(http1(&[OK], &seen))]);
    let c = Client::new(net.clone(), cfg);
    drive(&net, async {
        let mut r = c
            .fetch(Request::get("http://127.0.0.1:8080/f").unwrap())
            .await
            .unwrap();
        assert_eq!(r.bytes().await.unwrap(), b"hello");
    });
    // An IPv4 literal is connected to as written.
    assert_eq!(
        c.net().connects.borrow().as_slice(),
        [("127.0.0.1".into(), 8080)]
    );
    let head = seen.text(0);
    let lines: Vec<&str> = head.split("\r\n").collect();
    assert_eq!(lines[0], "GET /f HTTP/1.1");
    assert_eq!(lines[1], "Host: 127.0.0.1:8080");
    let sent: Vec<String> = fields.iter().map(|(n, v)| format!("{n}: {v}")).collect();
    assert_eq!(lines[2..2 + sent.len()], sent[..], "{head}");
}

#[test]
fn every_phase_deadline_unset_still_fetches() {
    // Sleeps never end here, so a deadline that was armed would not fire either: these only
    // show that an unset phase deadline runs under the total one, or under none.
    for total in [Some(Duration::from_secs(30)), None] {
        let net = MemNet::with(vec![Box::new(http1(&[OK], &Seen::default()))]);
        let mut cfg = config();
        cfg.deadlines = burrow_client::Deadlines {
            connect: None,
            proxy: None,
            tls: None,
            headers: None,
            idle: None,
            total,
        };
        assert_eq!(
            get(&net, cfg, "http://a.test/").unwrap(),
            (200, b"hello".to_vec())
        );
    }
}

#[test]
fn socks5_with_a_name_that_resolves_to_nothing_fails_to_connect() {
    let received = Rc::default();
    // A proxy that would accept "no authentication".
    let socks = Eager {
        reply: Some(vec![5, 0]),
        out: Vec::new(),
        received: Rc::clone(&received),
    };
    let mut net = MemNet::with(vec![Box::new(socks)]);
    net.no_addresses = true;
    let mut cfg = config();
    cfg.proxy = Some(Proxy::parse("socks5://proxy.test:1080").unwrap());
    let e = get(&net, cfg, "http://a.test/").unwrap_err();
    assert_eq!(e.code(), "CONNECT_FAILED", "{e}");
    assert!(
        e.to_string().contains("the name resolved to no address"),
        "{e}"
    );
    // The name is looked up first: nothing went to the proxy.
    assert!(received.borrow().is_empty());
}

#[test]
fn a_response_and_a_body_stream_debug_without_their_contents() {
    let net = MemNet::with(vec![Box::new(http1(&[OK], &Seen::default()))]);
    let c = Client::new(net.clone(), config());
    let shown = drive(&net, async {
        let r = c
            .fetch(Request::get("http://a.test/d").unwrap())
            .await
            .unwrap();
        format!("{r:?}")
    });
    assert!(
        shown.starts_with(
            "Response { status: 200, headers: [(\"Content-Length\", \"5\")], url: \
             \"http://a.test/d\", meta: ResponseMeta {"
        ),
        "{shown}"
    );
    assert!(shown.ends_with(", .. }"), "{shown}");
    assert!(!shown.contains("hello"), "{shown}");

    struct Nothing;
    impl burrow_client::BodySource for Nothing {
        fn next_piece(
            &mut self,
        ) -> Pin<Box<dyn Future<Output = io::Result<Option<Vec<u8>>>> + '_>> {
            Box::pin(async { Ok(None) })
        }
    }
    let a = burrow_client::BodyStream::new(Nothing, Some(3));
    assert_eq!(
        format!("{a:?}"),
        "BodyStream { length: Some(3), sent: false }"
    );
    // Equal only to itself (the same source), not to another stream of the same length.
    assert!(a == a.clone());
    assert!(a != burrow_client::BodyStream::new(Nothing, Some(3)));
}

#[test]
fn writing_only_empty_parts_writes_nothing() {
    let seen = Seen::default();
    let net = MemNet::with(vec![Box::new(http1(&[], &seen))]);
    let mut s = drive(&net, net.connect("a.test", 80)).unwrap();
    drive(&net, s.write_all_parts(&[b"", b""])).unwrap();
    drive(
        &net,
        s.write_all_parts(&[b"GET / HTTP/1.1\r\n", b"", b"\r\n"]),
    )
    .unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen.text(0), "GET / HTTP/1.1\r\n\r\n");
}

#[test]
fn a_fetch_dropped_while_waiting_for_a_head_slot_leaves_the_queue() {
    // One head at a time: the first request holds the slot (its server never answers), the
    // second and third wait; the second gives up, and once the first is gone the third is
    // next and succeeds. The second never connected.
    let silent = http1(&[], &Seen::default());
    let seen = Seen::default();
    let net = MemNet::with(vec![Box::new(silent), Box::new(http1(&[OK], &seen))]);
    let mut cfg = config();
    cfg.max_pending_heads = Some(1);
    let c = Client::new(net.clone(), cfg);
    let mut cx = Context::from_waker(Waker::noop());
    let mut first = Box::pin(c.fetch(Request::get("http://one.test/").unwrap()));
    let mut second = Box::pin(c.fetch(Request::get("http://two.test/").unwrap()));
    let third = Box::pin(c.fetch(Request::get("http://three.test/").unwrap()));
    assert!(first.as_mut().poll(&mut cx).is_pending());
    assert!(second.as_mut().poll(&mut cx).is_pending());
    let mut third = third;
    assert!(third.as_mut().poll(&mut cx).is_pending());
    drop(second);
    assert!(
        third.as_mut().poll(&mut cx).is_pending(),
        "the slot is still held"
    );
    drop(first);
    let body = drive(&net, async {
        let mut r = third.await.unwrap();
        r.bytes().await.unwrap()
    });
    assert_eq!(body, b"hello");
    assert_eq!(
        net.connects.borrow().as_slice(),
        [("one.test".into(), 80), ("three.test".into(), 80)]
    );
    assert_eq!(c.pending_heads_high_water(), 1);
}

/// An h2c server: SETTINGS, the ACK of ours, then `frames`.
fn h2c(frames: Vec<u8>) -> Eager {
    let mut reply = frame(4, 0, 0, &[]);
    reply.extend(frame(4, 1, 0, &[]));
    reply.extend(frames);
    Eager {
        reply: Some(reply),
        out: Vec::new(),
        received: Rc::default(),
    }
}

fn h2c_config() -> ClientConfig {
    let mut cfg = config();
    cfg.http2_prior_knowledge = true;
    cfg
}

#[test]
fn h2_a_declared_length_over_the_cap_fails_at_the_head() {
    // :status 200 (static 8), content-length (static 28, literal) "10".
    let head = frame(1, 0x4, 1, &[0x88, 0x5c, 0x02, b'1', b'0']);
    let net = MemNet::with(vec![Box::new(h2c(head))]);
    let mut cfg = h2c_config();
    cfg.max_body_bytes = Some(4);
    let e = get(&net, cfg, "http://a.test/").unwrap_err();
    assert!(matches!(e, Error::BodyTooLarge { limit: 4 }), "{e:?}");
}

struct Pieces(VecDeque<Vec<u8>>);

impl burrow_client::BodySource for Pieces {
    fn next_piece(&mut self) -> Pin<Box<dyn Future<Output = io::Result<Option<Vec<u8>>>> + '_>> {
        Box::pin(async move { Ok(self.0.pop_front()) })
    }
}

#[test]
fn h2_a_streamed_body_must_give_its_declared_length() {
    for (pieces, want) in [
        (
            vec![b"abc".to_vec(), b"def".to_vec()],
            "BODY_SOURCE_FAILED: the request body stream failed: the body stream gave more than \
             its declared length",
        ),
        (
            vec![b"abc".to_vec()],
            "BODY_SOURCE_FAILED: the request body stream failed: the body stream gave 3 bytes, \
             not its declared length",
        ),
    ] {
        let net = MemNet::with(vec![Box::new(h2c(Vec::new()))]);
        let c = Client::new(net.clone(), h2c_config());
        let body = burrow_client::BodyStream::new(Pieces(pieces.into()), Some(5));
        let req = Request::new("POST", "http://a.test/up")
            .unwrap()
            .body_stream(body);
        let e = drive(&net, c.fetch(req)).unwrap_err();
        assert_eq!(e.to_string(), want);
    }
}
