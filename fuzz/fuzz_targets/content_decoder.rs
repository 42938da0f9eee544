//! Fuzz the content decoder: every coding and chains of up to three, random splits, a cap.
//!
//! Input: byte 0 picks the codings, byte 1 the cap, byte 2 seeds the splits; the rest is the
//! body. Invariants: no panic; `out` never exceeds the cap; whole and split decoding both
//! succeed with the same bytes or both fail, one output a prefix of the other (a backend may
//! drop the bytes it decoded in the same call that found an error); both DEFLATE backends give
//! the same bytes for bodies they both accept.
#![no_main]

use burrow_decode::{Coding, Decoder, InflateBackend};
use libfuzzer_sys::fuzz_target;

const CODINGS: [Coding; 4] = [Coding::Gzip, Coding::Deflate, Coding::Br, Coding::Zstd];

fn run(codings: &[Coding], cap: Option<u64>, backend: InflateBackend, pieces: &[&[u8]]) -> (Vec<u8>, Result<(), &'static str>) {
    let mut decoder = Decoder::with_backend(codings, cap, backend);
    let mut out = Vec::new();
    let mut result = Ok(());
    for piece in pieces {
        result = decoder.decode(piece, &mut out);
        assert!(cap.is_none_or(|cap| out.len() as u64 <= cap));
        if result.is_err() {
            break;
        }
    }
    if result.is_ok() {
        result = decoder.finish(&mut out);
    }
    assert_eq!(decoder.decoded_len(), out.len() as u64);
    (out, result.map_err(|e| e.code()))
}

fuzz_target!(|data: &[u8]| {
    let [select, cap, seed, body @ ..] = data else { return };
    let count = usize::from(select >> 6) % 3 + 1;
    let codings: Vec<Coding> =
        (0..count).map(|i| CODINGS[usize::from(select >> (2 * i)) & 3]).collect();
    let cap = match cap {
        0 => None,
        n => Some(u64::from(*n) * 97),
    };
    let mut pieces = Vec::new();
    let mut rest = body;
    let mut state = u32::from(*seed) | 1;
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let take = (state as usize % 64 + 1).min(rest.len());
        let (piece, tail) = rest.split_at(take);
        pieces.push(piece);
        rest = tail;
    }
    for &backend in InflateBackend::ALL {
        let whole = run(&codings, cap, backend, &[body]);
        let split = run(&codings, cap, backend, &pieces);
        assert_eq!(whole.1.is_ok(), split.1.is_ok(), "{codings:?} {}: {whole:?} {split:?}", backend.name());
        if whole.1.is_ok() {
            assert_eq!(whole.0, split.0, "{codings:?} {}", backend.name());
        } else {
            let n = whole.0.len().min(split.0.len());
            assert_eq!(whole.0[..n], split.0[..n], "{codings:?} {}", backend.name());
        }
    }
    if let [first, second] = InflateBackend::ALL {
        let (a, b) = (run(&codings, cap, *first, &[body]), run(&codings, cap, *second, &[body]));
        if a.1.is_ok() && b.1.is_ok() {
            assert_eq!(a.0, b.0);
        }
    }
});
