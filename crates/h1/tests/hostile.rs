//! Hostile servers: bombs and malformed framing end in a clear typed error, never a panic, and
//! never after buffering more than the configured budget.
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

use burrow_h1::{ChunkEvent, ChunkedDecoder, Error, Limits, Next, ResponseDecoder};
use common::*;

/// Feeds `stream` in 512-byte pieces until the decoder fails; returns the error and the number
/// of bytes fed by then.
fn feed_until_error(stream: impl Iterator<Item = u8>, limits: Limits) -> (Error, usize) {
    let mut dec = ResponseDecoder::new(limits);
    dec.expect_response(get());
    let mut fed = 0usize;
    let mut piece = Vec::with_capacity(512);
    let mut stream = stream.peekable();
    while stream.peek().is_some() {
        piece.clear();
        piece.extend(stream.by_ref().take(512));
        fed += piece.len();
        dec.receive(&piece);
        loop {
            match dec.next_event() {
                Ok(Next::NeedData) => break,
                Ok(_) => {}
                Err(e) => return (e, fed),
            }
        }
    }
    panic!("no error after {fed} bytes");
}

#[test]
fn header_bomb_too_many_headers() {
    let head = b"HTTP/1.1 200 OK\r\n".iter().copied();
    let bomb = (0..100_000).flat_map(|i| format!("X-{i}: v\r\n").into_bytes());
    let (e, _) = feed_until_error(head.chain(bomb), Limits::default());
    assert_eq!(e, Error::TooManyHeaders { limit: 100 });
    assert_eq!(e.code(), "H1_HEADERS_TOO_LARGE");
    assert!(e.to_string().contains("max_headers"));
}

#[test]
fn header_bomb_one_endless_header() {
    let head = b"HTTP/1.1 200 OK\r\nX-Bomb: ".iter().copied();
    let (e, fed) = feed_until_error(
        head.chain(std::iter::repeat_n(b'a', 10_000_000)),
        Limits::default(),
    );
    assert_eq!(e, Error::HeadersTooLarge { limit: 65_536 });
    assert!(fed <= 65_536 + 512, "buffered {fed} bytes before refusing");
}

#[test]
fn header_bomb_endless_head_of_short_lines() {
    // Many short lines under a high count limit: the byte limit still holds.
    let limits = Limits {
        max_headers: 1_000_000,
        ..Limits::default()
    };
    let head = b"HTTP/1.1 200 OK\r\n".iter().copied();
    let lines = std::iter::repeat_n(&b"A: b\r\n"[..], 1_000_000)
        .flatten()
        .copied();
    let (e, fed) = feed_until_error(head.chain(lines), limits);
    assert_eq!(e, Error::HeadersTooLarge { limit: 65_536 });
    assert!(fed <= 65_536 + 512);
}

#[test]
fn huge_chunk_size_line() {
    let head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;"
        .iter()
        .copied();
    let (e, fed) = feed_until_error(
        head.chain(std::iter::repeat_n(b'x', 10_000_000)),
        Limits::default(),
    );
    assert_eq!(e, Error::ChunkLineTooLong { limit: 4096 });
    assert!(fed < 10_000);
    assert!(e.to_string().contains("max_chunk_line"));
}

#[test]
fn endless_leading_zeros_in_chunk_size() {
    let head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        .iter()
        .copied();
    let (e, _) = feed_until_error(
        head.chain(std::iter::repeat_n(b'0', 1_000_000)),
        Limits::default(),
    );
    assert_eq!(e, Error::ChunkLineTooLong { limit: 4096 });
}

#[test]
fn overflowing_chunk_size_hex() {
    for size in [
        &b"10000000000000000"[..],
        b"fffffffffffffffff",
        b"123456789abcdef01",
    ] {
        let mut r = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        r.extend_from_slice(size);
        r.extend_from_slice(b"\r\n");
        assert_eq!(err(&r), Error::ChunkSizeOverflow, "{size:?}");
    }
}

#[test]
fn trailer_bomb() {
    let head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
        .iter()
        .copied();
    let bomb = std::iter::repeat_n(&b"T: v\r\n"[..], 1_000_000)
        .flatten()
        .copied();
    let limits = Limits {
        max_headers: 1_000_000,
        ..Limits::default()
    };
    let (e, fed) = feed_until_error(head.chain(bomb), limits);
    assert_eq!(e, Error::TrailersTooLarge { limit: 16_384 });
    assert!(fed < 16_384 + 1024);
}

#[test]
fn interim_flood() {
    let flood = std::iter::repeat_n(&b"HTTP/1.1 103 Early Hints\r\n\r\n"[..], 10_000)
        .flatten()
        .copied();
    let (e, _) = feed_until_error(flood, Limits::default());
    assert_eq!(e, Error::TooManyInterim { limit: 16 });
}

#[test]
fn bad_status_lines() {
    for input in [
        &b"\x16\x03\x03\x00\x02\x02\x28"[..],
        b"SSH-2.0-OpenSSH_9.6\r\n",
        b"<html>",
        b"HTTP/1.1 2x0 OK\r\n\r\n",
        b"HTTP/1.1 200OK\r\n\r\n",
        b"\r\nHTTP/1.1 200 OK\r\n\r\n",
        b"HTTP/1.1 200 OK\r\r\n\r\n",
    ] {
        let evs = whole(input, &[get()]);
        let e = error_of(&evs).unwrap_or_else(|| panic!("{input:?} accepted: {evs:?}"));
        assert_eq!(e.code(), "H1_PROTOCOL", "{input:?}: {e:?}");
    }
}

#[test]
fn random_garbage_never_panics_and_is_split_invariant() {
    let valid: &[&[u8]] = &[
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nT: 1\r\n\r\n",
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\n\r\nbody",
    ];
    let alphabet = b"HTP/1.0 23456789abcdefABCDEF\r\n\t:;=,\"\x00\x7f\xff";
    for seed in 0..3000u64 {
        let mut rng = Prng::new(seed);
        let mut input = valid[rng.below(valid.len())].to_vec();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(input.len());
            match rng.below(3) {
                0 => input[i] = alphabet[rng.below(alphabet.len())],
                1 => input.insert(i, alphabet[rng.below(alphabet.len())]),
                _ => {
                    input.remove(i);
                }
            }
        }
        let reqs = [get(), get()];
        let want = run_buffered(&[&input], &reqs, Limits::default());
        let split = run_buffered(&random_pieces(&input, seed), &reqs, Limits::default());
        assert_eq!(split, want, "seed {seed}: {input:?}");
        // Never more body than input.
        assert!(body(&want).len() <= input.len());
    }
}

#[test]
fn chunked_decoder_on_random_bytes_never_overreports() {
    let alphabet = b"0123456789abcdefxyz;= \r\n\t:\x00";
    for seed in 0..3000u64 {
        let mut rng = Prng::new(seed);
        let len = rng.below(200);
        let input: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let mut dec = ChunkedDecoder::new(Limits::default());
        let mut rest = &input[..];
        let mut data = 0usize;
        while let Ok((n, ev)) = dec.decode(rest) {
            assert!(n <= rest.len());
            match ev {
                ChunkEvent::Data(r) => {
                    assert!(r.start < r.end && r.end <= n);
                    data += r.len();
                }
                ChunkEvent::NeedData | ChunkEvent::End => break,
                ChunkEvent::Trailers(_) => {}
            }
            rest = &rest[n..];
        }
        assert!(data <= input.len());
    }
}

#[test]
fn head_scan_is_linear_when_fed_byte_by_byte() {
    // A 60 KiB head arriving one byte at a time: each byte is examined once, not once per call.
    let mut head = b"HTTP/1.1 200 OK\r\n".to_vec();
    for i in 0..90 {
        head.extend_from_slice(format!("X-Pad-{i:03}: ").as_bytes());
        head.extend(std::iter::repeat_n(b'v', 640));
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"Content-Length: 0\r\n\r\n");
    assert!(head.len() > 58_000 && head.len() < 65_536);
    let mut dec = ResponseDecoder::default();
    dec.expect_response(get());
    let mut saw_head = false;
    for b in &head {
        dec.receive(std::slice::from_ref(b));
        loop {
            match dec.next_event().unwrap() {
                Next::NeedData => break,
                Next::Head { .. } => saw_head = true,
                _ => {}
            }
        }
    }
    assert!(saw_head);
    assert_eq!(dec.head_bytes_examined(), head.len());
}
