//! The "deflate" coding: zlib (RFC 1950) as specified, or raw DEFLATE as some servers send.

use crate::inflate::{pump, Format, InflateBackend, Inflater};
use crate::{Emit, Error};

const CODING: &str = "deflate";

enum State {
    /// Waiting for the first two bytes, which tell zlib from raw DEFLATE.
    Sniff {
        first: Option<u8>,
    },
    Body(Inflater),
    Done,
}

pub(crate) struct DeflateDecoder {
    state: State,
    backend: InflateBackend,
}

/// Whether two bytes are a valid zlib header (RFC 1950 §2.2): method 8, window at most 32 KiB,
/// check bits. A raw DEFLATE stream starting this way is vanishingly rare (it would have to be
/// a non-final stored block with non-zero padding bits), and browsers decide the same way.
fn is_zlib_header(cmf: u8, flg: u8) -> bool {
    cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0
}

impl DeflateDecoder {
    pub(crate) fn new(backend: InflateBackend) -> DeflateDecoder {
        DeflateDecoder {
            state: State::Sniff { first: None },
            backend,
        }
    }

    pub(crate) fn decode(
        &mut self,
        mut input: &[u8],
        scratch: &mut [u8],
        emit: &mut Emit<'_>,
    ) -> Result<(), Error> {
        while !input.is_empty() {
            match &mut self.state {
                State::Sniff { first: None } => {
                    let (&b0, rest) = input.split_first().unwrap_or((&0, &[]));
                    self.state = State::Sniff { first: Some(b0) };
                    input = rest;
                }
                State::Sniff { first: Some(b0) } => {
                    let b0 = *b0;
                    let b1 = input.first().copied().unwrap_or(0);
                    let format = if is_zlib_header(b0, b1) {
                        Format::Zlib
                    } else {
                        Format::Raw
                    };
                    let mut inflater = Inflater::new(self.backend, format);
                    // Replay the held-back byte, then continue with `input` as usual.
                    let held = [b0];
                    let (rest, ended) = pump(&mut inflater, CODING, &held, scratch, emit)?;
                    if ended || !rest.is_empty() {
                        return Err(Error::corrupt(CODING, "stream ended after one byte"));
                    }
                    self.state = State::Body(inflater);
                }
                State::Body(inflater) => {
                    let (rest, ended) = pump(inflater, CODING, input, scratch, emit)?;
                    if ended {
                        self.state = State::Done;
                    }
                    input = rest;
                }
                State::Done => {
                    return Err(Error::corrupt(
                        CODING,
                        "trailing data after the end of the stream",
                    ))
                }
            }
        }
        Ok(())
    }

    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        match self.state {
            State::Done | State::Sniff { first: None } => Ok(()),
            _ => Err(Error::Truncated { coding: CODING }),
        }
    }
}
