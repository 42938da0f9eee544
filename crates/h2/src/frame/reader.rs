//! Splits a byte stream into frames, whatever the chunking of the input.

use super::{size_err, FrameHeader, HEADER_LEN};
use crate::error::Error;

/// A complete frame: its header and its whole payload, borrowed from the reader or the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawFrame<'a> {
    /// The header.
    pub head: FrameHeader,
    /// The payload (exactly `head.length` bytes).
    pub payload: &'a [u8],
}

/// Buffers at most one incomplete frame and hands out complete ones.
///
/// Memory is bounded by `max_frame_size + 9`: a header announcing a longer payload is a
/// FRAME_SIZE_ERROR before any of its payload is buffered.
#[derive(Debug)]
pub struct FrameReader {
    buf: Vec<u8>,
    max_frame_size: u32,
}

impl FrameReader {
    /// A reader accepting payloads up to `max_frame_size` (our SETTINGS_MAX_FRAME_SIZE).
    pub fn new(max_frame_size: u32) -> FrameReader {
        FrameReader {
            buf: Vec::new(),
            max_frame_size,
        }
    }

    /// Bytes held for an incomplete frame.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Feeds `input` and calls `each` for every complete frame, in order.
    ///
    /// Frames that lie entirely in `input` are not copied. Stops at the first error (from the
    /// reader or from `each`); the reader must not be used after an error.
    pub fn feed<F>(&mut self, mut input: &[u8], mut each: F) -> Result<(), Error>
    where
        F: FnMut(RawFrame<'_>) -> Result<(), Error>,
    {
        // First complete a frame already started in `buf`.
        if !self.buf.is_empty() {
            let took = self.fill_pending(input)?;
            input = input.get(took..).unwrap_or_default();
            match self.pending_complete()? {
                Some(total) => {
                    let buf = core::mem::take(&mut self.buf);
                    let r = match (FrameHeader::parse(&buf), buf.get(HEADER_LEN..total)) {
                        (Some(head), Some(payload)) => each(RawFrame { head, payload }),
                        _ => Err(size_err()),
                    };
                    self.buf = buf;
                    self.buf.clear();
                    r?;
                }
                None => return Ok(()),
            }
        }
        // Then frames straight from the input.
        while let Some(head) = FrameHeader::parse(input) {
            self.check(&head)?;
            let total = frame_total(&head);
            let Some(frame) = input.get(..total) else {
                break;
            };
            let payload = frame.get(HEADER_LEN..).unwrap_or_default();
            input = input.get(total..).unwrap_or_default();
            each(RawFrame { head, payload })?;
        }
        self.buf.extend_from_slice(input);
        if let Some(head) = FrameHeader::parse(&self.buf) {
            self.check(&head)?;
        }
        Ok(())
    }

    fn check(&self, head: &FrameHeader) -> Result<(), Error> {
        // "An endpoint MUST send an error code of FRAME_SIZE_ERROR if a frame exceeds the size
        // defined in SETTINGS_MAX_FRAME_SIZE".
        if head.length > self.max_frame_size {
            return Err(size_err());
        }
        Ok(())
    }

    /// Copies from `input` just what the pending frame still needs; returns how much was taken.
    fn fill_pending(&mut self, input: &[u8]) -> Result<usize, Error> {
        let mut took = 0;
        if self.buf.len() < HEADER_LEN {
            let need = HEADER_LEN.saturating_sub(self.buf.len()).min(input.len());
            self.buf
                .extend_from_slice(input.get(..need).unwrap_or_default());
            took = need;
        }
        if let Some(head) = FrameHeader::parse(&self.buf) {
            self.check(&head)?;
            let need = frame_total(&head).saturating_sub(self.buf.len());
            let rest = input.get(took..).unwrap_or_default();
            let n = need.min(rest.len());
            self.buf
                .extend_from_slice(rest.get(..n).unwrap_or_default());
            took = took.saturating_add(n);
        }
        Ok(took)
    }

    fn pending_complete(&self) -> Result<Option<usize>, Error> {
        match FrameHeader::parse(&self.buf) {
            Some(head) => {
                let total = frame_total(&head);
                Ok((self.buf.len() >= total).then_some(total))
            }
            None => Ok(None),
        }
    }
}

fn frame_total(head: &FrameHeader) -> usize {
    usize::try_from(head.length)
        .unwrap_or(usize::MAX)
        .saturating_add(HEADER_LEN)
}
