//! Rough decode throughput of burrow-h1, natively: `cargo run --release -p burrow-h1 --example
//! throughput`. Feeds 64 MiB responses in 16 KiB pieces (the size of a TLS record) and reports
//! MB/s for a Content-Length body and a chunked body, through the buffered front-end (one copy
//! into its buffer) and the caller-buffer `Decoder` (no copy). Not a test: numbers only.
#![allow(
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation,
    clippy::disallowed_methods // a benchmark reads the clock; the codec never does
)]

use std::time::Instant;

use burrow_h1::{encode_chunk, Decoder, Event, Next, RequestInfo, ResponseDecoder};

const BODY: usize = 64 << 20;
const PIECE: usize = 16 << 10;

fn content_length_response() -> Vec<u8> {
    let mut r = format!("HTTP/1.1 200 OK\r\nContent-Length: {BODY}\r\n\r\n").into_bytes();
    r.extend((0..BODY).map(|i| i as u8));
    r
}

fn chunked_response(chunk: usize) -> Vec<u8> {
    let mut r = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    let data: Vec<u8> = (0..chunk).map(|i| i as u8).collect();
    for _ in 0..BODY / chunk {
        encode_chunk(&data, &mut r);
    }
    r.extend_from_slice(b"0\r\n\r\n");
    r
}

fn buffered(input: &[u8]) -> usize {
    let mut dec = ResponseDecoder::default();
    dec.expect_response(RequestInfo::for_method("GET"));
    let mut body = 0;
    for piece in input.chunks(PIECE) {
        dec.receive(piece);
        loop {
            match dec.next_event().unwrap() {
                Next::NeedData => break,
                Next::Data(d) => body += d.len(),
                Next::End { .. } => return body,
                _ => {}
            }
        }
    }
    panic!("no end");
}

/// The caller owns the buffer; pieces are decoded in place whenever nothing is left over.
fn core(input: &[u8]) -> usize {
    let mut dec = Decoder::default();
    dec.expect_response(RequestInfo::for_method("GET"));
    let mut body = 0;
    let mut carry: Vec<u8> = Vec::new();
    for piece in input.chunks(PIECE) {
        let mut owned;
        let mut buf: &[u8] = if carry.is_empty() {
            piece
        } else {
            owned = std::mem::take(&mut carry);
            owned.extend_from_slice(piece);
            carry = owned;
            &carry
        };
        loop {
            let d = dec.decode(buf).unwrap();
            match d.event {
                Event::NeedData => {
                    let rest = buf[d.consumed..].to_vec();
                    carry = rest;
                    break;
                }
                Event::Data(r) => body += r.len(),
                Event::End { .. } => return body,
                _ => {}
            }
            buf = &buf[d.consumed..];
        }
    }
    panic!("no end");
}

fn measure(name: &str, input: &[u8], f: fn(&[u8]) -> usize) {
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        assert_eq!(f(input), BODY);
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mb = BODY as f64 / (1 << 20) as f64;
    println!(
        "{name:<40} {:>8.0} MB/s  ({:.2} ms/MB)",
        mb / best,
        best * 1000.0 / mb
    );
}

fn main() {
    let cl = content_length_response();
    let ch16 = chunked_response(16 << 10);
    let ch1 = chunked_response(1 << 10);
    measure("content-length, ResponseDecoder", &cl, buffered);
    measure("content-length, Decoder (caller buf)", &cl, core);
    measure("chunked 16 KiB, ResponseDecoder", &ch16, buffered);
    measure("chunked 16 KiB, Decoder (caller buf)", &ch16, core);
    measure("chunked 1 KiB, ResponseDecoder", &ch1, buffered);
    measure("chunked 1 KiB, Decoder (caller buf)", &ch1, core);
}
