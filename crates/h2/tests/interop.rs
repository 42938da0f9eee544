//! Real servers over TLS: nginx (`DEF`) and caddy (`CADDY`) from the local peers, through a
//! TEST-ONLY rustls stream (ALPN h2, trusting the peers' CA, server name `localhost`) until
//! burrow's own TLS lands. Bodies are compared byte for byte with the docroot.
//!
//! Trailers: no peer location sends HTTP/2 trailers (nginx's `locations.conf` and caddy's static
//! file server have none), so trailers are tested with a scripted server in `connection.rs`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]
// The test harness (not the sans-IO crate) reads the wall clock to see when data arrives.

// The test harness (not the sans-IO crate) reads the wall clock to see when data arrives.
#![allow(clippy::disallowed_methods)]

mod common;

use burrow_h2::{Config, Connection, Event, Header, StreamId};
use burrow_testkit::peers::Peers;
use common::get;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

struct Client {
    tls: rustls::StreamOwned<rustls::ClientConnection, TcpStream>,
    conn: Connection,
    buf: Vec<u8>,
}

#[derive(Default, Debug)]
struct Response {
    status: u16,
    headers: Vec<Header>,
    body: Vec<u8>,
    done: bool,
    /// (time, bytes, end_stream, global event order) for each Data event.
    chunks: Vec<(Instant, usize, bool, usize)>,
}

impl Client {
    fn connect(peers: &Peers, peer: &str, config: Config) -> Client {
        let mut roots = rustls::RootCertStore::empty();
        use rustls_pki_types::pem::PemObject;
        for cert in rustls_pki_types::CertificateDer::pem_slice_iter(&peers.ca_pem()) {
            roots.add(cert.unwrap()).unwrap();
        }
        let mut cfg = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
        cfg.alpn_protocols = vec![b"h2".to_vec()];
        let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();
        let tcp = TcpStream::connect(("127.0.0.1", peers.port(peer)))
            .unwrap_or_else(|e| panic!("{peer}: connect to port {}: {e}", peers.port(peer)));
        tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        tcp.set_nodelay(true).unwrap();
        let mut tls = rustls::StreamOwned::new(
            rustls::ClientConnection::new(Arc::new(cfg), name).unwrap(),
            tcp,
        );
        while tls.conn.is_handshaking() {
            tls.conn.complete_io(&mut tls.sock).unwrap();
        }
        assert_eq!(
            tls.conn.alpn_protocol(),
            Some(&b"h2"[..]),
            "{peer} must select h2"
        );
        let mut c = Client {
            tls,
            conn: Connection::new(config),
            buf: vec![0; 64 * 1024],
        };
        c.flush();
        c
    }

    fn flush(&mut self) {
        let out = self.conn.take_transmit();
        if !out.is_empty() {
            self.tls.write_all(&out).unwrap();
            self.tls.flush().unwrap();
        }
    }

    /// Reads once, handles the bytes, returns the events (data consumed at once).
    fn read_events(&mut self) -> Vec<Event> {
        let n = self.tls.read(&mut self.buf).unwrap();
        assert!(n > 0, "server closed the connection");
        self.conn.handle_input(&self.buf[..n]).unwrap();
        let mut evs = Vec::new();
        while let Some(ev) = self.conn.poll_event() {
            if let Event::Data { stream, data, .. } = &ev {
                self.conn.consume(*stream, data.len()).unwrap();
            }
            evs.push(ev);
        }
        self.flush();
        evs
    }

    fn apply(responses: &mut HashMap<StreamId, Response>, ev: Event) {
        match ev {
            Event::Headers {
                stream,
                status,
                headers,
                end_stream,
            } if status >= 200 => {
                let r = responses.entry(stream).or_default();
                r.status = status;
                r.headers = headers;
                r.done |= end_stream;
            }
            Event::Data {
                stream,
                data,
                end_stream,
            } => {
                let r = responses.entry(stream).or_default();
                let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                r.chunks.push((Instant::now(), data.len(), end_stream, seq));
                r.body.extend_from_slice(&data);
                r.done |= end_stream;
            }
            Event::Trailers { stream, .. } => responses.entry(stream).or_default().done = true,
            Event::Reset { stream, error } => panic!("stream {stream:?} reset: {error}"),
            Event::GoAway { reason, .. } => panic!("GOAWAY {reason:?}"),
            _ => {}
        }
    }

    /// Reads until every stream in `ids` is done.
    fn collect(&mut self, ids: &[StreamId]) -> HashMap<StreamId, Response> {
        let mut responses = HashMap::new();
        while !ids
            .iter()
            .all(|id| responses.get(id).is_some_and(|r: &Response| r.done))
        {
            for ev in self.read_events() {
                Client::apply(&mut responses, ev);
            }
        }
        responses
    }

    fn get(&mut self, path: &str, extra: &[Header]) -> StreamId {
        let mut h = get(path);
        h.extend_from_slice(extra);
        let id = self.conn.send_request(&h, true).unwrap();
        self.flush();
        id
    }
}

fn header<'a>(r: &'a Response, name: &str) -> Option<&'a [u8]> {
    r.headers
        .iter()
        .find(|h| h.name == name.as_bytes())
        .map(|h| h.value.as_slice())
}

fn small_and_4m(peer: &str, big: &str) {
    let Some(peers) = Peers::load(peer) else {
        return;
    };
    let www = peers.www();
    let config = Config {
        stream_window: 64 * 1024,
        ..Config::default()
    };
    let mut c = Client::connect(&peers, peer, config);
    let a = c.get("/1k", &[]);
    let r = c.collect(&[a]);
    assert_eq!(r[&a].status, 200);
    assert_eq!(
        r[&a].body,
        std::fs::read(www.join("1k")).unwrap(),
        "{peer} /1k"
    );
    let b = c.get(&format!("/{big}"), &[]);
    let r = c.collect(&[b]);
    let want = std::fs::read(www.join(big)).unwrap();
    assert_eq!(r[&b].body.len(), want.len(), "{peer} /{big} length");
    assert!(r[&b].body == want, "{peer} /{big} bytes differ");
    // 4 MB through a 64 KiB stream window: many WINDOW_UPDATEs were needed.
    assert!(r[&b].chunks.len() > 4 * 1024 * 1024 / (64 * 1024));
}

#[test]
fn nginx_1k_and_4m_with_64k_window() {
    small_and_4m("DEF", "4m.bin");
}

#[test]
fn caddy_1k_and_4m_with_64k_window() {
    // No Accept-Encoding: caddy's `encode gzip` then serves the file as is.
    small_and_4m("CADDY", "4m.bin");
}

#[test]
fn haproxy_and_other_nginx_ports_1k_and_4m() {
    // HAProxy's own HTTP/2 stack (backend nginx), and nginx over TLS 1.3 only / TLS 1.2 only.
    for peer in ["HAPROXY", "TLS13", "TLS12"] {
        small_and_4m(peer, "4m.bin");
    }
}

#[test]
fn caddy_gzip_when_asked() {
    let Some(peers) = Peers::load("CADDY") else {
        return;
    };
    let mut c = Client::connect(&peers, "CADDY", Config::default());
    let id = c.get("/16k", &[Header::new("accept-encoding", "gzip")]);
    let r = c.collect(&[id]);
    assert_eq!(r[&id].status, 200);
    assert_eq!(header(&r[&id], "content-encoding"), Some(&b"gzip"[..]));
    assert_eq!(&r[&id].body[..2], &[0x1f, 0x8b], "a gzip member");
}

fn ten_concurrent(peer: &str) {
    let Some(peers) = Peers::load(peer) else {
        return;
    };
    let www = peers.www();
    let mut c = Client::connect(&peers, peer, Config::default());
    let files = [
        "1k", "16k", "1m", "1m.bin", "4m", "1k", "16k", "1m", "1m.bin", "16k",
    ];
    let ids: Vec<StreamId> = files.iter().map(|f| c.get(&format!("/{f}"), &[])).collect();
    assert_eq!(
        c.conn.active_streams(),
        10,
        "all ten open at once on one connection"
    );
    let r = c.collect(&ids);
    for (id, f) in ids.iter().zip(files) {
        assert_eq!(r[id].status, 200, "{peer} /{f}");
        assert!(
            r[id].body == std::fs::read(www.join(f)).unwrap(),
            "{peer} /{f} differs"
        );
    }
    // The responses were interleaved: at least two streams received data while each other was
    // still in progress (their [first, last] data event ranges overlap).
    let span = |id: &StreamId| (r[id].chunks[0].3, r[id].chunks.last().unwrap().3);
    let overlapping = ids
        .iter()
        .enumerate()
        .flat_map(|(i, a)| ids[i + 1..].iter().map(move |b| (a, b)))
        .filter(|(a, b)| span(a).0 < span(b).1 && span(b).0 < span(a).1)
        .count();
    assert!(overlapping >= 1, "{peer}: responses were not multiplexed");
}

#[test]
fn nginx_ten_concurrent_streams() {
    ten_concurrent("DEF");
}

#[test]
fn caddy_ten_concurrent_streams() {
    ten_concurrent("CADDY");
}

#[test]
fn nginx_chunked_and_chunked_slow() {
    let Some(peers) = Peers::load("DEF") else {
        return;
    };
    let mut c = Client::connect(&peers, "DEF", Config::default());
    let id = c.get("/chunked", &[]);
    let r = c.collect(&[id]);
    let mut want = b"chunk-1\nchunk-2\n".to_vec();
    want.extend(b"0123456789abcdef".repeat(4096));
    want.extend_from_slice(b"chunk-end\n");
    assert_eq!(r[&id].body, want);

    let start = Instant::now();
    let id = c.get("/chunked-slow", &[]);
    let r = c.collect(&[id]);
    assert_eq!(r[&id].body, b"a\nb\nc\n");
    let chunks = &r[&id].chunks;
    // Data arrived before the end: the first chunk is not the last one and came >250 ms earlier.
    assert!(chunks.len() >= 2, "{chunks:?}");
    assert!(!chunks[0].2, "the first data event did not end the stream");
    let (first, last) = (chunks[0].0, chunks.last().unwrap().0);
    assert!(
        last.duration_since(first) >= Duration::from_millis(250),
        "data events spread over time"
    );
    assert!(
        first.duration_since(start) < Duration::from_millis(300),
        "first chunk before the sleeps"
    );
}

#[test]
fn nginx_echo_post_1mb() {
    let Some(peers) = Peers::load("DEF") else {
        return;
    };
    let mut c = Client::connect(&peers, "DEF", Config::default());
    let mut body = vec![0u8; 1 << 20];
    let mut x: u32 = 12345;
    for b in body.iter_mut() {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        *b = (x >> 16) as u8;
    }
    let mut h = get("/echo");
    h[0] = Header::new(":method", "POST");
    h.push(Header::new("content-length", body.len().to_string()));
    h.push(Header::new("content-type", "application/octet-stream"));
    let id = c.conn.send_request(&h, false).unwrap();
    let mut sent = 0;
    let mut responses = HashMap::new();
    while sent < body.len() {
        let n = c.conn.send_data(id, &body[sent..], true).unwrap();
        sent += n;
        c.flush();
        if sent < body.len() && n == 0 {
            // Wait for the server to open the windows.
            for ev in c.read_events() {
                Client::apply(&mut responses, ev);
            }
        }
    }
    while !responses.get(&id).is_some_and(|r: &Response| r.done) {
        for ev in c.read_events() {
            Client::apply(&mut responses, ev);
        }
    }
    let r = &responses[&id];
    assert_eq!(r.status, 200);
    assert_eq!(r.body.len(), body.len());
    assert!(r.body == body, "echoed body differs");
}
