//! What the connection tests share: server frames, client frames unmasked, chunkings.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_ws::frame::{mask_into, FrameHead};
use burrow_ws::{Config, Connection, DeflateParams, Error, Event, Opcode};

/// An unmasked server frame with its length in minimal encoding.
pub(crate) fn frame(fin: bool, rsv1: bool, opcode: Opcode, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    FrameHead {
        fin,
        rsv1,
        rsv2: false,
        rsv3: false,
        opcode,
        mask: None,
        len: payload.len() as u64,
    }
    .encode(&mut out);
    out.extend_from_slice(payload);
    out
}

/// A whole unfragmented, uncompressed server frame.
pub(crate) fn whole(opcode: Opcode, payload: &[u8]) -> Vec<u8> {
    frame(true, false, opcode, payload)
}

/// Bytes from hex pairs separated by spaces ("0xc1 0x07" or "c1 07").
pub(crate) fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b.trim_start_matches("0x"), 16).unwrap())
        .collect()
}

/// A deterministic key source: distinct, non-zero keys.
pub(crate) fn keys() -> impl FnMut() -> [u8; 4] {
    let mut n: u32 = 0x1234_5678;
    move || {
        n = n.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        n.to_be_bytes()
    }
}

/// The frames a client wrote, each checked masked and returned unmasked.
pub(crate) fn client_frames(mut bytes: &[u8]) -> Vec<(FrameHead, Vec<u8>)> {
    let mut frames = Vec::new();
    while !bytes.is_empty() {
        let (head, n) = FrameHead::parse(bytes, false)
            .unwrap()
            .expect("a whole head");
        let key = head.mask.expect("client frames are masked");
        let len = head.len as usize;
        let mut payload = Vec::new();
        mask_into(&mut payload, &bytes[n..n + len], key);
        frames.push((head, payload));
        bytes = &bytes[n + len..];
    }
    frames
}

/// Client frames re-encoded as unmasked frames, to be read by another connection.
pub(crate) fn unmasked(bytes: &[u8]) -> Vec<u8> {
    client_frames(bytes)
        .into_iter()
        .flat_map(|(h, p)| frame(h.fin, h.rsv1, h.opcode, &p))
        .collect()
}

/// What a connection made of some input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub(crate) events: Vec<Event>,
    pub(crate) error: Option<Error>,
    pub(crate) out: Vec<u8>,
}

/// Feeds `pieces` one `handle_input` each, then drains events and takes the transmit buffer.
pub(crate) fn drive(config: &Config, deflate: Option<DeflateParams>, pieces: &[&[u8]]) -> Outcome {
    let mut c = Connection::new(config.clone(), deflate);
    let mut error = None;
    for p in pieces {
        if let Err(e) = c.handle_input(p) {
            error = Some(e);
            break;
        }
    }
    let mut events = Vec::new();
    while let Some(e) = c.poll_event() {
        events.push(e);
    }
    let out = c.take_transmit(&mut keys());
    Outcome { events, error, out }
}

/// xorshift64*: reproducible splits.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// The outcome of `stream` fed whole, byte by byte, and in 20 random splittings; asserts they
/// all agree and returns it.
pub(crate) fn every_chunking(
    config: &Config,
    deflate: Option<DeflateParams>,
    stream: &[u8],
) -> Outcome {
    let whole = drive(config, deflate, &[stream]);
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    assert_eq!(drive(config, deflate, &bytes), whole, "byte by byte");
    let mut rng = Rng::new(stream.len() as u64 + 7);
    for round in 0..20 {
        let mut pieces = Vec::new();
        let mut rest = stream;
        while !rest.is_empty() {
            let n = 1 + rng.below(rest.len().min(40));
            let (a, b) = rest.split_at(n);
            pieces.push(a);
            rest = b;
        }
        assert_eq!(
            drive(config, deflate, &pieces),
            whole,
            "random split {round}"
        );
    }
    whole
}
