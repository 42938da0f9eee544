//! Seeds and statistics for the client exchange fuzz targets (`burrow_testkit::exchange`).
//!
//! ```sh
//! cargo run -p burrow-testkit --features client-exchange --example exchange_corpus -- seeds fuzz/seeds
//! cargo run -p burrow-testkit --features client-exchange --example exchange_corpus -- stats h2 fuzz/corpus/client_h2
//! ```
//!
//! `seeds DIR` writes the seeds into `DIR/client_h1/` and `DIR/client_h2/`: the exchanges of
//! burrow-client's scripted tests (`crates/client/tests/scripted.rs`) written as inputs.
//! `stats h1|h2 DIR...` runs every file through the exchange and prints what the inputs
//! reached (responses by status, bodies read to their end, decoded bodies, redirects, error
//! codes), the evidence that the fuzzing gets past the first frame.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::collections::BTreeMap;
use std::path::Path;

use burrow_testkit::exchange;

/// An input being written, op by op, in the layout `exchange` decodes.
struct Seed(Vec<u8>);

/// Field names by their index in `exchange`'s table.
const CONTENT_ENCODING: u8 = 2;
const LOCATION: u8 = 3;
const SET_COOKIE: u8 = 4;
const X_A: u8 = 10;

/// Statuses by their index in `exchange`'s table.
const S200: u8 = 0;
const S301: u8 = 3;
const S302: u8 = 4;
const S304: u8 = 6;
const S100: u8 = 9;
const S103: u8 = 10;

/// A body: raw bytes, or content-coded (`kind`: 0 gzip, 1 zlib, 2 raw deflate, 3 br, 4 zstd,
/// 5 gzip then br).
enum Body<'a> {
    Raw(&'a [u8]),
    Coded(u8, &'a [u8]),
}

impl Seed {
    fn new(a: u8, b: u8) -> Seed {
        Seed(vec![a, b])
    }

    fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.extend_from_slice(b);
        self
    }

    fn fields(&mut self, fields: &[(u8, u8)]) -> &mut Self {
        self.0.push(fields.len() as u8);
        for &(name, choice) in fields {
            self.0.extend([name, choice]);
        }
        self
    }

    fn big(&mut self, b: &[u8]) -> &mut Self {
        self.0.extend_from_slice(&(b.len() as u16).to_be_bytes());
        self.bytes(b)
    }

    fn body(&mut self, body: Body<'_>) -> &mut Self {
        match body {
            Body::Raw(b) => self.bytes(&[0]).big(b),
            Body::Coded(kind, b) => self.bytes(&[1, kind, 0]).big(b),
        }
    }

    /// HTTP/1.1: a whole response; `framing` 0 Content-Length, 1 chunked (pieces of
    /// `chunk` bytes, then `trailers`), 2 to the close.
    fn h1_response(
        &mut self,
        status: u8,
        fields: &[(u8, u8)],
        framing: u8,
        body: Body<'_>,
    ) -> &mut Self {
        self.bytes(&[1, status, 0])
            .fields(fields)
            .bytes(&[framing])
            .body(body);
        if framing == 1 {
            self.bytes(&[3]).fields(&[(X_A, 0)]);
        }
        self
    }

    /// HTTP/1.1: a head alone (an interim response).
    fn h1_head(&mut self, status: u8) -> &mut Self {
        self.bytes(&[2, status, 0]).fields(&[])
    }

    /// HTTP/2: the server's SETTINGS (empty) and the ACK of ours.
    fn preface(&mut self) -> &mut Self {
        self.bytes(&[1, 0, 0])
    }

    /// HTTP/2: a whole response on the stream of index `stream` (0: 1, 1: 3); `style` bit 0
    /// content-length, bit 1 CONTINUATION frames, bit 2 padding, bit 3 priority, bit 7
    /// trailers.
    fn h2_response(
        &mut self,
        stream: u8,
        status: u8,
        fields: &[(u8, u8)],
        style: u8,
        body: Body<'_>,
    ) -> &mut Self {
        self.bytes(&[4, stream, status])
            .fields(fields)
            .bytes(&[style])
            .body(body)
            .bytes(&[0]);
        if style & 0x80 != 0 {
            self.fields(&[(X_A, 0)]);
        }
        self
    }

    fn write(&self, dir: &Path, name: &str) {
        std::fs::create_dir_all(dir).expect("seed directory");
        std::fs::write(dir.join(name), &self.0).expect("seed file");
    }
}

const HELLO: &[u8] = b"hello world";
const TEXT: &[u8] = b"hello world, hello world, hello world, hello world";

fn h1_seeds(dir: &Path) {
    let ok = |s: &mut Seed| {
        s.h1_response(S200, &[], 0, Body::Raw(HELLO));
    };
    let mut s = Seed::new(0, 3);
    ok(&mut s);
    s.write(dir, "content-length");
    Seed::new(0, 3)
        .h1_response(S200, &[], 1, Body::Raw(TEXT))
        .write(dir, "chunked-trailers");
    Seed::new(0, 3)
        .h1_head(S100)
        .h1_response(S200, &[], 2, Body::Raw(HELLO))
        .write(dir, "continue-then-close-delimited");
    for (kind, name) in [
        (0, "gzip"),
        (1, "zlib"),
        (2, "deflate"),
        (0x13, "br"),
        (4, "zstd"),
        (5, "gzip-br"),
    ] {
        Seed::new(0, 3)
            .h1_response(S200, &[], 0, Body::Coded(kind, TEXT))
            .write(dir, &format!("coded-{name}"));
    }
    let mut s = Seed::new(0, 3);
    s.h1_response(S301, &[(LOCATION, 0)], 0, Body::Raw(b""))
        .bytes(&[0]);
    ok(&mut s);
    s.write(dir, "redirect-new-connection");
    let mut s = Seed::new(0, 3);
    s.h1_response(S302, &[(LOCATION, 2)], 0, Body::Raw(b""))
        .bytes(&[0]);
    ok(&mut s);
    s.write(dir, "redirect-other-origin");
    let mut s = Seed::new(0x42, 3);
    s.h1_response(S200, &[(SET_COOKIE, 1)], 0, Body::Raw(HELLO));
    ok(&mut s);
    s.write(dir, "cookies-second-request");
    let mut s = Seed::new(0x40, 3);
    ok(&mut s);
    s.bytes(&[0]);
    ok(&mut s);
    s.write(dir, "stale-connection-retry");
    let mut s = Seed::new(0, 0x13);
    s.bytes(&[8, 0]);
    ok(&mut s);
    s.write(dir, "socks5h");
    let mut s = Seed::new(0, 0x0b);
    ok(&mut s);
    s.write(dir, "http-proxy-absolute-form");
    let mut s = Seed::new(0x20, 3);
    ok(&mut s);
    s.write(dir, "post");
    let mut s = Seed::new(0x30, 3);
    ok(&mut s);
    s.write(dir, "put-streamed");
    Seed::new(0x10, 3)
        .h1_response(S200, &[], 0, Body::Raw(b""))
        .write(dir, "head");
    Seed::new(0, 3)
        .h1_response(S304, &[], 0, Body::Raw(b""))
        .write(dir, "not-modified");
    let mut s = Seed::new(0, 0x07);
    ok(&mut s);
    s.bytes(&[7, 20, 7, 5]);
    s.write(dir, "yield-and-cuts");
    Seed::new(0, 0)
        .h1_response(S200, &[(CONTENT_ENCODING, 8)], 0, Body::Raw(TEXT))
        .write(dir, "small-cap-bad-coding");
}

fn h2_seeds(dir: &Path) {
    let mut s = Seed::new(0, 3);
    s.preface().h2_response(0, S200, &[], 1, Body::Raw(HELLO));
    s.write(dir, "response");
    Seed::new(0, 3)
        .preface()
        .bytes(&[5, 0, 2])
        .write(dir, "reset");
    let mut s = Seed::new(0, 3);
    s.preface().bytes(&[6, 3, 0, 3, b'b', b'y', b'e', 0]);
    s.preface().h2_response(0, S200, &[], 1, Body::Raw(HELLO));
    s.write(dir, "goaway-retry");
    Seed::new(0, 3)
        .preface()
        .h2_response(0, S200, &[], 0x81, Body::Coded(0, TEXT))
        .write(dir, "gzip-trailers");
    for (kind, name) in [(0x13, "br"), (4, "zstd"), (1, "zlib")] {
        Seed::new(0, 3)
            .preface()
            .h2_response(0, S200, &[(X_A, 0)], 1, Body::Coded(kind, TEXT))
            .write(dir, &format!("coded-{name}"));
    }
    let mut s = Seed::new(0, 3);
    s.preface().bytes(&[2, 0, 0, S103]).fields(&[]);
    s.h2_response(0, S200, &[], 1, Body::Raw(HELLO));
    s.write(dir, "early-hints");
    Seed::new(0, 3)
        .preface()
        .h2_response(0, S200, &[(X_A, 0), (X_A, 1)], 0x3e, Body::Raw(HELLO))
        .write(dir, "continuation-padding-priority");
    let mut s = Seed::new(0xc0, 3);
    s.preface()
        .h2_response(1, S200, &[], 1, Body::Raw(TEXT))
        .h2_response(0, S200, &[], 1, Body::Raw(HELLO));
    s.write(dir, "concurrent");
    let mut s = Seed::new(0x20, 3);
    s.preface()
        .bytes(&[9, 0, 2, 3, 2, 4, 4])
        .bytes(&[7, 3, 5, 7, 0, 1])
        .bytes(&[8, 0, 1, 2, 3, 4, 5, 6, 7, 8])
        .h2_response(0, S200, &[], 1, Body::Raw(HELLO));
    s.write(dir, "settings-windows-ping-post");
    let mut s = Seed::new(0x30, 3);
    s.preface().h2_response(0, S200, &[], 1, Body::Raw(HELLO));
    s.write(dir, "put-streamed");
    let mut s = Seed::new(0, 3);
    s.preface()
        .h2_response(0, S302, &[(LOCATION, 0)], 1, Body::Raw(b""))
        .bytes(&[16])
        .h2_response(1, S200, &[], 1, Body::Raw(HELLO));
    s.write(dir, "redirect-same-connection");
    let mut s = Seed::new(0, 0x13);
    s.bytes(&[13, 0])
        .preface()
        .h2_response(0, S200, &[], 1, Body::Raw(HELLO));
    s.write(dir, "socks5h");
    let mut s = Seed::new(0, 3);
    s.preface().bytes(&[2, 0, 0, S200]).fields(&[]);
    s.bytes(&[3, 0, 0x29]).big(HELLO);
    s.write(dir, "padded-data");
    let mut s = Seed::new(0, 0x27);
    s.preface()
        .h2_response(0, S200, &[], 1, Body::Raw(TEXT))
        .bytes(&[12, 9, 12, 30]);
    s.write(dir, "yield-timers-cuts");
}

fn stats(proto: &str, dirs: &[String]) {
    let run = match proto {
        "h1" => exchange::h1,
        "h2" => exchange::h2,
        _ => panic!("stats h1|h2 DIR..."),
    };
    let mut inputs = 0usize;
    let mut total = exchange::Report::default();
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut errors: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut max_connections, mut max_turns, mut with_body, mut two_responses) = (0, 0, 0, 0);
    for dir in dirs {
        for entry in std::fs::read_dir(dir).expect("corpus directory") {
            let data = std::fs::read(entry.expect("entry").path()).expect("input");
            let r = run(&data);
            if std::env::var_os("EXCHANGE_VERBOSE").is_some() {
                println!("{}: {r:?}", entry_name(dir, &data));
            }
            inputs += 1;
            for s in &r.statuses {
                *statuses.entry(*s).or_default() += 1;
            }
            for e in &r.errors {
                *errors.entry(e).or_default() += 1;
            }
            with_body += usize::from(r.body_bytes > 0);
            two_responses += usize::from(r.statuses.len() >= 2);
            total.bodies_completed += r.bodies_completed;
            total.decoded += r.decoded;
            total.h2_responses += r.h2_responses;
            total.redirects += r.redirects;
            max_connections = max_connections.max(r.connections);
            max_turns = max_turns.max(r.turns);
        }
    }
    println!("{inputs} inputs ({proto})");
    println!("responses by status: {statuses:?}");
    println!("bodies read to the end: {}; inputs with body bytes: {with_body}; with two responses: {two_responses}", total.bodies_completed);
    println!(
        "decoded bodies: {}; HTTP/2 responses: {}; redirects followed: {}",
        total.decoded, total.h2_responses, total.redirects
    );
    println!("most connections in one input: {max_connections}; most turns: {max_turns}");
    println!("errors by code: {errors:?}");
}

/// The first bytes of an input, to tell inputs apart in verbose output.
fn entry_name(dir: &str, data: &[u8]) -> String {
    format!("{dir}: {:02x?}", &data[..data.len().min(12)])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("seeds") => {
            let out = Path::new(args.get(1).map_or("fuzz/seeds", String::as_str));
            h1_seeds(&out.join("client_h1"));
            h2_seeds(&out.join("client_h2"));
        }
        Some("stats") if args.len() >= 3 => stats(&args[1], &args[2..]),
        _ => eprintln!("usage: exchange_corpus seeds DIR | stats h1|h2 DIR..."),
    }
}
