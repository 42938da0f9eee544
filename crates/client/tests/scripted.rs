//! burrow-client over a scripted in-memory `Net`: every response is delivered whole, byte by
//! byte and split at every point; pooling, the stale-connection retry, absolute-form, SOCKS5
//! early bytes, caps and deadlines — no sockets, no timers that actually wait.

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

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use burrow_client::{Client, ClientConfig, Net, NetStream, Proxy, Request};
use burrow_testkit::h2::frame;

/// One scripted connection: what the server sends (cut into `pieces`), what the client wrote.
#[derive(Clone)]
struct Script {
    pieces: Vec<Vec<u8>>,
    /// Read returns Pending forever once the pieces run out (a stalled peer) instead of EOF.
    stall: bool,
    /// Each read returns Pending once before its piece (other tasks run in between, as when
    /// the server's bytes arrive later).
    yield_each: bool,
    written: Rc<RefCell<Vec<u8>>>,
}

impl Script {
    fn new(pieces: Vec<Vec<u8>>) -> Script {
        Script {
            pieces,
            stall: false,
            yield_each: false,
            written: Rc::default(),
        }
    }
}

struct ScriptStream {
    pieces: VecDeque<Vec<u8>>,
    stall: bool,
    yield_each: bool,
    written: Rc<RefCell<Vec<u8>>>,
}

impl NetStream for ScriptStream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.yield_each {
            let mut yielded = false;
            std::future::poll_fn(|_| {
                if yielded {
                    Poll::Ready(())
                } else {
                    yielded = true;
                    Poll::Pending
                }
            })
            .await;
        }
        let Some(mut piece) = self.pieces.pop_front() else {
            if self.stall {
                std::future::pending::<()>().await;
            }
            return Ok(0);
        };
        let n = piece.len().min(buf.len());
        buf[..n].copy_from_slice(&piece[..n]);
        if n < piece.len() {
            self.pieces.push_front(piece.split_off(n));
        }
        Ok(n)
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.written.borrow_mut().extend_from_slice(buf);
        Ok(())
    }

    async fn close(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A spawned background task.
type Task = Pin<Box<dyn Future<Output = ()>>>;

#[derive(Clone, Default)]
struct ScriptNet {
    conns: Rc<RefCell<VecDeque<Script>>>,
    connects: Rc<RefCell<Vec<(String, u16)>>>,
    /// Timers fire at once (to test deadlines) instead of never.
    timers_fire: bool,
    /// Background tasks (the HTTP/2 driver), run by [`drive`].
    tasks: Rc<RefCell<Vec<Task>>>,
    /// The platform has no name lookup (as in a Worker).
    no_dns: bool,
}

impl ScriptNet {
    fn with(scripts: Vec<Script>) -> ScriptNet {
        ScriptNet {
            conns: Rc::new(RefCell::new(scripts.into())),
            ..ScriptNet::default()
        }
    }
}

impl Net for ScriptNet {
    type Stream = ScriptStream;

    async fn connect(&self, host: &str, port: u16) -> io::Result<ScriptStream> {
        self.connects.borrow_mut().push((host.to_string(), port));
        let s =
            self.conns.borrow_mut().pop_front().ok_or_else(|| {
                io::Error::new(io::ErrorKind::ConnectionRefused, "no script left")
            })?;
        Ok(ScriptStream {
            pieces: s.pieces.into(),
            stall: s.stall,
            yield_each: s.yield_each,
            written: s.written,
        })
    }

    async fn sleep(&self, _d: Duration) {
        if !self.timers_fire {
            std::future::pending::<()>().await;
        }
    }

    fn now_ms(&self) -> u64 {
        1_700_000_000_000
    }

    fn spawn(&self, task: Pin<Box<dyn Future<Output = ()>>>) {
        self.tasks.borrow_mut().push(task);
    }

    async fn resolve(&self, _host: &str) -> io::Result<Vec<IpAddr>> {
        assert!(!self.no_dns, "resolve() called on a platform without DNS");
        Ok(vec![IpAddr::from([192, 0, 2, 7])])
    }

    fn resolves_names(&self) -> bool {
        !self.no_dns
    }
}

/// Everything here completes without waiting: poll once, or the test is wrong.
fn now<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    match f.as_mut().poll(&mut cx) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("the future waited on something the script never delivers"),
    }
}

/// Polls `f` and the net's background tasks in turns until `f` is done (everything is
/// scripted, so a bounded number of rounds must do).
fn drive<F: Future>(net: &ScriptNet, f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..10_000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        let mut tasks: Vec<_> = net.tasks.borrow_mut().drain(..).collect();
        tasks.retain_mut(|t| t.as_mut().poll(&mut cx).is_pending());
        net.tasks.borrow_mut().extend(tasks);
    }
    panic!("the future never finished");
}

/// Every way to cut `bytes`: whole, byte by byte, and every 2-way split.
fn chunkings(bytes: &[u8]) -> Vec<Vec<Vec<u8>>> {
    let mut all = vec![
        vec![bytes.to_vec()],
        bytes.iter().map(|b| vec![*b]).collect(),
    ];
    for k in 1..bytes.len() {
        all.push(vec![bytes[..k].to_vec(), bytes[k..].to_vec()]);
    }
    all
}

fn fetch_body(net: ScriptNet, cfg: ClientConfig, url: &str) -> (u16, Vec<u8>, Client<ScriptNet>) {
    let c = Client::new(net, cfg);
    let (status, body) = now(async {
        let mut r = c.fetch(Request::get(url).unwrap()).await.unwrap();
        (r.status, r.bytes().await.unwrap())
    });
    (status, body, c)
}

#[test]
fn responses_decode_the_same_under_every_chunking() {
    let responses: [(&[u8], &[u8]); 3] = [
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-A: b\r\n\r\nhello world",
            b"hello world",
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
            b"hello world",
        ),
        (
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\n\r\nclose-delimited",
            b"close-delimited",
        ),
    ];
    for (wire, body) in responses {
        for pieces in chunkings(wire) {
            let net = ScriptNet::with(vec![Script::new(pieces)]);
            let (status, got, _) = fetch_body(net, ClientConfig::default(), "http://a.test/x");
            assert_eq!(status, 200);
            assert_eq!(got, body);
        }
    }
}

#[test]
fn request_head_is_ordered_and_complete() {
    let s = Script::new(vec![b"HTTP/1.1 204 No Content\r\n\r\n".to_vec()]);
    let written = Rc::clone(&s.written);
    let c = Client::new(ScriptNet::with(vec![s]), ClientConfig::default());
    now(async {
        let req = Request::new("PUT", "http://a.test:8080/p?q=1#frag")
            .unwrap()
            .header("X-First", "1")
            .header("x-second", "2")
            .body(b"abc".to_vec());
        let mut r = c.fetch(req).await.unwrap();
        assert_eq!(r.status, 204);
        assert!(r.bytes().await.unwrap().is_empty());
    });
    let w = String::from_utf8(written.borrow().clone()).unwrap();
    assert!(
        w.starts_with("PUT /p?q=1 HTTP/1.1\r\nHost: a.test:8080\r\n"),
        "{w}"
    );
    let first = w.find("X-First: 1").unwrap();
    let second = w.find("x-second: 2").unwrap();
    assert!(first < second);
    assert!(w.contains("Content-Length: 3\r\n"));
    assert!(w.ends_with("\r\n\r\nabc"));
}

const KEEP_ALIVE_OK: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

#[test]
fn keep_alive_connections_are_reused() {
    let s = Script::new(vec![KEEP_ALIVE_OK.to_vec(), KEEP_ALIVE_OK.to_vec()]);
    let net = ScriptNet::with(vec![s]);
    let connects = Rc::clone(&net.connects);
    let c = Client::new(net, ClientConfig::default());
    now(async {
        for i in 0..2 {
            let mut r = c
                .fetch(Request::get("http://a.test/").unwrap())
                .await
                .unwrap();
            assert_eq!(r.meta.reused, i == 1);
            assert_eq!(r.bytes().await.unwrap(), b"ok");
        }
    });
    assert_eq!(connects.borrow().len(), 1);
}

#[test]
fn a_stale_pooled_connection_is_retried_once_for_idempotent_requests() {
    // Connection 1 answers once and then is closed by the server (EOF before any byte of the
    // second response); connection 2 answers the retry.
    let net = ScriptNet::with(vec![
        Script::new(vec![KEEP_ALIVE_OK.to_vec()]),
        Script::new(vec![KEEP_ALIVE_OK.to_vec()]),
    ]);
    let connects = Rc::clone(&net.connects);
    let c = Client::new(net, ClientConfig::default());
    now(async {
        let mut r = c
            .fetch(Request::get("http://a.test/").unwrap())
            .await
            .unwrap();
        r.bytes().await.unwrap();
        let mut r = c
            .fetch(Request::get("http://a.test/").unwrap())
            .await
            .unwrap();
        assert!(r.meta.retried);
        assert_eq!(r.bytes().await.unwrap(), b"ok");
    });
    assert_eq!(connects.borrow().len(), 2);
}

#[test]
fn a_stale_pooled_connection_is_not_retried_for_post() {
    let net = ScriptNet::with(vec![
        Script::new(vec![KEEP_ALIVE_OK.to_vec()]),
        Script::new(vec![KEEP_ALIVE_OK.to_vec()]),
    ]);
    let c = Client::new(net, ClientConfig::default());
    now(async {
        let mut r = c
            .fetch(Request::get("http://a.test/").unwrap())
            .await
            .unwrap();
        r.bytes().await.unwrap();
        let post = Request::new("POST", "http://a.test/")
            .unwrap()
            .body(b"x".to_vec());
        let e = c.fetch(post).await.unwrap_err();
        assert_eq!(e.code(), "HTTP_PROTOCOL", "{e}");
    });
}

#[test]
fn plain_http_through_an_http_proxy_is_absolute_form_with_credentials() {
    let s = Script::new(vec![KEEP_ALIVE_OK.to_vec()]);
    let written = Rc::clone(&s.written);
    let net = ScriptNet::with(vec![s]);
    let connects = Rc::clone(&net.connects);
    let mut cfg = ClientConfig::default();
    cfg.proxy = Some(Proxy::parse("http://u:p@proxy.test:3128").unwrap());
    let (status, body, _) = fetch_body(net, cfg, "http://a.test/x?y#z");
    assert_eq!((status, body.as_slice()), (200, &b"ok"[..]));
    assert_eq!(connects.borrow()[0], ("proxy.test".to_string(), 3128));
    let w = String::from_utf8(written.borrow().clone()).unwrap();
    assert!(w.starts_with("GET http://a.test/x?y HTTP/1.1\r\n"), "{w}");
    assert!(w.contains("Proxy-Authorization: Basic dTpw\r\n"), "{w}");
}

#[test]
fn no_proxy_bypasses_the_proxy() {
    let net = ScriptNet::with(vec![Script::new(vec![KEEP_ALIVE_OK.to_vec()])]);
    let connects = Rc::clone(&net.connects);
    let mut cfg = ClientConfig::default();
    cfg.proxy = Some(Proxy::parse("http://proxy.test:3128").unwrap());
    cfg.no_proxy = burrow_client::NoProxy::parse("a.test");
    let (status, _, c) = fetch_body(net, cfg, "http://www.a.test/");
    assert_eq!(status, 200);
    assert_eq!(connects.borrow()[0], ("www.a.test".to_string(), 80));
    assert!(!burrow_client::uses_proxy(
        c.config(),
        &url::Url::parse("http://a.test/").unwrap()
    ));
}

#[test]
fn socks5_tunnel_bytes_that_arrive_with_the_reply_are_kept() {
    // Method choice, CONNECT reply and the whole HTTP response in one read, then every chunking.
    let mut wire = vec![5, 0, 5, 0, 0, 1, 127, 0, 0, 1, 0, 80];
    wire.extend_from_slice(KEEP_ALIVE_OK);
    for pieces in chunkings(&wire) {
        let s = Script::new(pieces);
        let written = Rc::clone(&s.written);
        let mut cfg = ClientConfig::default();
        cfg.proxy = Some(Proxy::parse("socks5h://proxy.test:1080").unwrap());
        let (status, body, _) = fetch_body(ScriptNet::with(vec![s]), cfg, "http://a.test/");
        assert_eq!((status, body.as_slice()), (200, &b"ok"[..]));
        let w = written.borrow();
        // Greeting, then CONNECT to the domain a.test:80 (socks5h: the proxy resolves).
        assert_eq!(&w[..3], &[5, 1, 0]);
        assert_eq!(&w[3..12], &[5, 1, 0, 3, 6, b'a', b'.', b't', b'e']);
    }
}

#[test]
fn socks5_without_h_resolves_locally() {
    let mut wire = vec![5, 0, 5, 0, 0, 1, 127, 0, 0, 1, 0, 80];
    wire.extend_from_slice(KEEP_ALIVE_OK);
    let s = Script::new(vec![wire]);
    let written = Rc::clone(&s.written);
    let mut cfg = ClientConfig::default();
    cfg.proxy = Some(Proxy::parse("socks5://proxy.test").unwrap());
    let (status, _, _) = fetch_body(ScriptNet::with(vec![s]), cfg, "http://a.test/");
    assert_eq!(status, 200);
    assert_eq!(&written.borrow()[3..10], &[5, 1, 0, 1, 192, 0, 2]);
}

#[test]
fn socks5_on_a_platform_without_dns_lets_the_proxy_resolve() {
    let mut wire = vec![5, 0, 5, 0, 0, 1, 127, 0, 0, 1, 0, 80];
    wire.extend_from_slice(KEEP_ALIVE_OK);
    let s = Script::new(vec![wire]);
    let written = Rc::clone(&s.written);
    let mut net = ScriptNet::with(vec![s]);
    net.no_dns = true;
    let mut cfg = ClientConfig::default();
    cfg.proxy = Some(Proxy::parse("socks5://proxy.test").unwrap());
    let c = Client::new(net, cfg);
    now(async {
        let mut r = c
            .fetch(Request::get("http://a.test/").unwrap())
            .await
            .unwrap();
        assert_eq!(r.meta.proxied, Some(burrow_client::ProxyScheme::Socks5h));
        assert_eq!(r.bytes().await.unwrap(), b"ok");
    });
    // CONNECT to the domain a.test:80, as socks5h:// sends it.
    assert_eq!(
        &written.borrow()[3..12],
        &[5, 1, 0, 3, 6, b'a', b'.', b't', b'e']
    );
}

/// A 302 to `/next` that closes its connection, then `200 ok` on a new one.
fn redirect_then_ok() -> ScriptNet {
    ScriptNet::with(vec![
        Script::new(vec![
            b"HTTP/1.1 302 Found\r\nLocation: /next\r\nConnection: close\r\n\
              Content-Length: 5\r\n\r\nmoved"
                .to_vec(),
        ]),
        Script::new(vec![KEEP_ALIVE_OK.to_vec()]),
    ])
}

#[test]
fn a_requests_redirect_mode_overrides_the_clients() {
    use burrow_client::RedirectMode;
    let mut manual = ClientConfig::default();
    manual.redirect_mode = RedirectMode::Manual;
    // Follow, over a client set to manual: the final response, its URL, one redirect.
    let c = Client::new(redirect_then_ok(), manual.clone());
    now(async {
        let req = Request::get("http://a.test/first")
            .unwrap()
            .redirect(RedirectMode::Follow);
        let mut r = c.fetch(req).await.unwrap();
        assert_eq!((r.status, r.url.as_str()), (200, "http://a.test/next"));
        assert_eq!((r.meta.redirects, r.meta.reason.as_str()), (1, "OK"));
        assert_eq!(r.bytes().await.unwrap(), b"ok");
    });
    // The client's manual: the redirect itself, at the URL asked for, its reason phrase kept.
    let c = Client::new(redirect_then_ok(), manual);
    now(async {
        let mut r = c
            .fetch(Request::get("http://a.test/first").unwrap())
            .await
            .unwrap();
        assert_eq!((r.status, r.url.as_str()), (302, "http://a.test/first"));
        assert_eq!((r.meta.redirects, r.meta.reason.as_str()), (0, "Found"));
        assert_eq!(r.header("location"), Some("/next"));
        assert_eq!(r.bytes().await.unwrap(), b"moved");
    });
    // Manual and error over a client that follows.
    let c = Client::new(redirect_then_ok(), ClientConfig::default());
    now(async {
        let req = Request::get("http://a.test/first")
            .unwrap()
            .redirect(RedirectMode::Manual);
        assert_eq!(c.fetch(req).await.unwrap().status, 302);
    });
    let net = redirect_then_ok();
    let connects = Rc::clone(&net.connects);
    let c = Client::new(net, ClientConfig::default());
    let e = now(async {
        let req = Request::get("http://a.test/first")
            .unwrap()
            .redirect(RedirectMode::Error);
        c.fetch(req).await.unwrap_err()
    });
    assert_eq!(e.code(), "REDIRECT_FORBIDDEN", "{e}");
    assert_eq!(e.phase(), burrow_client::Phase::Redirect);
    assert_eq!(connects.borrow().len(), 1, "the redirect was not followed");
}

#[test]
fn connect_refusals_and_auth_failures_are_typed() {
    let cases: [(&[u8], &str); 4] = [
        (
            b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n",
            "PROXY_AUTH_REQUIRED",
        ),
        (b"HTTP/1.1 401 Unauthorized\r\n\r\n", "PROXY_AUTH_REQUIRED"),
        (b"HTTP/1.1 403 Forbidden\r\n\r\n", "PROXY_REFUSED"),
        (b"HTTP/1.1 200 OK\r\n", "PROXY_CLOSED"),
    ];
    for (reply, code) in cases {
        let mut cfg = ClientConfig::default();
        cfg.proxy = Some(Proxy::parse("http://proxy.test:3128").unwrap());
        let c = Client::new(
            ScriptNet::with(vec![Script::new(vec![reply.to_vec()])]),
            cfg,
        );
        let e = now(c.fetch(Request::get("https://a.test/").unwrap())).unwrap_err();
        assert_eq!(e.code(), code, "{e}");
    }
}

#[test]
fn the_body_cap_applies_to_content_length_and_to_wire_bytes() {
    let mut cfg = ClientConfig::default();
    cfg.max_body_bytes = Some(4);
    let big = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".to_vec();
    let c = Client::new(ScriptNet::with(vec![Script::new(vec![big])]), cfg.clone());
    let e = now(c.fetch(Request::get("http://a.test/").unwrap())).unwrap_err();
    assert_eq!(e.code(), "BODY_TOO_LARGE");
    assert!(e.to_string().contains("max_body_bytes"));

    let chunked =
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n"
            .to_vec();
    let c = Client::new(ScriptNet::with(vec![Script::new(vec![chunked])]), cfg);
    now(async {
        let mut r = c
            .fetch(Request::get("http://a.test/").unwrap())
            .await
            .unwrap();
        assert_eq!(r.bytes().await.unwrap_err().code(), "BODY_TOO_LARGE");
    });

    let mut unlimited = ClientConfig::default();
    unlimited.max_body_bytes = None;
    let big = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".to_vec();
    let net = ScriptNet::with(vec![Script::new(vec![big])]);
    assert_eq!(fetch_body(net, unlimited, "http://a.test/").1, b"hello");
}

#[test]
fn deadlines_have_their_own_codes() {
    let stalled = |pieces: Vec<Vec<u8>>| Script {
        stall: true,
        ..Script::new(pieces)
    };
    // Nothing comes back: the headers deadline.
    let mut net = ScriptNet::with(vec![stalled(vec![])]);
    net.timers_fire = true;
    let mut cfg = ClientConfig::default();
    cfg.deadlines.total = None;
    let c = Client::new(net, cfg.clone());
    let e = now(c.fetch(Request::get("http://a.test/").unwrap())).unwrap_err();
    assert_eq!(e.code(), "TIMEOUT_HEADERS");

    // With a total deadline shorter than the phase's, the total one is reported.
    let mut net = ScriptNet::with(vec![stalled(vec![])]);
    net.timers_fire = true;
    let mut short = cfg.clone();
    short.deadlines.total = Some(Duration::from_millis(1));
    let c = Client::new(net, short);
    let e = now(c.fetch(Request::get("http://a.test/").unwrap())).unwrap_err();
    assert_eq!(e.code(), "TIMEOUT_TOTAL");

    // Head arrives, the body stalls: the idle deadline.
    let head = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab".to_vec();
    let mut net = ScriptNet::with(vec![stalled(vec![head])]);
    net.timers_fire = true;
    let c = Client::new(net, cfg.clone());
    now(async {
        let mut r = c
            .fetch(Request::get("http://a.test/").unwrap())
            .await
            .unwrap();
        assert_eq!(r.chunk().await.unwrap().unwrap(), b"ab");
        let e = r.chunk().await.unwrap_err();
        assert_eq!(e.code(), "TIMEOUT_IDLE");
        assert!(e.to_string().contains("deadlines.idle"));
    });

    // A proxy that never answers CONNECT: the proxy deadline.
    let mut net = ScriptNet::with(vec![stalled(vec![])]);
    net.timers_fire = true;
    let mut proxied = cfg;
    proxied.proxy = Some(Proxy::parse("http://proxy.test:3128").unwrap());
    let c = Client::new(net, proxied);
    let e = now(c.fetch(Request::get("https://a.test/").unwrap())).unwrap_err();
    assert_eq!(e.code(), "TIMEOUT_PROXY");
}

#[test]
fn truncated_and_malformed_responses_fail_closed() {
    let cases: [&[u8]; 4] = [
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
        b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx",
        b"NOT HTTP\r\n\r\n",
        b"",
    ];
    for wire in cases {
        let c = Client::new(
            ScriptNet::with(vec![Script::new(vec![wire.to_vec()])]),
            ClientConfig::default(),
        );
        let r = now(async {
            let mut r = c.fetch(Request::get("http://a.test/").unwrap()).await?;
            r.bytes().await
        });
        assert_eq!(r.unwrap_err().code(), "HTTP_PROTOCOL", "{wire:?}");
    }
}

#[test]
fn unusable_urls_are_refused_before_connecting() {
    let net = ScriptNet::default();
    let connects = Rc::clone(&net.connects);
    let c = Client::new(net, ClientConfig::default());
    let e = now(c.fetch(Request::get("ftp://a.test/").unwrap())).unwrap_err();
    assert_eq!(e.code(), "BAD_URL");
    assert_eq!(Request::get("not a url").unwrap_err().code(), "BAD_URL");
    assert!(connects.borrow().is_empty());
}

#[test]
fn idna_hosts_are_punycode_on_the_wire() {
    let s = Script::new(vec![KEEP_ALIVE_OK.to_vec()]);
    let written = Rc::clone(&s.written);
    let net = ScriptNet::with(vec![s]);
    let connects = Rc::clone(&net.connects);
    let (status, _, _) = fetch_body(net, ClientConfig::default(), "http://bücher.example/");
    assert_eq!(status, 200);
    assert_eq!(connects.borrow()[0].0, "xn--bcher-kva.example");
    let w = String::from_utf8(written.borrow().clone()).unwrap();
    assert!(w.contains("Host: xn--bcher-kva.example\r\n"), "{w}");
}

/// Server SETTINGS (empty) and the ACK of ours.
fn server_preface() -> Vec<u8> {
    let mut v = frame(4, 0, 0, &[]);
    v.extend(frame(4, 1, 0, &[]));
    v
}

/// HEADERS `:status 200` (HPACK static index 8) and DATA `hello` with END_STREAM on `stream`.
fn h2_ok(stream: u32) -> Vec<u8> {
    let mut v = frame(1, 0x4, stream, &[0x88]);
    v.extend(frame(0, 0x1, stream, b"hello"));
    v
}

fn h2c_config() -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.http2_prior_knowledge = true;
    cfg
}

fn h2_get(
    net: &ScriptNet,
    cfg: ClientConfig,
) -> Result<(u16, Vec<u8>, bool), burrow_client::Error> {
    let c = Client::new(net.clone(), cfg);
    drive(net, async {
        let mut r = c.fetch(Request::get("http://a.test/x").unwrap()).await?;
        assert_eq!(r.meta.http_version, "HTTP/2");
        // HTTP/2 has no reason phrase.
        assert_eq!(r.meta.reason, "");
        let body = r.bytes().await?;
        Ok((r.status, body, r.meta.retried))
    })
}

#[test]
fn h2c_responses_decode_the_same_under_every_chunking() {
    let mut wire = server_preface();
    wire.extend(h2_ok(1));
    for pieces in chunkings(&wire) {
        let s = Script::new(pieces);
        let written = Rc::clone(&s.written);
        let net = ScriptNet::with(vec![s]);
        let (status, body, _) = h2_get(&net, h2c_config()).unwrap();
        assert_eq!((status, body.as_slice()), (200, &b"hello"[..]));
        assert!(written.borrow().starts_with(burrow_testkit::h2::PREFACE));
    }
}

#[test]
fn h2_stream_reset_is_typed() {
    let mut wire = server_preface();
    wire.extend(frame(3, 0, 1, &[0, 0, 0, 2]));
    let net = ScriptNet::with(vec![Script::new(vec![wire])]);
    let e = h2_get(&net, h2c_config()).unwrap_err();
    assert_eq!(e.code(), "H2_STREAM_RESET", "{e}");
}

#[test]
fn h2_goaway_refusal_is_retried_once_on_a_new_connection() {
    let mut refused = server_preface();
    refused.extend(frame(7, 0, 0, &[0, 0, 0, 0, 0, 0, 0, 0]));
    let mut ok = server_preface();
    ok.extend(h2_ok(1));
    let net = ScriptNet::with(vec![Script::new(vec![refused]), Script::new(vec![ok])]);
    let connects = Rc::clone(&net.connects);
    let (status, body, retried) = h2_get(&net, h2c_config()).unwrap();
    assert_eq!(
        (status, body.as_slice(), retried),
        (200, &b"hello"[..], true)
    );
    assert_eq!(connects.borrow().len(), 2);
}

#[test]
fn h2_protocol_errors_fail_closed_without_retry() {
    // DATA on stream 0 is a connection error (RFC 9113 §6.1).
    let mut wire = server_preface();
    wire.extend(frame(0, 0, 0, b"x"));
    let net = ScriptNet::with(vec![Script::new(vec![wire])]);
    let connects = Rc::clone(&net.connects);
    let e = h2_get(&net, h2c_config()).unwrap_err();
    assert_eq!(e.code(), "H2_PROTOCOL", "{e}");
    assert_eq!(connects.borrow().len(), 1);
}

#[test]
fn h2_concurrent_requests_share_one_connection() {
    // Stream 3's answer comes first, after the second request went out.
    let script = Script {
        yield_each: true,
        ..Script::new(vec![
            server_preface(),
            h2_ok(1)[..10].to_vec(),
            h2_ok(3),
            h2_ok(1)[10..].to_vec(),
        ])
    };
    let net = ScriptNet::with(vec![script]);
    let connects = Rc::clone(&net.connects);
    let c = Client::new(net.clone(), h2c_config());
    let bodies = drive(&net, async {
        let first = c
            .fetch(Request::get("http://a.test/1").unwrap())
            .await
            .unwrap();
        let second = c
            .fetch(Request::get("http://a.test/2").unwrap())
            .await
            .unwrap();
        assert!(second.meta.reused);
        let mut out = Vec::new();
        for mut r in [first, second] {
            out.push(r.bytes().await.unwrap());
        }
        out
    });
    assert_eq!(bodies, vec![b"hello".to_vec(), b"hello".to_vec()]);
    assert_eq!(connects.borrow().len(), 1);
}

#[test]
fn h2_stalled_server_hits_the_headers_deadline() {
    let net = ScriptNet {
        timers_fire: true,
        ..ScriptNet::with(vec![Script {
            stall: true,
            ..Script::new(vec![server_preface()])
        }])
    };
    let mut cfg = h2c_config();
    cfg.deadlines.total = None;
    let e = h2_get(&net, cfg).unwrap_err();
    assert_eq!(e.code(), "TIMEOUT_HEADERS");
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn gzip_response() -> Vec<u8> {
    let body = gzip(b"hello world, hello world, hello world");
    let mut wire = format!(
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\nX-After: 1\r\n\r\n",
        body.len()
    )
    .into_bytes();
    wire.extend(body);
    wire
}

#[test]
fn coded_bodies_are_decoded_under_every_chunking() {
    for pieces in chunkings(&gzip_response()) {
        let s = Script::new(pieces);
        let written = Rc::clone(&s.written);
        let c = Client::new(ScriptNet::with(vec![s]), ClientConfig::default());
        now(async {
            let mut r = c
                .fetch(Request::get("http://a.test/").unwrap())
                .await
                .unwrap();
            assert_eq!(r.meta.content_encoding.as_deref(), Some("gzip"));
            // The headers say what the server sent; meta says the body was decoded.
            assert_eq!(r.header("content-encoding"), Some("gzip"));
            let wire_len = gzip_response().len()
                - gzip_response()
                    .windows(4)
                    .position(|w| w == b"\r\n\r\n")
                    .unwrap()
                - 4;
            assert_eq!(
                r.header("content-length"),
                Some(wire_len.to_string().as_str())
            );
            assert_eq!(r.header("x-after"), Some("1"));
            let body = r.bytes().await.unwrap();
            assert_eq!(body, b"hello world, hello world, hello world");
        });
        let w = String::from_utf8(written.borrow().clone()).unwrap();
        assert!(
            w.contains("Accept-Encoding: gzip, deflate, br, zstd\r\n"),
            "{w}"
        );
    }
}

#[test]
fn passthrough_keeps_the_coded_bytes_and_the_headers() {
    let coded_len = gzip_response().len()
        - gzip_response()
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap()
        - 4;
    let mut passthrough = ClientConfig::default();
    passthrough.decompress = burrow_client::Decompress::Passthrough;
    let s = Script::new(vec![gzip_response()]);
    let written = Rc::clone(&s.written);
    let c = Client::new(ScriptNet::with(vec![s]), passthrough);
    now(async {
        let mut r = c
            .fetch(Request::get("http://a.test/").unwrap())
            .await
            .unwrap();
        assert_eq!(r.meta.content_encoding, None);
        assert_eq!(r.header("content-encoding"), Some("gzip"));
        assert_eq!(r.bytes().await.unwrap().len(), coded_len);
    });
    let w = String::from_utf8(written.borrow().clone()).unwrap();
    assert_eq!(w.matches("Accept-Encoding").count(), 1, "{w}");
}

/// `text` coded as `coding` by an encoder other than burrow's decoder.
fn coded(coding: &str, text: &[u8]) -> Vec<u8> {
    use std::io::Write;
    match coding {
        "gzip" => gzip(text),
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        }
        "br" => {
            let mut out = Vec::new();
            let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
            w.write_all(text).unwrap();
            drop(w);
            out
        }
        "zstd" => {
            // One frame, one raw block (RFC 8878 §3.1.1): a single segment whose content
            // size fits the one-byte field, no checksum.
            let n = u8::try_from(text.len()).unwrap();
            let mut v = vec![0x28, 0xb5, 0x2f, 0xfd, 0x20, n];
            let block = 1 | (u32::from(n) << 3);
            v.extend_from_slice(&block.to_le_bytes()[..3]);
            v.extend_from_slice(text);
            v
        }
        other => panic!("no encoder for {other}"),
    }
}

#[test]
fn a_callers_accept_encoding_still_gets_every_coding_decoded() {
    // As workerd's fetch does for gzip and br: the caller asking for a coding is not asking
    // for the coded bytes. The headers stay as the server sent them.
    let text = b"hello world, hello world, hello world";
    for coding in ["gzip", "deflate", "br", "zstd"] {
        let body = coded(coding, text);
        let mut wire = format!(
            "HTTP/1.1 200 OK\r\nContent-Encoding: {coding}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        wire.extend(&body);
        for pieces in [vec![wire.clone()], wire.iter().map(|b| vec![*b]).collect()] {
            let s = Script::new(pieces);
            let written = Rc::clone(&s.written);
            let c = Client::new(ScriptNet::with(vec![s]), ClientConfig::default());
            now(async {
                let req = Request::get("http://a.test/")
                    .unwrap()
                    .header("accept-encoding", "gzip");
                let mut r = c.fetch(req).await.unwrap();
                assert_eq!(r.meta.content_encoding.as_deref(), Some(coding));
                assert_eq!(r.header("content-encoding"), Some(coding));
                let declared = body.len().to_string();
                assert_eq!(r.header("content-length"), Some(declared.as_str()));
                assert_eq!(r.bytes().await.unwrap(), text, "{coding}");
            });
            // The caller's Accept-Encoding is sent, and only it.
            let w = String::from_utf8_lossy(&written.borrow()).into_owned();
            assert!(w.contains("accept-encoding: gzip\r\n"), "{w}");
            assert_eq!(
                w.to_ascii_lowercase().matches("accept-encoding").count(),
                1,
                "{w}"
            );
        }
    }
}

#[test]
fn a_coding_only_the_caller_asked_for_is_handed_on_as_sent() {
    let wire = b"HTTP/1.1 200 OK\r\nContent-Encoding: compress\r\nContent-Length: 3\r\n\r\nxyz";
    let c = Client::new(
        ScriptNet::with(vec![Script::new(vec![wire.to_vec()])]),
        ClientConfig::default(),
    );
    now(async {
        let req = Request::get("http://a.test/")
            .unwrap()
            .header("Accept-Encoding", "compress");
        let mut r = c.fetch(req).await.unwrap();
        assert_eq!(r.meta.content_encoding, None);
        assert_eq!(r.bytes().await.unwrap(), b"xyz");
    });
}

#[test]
fn bad_and_unknown_codings_fail_closed() {
    let cases: [(&[u8], &str); 2] = [
        (
            b"HTTP/1.1 200 OK\r\nContent-Encoding: compress\r\nContent-Length: 1\r\n\r\nx",
            "UNSUPPORTED_CONTENT_ENCODING",
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\nnope!",
            "DECODE_FAILED",
        ),
    ];
    for (wire, code) in cases {
        let c = Client::new(
            ScriptNet::with(vec![Script::new(vec![wire.to_vec()])]),
            ClientConfig::default(),
        );
        let e = now(async {
            let mut r = c.fetch(Request::get("http://a.test/").unwrap()).await?;
            r.bytes().await
        })
        .unwrap_err();
        assert_eq!(e.code(), code, "{e}");
    }
}

/// A streamed body from fixed pieces.
struct Pieces(VecDeque<Vec<u8>>);

impl burrow_client::BodySource for Pieces {
    fn next_piece(&mut self) -> Pin<Box<dyn Future<Output = io::Result<Option<Vec<u8>>>> + '_>> {
        Box::pin(async move { Ok(self.0.pop_front()) })
    }
}

fn stream_of(pieces: &[&[u8]], length: Option<u64>) -> burrow_client::BodyStream {
    burrow_client::BodyStream::new(Pieces(pieces.iter().map(|p| p.to_vec()).collect()), length)
}

fn post_stream(stream: burrow_client::BodyStream) -> (Result<u16, burrow_client::Error>, String) {
    let s = Script::new(vec![KEEP_ALIVE_OK.to_vec()]);
    let written = Rc::clone(&s.written);
    let c = Client::new(ScriptNet::with(vec![s]), ClientConfig::default());
    let req = Request::new("POST", "http://a.test/up")
        .unwrap()
        .body_stream(stream);
    let status = now(async { Ok(c.fetch(req).await?.status) });
    let w = String::from_utf8(written.borrow().clone()).unwrap();
    (status, w)
}

#[test]
fn streamed_bodies_use_content_length_or_chunked() {
    let (status, w) = post_stream(stream_of(&[b"abc", b"", b"de"], Some(5)));
    assert_eq!(status.unwrap(), 200);
    assert!(
        w.contains("Content-Length: 5\r\n") && w.ends_with("\r\n\r\nabcde"),
        "{w}"
    );

    let (status, w) = post_stream(stream_of(&[b"abc", b"de"], None));
    assert_eq!(status.unwrap(), 200);
    assert!(w.contains("Transfer-Encoding: chunked\r\n"), "{w}");
    assert!(
        w.ends_with("\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"),
        "{w}"
    );

    for (pieces, len) in [(&[&b"abc"[..]][..], 5), (&[&b"abcdef"[..]][..], 5)] {
        let (status, _) = post_stream(stream_of(pieces, Some(len)));
        assert_eq!(status.unwrap_err().code(), "BODY_SOURCE_FAILED");
    }
}

#[test]
fn a_streamed_body_is_not_replayed_by_a_307() {
    let redirect =
        b"HTTP/1.1 307 Temporary Redirect\r\nLocation: /again\r\nContent-Length: 0\r\n\r\n";
    let c = Client::new(
        ScriptNet::with(vec![Script::new(vec![redirect.to_vec()])]),
        ClientConfig::default(),
    );
    let req = Request::new("PUT", "http://a.test/up")
        .unwrap()
        .body_stream(stream_of(&[b"x"], Some(1)));
    let e = now(c.fetch(req)).unwrap_err();
    assert_eq!(e.code(), "BODY_NOT_REPLAYABLE");
}

#[test]
fn h2_streamed_body_goes_out_as_data_frames_ending_the_stream() {
    let mut wire = server_preface();
    wire.extend(h2_ok(1));
    let s = Script::new(vec![wire]);
    let written = Rc::clone(&s.written);
    let net = ScriptNet::with(vec![s]);
    let c = Client::new(net.clone(), h2c_config());
    // Within the server's initial 64 KiB window: this script sends no WINDOW_UPDATE.
    let big = vec![7u8; 60_000];
    let req = Request::new("POST", "http://a.test/up")
        .unwrap()
        .body_stream(stream_of(&[b"head-", &big, b"-tail"], None));
    let status = drive(&net, async {
        let mut r = c.fetch(req).await.unwrap();
        r.bytes().await.unwrap();
        r.status
    });
    assert_eq!(status, 200);
    // Frames after the 24-byte connection preface: DATA on stream 1 carry the body and the
    // last one ends the stream.
    let w = written.borrow();
    let mut rest = &w[24..];
    let mut body = Vec::new();
    let mut last_flags = None;
    while rest.len() >= 9 {
        let len = usize::from(rest[0]) << 16 | usize::from(rest[1]) << 8 | usize::from(rest[2]);
        let (ty, flags) = (rest[3], rest[4]);
        let stream = u32::from_be_bytes([rest[5], rest[6], rest[7], rest[8]]) & 0x7fff_ffff;
        if ty == 0 && stream == 1 {
            body.extend_from_slice(&rest[9..9 + len]);
            last_flags = Some(flags);
        }
        rest = &rest[9 + len..];
    }
    let mut want = b"head-".to_vec();
    want.extend(&big);
    want.extend(b"-tail");
    assert_eq!(body.len(), want.len());
    assert!(body == want);
    assert_eq!(last_flags, Some(1));
}

#[test]
fn ipv6_literals_connect_bare_and_send_brackets() {
    let s = Script::new(vec![KEEP_ALIVE_OK.to_vec()]);
    let written = Rc::clone(&s.written);
    let net = ScriptNet::with(vec![s]);
    let connects = Rc::clone(&net.connects);
    let (status, _, _) = fetch_body(net, ClientConfig::default(), "http://[::1]:8080/v6");
    assert_eq!(status, 200);
    assert_eq!(connects.borrow()[0], ("::1".to_string(), 8080));
    let w = String::from_utf8(written.borrow().clone()).unwrap();
    assert!(
        w.starts_with("GET /v6 HTTP/1.1\r\nHost: [::1]:8080\r\n"),
        "{w}"
    );
}

/// Polls every future in turn until all are done; their outputs in order.
async fn join_all<T>(mut futs: Vec<Pin<Box<dyn Future<Output = T> + '_>>>) -> Vec<T> {
    let mut out: Vec<Option<T>> = futs.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        for (f, o) in futs.iter_mut().zip(out.iter_mut()) {
            if o.is_none() {
                if let Poll::Ready(v) = f.as_mut().poll(cx) {
                    *o = Some(v);
                }
            }
        }
        if out.iter().all(Option::is_some) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    out.into_iter().map(Option::unwrap).collect()
}

#[test]
fn requests_beyond_max_pending_heads_wait_their_turn_and_all_succeed() {
    let ok = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".to_vec();
    for (cap, want_high) in [(Some(6), 6), (None, 8), (Some(1), 1)] {
        let scripts: Vec<Script> = (0..8)
            .map(|_| Script {
                yield_each: true,
                ..Script::new(vec![ok[..10].to_vec(), ok[10..].to_vec()])
            })
            .collect();
        let net = ScriptNet::with(scripts);
        let mut cfg = ClientConfig::default();
        cfg.max_pending_heads = cap;
        let c = Client::new(net.clone(), cfg);
        let futs: Vec<Pin<Box<dyn Future<Output = Vec<u8>>>>> = (0..8)
            .map(|i| {
                let c = c.clone();
                Box::pin(async move {
                    let url = format!("http://h{i}.test/");
                    let mut r = c.fetch(Request::get(&url).unwrap()).await.unwrap();
                    r.bytes().await.unwrap()
                }) as Pin<Box<dyn Future<Output = Vec<u8>>>>
            })
            .collect();
        let bodies = drive(&net, join_all(futs));
        assert_eq!(bodies, vec![b"hello".to_vec(); 8], "cap {cap:?}");
        assert_eq!(c.pending_heads_high_water(), want_high, "cap {cap:?}");
    }
}
