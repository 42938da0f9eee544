//! Rung e: the whole receive path, ciphertext in → body chunks out, through burrow-client's
//! public API (`Client::fetch`, `Response::chunk`) over an in-memory [`Net`] whose streams talk
//! to a scripted TLS 1.3 server (`burrow_testkit::tls13_server`) in the same thread.
//!
//! Keeping the server's work out of the figure: before each timed fetch (in the setup, outside
//! the figure) the server seals the whole next response, and the stream hands those bytes out
//! once the request has arrived (for HTTP/2 also as the client's flow-control windows allow,
//! like a real server). What the server still does inside the fetch — opening the client's
//! records (the request, WINDOW_UPDATEs) and parsing them — runs inside the stream's
//! `write_all`, is timed there on the same clock and subtracted.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::hint::black_box;
use std::io;
use std::net::IpAddr;
use std::ops::Range;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use burrow_client::{
    Client, ClientConfig, CryptoOffload, InlineOffload, LocalFuture, Net, NetStream, Offload,
    RecordKey, Request, Trust,
};
use burrow_crypto::aead::AeadAlgorithm;
use burrow_crypto::sig::VerifyAlgorithm;
use burrow_crypto::CryptoError;
use burrow_testkit::tls13_server::{ServerConfig, Suite, Tls13Server};

use super::layers::RecordSet;
use super::wire::{self, h2};
use super::{Line, Options, PathResult, BODY_LEN};
use crate::{corpus, phase, sample_interleaved, Clock, Op, Phase, Reading};

/// What the scripted server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Http {
    /// HTTP/2 (ALPN h2), 16 KiB DATA frames, flow control as the client grants it.
    H2,
    /// HTTP/1.1 with `Content-Length`.
    H1Length,
    /// HTTP/1.1, chunked in 16 KiB chunks.
    H1Chunked,
}

impl Http {
    fn name(self) -> &'static str {
        match self {
            Http::H2 => "h2",
            Http::H1Length => "h1 Content-Length",
            Http::H1Chunked => "h1 chunked",
        }
    }
}

const URL: &str = "https://localhost/4m.bin";
/// The platform time the in-memory net reports (2026-01-01; the certificate is valid then).
const NOW_MS: u64 = 1_767_225_600_000;
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// RFC 9113 §6.9.2: every window starts at 65,535 until SETTINGS or WINDOW_UPDATE say more.
const H2_DEFAULT_WINDOW: u64 = 65_535;

/// The response, built once per line: its plaintext (for HTTP/2 on stream 1; later streams get
/// their id written in) and its cut into record payloads.
struct Plan {
    http: Http,
    bytes: Vec<u8>,
    stream_ids: Vec<usize>,
    records: Vec<Range<usize>>,
    /// HTTP/2: per record, the body bytes of the DATA frames complete by its end (what the
    /// client's windows must allow before the record may go out).
    data_done: Vec<u64>,
    data_total: u64,
}

impl Plan {
    fn new(http: Http, body: &[u8]) -> Plan {
        let (bytes, stream_ids, ends) = match http {
            Http::H2 => wire::h2_response(body, 1),
            Http::H1Length => (wire::h1_response(body, false), Vec::new(), Vec::new()),
            Http::H1Chunked => (wire::h1_response(body, true), Vec::new(), Vec::new()),
        };
        let records = wire::record_ranges(bytes.len());
        let data_done = records
            .iter()
            .map(|r| {
                ends.iter()
                    .take_while(|(end, _)| *end <= r.end)
                    .last()
                    .map_or(0, |(_, sent)| *sent)
            })
            .collect();
        Plan {
            http,
            bytes,
            stream_ids,
            records,
            data_done,
            data_total: ends.last().map_or(0, |(_, s)| *s),
        }
    }

    fn payloads(&self) -> Vec<&[u8]> {
        self.records
            .iter()
            .map(|r| &self.bytes[r.clone()])
            .collect()
    }
}

/// A stretch of the server's output and what must happen before the client may read it.
struct Segment {
    /// End offset in `Conn::out`.
    end: usize,
    /// `None`: at once (handshake, SETTINGS, …). Otherwise a response record.
    gate: Option<Gate>,
}

struct Gate {
    stream: u32,
    /// Its request has arrived.
    armed: bool,
    /// Stream window the record needs (HTTP/2; 0 otherwise).
    stream_needed: u64,
    /// Connection window the record needs, counted from the start of the connection.
    conn_needed: u64,
}

/// The scripted server's HTTP/2 side: just enough to answer burrow's client and honour its
/// windows.
struct H2Side {
    preface_done: bool,
    stream_initial: u64,
    conn_allowed: u64,
    /// Body bytes of the responses sealed so far (where the next one starts in the connection
    /// window).
    conn_sealed: u64,
    /// A B-tree, not a hash map, so the counted figures (script/bench-machinery) need not
    /// tell the server's hashing from the client's.
    stream_allowed: BTreeMap<u32, u64>,
    next_stream: u32,
}

/// One connection: the server, the bytes between it and the client, the accounting.
struct Conn {
    server: Tls13Server,
    plan: Rc<Plan>,
    h2: H2Side,
    /// Client plaintext not parsed yet.
    rx: Vec<u8>,
    /// Server output: read up to `pos`, readable up to `released`.
    out: Vec<u8>,
    pos: usize,
    released: usize,
    segments: VecDeque<Segment>,
    /// A response sealed ahead for this stream (HTTP/1.1: 0).
    prepared: Option<u32>,
    reader: Option<Waker>,
    closed: bool,
    clock: Rc<dyn Clock>,
    /// Server time inside the client's writes.
    excluded: Reading,
    responses: u32,
    sealed_on_request: u32,
}

impl Conn {
    fn new(config: ServerConfig, plan: Rc<Plan>, clock: Rc<dyn Clock>) -> Conn {
        Conn {
            server: Tls13Server::new(config),
            plan,
            h2: H2Side {
                preface_done: false,
                stream_initial: H2_DEFAULT_WINDOW,
                conn_allowed: H2_DEFAULT_WINDOW,
                conn_sealed: 0,
                stream_allowed: BTreeMap::new(),
                next_stream: 1,
            },
            rx: Vec::new(),
            out: Vec::new(),
            pos: 0,
            released: 0,
            segments: VecDeque::new(),
            prepared: None,
            reader: None,
            closed: false,
            clock,
            excluded: Reading::default(),
            responses: 0,
            sealed_on_request: 0,
        }
    }

    /// Moves what the server queued (not a response) into the output, readable at once.
    fn flush_unconditional(&mut self) {
        if self.server.pending_output() > 0 {
            self.server.append_output(&mut self.out);
            self.segments.push_back(Segment {
                end: self.out.len(),
                gate: None,
            });
        }
    }

    fn send_frame(&mut self, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
        let mut f = Vec::new();
        wire::frame(&mut f, kind, flags, stream, payload);
        self.server.send(&f).expect("server send");
        self.flush_unconditional();
    }

    /// Seals the response for `stream` record by record, each gated on its request (`armed`:
    /// already here) and, for HTTP/2, on the windows.
    fn seal_response(&mut self, stream: u32, armed: bool) {
        self.flush_unconditional();
        let plan = Rc::clone(&self.plan);
        let mut patched;
        let bytes: &[u8] = if plan.http == Http::H2 && stream != 1 {
            patched = plan.bytes.clone();
            wire::set_stream(&mut patched, &plan.stream_ids, stream);
            &patched
        } else {
            &plan.bytes
        };
        let base = self.h2.conn_sealed;
        for (r, done) in plan.records.iter().zip(&plan.data_done) {
            self.server
                .send_record(&bytes[r.clone()])
                .expect("server seal");
            self.server.append_output(&mut self.out);
            self.segments.push_back(Segment {
                end: self.out.len(),
                gate: Some(Gate {
                    stream,
                    armed,
                    stream_needed: *done,
                    conn_needed: base + done,
                }),
            });
        }
        self.h2.conn_sealed += plan.data_total;
        let initial = self.h2.stream_initial;
        self.h2.stream_allowed.entry(stream).or_insert(initial);
    }

    /// Makes readable whatever is no longer held back; wakes the reader if anything was.
    fn release(&mut self) {
        let before = self.released;
        while let Some(seg) = self.segments.front() {
            if let Some(g) = &seg.gate {
                let stream_ok = self.plan.http != Http::H2
                    || (g.stream_needed
                        <= self.h2.stream_allowed.get(&g.stream).copied().unwrap_or(0)
                        && g.conn_needed <= self.h2.conn_allowed);
                if !(g.armed && stream_ok) {
                    break;
                }
            }
            self.released = seg.end;
            self.segments.pop_front();
        }
        if self.released > before {
            if let Some(w) = self.reader.take() {
                w.wake();
            }
        }
    }

    fn on_request(&mut self, stream: u32) {
        self.responses += 1;
        if self.prepared == Some(stream) {
            self.prepared = None;
            for seg in &mut self.segments {
                if let Some(g) = seg.gate.as_mut().filter(|g| g.stream == stream) {
                    g.armed = true;
                }
            }
        } else {
            assert!(
                self.prepared.is_none(),
                "a response was sealed for another stream"
            );
            self.seal_response(stream, true);
            self.sealed_on_request += 1;
        }
    }

    /// The server's side of a client write (timed by the caller and subtracted).
    fn on_client_bytes(&mut self, bytes: &[u8]) {
        self.server.receive(bytes).expect("scripted server");
        self.flush_unconditional();
        self.rx.extend_from_slice(self.server.received());
        let n = self.server.received().len();
        self.server.discard_received(n);
        match self.plan.http {
            Http::H2 => self.parse_h2(),
            Http::H1Length | Http::H1Chunked => {
                while let Some(end) = self.rx.windows(4).position(|w| w == b"\r\n\r\n") {
                    self.rx.drain(..end + 4);
                    self.on_request(0);
                }
            }
        }
        self.release();
    }

    fn parse_h2(&mut self) {
        if !self.h2.preface_done {
            if self.rx.len() < H2_PREFACE.len() {
                return;
            }
            assert_eq!(&self.rx[..H2_PREFACE.len()], H2_PREFACE, "h2 preface");
            self.rx.drain(..H2_PREFACE.len());
            self.h2.preface_done = true;
            // SETTINGS_MAX_CONCURRENT_STREAMS 100, as nginx and most servers send.
            self.send_frame(h2::SETTINGS, 0, 0, &[0, 3, 0, 0, 0, 100]);
        }
        while self.rx.len() >= 9 {
            let len = usize::from(self.rx[0]) << 16
                | usize::from(self.rx[1]) << 8
                | usize::from(self.rx[2]);
            if self.rx.len() < 9 + len {
                return;
            }
            let (kind, flags) = (self.rx[3], self.rx[4]);
            let stream =
                u32::from_be_bytes([self.rx[5], self.rx[6], self.rx[7], self.rx[8]]) & 0x7fff_ffff;
            let payload: Vec<u8> = self.rx[9..9 + len].to_vec();
            self.rx.drain(..9 + len);
            match kind {
                h2::SETTINGS if flags & h2::ACK == 0 => {
                    for s in payload.chunks_exact(6) {
                        if s[..2] == [0, 4] {
                            self.h2.stream_initial =
                                u64::from(u32::from_be_bytes([s[2], s[3], s[4], s[5]]));
                        }
                    }
                    self.send_frame(h2::SETTINGS, h2::ACK, 0, &[]);
                }
                h2::WINDOW_UPDATE if payload.len() == 4 => {
                    let inc = u64::from(
                        u32::from_be_bytes([payload[0], payload[1], payload[2], payload[3]])
                            & 0x7fff_ffff,
                    );
                    if stream == 0 {
                        self.h2.conn_allowed += inc;
                    } else {
                        let initial = self.h2.stream_initial;
                        *self.h2.stream_allowed.entry(stream).or_insert(initial) += inc;
                    }
                }
                h2::HEADERS => {
                    assert_eq!(stream, self.h2.next_stream, "the client's next stream");
                    assert!(flags & h2::END_HEADERS != 0, "one HEADERS frame");
                    self.h2.next_stream += 2;
                    self.on_request(stream);
                }
                h2::PING if flags & h2::ACK == 0 => {
                    self.send_frame(h2::PING, h2::ACK, 0, &payload);
                }
                _ => {}
            }
        }
    }

    /// Seals the next response ahead of its request (the setup of a timed fetch).
    fn prepare(&mut self) {
        assert!(self.prepared.is_none(), "one response ahead at most");
        let stream = match self.plan.http {
            Http::H2 => self.h2.next_stream,
            _ => 0,
        };
        self.seal_response(stream, false);
        self.prepared = Some(stream);
    }
}

/// The client's end of a [`Conn`].
pub(crate) struct MemStream {
    conn: Rc<RefCell<Conn>>,
    yielded: bool,
}

impl NetStream for MemStream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let conn = &self.conn;
        let yielded = &mut self.yielded;
        std::future::poll_fn(|cx| {
            // Every read completes in a later turn of the executor, as a socket read (in the
            // Worker, a BYOB read promise) does; it changes nothing until it completes.
            if !*yielded {
                *yielded = true;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            let mut c = conn.borrow_mut();
            if c.pos < c.released {
                let n = (c.released - c.pos).min(buf.len());
                let at = c.pos;
                buf[..n].copy_from_slice(&c.out[at..at + n]);
                c.pos += n;
                if c.pos == c.out.len() {
                    c.out.clear();
                    c.pos = 0;
                    c.released = 0;
                }
                *yielded = false;
                return Poll::Ready(Ok(n));
            }
            if c.closed {
                return Poll::Ready(Ok(0));
            }
            c.reader = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let mut c = self.conn.borrow_mut();
        phase(Phase::PeerStart);
        let start = c.clock.now();
        c.on_client_bytes(buf);
        let took = c.clock.now() - start;
        phase(Phase::PeerEnd);
        c.excluded += took;
        Ok(())
    }

    async fn close(&mut self) -> io::Result<()> {
        self.conn.borrow_mut().closed = true;
        Ok(())
    }
}

type Task = Pin<Box<dyn Future<Output = ()>>>;

struct NetState {
    tasks: RefCell<Vec<Task>>,
    conns: RefCell<Vec<Rc<RefCell<Conn>>>>,
    server: ServerConfig,
    plan: Rc<Plan>,
    clock: Rc<dyn Clock>,
}

/// The in-memory platform: `connect` starts a scripted server, `spawn` queues a task for
/// [`block_on`], timers never fire (no deadline is reached), the time stands still.
#[derive(Clone)]
pub(crate) struct MemNet(Rc<NetState>);

impl MemNet {
    fn conn(&self) -> Rc<RefCell<Conn>> {
        Rc::clone(self.0.conns.borrow().last().expect("a connection"))
    }
}

impl Net for MemNet {
    type Stream = MemStream;

    async fn connect(&self, _host: &str, _port: u16) -> io::Result<MemStream> {
        let conn = Rc::new(RefCell::new(Conn::new(
            self.0.server.clone(),
            Rc::clone(&self.0.plan),
            Rc::clone(&self.0.clock),
        )));
        self.0.conns.borrow_mut().push(Rc::clone(&conn));
        Ok(MemStream {
            conn,
            yielded: false,
        })
    }

    async fn sleep(&self, _d: Duration) {
        std::future::pending::<()>().await;
    }

    fn now_ms(&self) -> u64 {
        NOW_MS
    }

    fn spawn(&self, task: Task) {
        self.0.tasks.borrow_mut().push(task);
    }

    async fn resolve(&self, _host: &str) -> io::Result<Vec<IpAddr>> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "no resolver in memory",
        ))
    }
}

/// Times the record opens of the offload line while `on`: the whole path less those intervals
/// is its cost beyond the AEAD measured inside the same operation (no second measurement to
/// subtract, so the machine's drift between two operations does not enter it).
struct OpenTimer {
    clock: Rc<dyn Clock>,
    on: Cell<bool>,
    spent: Cell<Reading>,
    opens: Cell<u64>,
}

/// [`InlineOffload`] with its record opens timed by an [`OpenTimer`].
struct TimedOffload {
    inner: InlineOffload,
    timer: Rc<OpenTimer>,
}

struct TimedKey {
    inner: Rc<dyn RecordKey>,
    timer: Rc<OpenTimer>,
}

impl RecordKey for TimedKey {
    fn open<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<bool>> {
        if !self.timer.on.get() {
            return self.inner.open(nonce, aad, data);
        }
        let start = self.timer.clock.now();
        let open = self.inner.open(nonce, aad, data);
        Box::pin(async move {
            let r = open.await;
            let t = &self.timer;
            let mut spent = t.spent.get();
            spent += t.clock.now() - start;
            t.spent.set(spent);
            t.opens.set(t.opens.get() + 1);
            r
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

impl CryptoOffload for TimedOffload {
    fn offloads_records(&self) -> bool {
        true
    }

    fn offloads_signatures(&self) -> bool {
        self.inner.offloads_signatures()
    }

    fn import_key<'a>(
        &'a self,
        algorithm: AeadAlgorithm,
        key: &'a [u8],
    ) -> LocalFuture<'a, io::Result<Rc<dyn RecordKey>>> {
        let import = self.inner.import_key(algorithm, key);
        let timer = Rc::clone(&self.timer);
        Box::pin(async move {
            let inner = import.await?;
            Ok(Rc::new(TimedKey { inner, timer }) as Rc<dyn RecordKey>)
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

/// Seconds one pair of clock reads costs (what timing an open adds to the direct figure).
fn clock_pair_cost(clock: &dyn Clock) -> f64 {
    const PAIRS: u32 = 20_000;
    let start = clock.now();
    let mut last = start;
    for _ in 0..PAIRS {
        black_box(clock.now());
        last = black_box(clock.now());
    }
    (last - start).primary / f64::from(PAIRS)
}

struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::Relaxed);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `fut` and the net's spawned tasks (the HTTP/2 driver) in turns until `fut` is done. A
/// turn in which nobody was woken means nothing can move again: that is a bug, not a wait.
fn block_on<F: Future>(net: &MemNet, fut: F) -> F::Output {
    let flag = Arc::new(Flag(AtomicBool::new(false)));
    let waker = Waker::from(Arc::clone(&flag));
    let mut cx = Context::from_waker(&waker);
    let mut fut = pin!(fut);
    let mut running: Vec<Task> = Vec::new();
    loop {
        flag.0.store(false, Ordering::Relaxed);
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return v;
        }
        std::mem::swap(&mut running, &mut *net.0.tasks.borrow_mut());
        running.retain_mut(|t| t.as_mut().poll(&mut cx).is_pending());
        {
            let mut tasks = net.0.tasks.borrow_mut();
            running.append(&mut tasks);
            std::mem::swap(&mut running, &mut *tasks);
        }
        assert!(
            flag.0.load(Ordering::Relaxed),
            "the in-memory exchange stalled: nothing is left to wake"
        );
    }
}

/// One GET of the body: its length, the HTTP version, whether the connection was reused.
fn get(net: &MemNet, client: &Client<MemNet>) -> (usize, &'static str, bool) {
    block_on(net, async {
        let mut resp = client
            .fetch(Request::get(URL).expect("url"))
            .await
            .expect("fetch");
        assert_eq!(resp.status, 200);
        let mut n = 0;
        // The chunk is lent from the response's own buffer (reused from chunk to chunk).
        while let Some(chunk) = resp.next_chunk().await.expect("body") {
            n += black_box(chunk).len();
        }
        (n, resp.meta.http_version, resp.meta.reused)
    })
}

/// e. The whole path for one suite and HTTP version (record AEAD inline, or through the offload
/// seam answered by `InlineOffload`), the AEAD alone over the same records, and the design floor
/// over them ([`RecordSet::floor_op`]).
pub(crate) fn whole_path(
    clock: Rc<dyn Clock>,
    opts: Options,
    suite: Suite,
    http: Http,
    offload: bool,
) -> PathResult {
    let body = corpus::binary(BODY_LEN);
    let plan = Rc::new(Plan::new(http, &body));
    let server = ServerConfig {
        suite,
        alpn: vec![match http {
            Http::H2 => b"h2".to_vec(),
            _ => b"http/1.1".to_vec(),
        }],
        ..ServerConfig::new("localhost")
    };
    let net = MemNet(Rc::new(NetState {
        tasks: RefCell::new(Vec::new()),
        conns: RefCell::new(Vec::new()),
        server,
        plan: Rc::clone(&plan),
        clock: Rc::clone(&clock),
    }));
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::InsecureAcceptAnyCertificate;
    cfg.http1_only = http != Http::H2;
    let timer = Rc::new(OpenTimer {
        clock: Rc::clone(&clock),
        on: Cell::new(false),
        spent: Cell::new(Reading::default()),
        opens: Cell::new(0),
    });
    // Runs of the inside-measured operation (declared before the operations that borrow it).
    let direct_runs = Cell::new(0u64);
    if offload {
        cfg.tls.offload = Some(Offload(Rc::new(TimedOffload {
            inner: InlineOffload::new(),
            timer: Rc::clone(&timer),
        })));
    }
    let client = Client::new(net.clone(), cfg);

    // Warm-up, outside the figure: the handshake, and a first response sealed on request.
    let (n, version, _) = get(&net, &client);
    assert_eq!(n, BODY_LEN);
    assert_eq!(
        version == "HTTP/2",
        http == Http::H2,
        "negotiated {version}"
    );
    let records_before = net.conn().borrow().server.records_received();
    let responses_before = net.conn().borrow().responses;

    let records = RecordSet::new(suite, &plan.payloads());
    let path_op = Op::new(
        || net.conn().borrow_mut().prepare(),
        |()| {
            let before = net.conn().borrow().excluded;
            let (n, _, reused) = get(&net, &client);
            assert_eq!(n, BODY_LEN);
            assert!(reused, "the warm client reuses its connection");
            net.conn().borrow().excluded - before
        },
    );
    let mut ops = vec![path_op];
    if !opts.path_only {
        ops.push(records.aead_op());
        ops.push(records.floor_op());
    }
    if offload && !opts.path_only {
        // The same fetch, its record opens timed and left out of the figure.
        ops.push(Op::new(
            || net.conn().borrow_mut().prepare(),
            |()| {
                let before = net.conn().borrow().excluded;
                let spent = timer.spent.get();
                timer.on.set(true);
                let (n, _, reused) = get(&net, &client);
                timer.on.set(false);
                direct_runs.set(direct_runs.get() + 1);
                assert_eq!(n, BODY_LEN);
                assert!(reused, "the warm client reuses its connection");
                let mut left_out = net.conn().borrow().excluded - before;
                left_out += timer.spent.get() - spent;
                left_out
            },
        ));
    }
    let opens_before = timer.opens.get();
    let samples = sample_interleaved(&*clock, opts.round_secs, opts.rounds, &mut ops);
    let mut samples = samples.into_iter();
    let s = samples.next().unwrap_or_default();
    let aead_sample = samples.next().unwrap_or_default();
    let floor_sample = samples.next();
    let direct = samples.next().map(|d| {
        let per = |secs: f64| secs * 1e3 / (BODY_LEN as f64 / 1e6);
        let opens = (timer.opens.get() - opens_before) as f64 / direct_runs.get().max(1) as f64;
        super::Direct {
            median: per(d.median),
            p10: per(d.p10),
            lowest: per(d.min),
            highest: per(d.max),
            opens,
            clock_cost: per(clock_pair_cost(&*clock) * opens),
        }
    });
    let conn = net.conn();
    let c = conn.borrow();
    assert_eq!(net.0.conns.borrow().len(), 1, "one connection for the line");
    assert_eq!(
        c.sealed_on_request, 1,
        "every timed response was sealed ahead"
    );
    let timed = f64::from(c.responses - responses_before);
    let client_records = (c.server.records_received() - records_before) as f64 / timed;
    drop(c);

    let name = format!(
        "e. whole path, {} {}{}",
        http.name(),
        suite.aead_name(),
        if offload { ", offload seam" } else { "" }
    );
    let aead = records.aead_result(
        aead_sample,
        format!("   AEAD open alone, same {} records", plan.records.len()),
        BODY_LEN,
    );
    let floor = floor_sample.map(|sample| Line {
        name: "   design floor: copy in, open in place, copy out".to_string(),
        api: "e. (design floor) RecordSet::floor_op: slice copies and AeadKey::open_in_place"
            .to_string(),
        body: BODY_LEN,
        sample,
    });
    let path = Line {
        name,
        api: if offload {
            "e. (offload seam) the same, with ClientConfig.tls.offload = Offload(InlineOffload): CryptoOffload::import_key, RecordKey::open".to_string()
        } else {
            "e. burrow_client::{Client::new, Client::fetch, Response::chunk} over a Net/NetStream (in memory), ClientConfig.tls.trust = InsecureAcceptAnyCertificate".to_string()
        },
        body: BODY_LEN,
        sample: s,
    };
    let (beyond, beyond_p10) = path.beyond(&aead);
    PathResult {
        path,
        aead,
        floor,
        client_records,
        beyond,
        beyond_p10,
        direct,
    }
}
