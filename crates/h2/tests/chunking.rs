//! The frame reader and the connection give the same results however the input is split:
//! whole, byte by byte, and random splits.
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

use burrow_h2::frame::{FrameReader, SettingId};
use burrow_h2::{Config, Reason};
use common::*;

/// A server transcript touching every frame type the client handles.
fn transcript() -> Vec<u8> {
    let mut s = Script::new();
    s.settings(&[
        (SettingId::MAX_CONCURRENT_STREAMS, 100),
        (SettingId::INITIAL_WINDOW_SIZE, 1 << 20),
    ]);
    s.settings_ack();
    s.ping(*b"pingpong");
    s.window_update(0, 1000).window_update(1, 1000);
    let long = "v".repeat(300);
    s.headers_split(
        1,
        &[
            (":status", "200"),
            ("x-long", &long),
            ("content-type", "text/plain"),
        ],
        false,
        50,
    );
    s.headers(3, &[(":status", "404"), ("content-length", "3")], false);
    s.data(1, &[b'a'; 5000], false)
        .data_padded(3, b"nop", 7, true);
    let mut body = Vec::new();
    for i in 0..20_000u32 {
        body.push((i % 251) as u8);
    }
    for c in body.chunks(3000) {
        s.data(1, c, false);
    }
    s.data_padded(1, b"", 0, false);
    s.headers(1, &[("x-trailer", "done")], true);
    s.headers(5, &[(":status", "200")], false);
    s.rst(5, Reason::CANCEL);
    s.goaway(7, Reason::NO_ERROR);
    s.take()
}

fn run(cuts: &[usize]) -> (Vec<burrow_h2::Event>, Option<burrow_h2::Error>, Vec<u8>) {
    let mut c = burrow_h2::Connection::new(Config::default());
    for p in ["/a", "/b", "/c", "/d"] {
        c.send_request(&get(p), true).unwrap();
    }
    let _ = c.take_transmit();
    let bytes = transcript();
    let (events, err) = feed_split(&mut c, &bytes, cuts);
    (normalize(events), err, c.take_transmit())
}

#[test]
fn connection_is_chunking_invariant() {
    let bytes = transcript();
    let whole = run(&[]);
    assert!(whole.1.is_none(), "{:?}", whole.1);
    assert!(
        whole.0.len() >= 8,
        "the transcript produces events: {:?}",
        whole.0.len()
    );
    let every: Vec<usize> = (1..bytes.len()).collect();
    assert_eq!(run(&every), whole, "byte by byte");
    let mut rng = Rng(0x5eed);
    for _ in 0..200 {
        let n = rng.below(40);
        let cuts: Vec<usize> = (0..n).map(|_| rng.below(bytes.len())).collect();
        assert_eq!(run(&cuts), whole, "cuts {cuts:?}");
    }
}

#[test]
fn frame_reader_is_chunking_invariant() {
    let bytes = transcript();
    let read = |cuts: &[usize]| {
        let mut r = FrameReader::new(16_384);
        let mut frames = Vec::new();
        let mut points: Vec<usize> = cuts.to_vec();
        points.push(bytes.len());
        points.sort_unstable();
        let mut last = 0;
        for p in points {
            r.feed(&bytes[last..p], |f| {
                frames.push((f.head, f.payload.to_vec()));
                Ok(())
            })
            .unwrap();
            last = p;
        }
        assert_eq!(r.buffered(), 0);
        frames
    };
    let whole = read(&[]);
    assert_eq!(whole.len(), 26);
    assert_eq!(read(&(1..bytes.len()).collect::<Vec<_>>()), whole);
    let mut rng = Rng(42);
    for _ in 0..300 {
        let n = rng.below(30);
        let cuts: Vec<usize> = (0..n).map(|_| rng.below(bytes.len())).collect();
        assert_eq!(read(&cuts), whole);
    }
}

#[test]
fn errors_are_chunking_invariant() {
    // A stream of frames ending in a violation: the error is the same however it is split.
    let mut s = Script::new();
    s.settings(&[])
        .ping([1; 8])
        .headers(2, &[(":status", "200")], true);
    let bytes = s.take();
    let first = {
        let (mut c, _) = client_with_get(Config::default());
        feed(&mut c, &bytes).1.unwrap()
    };
    let mut rng = Rng(7);
    for _ in 0..100 {
        let (mut c, _) = client_with_get(Config::default());
        let cuts: Vec<usize> = (0..rng.below(10)).map(|_| rng.below(bytes.len())).collect();
        assert_eq!(feed_split(&mut c, &bytes, &cuts).1.unwrap(), first);
    }
}
