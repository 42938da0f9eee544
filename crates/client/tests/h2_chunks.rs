//! HTTP/2 over TLS in memory, with record opens that are awaited (as WebCrypto's are in the
//! Worker): the response body comes out in chunks of what the transport delivered, not one
//! chunk per record.
//!
//! Regression: each DATA piece woke the reader, and the reader ran during the next record's
//! awaited open, so it took every record alone. In workerd that made four times the chunks,
//! each a trip out to JavaScript (2,730 instead of ~660 for 40 MiB).
//!
//! Also, with opens inline: a protocol error met among a read's buffered records (the
//! driver's `drain_buffered`) fails the stream and sends GOAWAY, as one in a read's first does.

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
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use burrow_client::{
    Client, ClientConfig, CryptoOffload, InlineOffload, LocalFuture, Net, NetStream, Offload,
    RecordKey, Request, Trust, CHUNK_TARGET,
};
use burrow_crypto::aead::AeadAlgorithm;
use burrow_crypto::sig::VerifyAlgorithm;
use burrow_crypto::CryptoError;
use burrow_testkit::h2::{frame, take_frame, PREFACE};
use burrow_testkit::tls13_server::{ServerConfig, Tls13Server};

/// 16 records' worth of body.
const BODY: usize = 16 * 16_000;

/// The server side: TLS by the scripted server, HTTP/2 just enough to answer one GET.
struct Server {
    tls: Tls13Server,
    /// Client plaintext not parsed yet.
    rx: Vec<u8>,
    preface_seen: bool,
    /// Transport reads that returned bytes.
    reads: usize,
    /// Transport reads begun (polled once); a read the driver abandons for a wake and
    /// begins again counts twice.
    begun: usize,
    /// Turns each read stays pending before it completes (a socket read resolves later).
    read_turns: usize,
    /// Output taken from the server that the client had no room for yet.
    backlog: Vec<u8>,
    /// Answer with one DATA record, then a record holding DATA on stream 0 (a connection
    /// error), instead of the body.
    broken: bool,
    /// The client sent GOAWAY.
    goaway_seen: bool,
}

impl Server {
    fn on_client_bytes(&mut self, bytes: &[u8]) {
        self.tls.receive(bytes).unwrap();
        self.rx.extend_from_slice(self.tls.received());
        let n = self.tls.received().len();
        self.tls.discard_received(n);
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
                7 => self.goaway_seen = true,
                1 if self.broken => {
                    self.tls.send(&frame(1, 4, stream, &[0x88])).unwrap();
                    self.tls
                        .send_record(&frame(0, 0, stream, &[7; 16_000]))
                        .unwrap();
                    self.tls.send_record(&frame(0, 0, 0, b"x")).unwrap();
                }
                // HEADERS: the whole response, one record per DATA frame of 16,000 bytes.
                1 => {
                    self.tls.send(&frame(1, 4, stream, &[0x88])).unwrap();
                    let body: Vec<u8> = (0..BODY).map(|i| (i % 251) as u8).collect();
                    let pieces = body.len().div_ceil(16_000);
                    for (i, piece) in body.chunks(16_000).enumerate() {
                        let end = if i + 1 == pieces { 1 } else { 0 };
                        self.tls.send_record(&frame(0, end, stream, piece)).unwrap();
                    }
                }
                _ => {}
            }
        }
    }
}

struct Stream(Rc<RefCell<Server>>);

impl NetStream for Stream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut polls = 0;
        std::future::poll_fn(|cx| {
            let mut s = self.0.borrow_mut();
            if polls == 0 {
                s.begun += 1;
            }
            if polls < s.read_turns {
                polls += 1;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            if s.backlog.is_empty() {
                s.backlog = s.tls.take_output();
            }
            if s.backlog.is_empty() {
                // Nothing to say until the client writes: ask to be polled again next turn
                // (the client's writes wake nobody here).
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            let n = s.backlog.len().min(buf.len());
            buf[..n].copy_from_slice(&s.backlog[..n]);
            s.backlog.drain(..n);
            s.reads += 1;
            Poll::Ready(Ok(n))
        })
        .await
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.borrow_mut().on_client_bytes(buf);
        Ok(())
    }

    async fn close(&mut self) -> io::Result<()> {
        Ok(())
    }
}

type Task = Pin<Box<dyn Future<Output = ()>>>;

#[derive(Clone)]
struct MemNet {
    server: Rc<RefCell<Server>>,
    tasks: Rc<RefCell<Vec<Task>>>,
}

impl Net for MemNet {
    type Stream = Stream;

    async fn connect(&self, _host: &str, _port: u16) -> io::Result<Stream> {
        Ok(Stream(Rc::clone(&self.server)))
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
        Ok(vec![IpAddr::from([127, 0, 0, 1])])
    }
}

/// Record keys whose opens complete one turn later, as a WebCrypto promise does.
struct AwaitedOpens {
    inner: InlineOffload,
    opens: Rc<Cell<usize>>,
}

struct AwaitedKey {
    inner: Rc<dyn RecordKey>,
    opens: Rc<Cell<usize>>,
}

/// Pending once, then ready.
async fn one_turn() {
    let mut yielded = false;
    std::future::poll_fn(|cx| {
        if yielded {
            return Poll::Ready(());
        }
        yielded = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    })
    .await
}

impl RecordKey for AwaitedKey {
    fn open<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<bool>> {
        Box::pin(async move {
            one_turn().await;
            self.opens.set(self.opens.get() + 1);
            self.inner.open(nonce, aad, data).await
        })
    }

    fn seal<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<()>> {
        self.inner.seal(nonce, aad, data)
    }
}

impl CryptoOffload for AwaitedOpens {
    fn offloads_records(&self) -> bool {
        true
    }

    fn offloads_signatures(&self) -> bool {
        false
    }

    fn import_key<'a>(
        &'a self,
        algorithm: AeadAlgorithm,
        key: &'a [u8],
    ) -> LocalFuture<'a, io::Result<Rc<dyn RecordKey>>> {
        let import = self.inner.import_key(algorithm, key);
        let opens = Rc::clone(&self.opens);
        Box::pin(async move {
            let inner = import.await?;
            Ok(Rc::new(AwaitedKey { inner, opens }) as Rc<dyn RecordKey>)
        })
    }

    fn verify<'a>(
        &'a self,
        algorithm: VerifyAlgorithm,
        spki: &'a [u8],
        message: &'a [u8],
        signature: &'a [u8],
    ) -> LocalFuture<'a, Result<(), CryptoError>> {
        self.inner.verify(algorithm, spki, message, signature)
    }
}

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn flag() -> Arc<Flag> {
    Arc::new(Flag(AtomicBool::new(true)))
}

/// Polls `fut` and the spawned tasks (the HTTP/2 driver), each only when it was woken, as a
/// real executor does, until `fut` is done. `eager`: `fut` is polled every turn, woken or not
/// (as the Worker's `next()` polls a new future the moment JavaScript asks for a chunk).
fn block_on<F: Future>(net: &MemNet, eager: bool, fut: F) -> F::Output {
    let main = flag();
    let main_waker = Waker::from(Arc::clone(&main));
    let mut fut = pin!(fut);
    let mut tasks: Vec<(Task, Arc<Flag>)> = Vec::new();
    for _ in 0..100_000 {
        let mut polled = false;
        if main.0.swap(false, Ordering::Relaxed) || eager {
            polled = true;
            if let Poll::Ready(v) = fut.as_mut().poll(&mut Context::from_waker(&main_waker)) {
                return v;
            }
        }
        tasks.extend(net.tasks.borrow_mut().drain(..).map(|t| (t, flag())));
        tasks.retain_mut(|(t, f)| {
            if !f.0.swap(false, Ordering::Relaxed) {
                return true;
            }
            polled = true;
            let waker = Waker::from(Arc::clone(f));
            t.as_mut()
                .poll(&mut Context::from_waker(&waker))
                .is_pending()
        });
        assert!(polled, "nothing was woken: the exchange stalled");
    }
    panic!("the exchange never finished");
}

/// What the client did while the body came.
struct BodyRun {
    /// The chunk sizes.
    chunks: Vec<usize>,
    /// Transport reads that returned bytes.
    reads: usize,
    /// Transport reads begun.
    begun: usize,
    /// Records opened.
    records: usize,
}

/// The scripted server (see [`Server`]) and the net to it.
fn serve(read_turns: usize, broken: bool) -> (Rc<RefCell<Server>>, MemNet) {
    let server = Rc::new(RefCell::new(Server {
        tls: Tls13Server::new(ServerConfig {
            alpn: vec![b"h2".to_vec()],
            ..ServerConfig::new("origin.test")
        }),
        rx: Vec::new(),
        preface_seen: false,
        reads: 0,
        begun: 0,
        read_turns,
        backlog: Vec::new(),
        broken,
        goaway_seen: false,
    }));
    let net = MemNet {
        server: Rc::clone(&server),
        tasks: Rc::default(),
    };
    (server, net)
}

/// A client configuration that trusts the scripted server.
fn trusting_config() -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::InsecureAcceptAnyCertificate;
    cfg.tls.request_staple = false;
    cfg
}

/// Fetches the body with record opens that wait a turn and transport reads that wait
/// `read_turns`.
fn chunks_of_body(eager: bool, read_turns: usize) -> BodyRun {
    let (server, net) = serve(read_turns, false);
    let opens = Rc::new(Cell::new(0));
    let mut cfg = trusting_config();
    cfg.tls.offload = Some(Offload(Rc::new(AwaitedOpens {
        inner: InlineOffload::new(),
        opens: Rc::clone(&opens),
    })));
    let client = Client::new(net.clone(), cfg);
    let (chunks, body, (reads, begun), records) = block_on(&net, eager, async {
        let mut r = client
            .fetch(Request::get("https://origin.test/big").unwrap())
            .await
            .unwrap();
        assert_eq!((r.status, r.meta.http_version), (200, "HTTP/2"));
        let (reads, begun, records) = {
            let s = server.borrow();
            (s.reads, s.begun, opens.get())
        };
        let mut chunks = Vec::new();
        let mut body = Vec::new();
        while let Some(c) = r.next_chunk().await.unwrap() {
            chunks.push(c.len());
            body.extend_from_slice(c);
        }
        let s = server.borrow();
        (
            chunks,
            body,
            (s.reads - reads, s.begun - begun),
            opens.get() - records,
        )
    });
    let want: Vec<u8> = (0..BODY).map(|i| (i % 251) as u8).collect();
    assert!(body == want, "the body came out wrong");
    BodyRun {
        chunks,
        reads,
        begun,
        records,
    }
}

fn assert_chunks_of_whole_reads(run: BodyRun) {
    let BodyRun {
        chunks,
        reads,
        records,
        ..
    } = run;
    assert!(records >= 16, "{records} records opened for the body");
    assert!(chunks.iter().all(|&n| n <= CHUNK_TARGET));
    // Each transport read's records go out as one chunk, two when a chunk fills midway.
    assert!(
        chunks.len() <= 2 * reads.max(1),
        "{} chunks from {reads} reads of {records} records: {chunks:?}",
        chunks.len()
    );
}

#[test]
fn awaited_record_opens_still_give_chunks_of_a_whole_read() {
    assert_chunks_of_whole_reads(chunks_of_body(false, 1));
}

#[test]
fn a_reader_polled_unwoken_waits_for_the_rest_of_the_read() {
    assert_chunks_of_whole_reads(chunks_of_body(true, 1));
}

#[test]
fn a_chunk_taken_wakes_the_driver_only_for_a_window_update() {
    // 256,000 bytes stay under half of either receive window, so no WINDOW_UPDATE is due
    // and the driver has nothing to do when the reader takes a chunk. Woken anyway, it
    // abandoned its transport read and began another (in the Worker, a turn of the driver
    // per chunk).
    for eager in [false, true] {
        // Reads that take a few turns: the reader takes its chunk while the driver's next
        // read is still pending.
        let run = chunks_of_body(eager, 3);
        assert!(run.chunks.len() >= 4, "{:?}", run.chunks);
        // Each read is begun once; the last one waits for bytes that never come.
        assert!(
            run.begun <= run.reads + 1,
            "{} reads begun for {} that returned bytes ({} chunks)",
            run.begun,
            run.reads,
            run.chunks.len()
        );
    }
}

#[test]
fn a_protocol_error_among_buffered_records_fails_the_stream_and_says_goaway() {
    // Record opens inline, so the records after a transport read's first go to burrow-h2 in
    // the driver's loop over what is buffered (`drain_buffered`): the bad frame is met there.
    let (server, net) = serve(1, true);
    let cfg = trusting_config();
    let client = Client::new(net.clone(), cfg);
    let e = block_on(&net, false, async {
        let r = client
            .fetch(Request::get("https://origin.test/big").unwrap())
            .await;
        match r {
            Ok(mut r) => loop {
                match r.next_chunk().await {
                    Ok(Some(_)) => {}
                    Ok(None) => panic!("the body ended despite the connection error"),
                    Err(e) => break e,
                }
            },
            Err(e) => e,
        }
    });
    assert_eq!(e.code(), "H2_PROTOCOL", "{e}");
    assert!(server.borrow().goaway_seen, "no GOAWAY went out");
}
