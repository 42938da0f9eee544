//! Against the real nginx peers: HTTP/1.1 over TLS (test-only rustls transport, ALPN http/1.1)
//! and over plain TCP. Bodies are compared byte for byte with the files nginx serves.
//! Fails when the peers are not running; `BURROW_PEERS=none` skips loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

mod common;

use std::io::{Read, Write};

use burrow_h1::{
    encode_chunk, encode_last_chunk, BodyFraming, BodyKind, Next, RequestHead, ResponseDecoder,
    ResponseHead, Target,
};
use burrow_testkit::peers::Peers;
use common::tls::{plain, tls, Stream};

/// One HTTP/1.1 connection driven by the sans-IO decoder.
struct Conn {
    stream: Stream,
    dec: ResponseDecoder,
    host: String,
    /// Socket reads so far (to tell when body bytes were handed out).
    reads: usize,
    eof: bool,
}

#[derive(Debug)]
struct Response {
    head: ResponseHead,
    framing: BodyFraming,
    body: Vec<u8>,
    keep_alive: bool,
    /// Socket reads done when the first body byte was handed out, and when End came.
    first_data_at_read: Option<usize>,
    end_at_read: usize,
    data_events: usize,
}

impl Conn {
    fn new(stream: Stream, host: String) -> Self {
        Conn {
            stream,
            dec: ResponseDecoder::default(),
            host,
            reads: 0,
            eof: false,
        }
    }

    fn tls(peers: &Peers, name: &str) -> Self {
        let port = peers.port(name);
        Conn::new(tls(port, &peers.ca_pem()), format!("localhost:{port}"))
    }

    fn plain(peers: &Peers) -> Self {
        let port = peers.port("PLAIN");
        Conn::new(plain(port), format!("localhost:{port}"))
    }

    /// Encodes and sends a request head (+ optional body), registering it with the decoder.
    fn send(&mut self, method: &str, path: &str, extra: &[(&str, &str)], body: Body<'_>) {
        let mut head = RequestHead::new(method, Target::Origin(path), &self.host)
            .header("User-Agent", "burrow-h1-test")
            .header("Accept", "*/*");
        for (n, v) in extra {
            head = head.header(n, v);
        }
        let mut out = Vec::new();
        let info = match body {
            Body::None => head.encode(BodyKind::None, &mut out).unwrap(),
            Body::Length(b) => {
                let info = head
                    .encode(BodyKind::Length(b.len() as u64), &mut out)
                    .unwrap();
                out.extend_from_slice(b);
                info
            }
            Body::Chunked(b, piece) => {
                let info = head.encode(BodyKind::Chunked, &mut out).unwrap();
                for c in b.chunks(piece) {
                    encode_chunk(c, &mut out);
                }
                encode_last_chunk(&[(b"X-Trailer", b"done")], &mut out).unwrap();
                info
            }
        };
        self.stream.write_all(&out).unwrap();
        self.stream.flush().unwrap();
        self.dec.expect_response(info);
    }

    fn fill(&mut self) {
        let mut buf = [0u8; 16 * 1024];
        let n = match self.stream.read(&mut buf) {
            Ok(n) => n,
            // rustls reports a close without close_notify as UnexpectedEof.
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => 0,
            Err(e) => panic!("read: {e}"),
        };
        self.reads += 1;
        if n == 0 {
            self.eof = true;
            self.dec.receive_eof();
        } else {
            self.dec.receive(&buf[..n]);
        }
    }

    /// Reads one whole response (after any 1xx).
    fn response(&mut self) -> Response {
        let mut head = None;
        let mut body = Vec::new();
        let mut first_data_at_read = None;
        let mut data_events = 0;
        loop {
            match self.dec.next_event().unwrap() {
                Next::NeedData => {
                    assert!(!self.eof, "decoder wants data after EOF");
                    self.fill();
                }
                Next::Interim(_) => {}
                Next::Head { head: h, framing } => head = Some((h, framing)),
                Next::Data(d) => {
                    first_data_at_read.get_or_insert(self.reads);
                    data_events += 1;
                    body.extend_from_slice(d);
                }
                Next::Trailers(_) => panic!("nginx sends no trailers"),
                Next::End { keep_alive } => {
                    let (head, framing) = head.expect("head before end");
                    return Response {
                        head,
                        framing,
                        body,
                        keep_alive,
                        first_data_at_read,
                        end_at_read: self.reads,
                        data_events,
                    };
                }
                Next::Closed => panic!("closed before the response ended"),
                _ => panic!("unknown event"),
            }
        }
    }

    fn get(&mut self, path: &str) -> Response {
        self.send("GET", path, &[], Body::None);
        self.response()
    }
}

#[derive(Clone, Copy)]
enum Body<'a> {
    None,
    Length(&'a [u8]),
    Chunked(&'a [u8], usize),
}

fn www(peers: &Peers, file: &str) -> Vec<u8> {
    std::fs::read(peers.www().join(file)).unwrap()
}

fn expected_chunked_body() -> Vec<u8> {
    let mut b = b"chunk-1\nchunk-2\n".to_vec();
    for _ in 0..4096 {
        b.extend_from_slice(b"0123456789abcdef");
    }
    b.extend_from_slice(b"chunk-end\n");
    b
}

fn check_file(peers: &Peers, r: &Response, file: &str) {
    let want = www(peers, file);
    assert_eq!(r.head.status, 200);
    assert_eq!(r.framing, BodyFraming::Length(want.len() as u64));
    assert_eq!(r.body.len(), want.len(), "{file}: size");
    assert!(r.body == want, "{file}: content differs");
    assert!(r.keep_alive);
}

#[test]
fn tls_h1_get_1k_and_1m_byte_exact_on_one_connection() {
    let Some(peers) = Peers::load("h1 interop: H1 GET") else {
        return;
    };
    let mut c = Conn::tls(&peers, "H1");
    let r = c.get("/1k");
    check_file(&peers, &r, "1k");
    let r = c.get("/1m");
    check_file(&peers, &r, "1m");
    let r = c.get("/1m.bin");
    check_file(&peers, &r, "1m.bin");
    // Body bytes came out as many events, not one buffered blob.
    assert!(r.data_events > 10, "{} data events", r.data_events);
}

#[test]
fn tls_def_port_with_alpn_http11() {
    let Some(peers) = Peers::load("h1 interop: DEF with ALPN http/1.1") else {
        return;
    };
    let mut c = Conn::tls(&peers, "DEF");
    let r = c.get("/16k");
    check_file(&peers, &r, "16k");
    let r = c.get("/4m");
    check_file(&peers, &r, "4m");
}

#[test]
fn tls_chunked_body() {
    let Some(peers) = Peers::load("h1 interop: /chunked") else {
        return;
    };
    let mut c = Conn::tls(&peers, "H1");
    let r = c.get("/chunked");
    assert_eq!(r.head.status, 200);
    assert_eq!(r.framing, BodyFraming::Chunked);
    assert!(
        r.body == expected_chunked_body(),
        "chunked body differs ({} bytes)",
        r.body.len()
    );
    assert!(r.keep_alive);
    // And the connection is still usable afterwards.
    check_file(&peers, &c.get("/1k"), "1k");
}

#[test]
fn tls_chunked_slow_streams_before_the_end() {
    let Some(peers) = Peers::load("h1 interop: /chunked-slow") else {
        return;
    };
    let mut c = Conn::tls(&peers, "H1");
    let r = c.get("/chunked-slow");
    assert_eq!(r.framing, BodyFraming::Chunked);
    assert_eq!(r.body, b"a\nb\nc\n");
    let first = r.first_data_at_read.expect("data");
    // nginx sleeps 0.3 s between chunks: the first bytes must have been handed out while
    // later chunks were still to be read from the socket.
    assert!(
        first < r.end_at_read,
        "first data at read {first}, end at read {}",
        r.end_at_read
    );
    assert!(r.data_events >= 3, "{} data events", r.data_events);
}

#[test]
fn tls_echo_post_1m_content_length() {
    let Some(peers) = Peers::load("h1 interop: /echo Content-Length") else {
        return;
    };
    let body = www(&peers, "1m.bin");
    let mut c = Conn::tls(&peers, "H1");
    c.send(
        "POST",
        "/echo",
        &[("Content-Type", "application/octet-stream")],
        Body::Length(&body),
    );
    let r = c.response();
    assert_eq!(r.head.status, 200);
    assert_eq!(r.body.len(), body.len());
    assert!(r.body == body, "echo differs");
}

#[test]
fn tls_echo_post_1m_chunked() {
    let Some(peers) = Peers::load("h1 interop: /echo chunked") else {
        return;
    };
    let body = www(&peers, "1m.bin");
    let mut c = Conn::tls(&peers, "H1");
    c.send("POST", "/echo", &[], Body::Chunked(&body, 65_000));
    let r = c.response();
    assert_eq!(r.head.status, 200);
    assert_eq!(r.body.len(), body.len());
    assert!(r.body == body, "echo differs");
    assert!(r.keep_alive);
    // Same connection, another chunked upload with odd piece sizes.
    c.send("PUT", "/echo", &[], Body::Chunked(&body[..100_003], 7_777));
    let r = c.response();
    assert!(r.body == body[..100_003], "second echo differs");
}

#[test]
fn plain_get_and_echo_keep_alive() {
    let Some(peers) = Peers::load("h1 interop: PLAIN") else {
        return;
    };
    let mut c = Conn::plain(&peers);
    check_file(&peers, &c.get("/1m"), "1m");
    let body = www(&peers, "16k");
    c.send("POST", "/echo", &[], Body::Length(&body));
    let r = c.response();
    assert!(r.body == body);
    c.send("POST", "/echo", &[], Body::Chunked(&body, 1000));
    let r = c.response();
    assert!(r.body == body);
    let r = c.get("/chunked");
    assert!(
        r.body == expected_chunked_body(),
        "chunked body differs ({} bytes)",
        r.body.len()
    );
}

#[test]
fn keep_alive_two_requests_then_close() {
    let Some(peers) = Peers::load("h1 interop: keep-alive") else {
        return;
    };
    let mut c = Conn::tls(&peers, "H1");
    let r = c.get("/1k");
    assert!(r.keep_alive);
    c.send("GET", "/16k", &[("Connection", "close")], Body::None);
    let r = c.response();
    check_file_but_closing(&peers, &r, "16k");
    // The decoder refuses further responses; the server closes.
    assert_eq!(c.dec.next_event().unwrap(), Next::Closed);
    let mut rest = Vec::new();
    let _ = c.stream.read_to_end(&mut rest);
    assert!(rest.is_empty(), "{} bytes after close", rest.len());
}

fn check_file_but_closing(peers: &Peers, r: &Response, file: &str) {
    assert!(r.body == www(peers, file), "{file} differs");
    assert!(!r.keep_alive, "Connection: close must end the connection");
    assert!(r.head.headers.has_token("connection", "close"));
}

#[test]
fn pipelined_requests() {
    let Some(peers) = Peers::load("h1 interop: pipelining") else {
        return;
    };
    let mut c = Conn::plain(&peers);
    // Three requests written back to back before any response is read.
    c.send("GET", "/1k", &[], Body::None);
    c.send("HEAD", "/1m", &[], Body::None);
    c.send("GET", "/chunked", &[], Body::None);
    assert_eq!(c.dec.outstanding(), 3);
    check_file(&peers, &c.response(), "1k");
    let r = c.response();
    assert_eq!(r.framing, BodyFraming::None);
    assert_eq!(r.head.headers.get("content-length"), Some(&b"1048576"[..]));
    assert!(r.body.is_empty());
    assert!(
        c.response().body == expected_chunked_body(),
        "chunked body differs"
    );
    assert_eq!(c.dec.outstanding(), 0);
}

#[test]
fn redirects_and_errors_are_just_responses() {
    let Some(peers) = Peers::load("h1 interop: statuses") else {
        return;
    };
    let mut c = Conn::tls(&peers, "H1");
    let r = c.get("/r3");
    assert_eq!(r.head.status, 302);
    assert_eq!(r.head.headers.get("location"), Some(&b"/r2"[..]));
    let r = c.get("/does-not-exist");
    assert_eq!(r.head.status, 404);
    assert!(r.keep_alive);
    check_file(&peers, &c.get("/1k"), "1k");
    // nginx answers `return 500` with `Connection: close`: the decoder must end the connection.
    let r = c.get("/status/500");
    assert_eq!(r.head.status, 500);
    assert!(r.head.headers.has_token("connection", "close"));
    assert!(!r.keep_alive);
    assert_eq!(c.dec.next_event().unwrap(), Next::Closed);
}

#[test]
fn tls12_and_tls13_ports() {
    let Some(peers) = Peers::load("h1 interop: TLS12/TLS13") else {
        return;
    };
    for name in ["TLS12", "TLS13"] {
        let mut c = Conn::tls(&peers, name);
        check_file(&peers, &c.get("/16k"), "16k");
    }
}

#[test]
fn info_reports_http11_and_our_headers() {
    let Some(peers) = Peers::load("h1 interop: /info") else {
        return;
    };
    let mut c = Conn::tls(&peers, "DEF");
    let r = c.get("/info");
    let text = String::from_utf8(r.body).unwrap();
    assert!(text.contains("\"proto\":\"HTTP/1.1\""), "{text}");
    assert!(text.contains("\"alpn\":\"http/1.1\""), "{text}");
    assert!(text.contains("\"ua\":\"burrow-h1-test\""), "{text}");
}
