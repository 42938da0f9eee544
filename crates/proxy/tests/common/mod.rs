//! Drives a handshake over every chunking of a proxy's byte stream.
#![allow(dead_code)]

use burrow_proxy::{Error, Handshake, Progress};

/// What a run of a handshake ended with.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Run {
    /// Everything the handshake asked to send, in order.
    pub(crate) sent: Vec<u8>,
    /// The tunnel bytes (leftover + later chunks) on success, or the error (an `eof` error when
    /// the input ran out first).
    pub(crate) result: Result<Vec<u8>, Error>,
}

/// Feeds `chunks` in order, taking the transmit after every step.
pub(crate) fn drive<H: Handshake>(mut h: H, chunks: &[Vec<u8>]) -> Run {
    let mut sent = h.take_transmit();
    for (i, chunk) in chunks.iter().enumerate() {
        let progress = h.feed(chunk);
        sent.extend(h.take_transmit());
        match progress {
            Ok(Progress::NeedMore) => {}
            Ok(Progress::Done { mut leftover }) => {
                for later in &chunks[i + 1..] {
                    leftover.extend_from_slice(later);
                }
                return Run {
                    sent,
                    result: Ok(leftover),
                };
            }
            Err(e) => {
                // Once failed, it stays failed with the same error.
                assert_eq!(h.feed(b"more"), Err(e.clone()));
                return Run {
                    sent,
                    result: Err(e),
                };
            }
        }
    }
    Run {
        sent,
        result: Err(h.eof()),
    }
}

/// Whole, byte by byte, every 2-way split, and 64 random multi-way splits (fixed seed).
pub(crate) fn chunkings(stream: &[u8]) -> Vec<Vec<Vec<u8>>> {
    let mut all = vec![
        vec![stream.to_vec()],
        stream.iter().map(|&b| vec![b]).collect(),
    ];
    for at in 1..stream.len() {
        all.push(vec![stream[..at].to_vec(), stream[at..].to_vec()]);
    }
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15 ^ stream.len() as u64;
    for _ in 0..64 {
        let mut chunks = Vec::new();
        let mut rest = stream;
        while !rest.is_empty() {
            // xorshift64: a deterministic sequence, so a failure reproduces.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let take = (seed % 7) as usize + 1;
            let (chunk, tail) = rest.split_at(take.min(rest.len()));
            chunks.push(chunk.to_vec());
            rest = tail;
        }
        all.push(chunks);
    }
    all
}

/// Runs every chunking of `stream` and asserts they all end the same; returns that run.
pub(crate) fn run_all<H: Handshake>(make: impl Fn() -> H, stream: &[u8]) -> Run {
    let reference = drive(make(), &[stream.to_vec()]);
    for chunks in chunkings(stream) {
        let run = drive(make(), &chunks);
        let sizes = chunks.iter().map(Vec::len).collect::<Vec<_>>();
        assert_eq!(run.result, reference.result, "chunking {sizes:?}");
        if run.result.is_ok() {
            assert_eq!(run.sent, reference.sent, "chunking {sizes:?}");
        } else {
            // A message queued in the same feed as the failure is dropped, so after an error
            // what was sent may differ in its last message only; it is a prefix either way.
            let (short, long) = if run.sent.len() <= reference.sent.len() {
                (&run.sent, &reference.sent)
            } else {
                (&reference.sent, &run.sent)
            };
            assert!(long.starts_with(short), "chunking {sizes:?}");
        }
    }
    reference
}
