//! The exchange the Worker's `warmup()` replays: one GET through an HTTP CONNECT proxy to
//! [`REPLAY_HOST`] over TLS 1.3 and HTTP/2, answered with a gzip body, recorded as what the
//! client wrote and what the server sent after how many of the client's bytes
//! (`worker/js/warmup-exchange.mjs`, which the npm package ships).
//!
//! Connections to `REPLAY_HOST` draw no randomness, so the same client writes the same bytes
//! and the recording replays. `committed_recording_replays` proves it still does for this
//! code (the Worker's e2e test proves it inside workerd); when a change to the ClientHello or
//! the first flight breaks it, regenerate with
//! `BURROW_WRITE_WARMUP=1 cargo test -p burrow-client --test warmup_exchange`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::cell::RefCell;
use std::future::Future;
use std::io::{self, Write};
use std::net::IpAddr;
use std::path::PathBuf;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use burrow_client::{Client, ClientConfig, Net, NetStream, Proxy, Request, Trust, REPLAY_HOST};
use burrow_crypto::hash::{digest, HashAlgorithm};
use burrow_testkit::h2::{frame, take_frame, PREFACE};
use burrow_testkit::hex;
use burrow_testkit::tls13_server::{ServerConfig, Tls13Server};

const PROXY_PORT: u16 = 3128;
const PATH: &str = "/warmup";
const CONNECT_OK: &[u8] = b"HTTP/1.1 200 Connection established\r\n\r\n";

fn recording_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../worker/js/warmup-exchange.mjs")
}

/// The response body: JSON a few KiB long, so the gzip decoder and the body path work too.
fn body() -> Vec<u8> {
    let mut s = String::from("{\"warmup\":true,\"items\":[");
    for i in 0..64 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!("{{\"id\":{i},\"name\":\"item {i}\",\"ok\":true}}"));
    }
    s.push_str("]}");
    s.into_bytes()
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

/// The configuration the Worker's `warmup()` makes from its options (burrow.mjs): the
/// defaults, the proxy, the anchor for both hops.
fn config(anchor_pem: &[u8]) -> ClientConfig {
    let trust = Trust::AnchorsPem(vec![anchor_pem.to_vec()]);
    let mut cfg = ClientConfig {
        proxy: Some(Proxy::parse(&format!("http://{REPLAY_HOST}:{PROXY_PORT}")).unwrap()),
        max_pending_heads: Some(6),
        ..ClientConfig::default()
    };
    cfg.tls.trust = trust.clone();
    cfg.proxy_tls.trust = trust;
    cfg
}

/// What a stream of the exchange does with the client's bytes and where the server's come
/// from: the live server (recording) or the recording (replay).
trait Peer {
    fn on_client_bytes(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// The server's next bytes, if the client has written enough for them.
    fn next_server_bytes(&mut self) -> Option<Vec<u8>>;
}

/// The live side: the proxy's answer, then the scripted TLS 1.3 server and just enough
/// HTTP/2 to answer one GET. Records every piece it sends after how many client bytes.
struct LiveServer {
    tls: Tls13Server,
    connect_head: Vec<u8>,
    tunnel: bool,
    rx: Vec<u8>,
    preface_seen: bool,
    client: Vec<u8>,
    pieces: Vec<(usize, Vec<u8>)>,
    unread: Vec<Vec<u8>>,
    gz: Vec<u8>,
}

impl LiveServer {
    fn new() -> LiveServer {
        LiveServer {
            tls: Tls13Server::new(ServerConfig {
                alpn: vec![b"h2".to_vec()],
                with_ca: true,
                ..ServerConfig::new(REPLAY_HOST)
            }),
            connect_head: Vec::new(),
            tunnel: false,
            rx: Vec::new(),
            preface_seen: false,
            client: Vec::new(),
            pieces: Vec::new(),
            unread: Vec::new(),
            gz: gzip(&body()),
        }
    }

    fn h2(&mut self) {
        if !self.preface_seen {
            if self.rx.len() < PREFACE.len() {
                return;
            }
            assert_eq!(&self.rx[..PREFACE.len()], PREFACE);
            self.rx.drain(..PREFACE.len());
            self.preface_seen = true;
            self.tls.send(&frame(4, 0, 0, &[])).unwrap();
        }
        while let Some(f) = take_frame(&mut self.rx) {
            let (ty, flags, stream) = (f.ty, f.flags, f.stream);
            match ty {
                4 if flags & 1 == 0 => self.tls.send(&frame(4, 1, 0, &[])).unwrap(),
                1 => {
                    // :status 200, then literals without indexing on static-table names:
                    // content-type (31), content-encoding (26), content-length (28).
                    let mut block = vec![0x88];
                    for (index, value) in [
                        (31u8, b"application/json".to_vec()),
                        (26, b"gzip".to_vec()),
                        (28, self.gz.len().to_string().into_bytes()),
                    ] {
                        block.extend_from_slice(&[0x0f, index - 15, value.len() as u8]);
                        block.extend_from_slice(&value);
                    }
                    self.tls.send(&frame(1, 4, stream, &block)).unwrap();
                    let gz = self.gz.clone();
                    self.tls.send(&frame(0, 1, stream, &gz)).unwrap();
                }
                _ => {}
            }
        }
    }
}

impl Peer for LiveServer {
    fn on_client_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.client.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut rest = bytes;
        if !self.tunnel {
            self.connect_head.extend_from_slice(rest);
            rest = &[];
            if let Some(end) = self.connect_head.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = std::str::from_utf8(&self.connect_head[..end]).unwrap();
                assert!(
                    head.starts_with(&format!("CONNECT {REPLAY_HOST}:443 HTTP/1.1\r\n")),
                    "{head}"
                );
                self.tunnel = true;
                out.extend_from_slice(CONNECT_OK);
                let after = self.connect_head.split_off(end + 4);
                assert!(
                    after.is_empty(),
                    "the client wrote past its CONNECT unanswered"
                );
            }
        }
        if self.tunnel && !rest.is_empty() {
            if let Err(e) = self.tls.receive(rest) {
                // The client refused something (an alert): its own error says what.
                eprintln!("the scripted server stops: {e}");
                return Ok(());
            }
            self.rx.extend_from_slice(self.tls.received());
            let n = self.tls.received().len();
            self.tls.discard_received(n);
            self.h2();
        }
        out.extend(self.tls.take_output());
        if !out.is_empty() {
            self.pieces.push((self.client.len(), out.clone()));
            self.unread.push(out);
        }
        Ok(())
    }

    fn next_server_bytes(&mut self) -> Option<Vec<u8>> {
        (!self.unread.is_empty()).then(|| self.unread.remove(0))
    }
}

/// The recording played back: the client's bytes must be the recorded ones, and each piece
/// of the server's comes once the client has written as many as when it was sent.
struct Replay {
    client: Vec<u8>,
    pieces: Vec<(usize, Vec<u8>)>,
    written: usize,
    next: usize,
}

impl Peer for Replay {
    fn on_client_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        let want = self.client.get(self.written..self.written + bytes.len());
        if want != Some(bytes) {
            return Err(io::Error::other(format!(
                "the client's bytes differ from the recording from offset {} on: \
                 regenerate it (BURROW_WRITE_WARMUP=1 cargo test -p burrow-client --test \
                 warmup_exchange)",
                self.written
            )));
        }
        self.written += bytes.len();
        Ok(())
    }

    fn next_server_bytes(&mut self) -> Option<Vec<u8>> {
        let (after, bytes) = self.pieces.get(self.next)?;
        if *after > self.written {
            return None;
        }
        self.next += 1;
        Some(bytes.clone())
    }
}

struct Stream {
    peer: Rc<RefCell<dyn Peer>>,
    backlog: Vec<u8>,
}

impl NetStream for Stream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        std::future::poll_fn(|cx| {
            if self.backlog.is_empty() {
                match self.peer.borrow_mut().next_server_bytes() {
                    Some(b) => self.backlog = b,
                    None => {
                        // Nothing until the client writes more: polled again next turn.
                        cx.waker().wake_by_ref();
                        return Poll::Pending;
                    }
                }
            }
            let n = self.backlog.len().min(buf.len());
            buf[..n].copy_from_slice(&self.backlog[..n]);
            self.backlog.drain(..n);
            Poll::Ready(Ok(n))
        })
        .await
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.peer.borrow_mut().on_client_bytes(buf)
    }

    async fn close(&mut self) -> io::Result<()> {
        Ok(())
    }
}

type Task = Pin<Box<dyn Future<Output = ()>>>;

#[derive(Clone)]
struct OneNet {
    peer: Rc<RefCell<dyn Peer>>,
    tasks: Rc<RefCell<Vec<Task>>>,
}

impl Net for OneNet {
    type Stream = Stream;

    async fn connect(&self, host: &str, port: u16) -> io::Result<Stream> {
        assert_eq!((host, port), (REPLAY_HOST, PROXY_PORT));
        Ok(Stream {
            peer: Rc::clone(&self.peer),
            backlog: Vec::new(),
        })
    }

    async fn sleep(&self, _d: Duration) {
        std::future::pending::<()>().await;
    }

    /// workerd's clock reads 0 at module scope, where `warmup()` runs.
    fn now_ms(&self) -> u64 {
        0
    }

    fn spawn(&self, task: Task) {
        self.tasks.borrow_mut().push(task);
    }

    async fn resolve(&self, _host: &str) -> io::Result<Vec<IpAddr>> {
        Err(io::Error::other("no DNS here"))
    }

    fn resolves_names(&self) -> bool {
        false
    }
}

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Polls `fut` and the spawned tasks until `fut` is done.
fn block_on<F: Future>(net: &OneNet, fut: F) -> F::Output {
    let flag = Arc::new(Flag(AtomicBool::new(true)));
    let waker = Waker::from(Arc::clone(&flag));
    let mut cx = Context::from_waker(&waker);
    let mut fut = pin!(fut);
    let mut tasks: Vec<Task> = Vec::new();
    for _ in 0..100_000 {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return v;
        }
        tasks.extend(net.tasks.borrow_mut().drain(..));
        tasks.retain_mut(|t| t.as_mut().poll(&mut cx).is_pending());
    }
    panic!("the exchange never finished");
}

/// Fetches the warmup URL over `peer`; the status and the decoded body.
fn exchange(peer: Rc<RefCell<dyn Peer>>, anchor_pem: &[u8]) -> Result<(u16, Vec<u8>), String> {
    let net = OneNet {
        peer,
        tasks: Rc::default(),
    };
    let client = Client::new(net.clone(), config(anchor_pem));
    block_on(&net, async {
        let url = format!("https://{REPLAY_HOST}{PATH}");
        let mut r = client
            .fetch(Request::get(&url).unwrap())
            .await
            .map_err(|e| e.to_string())?;
        let body = r.bytes().await.map_err(|e| e.to_string())?;
        Ok((r.status, body))
    })
}

fn record() -> String {
    let server = Rc::new(RefCell::new(LiveServer::new()));
    let anchor =
        burrow_testkit::pem::certificate(server.borrow().tls.ca_certificate_der().unwrap());
    let (status, got) = exchange(server.clone(), &anchor).unwrap();
    assert_eq!((status, got), (200, body()));
    let s = server.borrow();
    let pieces: Vec<serde_json::Value> = s
        .pieces
        .iter()
        .map(|(after, b)| serde_json::json!([after, hex::encode(b)]))
        .collect();
    let doc = serde_json::json!({
        "about": "burrow-worker's warmup(): one GET through an HTTP CONNECT proxy to the reserved name warmup.burrow.invalid (TLS 1.3, HTTP/2, gzip), recorded by crates/client/tests/warmup_exchange.rs. client: every byte the client writes; server: [client bytes written before it, server bytes]. The anchor is the recording's own CA; nothing here is secret.",
        "url": format!("https://{REPLAY_HOST}{PATH}"),
        "proxy": format!("http://{REPLAY_HOST}:{PROXY_PORT}"),
        "anchor": String::from_utf8(anchor).unwrap(),
        "status": status,
        "bodySha256": hex::encode(digest(HashAlgorithm::Sha256, &body()).as_ref()),
        "client": hex::encode(&s.client),
        "server": pieces,
    });
    format!(
        "{MODULE_HEAD}{};\n",
        serde_json::to_string_pretty(&doc).unwrap()
    )
}

/// The recording is a JavaScript module (a JSON object as its default export), so workerd,
/// esbuild and Node import it alike.
const MODULE_HEAD: &str =
    "// Generated by crates/client/tests/warmup_exchange.rs: the exchange burrow.mjs's warmup()\n\
// replays. Regenerate it, never edit it.\nexport default ";

/// The JSON object of the recording module.
fn recording_json(module: &str) -> serde_json::Value {
    let json = module
        .strip_prefix(MODULE_HEAD)
        .and_then(|m| m.trim_end().strip_suffix(';'))
        .expect("the recording module's shape");
    serde_json::from_str(json).unwrap()
}

#[test]
fn committed_recording_replays() {
    if std::env::var_os("BURROW_WRITE_WARMUP").is_some() {
        std::fs::write(recording_path(), record()).unwrap();
    }
    let doc = recording_json(&std::fs::read_to_string(recording_path()).unwrap());
    let pieces = doc["server"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_u64().unwrap() as usize,
                hex::decode(p[1].as_str().unwrap()),
            )
        })
        .collect();
    let replay = Rc::new(RefCell::new(Replay {
        client: hex::decode(doc["client"].as_str().unwrap()),
        pieces,
        written: 0,
        next: 0,
    }));
    let anchor = doc["anchor"].as_str().unwrap().as_bytes().to_vec();
    let (status, got) = exchange(replay.clone(), &anchor).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 200);
    assert_eq!(
        hex::encode(digest(HashAlgorithm::Sha256, &got).as_ref()),
        doc["bodySha256"].as_str().unwrap()
    );
    let r = replay.borrow();
    assert_eq!(
        r.next,
        r.pieces.len(),
        "the server's pieces were not all read"
    );
    assert_eq!(
        r.written,
        r.client.len(),
        "the client wrote less than recorded"
    );
}

#[test]
fn recording_is_deterministic_and_current() {
    // Two recordings agree (no randomness reached the client), and the committed one is
    // this code's (or the Worker would replay a stale one).
    let a = record();
    assert_eq!(
        a,
        record(),
        "two recordings differ: randomness reached the exchange"
    );
    let committed = std::fs::read_to_string(recording_path()).unwrap_or_default();
    assert!(
        a == committed,
        "worker/js/warmup-exchange.mjs is stale: regenerate it with \
         BURROW_WRITE_WARMUP=1 cargo test -p burrow-client --test warmup_exchange"
    );
}
