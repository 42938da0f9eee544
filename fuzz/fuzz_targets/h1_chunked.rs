//! Fuzz the chunked body decoder.
//!
//! Invariants: no panic; every data range lies inside the consumed part of the input; the body
//! is never longer than the input; decoding the input whole and byte by byte gives the same
//! body, trailers and outcome.
#![no_main]

use burrow_h1::{ChunkEvent, ChunkedDecoder, Limits};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, PartialEq)]
struct Outcome {
    body: Vec<u8>,
    trailers: Vec<(Vec<u8>, Vec<u8>)>,
    end: Result<bool, &'static str>,
}

/// Decodes `pieces` one after another, keeping unconsumed bytes for the next call.
fn run(pieces: &[&[u8]]) -> Outcome {
    let limits = Limits {
        max_chunk_line: 64,
        max_trailer_bytes: 256,
        max_headers: 8,
        ..Limits::default()
    };
    let mut dec = ChunkedDecoder::new(limits);
    let mut buf: Vec<u8> = Vec::new();
    let mut out = Outcome {
        body: Vec::new(),
        trailers: Vec::new(),
        end: Ok(false),
    };
    for piece in pieces {
        buf.extend_from_slice(piece);
        loop {
            match dec.decode(&buf) {
                Ok((n, ev)) => {
                    assert!(n <= buf.len());
                    match ev {
                        ChunkEvent::Data(r) => {
                            assert!(r.start < r.end && r.end <= n);
                            out.body.extend_from_slice(&buf[r]);
                        }
                        ChunkEvent::Trailers(t) => {
                            out.trailers =
                                t.iter().map(|(a, b)| (a.to_vec(), b.to_vec())).collect();
                        }
                        ChunkEvent::End => {
                            assert!(dec.is_done());
                            out.end = Ok(true);
                            return out;
                        }
                        ChunkEvent::NeedData => {
                            assert_eq!(n, buf.len());
                            buf.clear();
                            break;
                        }
                    }
                    buf.drain(..n);
                }
                Err(e) => {
                    out.end = Err(e.code());
                    return out;
                }
            }
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let whole = run(&[data]);
    assert!(whole.body.len() <= data.len());
    let bytes: Vec<&[u8]> = data.chunks(1).collect();
    let bytewise = run(&bytes);
    assert_eq!(whole, bytewise);
});
