//! Measures the receive path natively: DATA frames through the connection (frame reader, flow
//! control, events or a `DataSink`, WINDOW_UPDATEs by consumption) and HPACK decoding of
//! response headers.
//!
//! Run: `cargo run --release -p burrow-h2 --example h2_throughput`
// A measurement harness, not sans-IO code: it reads the clock.
#![allow(
    clippy::disallowed_methods,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects
)]
#![allow(
    clippy::as_conversions,
    clippy::cast_possible_truncation,
    clippy::indexing_slicing
)]

use burrow_h2::frame::{Data, Headers, Settings, StreamId, WindowUpdate};
use burrow_h2::hpack::{Decoder, Encoder, EncoderPolicy};
use burrow_h2::{Config, Connection, Event, Header};
use std::time::Instant;

fn main() {
    data_path(false);
    data_path(true);
    hpack();
}

/// `sink`: body bytes lent to a `DataSink` (`handle_input_with`) instead of `Event::Data`.
fn data_path(sink: bool) {
    const TOTAL: usize = 256 << 20;
    let payload = vec![0x5au8; 16_384];
    let mut best = f64::MAX;
    for _ in 0..3 {
        let mut c = Connection::new(Config {
            connection_window: 16 << 20,
            stream_window: 16 << 20,
            ..Config::default()
        });
        let req = [
            Header::new(":method", "GET"),
            Header::new(":scheme", "https"),
            Header::new(":authority", "localhost"),
            Header::new(":path", "/big"),
        ];
        let id = c.send_request(&req, true).unwrap();
        let _ = c.take_transmit();
        let mut pre = Vec::new();
        Settings {
            ack: false,
            values: vec![],
        }
        .encode(&mut pre);
        Settings {
            ack: true,
            values: vec![],
        }
        .encode(&mut pre);
        WindowUpdate {
            stream_id: StreamId(0),
            increment: 1,
        }
        .encode(&mut pre);
        let mut enc = Encoder::new(EncoderPolicy::default());
        let mut block = Vec::new();
        enc.encode(&[Header::new(":status", "200")], &mut block);
        Headers {
            stream_id: id,
            block: &block,
            end_stream: false,
            end_headers: true,
            priority: None,
            pad: None,
        }
        .encode(&mut pre);
        c.handle_input(&pre).unwrap();
        while c.poll_event().is_some() {}
        // 1 MiB of frames, fed in TLS-record-sized pieces (16 KiB), again and again.
        let mut mib = Vec::new();
        for _ in 0..64 {
            Data {
                stream_id: id,
                data: &payload,
                end_stream: false,
                pad: None,
                flow_len: 0,
            }
            .encode(&mut mib);
        }
        let start = Instant::now();
        let mut got = 0usize;
        let mut out = Vec::new();
        for _ in 0..TOTAL >> 20 {
            for piece in mib.chunks(16_384) {
                if sink {
                    let mut n = 0;
                    c.handle_input_with(piece, &mut |_: StreamId, d: &[u8], _: bool| {
                        n += std::hint::black_box(d).len();
                    })
                    .unwrap();
                    got += n;
                    c.consume(id, n).unwrap();
                    while c.poll_event().is_some() {}
                } else {
                    c.handle_input(piece).unwrap();
                    while let Some(ev) = c.poll_event() {
                        if let Event::Data { stream, data, .. } = ev {
                            got += data.len();
                            c.consume(stream, data.len()).unwrap();
                        }
                    }
                }
            }
            c.poll_transmit(&mut out);
            out.clear();
        }
        let secs = start.elapsed().as_secs_f64();
        assert_eq!(got, TOTAL);
        best = best.min(secs * 1000.0 / (TOTAL >> 20) as f64);
    }
    let how = if sink { "DataSink" } else { "Event::Data" };
    println!("h2 DATA receive path ({how}): {best:.3} ms/MiB (best of 3, 256 MiB in 16 KiB frames fed in 16 KiB pieces)");
}

fn hpack() {
    // A typical response head, decoded repeatedly with a warm dynamic table (as in a busy connection).
    let head = [
        Header::new(":status", "200"),
        Header::new("server", "nginx/1.24.0"),
        Header::new("date", "Mon, 30 Nov 2026 20:00:00 GMT"),
        Header::new("content-type", "application/json; charset=utf-8"),
        Header::new("content-length", "1024"),
        Header::new("cache-control", "private, max-age=0"),
        Header::new("x-request-id", "0f8e2a1c-7d44-4c55-9a1b-3d2e1f0a9b8c"),
        Header::new(
            "strict-transport-security",
            "max-age=31536000; includeSubDomains",
        ),
    ];
    let mut enc = Encoder::new(EncoderPolicy::default());
    let mut dec = Decoder::new(4096);
    let mut first = Vec::new();
    enc.encode(&head, &mut first);
    dec.decode(&first).unwrap();
    let mut warm = Vec::new();
    enc.encode(&head, &mut warm);
    // Cold: every block literal + Huffman (a fresh encoder/decoder each time).
    let n = 100_000;
    let start = Instant::now();
    for _ in 0..n {
        let mut d = Decoder::new(4096);
        std::hint::black_box(d.decode(&first).unwrap());
    }
    let cold = start.elapsed().as_secs_f64() * 1e6 / n as f64;
    let start = Instant::now();
    for _ in 0..n {
        std::hint::black_box(dec.decode(&warm).unwrap());
    }
    let hot = start.elapsed().as_secs_f64() * 1e6 / n as f64;
    println!(
        "HPACK decode of an 8-field response head: {cold:.2} us cold ({} bytes, Huffman literals), {hot:.2} us warm ({} bytes, indexed)",
        first.len(),
        warm.len()
    );
}
