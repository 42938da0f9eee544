//! `send_data_lent` against `send_data`: two connections given the same calls and the same
//! server bytes put the same bytes on the wire (the lent one's payloads spliced in where its
//! `LentPayload`s say), return the same counts and errors, and end in the same states, under
//! varied windows, maximum frame sizes, END_STREAM and interleaved control frames.
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

use burrow_h2::frame::SettingId;
use burrow_h2::{Config, Connection, Header, LentPayload, Reason, StreamId};
use common::*;

fn post(path: &str) -> Vec<Header> {
    vec![
        Header::new(":method", "POST"),
        Header::new(":scheme", "https"),
        Header::new(":authority", "localhost"),
        Header::new(":path", path),
    ]
}

/// The lent side: its connection, the payload descriptions since the last take, and the data
/// each described payload comes from.
struct Lent {
    c: Connection,
    pending: Vec<(LentPayload, Vec<u8>)>,
}

impl Lent {
    fn send(&mut self, id: StreamId, data: &[u8], end: bool) -> Result<usize, burrow_h2::Error> {
        let mut lent = Vec::new();
        let r = self.c.send_data_lent(id, data.len(), end, &mut lent);
        let mut off = 0;
        for p in lent {
            assert!(p.len > 0, "no empty payloads are described");
            self.pending.push((p, data[off..off + p.len].to_vec()));
            off += p.len;
        }
        if let Ok(n) = r {
            assert_eq!(off, n, "the payloads cover exactly the bytes taken");
        }
        r
    }

    /// The transmit buffer with the payloads spliced in.
    fn take(&mut self) -> Vec<u8> {
        let heads = self.c.take_transmit();
        let mut wire = Vec::new();
        let mut at = 0;
        for (p, bytes) in self.pending.drain(..) {
            assert!(
                p.at >= at && p.at <= heads.len(),
                "offsets in order, in range"
            );
            wire.extend_from_slice(&heads[at..p.at]);
            wire.extend_from_slice(&bytes);
            at = p.at;
        }
        wire.extend_from_slice(&heads[at..]);
        wire
    }
}

fn data(n: usize, seed: u8) -> Vec<u8> {
    (0..n).map(|i| (i as u8).wrapping_mul(13) ^ seed).collect()
}

fn run(seed: u64) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut a = Connection::new(Config::default());
    let mut b = Lent {
        c: Connection::new(Config::default()),
        pending: Vec::new(),
    };
    let mut wire_a = Vec::new();
    let mut wire_b = Vec::new();
    // The server's settings: a small or large stream window, a varied frame size.
    let window = [0u32, 1, 100, 16_384, 65_535, 200_000][rng.below(6)];
    let frame = [16_384u32, 16_385, 20_000, 65_536][rng.below(4)];
    let mut s = Script::new();
    s.settings(&[
        (SettingId::INITIAL_WINDOW_SIZE, window),
        (SettingId::MAX_FRAME_SIZE, frame),
    ])
    .settings_ack();
    let hello = s.take();
    let ra = feed(&mut a, &hello);
    let rb = feed(&mut b.c, &hello);
    assert_eq!(ra, rb);
    let mut ids = Vec::new();
    for step in 0..60 {
        match rng.below(10) {
            0 if ids.len() < 4 => {
                let path = format!("/{step}");
                let ia = a.send_request(&post(&path), false).unwrap();
                let ib = b.c.send_request(&post(&path), false).unwrap();
                assert_eq!(ia, ib);
                ids.push(ia);
            }
            0..=5 if !ids.is_empty() => {
                let id = ids[rng.below(ids.len())];
                let n = [0, 1, 9, 1000, 16_384, 16_385, 50_000, 70_000][rng.below(8)];
                let end = rng.below(4) == 0;
                let bytes = data(n, step as u8);
                let ra = a.send_data(id, &bytes, end);
                let rb = b.send(id, &bytes, end);
                assert_eq!(ra, rb, "seed {seed} step {step}: same count or error");
                assert_eq!(a.stream_state(id), b.c.stream_state(id));
                assert_eq!(a.send_capacity(id), b.c.send_capacity(id));
            }
            6 => {
                // The server opens windows, pings and resets: control frames in between.
                let mut s = Script::new();
                s.window_update(0, 1 + rng.below(100_000) as u32);
                for id in &ids {
                    if rng.below(2) == 0 {
                        s.window_update(id.0, 1 + rng.below(40_000) as u32);
                    }
                }
                if rng.below(3) == 0 {
                    s.ping([step as u8; 8]);
                }
                if rng.below(6) == 0 && !ids.is_empty() {
                    s.rst(ids[0].0, Reason::CANCEL);
                }
                let bytes = s.take();
                assert_eq!(feed(&mut a, &bytes), feed(&mut b.c, &bytes));
            }
            7 if !ids.is_empty() => {
                let id = ids[rng.below(ids.len())];
                assert_eq!(
                    a.reset(id, Reason::CANCEL).is_ok(),
                    b.c.reset(id, Reason::CANCEL).is_ok()
                );
            }
            _ => {
                wire_a.extend(a.take_transmit());
                wire_b.extend(b.take());
            }
        }
        for id in &ids {
            assert_eq!(a.stream_state(*id), b.c.stream_state(*id));
        }
    }
    wire_a.extend(a.take_transmit());
    wire_b.extend(b.take());
    assert!(
        wire_a == wire_b,
        "seed {seed}: wire differs (window {window}, frame {frame})"
    );
}

#[test]
fn lent_and_copied_data_make_the_same_wire() {
    for seed in 0..300 {
        run(seed);
    }
}

#[test]
fn lent_payloads_follow_each_head_and_end_stream_only_when_all_taken() {
    let mut c = Connection::new(Config::default());
    let id = c.send_request(&post("/"), false).unwrap();
    let _ = c.take_transmit();
    // 40,000 bytes, the default 65,535 windows, 16,384-byte frames: three frames.
    let mut lent = Vec::new();
    let n = c.send_data_lent(id, 40_000, true, &mut lent).unwrap();
    assert_eq!(n, 40_000);
    assert_eq!(
        lent,
        vec![
            LentPayload { at: 9, len: 16_384 },
            LentPayload {
                at: 18,
                len: 16_384
            },
            LentPayload { at: 27, len: 7_232 },
        ]
    );
    let heads = c.take_transmit();
    assert_eq!(heads.len(), 27);
    // END_STREAM on the last head only.
    assert_eq!(heads[4], 0);
    assert_eq!(heads[13], 0);
    assert_eq!(heads[22], 1);
    assert_eq!(
        c.stream_state(id),
        Some(burrow_h2::StreamState::HalfClosedLocal)
    );

    // Beyond the window: what fits is taken, END_STREAM is not sent.
    let id = c.send_request(&post("/2"), false).unwrap();
    let mut lent = Vec::new();
    let left = c.send_capacity(id);
    let n = c.send_data_lent(id, left + 5, true, &mut lent).unwrap();
    assert_eq!(n, left);
    let heads = c.take_transmit();
    assert!(lent.iter().all(|p| p.at <= heads.len()));
    assert_eq!(c.stream_state(id), Some(burrow_h2::StreamState::Open));
}
