//! Whole burrow-client exchanges against scripted servers, decoded from arbitrary bytes: the fuzz
//! targets `client_h1` and `client_h2` run [`h1`] and [`h2`], and tests replay inputs with them.
//!
//! An input is a few bytes of configuration (method and body, a second request after the first
//! or beside it, redirects, cookies, decoding, body cap, proxy, reads that wait a turn, timers
//! that fire) and then operations, each adding one read's worth of server bytes to the current
//! connection or starting the next connection: whole responses built consistently (so deep
//! states are reached at once), and the pieces to break them (heads, chunks, frames of every
//! type with any stream and flags, HPACK blocks, content-coded bodies, proxy replies, raw
//! bytes, a cut at any point). Plain `http://` origins, so no TLS is involved; `https://`
//! redirect targets meet the scripted bytes as a TLS server and fail as such.
//!
//! What must hold, checked here (a panic is a finding): the fetch ends (`Ok` or an
//! [`burrow_client::Error`] with its code), without a hang and within a number of turns
//! proportional to the input; a body handed out is never longer than `max_body_bytes`. The fuzz
//! target adds the bound on live heap ([`MAX_LIVE_HEAP`]).

use std::cell::RefCell;
use std::future::Future;
use std::io::Write;
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;

use burrow_client::{
    BodySource, BodyStream, Client, ClientConfig, Decompress, Proxy, RedirectMode, Request,
    H2_CONNECTION_WINDOW,
};
use burrow_h2::hpack::{Encoder, EncoderPolicy};
use burrow_h2::Header;

use crate::h2::frame;
use crate::script_net::{drive, Piece, Script, ScriptNet, Stuck};

/// The body caps an input may choose (`max_body_bytes`): never unlimited, so a decompression
/// bomb ends at a cap instead of running the fuzzer into its timeout.
pub const BODY_CAPS: [u64; 4] = [1024, 64 * 1024, 1 << 20, 4 << 20];

/// The most live heap one exchange may hold, from the client's documented bounds: per content
/// coding stage at most a brotli ring buffer of 16 MiB (burrow-decode's largest window; zstd's
/// is 8 MiB plus a 128 KiB block), for at most `burrow_decode::MAX_CODINGS` stages; HTTP/2
/// bodies buffered up to the connection window (`H2_CONNECTION_WINDOW`, 4 MiB); the largest
/// body cap an input can pick (4 MiB: the harness keeps the body); and 16 MiB for everything
/// bounded by the input's own size or by small fixed limits (heads ≤ 64 KiB, header blocks
/// ≤ 128 KiB, HPACK tables, frame buffers, the script itself and its encoders).
pub const MAX_LIVE_HEAP: usize = burrow_decode::MAX_CODINGS * (16 << 20)
    + H2_CONNECTION_WINDOW as usize
    + (4 << 20)
    + (16 << 20);

/// Which protocol the origin speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proto {
    H1,
    H2,
}

/// What one exchange reached (for the fuzz statistics and the tests).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Connections the client opened.
    pub connections: usize,
    /// Responses whose head arrived, with their status.
    pub statuses: Vec<u16>,
    /// Bodies read to their end.
    pub bodies_completed: usize,
    /// Body bytes handed out.
    pub body_bytes: u64,
    /// Redirects followed (over all responses).
    pub redirects: u32,
    /// Responses whose body was content-decoded.
    pub decoded: usize,
    /// Responses that came over HTTP/2.
    pub h2_responses: usize,
    /// Error codes met (fetch or body).
    pub errors: Vec<&'static str>,
    /// Turns the exchange took.
    pub turns: usize,
}

/// Runs an HTTP/1.1 exchange scripted by `data`.
pub fn h1(data: &[u8]) -> Report {
    run(data, Proto::H1)
}

/// Runs an HTTP/2 (h2c, prior knowledge) exchange scripted by `data`.
pub fn h2(data: &[u8]) -> Report {
    run(data, Proto::H2)
}

/// The bytes an input is read from; reads past the end give zeros / nothing.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }

    /// A length byte, then that many bytes.
    fn blob(&mut self) -> &'a [u8] {
        let n = usize::from(self.byte());
        self.take(n)
    }

    /// Two length bytes (big-endian), then that many bytes.
    fn big_blob(&mut self) -> &'a [u8] {
        let n = usize::from(u16::from_be_bytes([self.byte(), self.byte()]));
        self.take(n)
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        let i = usize::from(self.byte()) % from.len();
        from[i]
    }

    fn u32(&mut self) -> u32 {
        u32::from_be_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The requests and the client configuration an input chose.
struct Plan {
    cfg: ClientConfig,
    method: &'static str,
    /// 0: no body; 1: bytes; 2: streamed with its length; 3: streamed, length unknown.
    body: u8,
    caller_accept_encoding: bool,
    second: bool,
    concurrent: bool,
    yield_each: bool,
    timers_fire: bool,
}

fn plan(input: &mut Input<'_>, proto: Proto) -> Plan {
    let (a, b) = (input.byte(), input.byte());
    let mut cfg = ClientConfig {
        redirect_mode: if a & 1 == 0 {
            RedirectMode::Follow
        } else {
            RedirectMode::Manual
        },
        cookies: a & 2 != 0,
        decompress: if a & 4 != 0 {
            Decompress::Passthrough
        } else {
            Decompress::Auto
        },
        max_body_bytes: Some(BODY_CAPS[usize::from(b & 3)]),
        proxy: match (b >> 3) & 3 {
            1 => Proxy::parse("http://u:p@proxy.test:3128").ok(),
            2 => Proxy::parse("socks5h://proxy.test:1080").ok(),
            _ => None,
        },
        http2_prior_knowledge: proto == Proto::H2,
        ..ClientConfig::default()
    };
    if b & 0x40 != 0 {
        cfg.redirect.max_redirects = 2;
    }
    if b & 0x80 != 0 {
        cfg.max_idle_per_origin = 0;
    }
    Plan {
        cfg,
        method: ["GET", "HEAD", "POST", "PUT"][usize::from((a >> 4) & 3)],
        body: (a >> 4) & 3,
        caller_accept_encoding: a & 8 != 0,
        second: a & 0x40 != 0,
        concurrent: a & 0x80 != 0,
        yield_each: b & 4 != 0,
        timers_fire: b & 0x20 != 0,
    }
}

/// A streamed request body: a few pieces.
struct Pieces(Vec<Vec<u8>>);

impl BodySource for Pieces {
    fn next_piece(
        &mut self,
    ) -> Pin<Box<dyn Future<Output = std::io::Result<Option<Vec<u8>>>> + '_>> {
        let next = (!self.0.is_empty()).then(|| self.0.remove(0));
        Box::pin(async move { Ok(next) })
    }
}

fn request(p: &Plan, url: &str) -> Option<Request> {
    let mut r = Request::new(p.method, url).ok()?;
    if p.caller_accept_encoding {
        r = r.header("Accept-Encoding", "gzip");
    }
    let pieces = vec![b"hello ".to_vec(), Vec::new(), b"world".to_vec()];
    Some(match p.body {
        2 => r.body(b"hello world".to_vec()),
        3 if p.method == "PUT" => r.body_stream(BodyStream::new(Pieces(pieces), None)),
        _ => r,
    })
}

fn run(data: &[u8], proto: Proto) -> Report {
    let mut input = Input(data);
    let p = plan(&mut input, proto);
    let scripts = match proto {
        Proto::H1 => h1_scripts(&mut input),
        Proto::H2 => h2_scripts(&mut input),
    };
    let mut net = ScriptNet::with(
        scripts
            .into_iter()
            .map(|pieces| Script {
                pieces,
                yield_each: p.yield_each,
                ..Script::default()
            })
            .collect(),
    );
    net.timers_fire = p.timers_fire;
    let cap = p.cfg.max_body_bytes.unwrap_or(u64::MAX);
    let report = Rc::new(RefCell::new(Report::default()));
    let client = Client::new(net.clone(), p.cfg.clone());
    // Turns grow with the input (every read may wait a turn; every frame may wake a reader
    // and the driver), never with anything else.
    let max_turns = 1_000 + 64 * data.len();
    let urls = ["http://a.test/p", "http://a.test/q"];
    let exchange = async {
        let first = fetch_and_read(&client, request(&p, urls[0]), cap, &report);
        if p.second && p.concurrent {
            let second = fetch_and_read(&client, request(&p, urls[1]), cap, &report);
            join(first, second).await;
        } else {
            first.await;
            if p.second {
                fetch_and_read(&client, request(&p, urls[1]), cap, &report).await;
            }
        }
    };
    let turns = match drive(&net, exchange, max_turns) {
        Ok(((), turns)) => turns,
        Err(Stuck::Hang { turns }) => panic!("the exchange hung after {turns} turns"),
        Err(Stuck::TooManyTurns(n)) => panic!("the exchange took more than {n} turns"),
    };
    // The client goes; its HTTP/2 driver says goodbye and ends.
    drop(client);
    let tasks_done = std::future::poll_fn(|_| match net.pending_tasks() {
        0 => Poll::Ready(()),
        _ => Poll::Pending,
    });
    if let Err(stuck) = drive(&net, tasks_done, max_turns) {
        panic!("the connection drivers did not end: {stuck:?}");
    }
    let mut r = report.take();
    r.turns = turns;
    r.connections = net.connects.borrow().len();
    r
}

async fn fetch_and_read(
    client: &Client<ScriptNet>,
    req: Option<Request>,
    cap: u64,
    report: &RefCell<Report>,
) {
    let Some(req) = req else { return };
    let mut resp = match client.fetch(req).await {
        Ok(r) => r,
        Err(e) => {
            let _ = e.to_string();
            report.borrow_mut().errors.push(e.code());
            return;
        }
    };
    {
        let mut r = report.borrow_mut();
        r.statuses.push(resp.status);
        r.redirects = r.redirects.saturating_add(resp.meta.redirects);
        r.decoded += usize::from(resp.meta.content_encoding.is_some());
        r.h2_responses += usize::from(resp.meta.http_version == "HTTP/2");
    }
    let mut got: u64 = 0;
    loop {
        match resp.next_chunk().await {
            Ok(Some(chunk)) => {
                got = got.saturating_add(chunk.len() as u64);
                assert!(
                    got <= cap,
                    "a body of {got} bytes went past max_body_bytes {cap}"
                );
            }
            Ok(None) => {
                report.borrow_mut().bodies_completed += 1;
                break;
            }
            Err(e) => {
                let _ = e.to_string();
                report.borrow_mut().errors.push(e.code());
                break;
            }
        }
    }
    report.borrow_mut().body_bytes += got;
}

/// Polls both futures until both are done.
async fn join(a: impl Future<Output = ()>, b: impl Future<Output = ()>) {
    let (mut a, mut b) = (Box::pin(a), Box::pin(b));
    let (mut a_done, mut b_done) = (false, false);
    std::future::poll_fn(|cx| {
        a_done = a_done || a.as_mut().poll(cx).is_ready();
        b_done = b_done || b.as_mut().poll(cx).is_ready();
        if a_done && b_done {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
}

/// Server-side connections being scripted: pieces per connection.
struct Conns(Vec<Vec<Piece>>);

impl Conns {
    fn new() -> Conns {
        Conns(vec![Vec::new()])
    }

    fn push(&mut self, bytes: Vec<u8>) {
        if let Some(c) = self.0.last_mut() {
            c.push(Piece::Bytes(bytes));
        }
    }

    /// The server waits for the client's next request before going on.
    fn await_write(&mut self) {
        if let Some(c) = self.0.last_mut() {
            c.push(Piece::AwaitWrite);
        }
    }

    fn next(&mut self) {
        self.0.push(Vec::new());
    }

    /// Cuts the last piece in two at `at` (modulo its length).
    fn cut(&mut self, at: u8) {
        let Some(c) = self.0.last_mut() else { return };
        let Some(Piece::Bytes(last)) = c.last_mut() else {
            return;
        };
        if last.len() < 2 {
            return;
        }
        let k = 1 + usize::from(at) % (last.len() - 1);
        let tail = last.split_off(k);
        c.push(Piece::Bytes(tail));
    }
}

/// Header names a server's fields are picked from (lower case: valid in both versions).
const NAMES: [&str; 14] = [
    "content-length",
    "transfer-encoding",
    "content-encoding",
    "location",
    "set-cookie",
    "connection",
    "trailer",
    "content-type",
    "keep-alive",
    "te",
    "x-a",
    "upgrade",
    "proxy-connection",
    ":status",
];

/// A value for a field named `name`: from a list of ones that matter, or raw bytes.
fn value(input: &mut Input<'_>, name: &str) -> Vec<u8> {
    let choice = input.byte();
    if choice & 0x80 != 0 {
        return input.blob().to_vec();
    }
    let list: &[&str] = match name {
        "content-length" => &["0", "5", "11", "18446744073709551616", "-1", "5, 5", "x"],
        "transfer-encoding" => &["chunked", "gzip, chunked", "identity", "chunked, chunked"],
        "content-encoding" => &[
            "gzip",
            "deflate",
            "br",
            "zstd",
            "gzip, br",
            "x-gzip",
            "identity",
            "compress",
            "br, br, br, br, br, br",
        ],
        "location" => &[
            "/next",
            "http://a.test/r",
            "http://b.test/",
            "https://a.test/",
            "//c.test/x",
            "?q",
            "http://[::1]:8080/",
            "http://a.test:99999/",
            "%zz",
            "",
        ],
        "set-cookie" => &[
            "a=b",
            "a=b; Domain=a.test; Path=/",
            "__Host-x=1; Secure; Path=/",
            "c=d; Max-Age=0",
            "e=f; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
            "g=h; Domain=test",
        ],
        "connection" => &["close", "keep-alive", "upgrade"],
        "trailer" => &["x-t", "content-length"],
        ":status" => &["200", "204", "304", "100", "101", "99", "1000", "30x"],
        _ => &["1", "", "a b"],
    };
    list[usize::from(choice) % list.len()].as_bytes().to_vec()
}

const STATUSES: [u16; 16] = [
    200, 204, 206, 301, 302, 303, 304, 307, 308, 100, 103, 101, 401, 407, 500, 199,
];

/// A content-coded body: `payload` under the coding chosen, maybe with one byte flipped;
/// returns the `Content-Encoding` value and the bytes.
fn coded(input: &mut Input<'_>) -> (&'static str, Vec<u8>) {
    let (kind, flip) = (input.byte(), input.byte());
    let payload = input.big_blob();
    let (name, mut body) = match kind % 6 {
        0 => ("gzip", gzip(payload)),
        1 => ("deflate", zlib(payload)),
        2 => ("deflate", raw_deflate(payload)),
        3 => (
            "br",
            brotli(payload, [10, 16, 22, 24][usize::from(kind >> 4) % 4]),
        ),
        4 => ("zstd", zstd(payload)),
        _ => ("gzip, br", brotli(&gzip(payload), 16)),
    };
    if flip != 0 && !body.is_empty() {
        let i = usize::from(flip) % body.len();
        body[i] ^= flip;
    }
    (name, body)
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = e.write_all(b);
    e.finish().unwrap_or_default()
}

fn zlib(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = e.write_all(b);
    e.finish().unwrap_or_default()
}

fn raw_deflate(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = e.write_all(b);
    e.finish().unwrap_or_default()
}

fn brotli(b: &[u8], lgwin: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 1, lgwin);
        let _ = w.write_all(b);
    }
    out
}

fn zstd(b: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(b, ruzstd::encoding::CompressionLevel::Fastest)
}

/// A response body: raw bytes or content-coded (then its `Content-Encoding`).
fn body(input: &mut Input<'_>) -> (Option<&'static str>, Vec<u8>) {
    if input.byte() & 1 == 0 {
        (None, input.big_blob().to_vec())
    } else {
        let (name, b) = coded(input);
        (Some(name), b)
    }
}

/// SOCKS5 method choice and CONNECT reply (mostly a success, sometimes a refusal or raw).
fn socks5_reply(input: &mut Input<'_>) -> Vec<u8> {
    match input.byte() % 4 {
        0 | 1 => vec![5, 0, 5, 0, 0, 1, 127, 0, 0, 1, 0, 80],
        2 => vec![5, 0, 5, input.byte(), 0, 3, 1, b'x', 0, 80],
        _ => input.blob().to_vec(),
    }
}

fn h1_scripts(input: &mut Input<'_>) -> Vec<Vec<Piece>> {
    let mut conns = Conns::new();
    while !input.is_empty() {
        match input.byte() % 11 {
            0 => conns.next(),
            1 => conns.push(h1_response(input)),
            2 => {
                let mut head = h1_status_line(input);
                h1_fields(input, &mut head);
                head.extend_from_slice(b"\r\n");
                conns.push(head);
            }
            3 => conns.push(input.big_blob().to_vec()),
            4 => {
                let b = input.blob();
                let mut c = format!("{:x}", b.len()).into_bytes();
                if input.byte() & 1 == 1 {
                    c.extend_from_slice(b";ext=1");
                }
                c.extend_from_slice(b"\r\n");
                c.extend_from_slice(b);
                c.extend_from_slice(b"\r\n");
                conns.push(c);
            }
            5 => {
                let mut c = b"0\r\n".to_vec();
                h1_fields(input, &mut c);
                c.extend_from_slice(b"\r\n");
                conns.push(c);
            }
            6 => conns.push(input.blob().to_vec()),
            7 => conns.cut(input.byte()),
            8 => conns.push(socks5_reply(input)),
            9 => conns.push(coded(input).1),
            _ => conns.await_write(),
        }
    }
    conns.0
}

fn h1_status_line(input: &mut Input<'_>) -> Vec<u8> {
    let status = input.pick(&STATUSES);
    let version = if input.byte() & 1 == 0 { "1.1" } else { "1.0" };
    format!("HTTP/{version} {status} X\r\n").into_bytes()
}

fn h1_fields(input: &mut Input<'_>, out: &mut Vec<u8>) {
    for _ in 0..input.byte() % 6 {
        let name = input.pick(&NAMES[..NAMES.len() - 1]);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(&value(input, name));
        out.extend_from_slice(b"\r\n");
    }
}

/// A whole, consistent HTTP/1.1 response: status line, fields, framing (Content-Length,
/// chunked, or to the close), body (maybe coded), trailers.
fn h1_response(input: &mut Input<'_>) -> Vec<u8> {
    let mut out = h1_status_line(input);
    h1_fields(input, &mut out);
    let framing = input.byte() % 3;
    let (coding, body) = body(input);
    if let Some(c) = coding {
        out.extend_from_slice(format!("Content-Encoding: {c}\r\n").as_bytes());
    }
    match framing {
        0 => {
            out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            out.extend_from_slice(&body);
        }
        1 => {
            out.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
            let size = 1 + usize::from(input.byte());
            for c in body.chunks(size) {
                out.extend_from_slice(format!("{:x}\r\n", c.len()).as_bytes());
                out.extend_from_slice(c);
                out.extend_from_slice(b"\r\n");
            }
            out.extend_from_slice(b"0\r\n");
            h1_fields(input, &mut out);
            out.extend_from_slice(b"\r\n");
        }
        _ => {
            out.extend_from_slice(b"Connection: close\r\n\r\n");
            out.extend_from_slice(&body);
        }
    }
    out
}

/// Stream ids a server's frame may name: ours (1, 3, 5, 7, 9), the connection, one the server
/// may not open (2), the largest.
const STREAMS: [u32; 8] = [1, 3, 5, 0, 2, 7, 0x7fff_ffff, 9];

/// SETTINGS entries: (id, value) from ids that matter and values at their edges.
fn settings_payload(input: &mut Input<'_>) -> Vec<u8> {
    const IDS: [u16; 8] = [1, 2, 3, 4, 5, 6, 8, 0x10];
    const VALUES: [u32; 10] = [
        0,
        1,
        100,
        4096,
        65_535,
        65_536,
        16_384,
        16_777_215,
        0x7fff_ffff,
        0x8000_0000,
    ];
    let mut p = Vec::new();
    for _ in 0..input.byte() % 5 {
        let id = input.pick(&IDS);
        let v = input.byte();
        let value = if v & 0x80 != 0 {
            input.u32()
        } else {
            VALUES[usize::from(v) % VALUES.len()]
        };
        p.extend_from_slice(&id.to_be_bytes());
        p.extend_from_slice(&value.to_be_bytes());
    }
    p
}

/// One HTTP/2 server connection being scripted: its HPACK encoder keeps the table in step
/// with the client's decoder (until raw blocks desynchronise them, as a fuzzer may).
struct H2Server {
    enc: Encoder,
}

impl H2Server {
    fn block(&mut self, fields: &[Header]) -> Vec<u8> {
        let mut b = Vec::new();
        self.enc.encode(fields, &mut b);
        b
    }

    /// A field list: `:status` (unless `trailers`), then fields from the tables.
    fn fields(&mut self, input: &mut Input<'_>, trailers: bool) -> Vec<Header> {
        let mut f = Vec::new();
        if !trailers {
            f.push(Header::new(":status", input.pick(&STATUSES).to_string()));
        }
        for _ in 0..input.byte() % 5 {
            let name = input.pick(&NAMES);
            f.push(Header::new(name, value(input, name)));
        }
        f
    }

    /// HEADERS (maybe padded, with priority, or split into CONTINUATION frames).
    fn headers(
        &mut self,
        out: &mut Vec<u8>,
        stream: u32,
        block: &[u8],
        end_stream: bool,
        style: u8,
    ) {
        let mut flags = if end_stream { 0x1 } else { 0 };
        let mut payload = Vec::new();
        if style & 4 != 0 {
            flags |= 0x8;
            payload.push(3);
        }
        if style & 8 != 0 {
            flags |= 0x20;
            payload.extend_from_slice(&[0, 0, 0, 0, 15]);
        }
        let split = if style & 2 != 0 {
            1 + usize::from(style >> 4)
        } else {
            usize::MAX
        };
        let mut parts = block.chunks(split.max(1));
        let first = parts.next().unwrap_or_default();
        let rest: Vec<&[u8]> = parts.collect();
        payload.extend_from_slice(first);
        if style & 4 != 0 {
            payload.extend_from_slice(&[0, 0, 0]);
        }
        if rest.is_empty() {
            flags |= 0x4;
        }
        out.extend(frame(0x1, flags, stream, &payload));
        for (i, part) in rest.iter().enumerate() {
            let end = if i + 1 == rest.len() { 0x4 } else { 0 };
            out.extend(frame(0x9, end, stream, part));
        }
    }

    /// A whole response on `stream`: HEADERS with content-length (or not) and maybe
    /// content-encoding, DATA frames of the chosen size, maybe trailers.
    fn response(&mut self, input: &mut Input<'_>, stream: u32) -> Vec<u8> {
        let mut fields = self.fields(input, false);
        let style = input.byte();
        let (coding, body) = body(input);
        if let Some(c) = coding {
            fields.push(Header::new("content-encoding", c));
        }
        if style & 1 != 0 {
            fields.push(Header::new("content-length", body.len().to_string()));
        }
        let trailers = style & 0x80 != 0;
        let mut out = Vec::new();
        let block = self.block(&fields);
        self.headers(
            &mut out,
            stream,
            &block,
            body.is_empty() && !trailers,
            style & 0x7e,
        );
        let size = 1 + usize::from(input.byte()) * 64;
        let pieces: Vec<&[u8]> = body.chunks(size).collect();
        for (i, c) in pieces.iter().enumerate() {
            let end = if i + 1 == pieces.len() && !trailers {
                0x1
            } else {
                0
            };
            out.extend(frame(0x0, end, stream, c));
        }
        if trailers {
            let t = self.fields(input, true);
            let block = self.block(&t);
            self.headers(&mut out, stream, &block, true, 0);
        }
        out
    }
}

fn h2_scripts(input: &mut Input<'_>) -> Vec<Vec<Piece>> {
    let mut conns = Conns::new();
    let mut server = H2Server {
        enc: Encoder::new(EncoderPolicy::default()),
    };
    while !input.is_empty() {
        match input.byte() % 17 {
            0 => {
                conns.next();
                server.enc = Encoder::new(EncoderPolicy::default());
            }
            1 => {
                let mut p = frame(0x4, 0, 0, &settings_payload(input));
                if input.byte() & 1 == 0 {
                    p.extend(frame(0x4, 0x1, 0, &[]));
                }
                conns.push(p);
            }
            2 => {
                let stream = input.pick(&STREAMS);
                let style = input.byte();
                let fields = server.fields(input, style & 0x80 != 0);
                let block = server.block(&fields);
                let mut out = Vec::new();
                server.headers(&mut out, stream, &block, style & 1 != 0, style & 0x7e);
                conns.push(out);
            }
            3 => {
                let (stream, flags) = (input.pick(&STREAMS), input.byte());
                let data = input.big_blob();
                let mut payload = Vec::new();
                if flags & 8 != 0 {
                    payload.push(flags >> 4);
                }
                payload.extend_from_slice(data);
                payload.resize(
                    payload.len() + usize::from(flags >> 4) * usize::from(flags & 8 != 0),
                    0,
                );
                conns.push(frame(0x0, flags & 0x9, stream, &payload));
            }
            4 => {
                let stream = input.pick(&STREAMS);
                conns.push(server.response(input, stream));
            }
            5 => {
                let stream = input.pick(&STREAMS);
                let code = u32::from(input.byte() % 14);
                conns.push(frame(0x3, 0, stream, &code.to_be_bytes()));
            }
            6 => {
                let last = input.pick(&STREAMS);
                let mut p = last.to_be_bytes().to_vec();
                p.extend_from_slice(&u32::from(input.byte() % 14).to_be_bytes());
                p.extend_from_slice(input.blob());
                conns.push(frame(0x7, 0, 0, &p));
            }
            7 => {
                let stream = input.pick(&STREAMS);
                let inc = input.pick(&[0u32, 1, 100, 16_384, 65_535, 1 << 20, 0x7fff_ffff]);
                conns.push(frame(0x8, 0, stream, &inc.to_be_bytes()));
            }
            8 => {
                let ack = input.byte() & 1;
                let payload = input.take(8).to_vec();
                conns.push(frame(0x6, ack, 0, &payload));
            }
            9 => {
                let ack = input.byte() & 1;
                let p = if ack == 1 {
                    Vec::new()
                } else {
                    settings_payload(input)
                };
                conns.push(frame(0x4, ack, 0, &p));
            }
            10 => {
                let (ty, flags, stream) = (input.byte() % 12, input.byte(), input.pick(&STREAMS));
                conns.push(frame(ty, flags, stream, input.blob()));
            }
            11 => conns.push(input.big_blob().to_vec()),
            12 => conns.cut(input.byte()),
            13 => conns.push(socks5_reply(input)),
            14 => {
                let (stream, flags) = (input.pick(&STREAMS), input.byte());
                conns.push(frame(0x9, flags & 0x4, stream, input.blob()));
            }
            16 => conns.await_write(),
            _ => {
                // A raw HPACK block in HEADERS: anything the encoder would never write.
                let (stream, flags) = (input.pick(&STREAMS), input.byte());
                conns.push(frame(0x1, (flags & 0x1) | 0x4, stream, input.blob()));
            }
        }
    }
    conns.0
}
