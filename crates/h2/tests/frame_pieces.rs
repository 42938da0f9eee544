//! `FrameReader::read`: DATA payloads handed out in pieces as they arrive, never buffered;
//! everything else exactly as `FrameReader::feed` gives it, however the input is split.
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

use burrow_h2::frame::*;
use burrow_h2::Error;
use common::{Rng, Script};

const MAX: u32 = 16_384;

/// A frame as `feed` reports it, or DATA reassembled from `read`'s pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Got {
    Frame(FrameHeader, Vec<u8>),
    /// DATA: its header, and its data (padding removed).
    Data(FrameHeader, Vec<u8>),
}

fn transcript() -> Vec<u8> {
    let mut s = Script::new();
    s.settings(&[(SettingId::MAX_FRAME_SIZE, MAX)])
        .headers(1, &[(":status", "200")], false)
        .data(1, b"", false)
        .data(1, b"short", false)
        .data_padded(1, b"", 0, false)
        .data_padded(1, b"", 255, false)
        .data_padded(1, &[7; 1000], 3, false)
        .ping(*b"12345678")
        .data(3, &[9; 16_384], false)
        .raw(&[0, 0, 2, 0xfa, 0, 0, 0, 0, 1, 0xaa, 0xbb])
        .headers_split(3, &[("x-long", &"v".repeat(200))], true, 64)
        .data_padded(5, &[1; 16_000], 255, true)
        .settings_ack();
    s.take()
}

/// The whole-frame view: `feed`, with DATA decoded.
fn by_feed(bytes: &[u8]) -> Vec<Got> {
    let mut r = FrameReader::new(MAX);
    let mut out = Vec::new();
    r.feed(bytes, |f| {
        out.push(if f.head.kind == FrameType::DATA {
            Got::Data(f.head, Data::load(f.head, f.payload)?.data.to_vec())
        } else {
            Got::Frame(f.head, f.payload.to_vec())
        });
        Ok(())
    })
    .unwrap();
    out
}

/// `read` split at `cuts`, checking the shape of the pieces and the buffer after every input.
fn by_read(bytes: &[u8], cuts: &[usize]) -> Vec<Got> {
    let mut points: Vec<usize> = cuts.to_vec();
    points.push(bytes.len());
    points.sort_unstable();
    let mut r = FrameReader::new(MAX);
    let mut out = Vec::new();
    // Inside a DATA frame: its header was handed out and its end not yet.
    let mut in_data = false;
    let mut last = 0;
    for p in points {
        let input = &bytes[last..p];
        let range = input.as_ptr_range();
        r.read(input, |piece| {
            match piece {
                Piece::Frame(f) => {
                    assert!(!in_data);
                    assert_ne!(f.head.kind, FrameType::DATA);
                    out.push(Got::Frame(f.head, f.payload.to_vec()));
                }
                Piece::DataHead(h) => {
                    assert!(!in_data);
                    in_data = true;
                    out.push(Got::Data(h.head, Vec::new()));
                }
                Piece::Data { data, end } => {
                    assert!(in_data);
                    assert!(!data.is_empty() || end, "only the last piece may be empty");
                    if !data.is_empty() {
                        // Lent from this very input.
                        assert!(
                            range.contains(&data.as_ptr()) && data.as_ptr_range().end <= range.end
                        );
                    }
                    let Some(Got::Data(_, d)) = out.last_mut() else {
                        panic!("data without a head")
                    };
                    d.extend_from_slice(data);
                    in_data = !end;
                }
                _ => unreachable!(),
            }
            Ok(())
        })
        .unwrap();
        if in_data {
            assert_eq!(r.buffered(), 0, "a DATA payload is never buffered");
        }
        assert!(r.buffered() <= MAX as usize + 9);
        last = p;
    }
    assert!(!in_data);
    assert_eq!(r.buffered(), 0);
    out
}

#[test]
fn pieces_reassemble_to_feeds_frames_under_any_chunking() {
    let bytes = transcript();
    let whole = by_feed(&bytes);
    assert_eq!(whole.len(), 15);
    assert_eq!(by_read(&bytes, &[]), whole);
    assert_eq!(
        by_read(&bytes, &(1..bytes.len()).collect::<Vec<_>>()),
        whole
    );
    let mut rng = Rng(4242);
    for _ in 0..300 {
        let n = rng.below(40);
        let cuts: Vec<usize> = (0..n).map(|_| rng.below(bytes.len())).collect();
        assert_eq!(by_read(&bytes, &cuts), whole, "cuts {cuts:?}");
    }
}

#[test]
fn every_two_piece_split_of_a_full_data_frame() {
    let mut s = Script::new();
    let body: Vec<u8> = (0..16_384u32).map(|i| (i % 253) as u8).collect();
    s.data(1, &body, true);
    s.data_padded(1, &body[..16_000], 255, false);
    let bytes = s.take();
    let whole = by_feed(&bytes);
    for p in 0..=bytes.len() {
        assert_eq!(by_read(&bytes, &[p]), whole, "cut {p}");
    }
}

#[test]
fn only_the_header_and_pad_length_are_held() {
    let mut s = Script::new();
    s.data_padded(1, b"abcdef", 4, true);
    let bytes = s.take();
    let mut r = FrameReader::new(MAX);
    let mut pieces = Vec::new();
    let mut push = |input: &[u8], r: &mut FrameReader| {
        r.read(input, |p| {
            pieces.push(match p {
                Piece::DataHead(h) => format!("head pad={:?}", h.pad),
                Piece::Data { data, end } => {
                    format!("{:?} {end}", std::str::from_utf8(data).unwrap())
                }
                _ => unreachable!(),
            });
            Ok(())
        })
        .unwrap();
        r.buffered()
    };
    assert_eq!(push(&bytes[..5], &mut r), 5);
    assert_eq!(
        push(&bytes[5..9], &mut r),
        9,
        "header complete, pad length missing"
    );
    assert_eq!(push(&bytes[9..10], &mut r), 0, "head handed out");
    assert_eq!(push(&bytes[10..13], &mut r), 0);
    assert_eq!(push(&bytes[13..17], &mut r), 0, "data ends inside");
    assert_eq!(push(&bytes[17..19], &mut r), 0, "padding");
    assert_eq!(push(&bytes[19..], &mut r), 0);
    assert_eq!(
        pieces,
        [
            "head pad=Some(4)",
            "\"abc\" false",
            "\"def\" false",
            "\"\" true"
        ]
    );
}

#[test]
fn data_head_checks_match_data_load() {
    for stream in [0, 1] {
        for flags in [0u8, flags::PADDED, flags::PADDED | flags::END_STREAM] {
            for len in 0..=260u32 {
                for pad in [0u8, 1, 2, 100, 255] {
                    let head = FrameHeader {
                        length: len,
                        kind: FrameType::DATA,
                        flags,
                        stream_id: StreamId(stream),
                    };
                    let mut payload = vec![0u8; len as usize];
                    if let Some(b) = payload.first_mut() {
                        *b = pad;
                    }
                    let padded = flags & flags::PADDED != 0 && len > 0;
                    let dh = DataHead {
                        head,
                        pad: padded.then_some(pad),
                    };
                    let want = Data::load(head, &payload).map(|d| d.data.len() as u32);
                    assert_eq!(dh.data_len(), want, "{head:?} pad {pad}");
                }
            }
        }
    }
}

#[test]
fn the_reader_checks_data_heads_itself() {
    // A receiver that accepts every head still cannot make the reader misread the stream.
    for (raw, kind) in [
        (
            &[0, 0, 2, 0, 0x8, 0, 0, 0, 1, 5, 0][..],
            burrow_h2::Kind::Protocol,
        ),
        (
            &[0, 0, 0, 0, 0x8, 0, 0, 0, 1][..],
            burrow_h2::Kind::FrameSize,
        ),
        (
            &[0, 0, 1, 0, 0, 0, 0, 0, 0, 1][..],
            burrow_h2::Kind::Protocol,
        ),
        (
            &[0, 0x40, 1, 0, 0, 0, 0, 0, 1][..],
            burrow_h2::Kind::FrameSize,
        ),
    ] {
        let mut r = FrameReader::new(MAX);
        let e = r.read(raw, |_| Ok(())).unwrap_err();
        assert_eq!(e.kind(), kind, "{raw:?}");
    }
    // And an error from the receiver at the head stops everything.
    let mut s = Script::new();
    s.data(1, b"abc", false).ping([0; 8]);
    let bytes = s.take();
    let mut r = FrameReader::new(MAX);
    let mut seen = 0;
    // Any error will do: borrow one from the reader.
    let refuse: Error = FrameReader::new(MAX)
        .read(&[0, 0, 0, 0, 0x8, 0, 0, 0, 1], |_| Ok(()))
        .unwrap_err();
    let got = r.read(&bytes, |p| {
        seen += 1;
        match p {
            Piece::DataHead(_) => Err(refuse),
            _ => Ok(()),
        }
    });
    assert_eq!((got, seen), (Err(refuse), 1));
}
