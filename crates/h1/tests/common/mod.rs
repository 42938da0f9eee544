//! Shared helpers for burrow-h1 integration tests.
#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_h1::{
    BodyFraming, Decoder, Error, Event, Headers, Limits, Next, RequestInfo, ResponseDecoder,
    ResponseHead,
};

pub mod tls;

/// A seeded xorshift64* PRNG: deterministic random splits.
pub struct Prng(u64);

impl Prng {
    pub fn new(seed: u64) -> Self {
        Prng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// An owned, normalised event: adjacent `Data` events are merged, because how the body is
/// cut into `Data` events legitimately depends on how the input was cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ev {
    Interim(ResponseHead),
    Head(ResponseHead, BodyFraming),
    Data(Vec<u8>),
    Trailers(Headers),
    End(bool),
    Closed,
    Error(Error),
}

fn push(out: &mut Vec<Ev>, ev: Ev) {
    if let Ev::Data(d) = &ev {
        if let Some(Ev::Data(prev)) = out.last_mut() {
            prev.extend_from_slice(d);
            return;
        }
    }
    out.push(ev);
}

/// Drains `dec` until it needs data (or closes / fails). Returns true when it should stop.
fn drain(dec: &mut ResponseDecoder, out: &mut Vec<Ev>) -> bool {
    loop {
        match dec.next_event() {
            Ok(Next::NeedData) => return false,
            Ok(Next::Interim(h)) => push(out, Ev::Interim(h)),
            Ok(Next::Head { head, framing }) => push(out, Ev::Head(head, framing)),
            Ok(Next::Data(d)) => {
                assert!(!d.is_empty(), "empty Data event");
                push(out, Ev::Data(d.to_vec()))
            }
            Ok(Next::Trailers(t)) => push(out, Ev::Trailers(t)),
            Ok(Next::End { keep_alive }) => push(out, Ev::End(keep_alive)),
            Ok(Next::Closed) => {
                push(out, Ev::Closed);
                return true;
            }
            Ok(_) => panic!("unknown event"),
            Err(e) => {
                push(out, Ev::Error(e));
                return true;
            }
        }
    }
}

/// How the input ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eof {
    /// `receive_eof` (a plain TCP close, or TLS close_notify).
    Clean,
    /// `receive_unauthenticated_eof` (TLS: a TCP close without close_notify).
    Unauthenticated,
}

/// Feeds `pieces` to a fresh [`ResponseDecoder`] expecting `reqs`, then EOF.
pub fn run_buffered(pieces: &[&[u8]], reqs: &[RequestInfo], limits: Limits) -> Vec<Ev> {
    run_buffered_eof(pieces, reqs, limits, Eof::Clean)
}

/// [`run_buffered`] ending with `eof`.
pub fn run_buffered_eof(
    pieces: &[&[u8]],
    reqs: &[RequestInfo],
    limits: Limits,
    eof: Eof,
) -> Vec<Ev> {
    let mut dec = ResponseDecoder::new(limits);
    for r in reqs {
        dec.expect_response(*r);
    }
    let mut out = Vec::new();
    for p in pieces {
        dec.receive(p);
        if drain(&mut dec, &mut out) {
            return out;
        }
    }
    match eof {
        Eof::Clean => dec.receive_eof(),
        Eof::Unauthenticated => dec.receive_unauthenticated_eof(),
    }
    drain(&mut dec, &mut out);
    out
}

/// Same, over the caller-owned-buffer [`Decoder`].
pub fn run_core(pieces: &[&[u8]], reqs: &[RequestInfo], limits: Limits) -> Vec<Ev> {
    run_core_eof(pieces, reqs, limits, Eof::Clean)
}

/// [`run_core`] ending with `eof`.
pub fn run_core_eof(pieces: &[&[u8]], reqs: &[RequestInfo], limits: Limits, eof: Eof) -> Vec<Ev> {
    let mut dec = Decoder::new(limits);
    for r in reqs {
        dec.expect_response(*r);
    }
    let mut buf: Vec<u8> = Vec::new();
    let mut out = Vec::new();
    for piece in pieces.iter().map(Some).chain(std::iter::once(None)) {
        match piece {
            Some(p) => buf.extend_from_slice(p),
            None if eof == Eof::Clean => dec.receive_eof(),
            None => dec.receive_unauthenticated_eof(),
        }
        loop {
            let d = match dec.decode(&buf) {
                Ok(d) => d,
                Err(e) => {
                    push(&mut out, Ev::Error(e));
                    return out;
                }
            };
            assert!(d.consumed <= buf.len());
            let ev = match d.event {
                Event::NeedData => {
                    buf.drain(..d.consumed);
                    break;
                }
                Event::Interim(h) => Ev::Interim(h),
                Event::Head { head, framing } => Ev::Head(head, framing),
                Event::Data(r) => {
                    assert!(r.end <= d.consumed && r.start < r.end);
                    Ev::Data(buf[r].to_vec())
                }
                Event::Trailers(t) => Ev::Trailers(t),
                Event::End { keep_alive } => Ev::End(keep_alive),
                Event::Closed => {
                    push(&mut out, Ev::Closed);
                    return out;
                }
                _ => panic!("unknown event"),
            };
            buf.drain(..d.consumed);
            push(&mut out, ev);
        }
    }
    out
}

/// Events for the whole input in one piece.
pub fn whole(input: &[u8], reqs: &[RequestInfo]) -> Vec<Ev> {
    run_buffered(&[input], reqs, Limits::default())
}

/// Events for `input` split at random points chosen by `seed`.
pub fn random_pieces(input: &[u8], seed: u64) -> Vec<&[u8]> {
    let mut rng = Prng::new(seed);
    let mut pieces = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let max = (rest.len()).min(1 + rng.below(64));
        let n = 1 + rng.below(max);
        let (a, b) = rest.split_at(n.min(rest.len()));
        pieces.push(a);
        rest = b;
    }
    pieces
}

pub fn bytewise(input: &[u8]) -> Vec<&[u8]> {
    input.chunks(1).collect()
}

/// The first error in a run, if any.
pub fn error_of(evs: &[Ev]) -> Option<Error> {
    evs.iter().find_map(|e| match e {
        Ev::Error(e) => Some(*e),
        _ => None,
    })
}

pub fn get() -> RequestInfo {
    RequestInfo::for_method("GET")
}

/// Decodes one response to GET, expecting success; returns the events.
pub fn ok(input: &[u8]) -> Vec<Ev> {
    let evs = whole(input, &[get()]);
    assert!(error_of(&evs).is_none(), "unexpected error: {evs:?}");
    evs
}

/// Decodes one response to GET (whole, byte by byte and in random splits) and returns its error;
/// asserts every chunking gives the same error.
pub fn err(input: &[u8]) -> Error {
    err_for(input, get())
}

pub fn err_for(input: &[u8], req: RequestInfo) -> Error {
    let w = whole(input, &[req]);
    let e = error_of(&w).unwrap_or_else(|| panic!("expected an error, got {w:?}"));
    let b = run_buffered(&bytewise(input), &[req], Limits::default());
    assert_eq!(error_of(&b), Some(e), "byte-by-byte differs: {b:?}");
    for seed in 0..8 {
        let r = run_buffered(&random_pieces(input, seed), &[req], Limits::default());
        assert_eq!(error_of(&r), Some(e), "seed {seed} differs");
    }
    e
}

/// The body of the (single) response in `evs`.
pub fn body(evs: &[Ev]) -> Vec<u8> {
    evs.iter()
        .filter_map(|e| match e {
            Ev::Data(d) => Some(d.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

pub fn head(evs: &[Ev]) -> (ResponseHead, BodyFraming) {
    evs.iter()
        .find_map(|e| match e {
            Ev::Head(h, f) => Some((h.clone(), *f)),
            _ => None,
        })
        .expect("a Head event")
}

/// Runs `input` whole, byte by byte and in random splits through both decoders, ending with
/// `eof`; asserts every run gives the same events and returns them.
pub fn all_chunkings(input: &[u8], reqs: &[RequestInfo], eof: Eof) -> Vec<Ev> {
    let want = run_buffered_eof(&[input], reqs, Limits::default(), eof);
    let mut splits = vec![bytewise(input)];
    splits.extend((0..16).map(|seed| random_pieces(input, seed)));
    for pieces in &splits {
        let b = run_buffered_eof(pieces, reqs, Limits::default(), eof);
        assert_eq!(b, want, "ResponseDecoder, {} pieces", pieces.len());
        let c = run_core_eof(pieces, reqs, Limits::default(), eof);
        assert_eq!(c, want, "Decoder, {} pieces", pieces.len());
    }
    assert_eq!(run_core_eof(&[input], reqs, Limits::default(), eof), want);
    want
}
