//! Brotli (RFC 7932) via the pure-Rust `brotli-decompressor`.

use brotli_decompressor::{BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc};

use crate::{Emit, Error};

const CODING: &str = "br";

pub(crate) struct BrotliDecoder {
    state: Box<BrotliState<StandardAlloc, StandardAlloc, StandardAlloc>>,
    started: bool,
    done: bool,
}

impl BrotliDecoder {
    pub(crate) fn new() -> BrotliDecoder {
        let state = BrotliState::new(
            StandardAlloc::default(),
            StandardAlloc::default(),
            StandardAlloc::default(),
        );
        BrotliDecoder {
            state: Box::new(state),
            started: false,
            done: false,
        }
    }

    pub(crate) fn decode(
        &mut self,
        mut input: &[u8],
        scratch: &mut [u8],
        emit: &mut Emit<'_>,
    ) -> Result<(), Error> {
        if input.is_empty() {
            return Ok(());
        }
        if !self.started {
            self.started = true;
            // RFC 7932 §9.1 calls this window-size code invalid; the "large window" extension
            // (windows up to 1 GiB), which the library accepts, uses it. HTTP br has at most
            // a 16 MiB window, so refuse it rather than let a peer size our ring buffer.
            if input.first().is_some_and(|&b| b & 0x7f == 0x11) {
                return Err(Error::corrupt(
                    CODING,
                    "large-window brotli is not an HTTP content coding",
                ));
            }
        }
        loop {
            if self.done {
                return Err(Error::corrupt(
                    CODING,
                    "trailing data after the end of the stream",
                ));
            }
            let mut available_in = input.len();
            let mut input_offset = 0;
            let mut available_out = scratch.len();
            let mut output_offset = 0;
            // Kept per call: the library's running total is a usize, which a long body would
            // overflow on wasm32.
            let mut total_out = 0;
            let result = BrotliDecompressStream(
                &mut available_in,
                &mut input_offset,
                input,
                &mut available_out,
                &mut output_offset,
                scratch,
                &mut total_out,
                &mut self.state,
            );
            input = input.get(input_offset..).unwrap_or_default();
            if output_offset > 0 {
                emit(scratch.get(..output_offset).unwrap_or_default())?;
            }
            match result {
                BrotliResult::ResultSuccess => {
                    self.done = true;
                    if input.is_empty() {
                        return Ok(());
                    }
                }
                BrotliResult::NeedsMoreInput if input.is_empty() => return Ok(()),
                BrotliResult::NeedsMoreInput | BrotliResult::NeedsMoreOutput => {
                    if input_offset == 0 && output_offset == 0 {
                        return Err(Error::corrupt(CODING, "brotli decoder made no progress"));
                    }
                }
                BrotliResult::ResultFailure => {
                    let code = self.state.error_code;
                    return Err(Error::corrupt(
                        CODING,
                        format!("invalid brotli data ({code:?})"),
                    ));
                }
            }
        }
    }

    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        if self.done || !self.started {
            Ok(())
        } else {
            Err(Error::Truncated { coding: CODING })
        }
    }
}
