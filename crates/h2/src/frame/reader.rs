//! Splits a byte stream into frames, whatever the chunking of the input.

use super::{flags, size_err, DataHead, FrameHeader, FrameType, HEADER_LEN};
use crate::error::Error;

/// A complete frame: its header and its whole payload, borrowed from the reader or the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawFrame<'a> {
    /// The header.
    pub head: FrameHeader,
    /// The payload (exactly `head.length` bytes).
    pub payload: &'a [u8],
}

/// What [`FrameReader::read`] hands out, in stream order.
///
/// A DATA frame comes as one [`Piece::DataHead`] followed by one or more [`Piece::Data`], the
/// last of which has `end` set; nothing else comes in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Piece<'a> {
    /// A complete frame other than DATA.
    Frame(RawFrame<'a>),
    /// A DATA frame starts: its header (size already checked) and pad length byte are known. Its
    /// other checks are [`DataHead::data_len`]'s; the reader applies them after this piece.
    DataHead(DataHead),
    /// Application data of the current DATA frame, borrowed from the input (padding is never
    /// handed out).
    Data {
        /// The bytes; empty only when `end` is set.
        data: &'a [u8],
        /// The frame is complete (its padding skipped).
        end: bool,
    },
}

/// Splits the input into frames, holding at most one incomplete frame.
///
/// Memory is bounded by `max_frame_size + 9`: a header announcing a longer payload is a
/// FRAME_SIZE_ERROR before any of its payload is buffered. With [`FrameReader::read`], DATA
/// payloads are never buffered: only a DATA frame's header and pad length byte are (10 bytes).
#[derive(Debug)]
pub struct FrameReader {
    /// The start of the current frame: part of its header, a DATA header and pad length byte, or
    /// (other frames) header and the payload received so far.
    buf: Vec<u8>,
    max_frame_size: u32,
    /// Inside a DATA payload being handed out by `read`.
    data: Option<DataLeft>,
}

/// What is left of the DATA frame being handed out.
#[derive(Debug, Clone, Copy)]
struct DataLeft {
    /// Application data still to hand out.
    data: u32,
    /// Trailing padding still to skip.
    pad: u32,
}

impl FrameReader {
    /// A reader accepting payloads up to `max_frame_size` (our SETTINGS_MAX_FRAME_SIZE).
    pub fn new(max_frame_size: u32) -> FrameReader {
        FrameReader {
            buf: Vec::new(),
            max_frame_size,
            data: None,
        }
    }

    /// Bytes held for an incomplete frame: at most `max_frame_size + 9`, and at most 10 while
    /// [`FrameReader::read`] is in a DATA frame.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Feeds `input` and calls `each` for every complete frame, DATA included, in order.
    ///
    /// Payloads of frames that lie entirely in `input` are not copied; others are assembled in
    /// the reader. Stops at the first error (from the reader or from `each`); the reader must
    /// not be used after an error. Use either `feed` or [`FrameReader::read`] on a reader, not
    /// both: `feed` drops the rest of a DATA payload that `read` started handing out.
    pub fn feed<F>(&mut self, input: &[u8], mut each: F) -> Result<(), Error>
    where
        F: FnMut(RawFrame<'_>) -> Result<(), Error>,
    {
        self.run(input, false, |p| match p {
            Piece::Frame(f) => each(f),
            Piece::DataHead(_) | Piece::Data { .. } => Ok(()),
        })
    }

    /// Feeds `input` and calls `each` for every [`Piece`], in order: complete frames other than
    /// DATA, and DATA frames as a head and then their data as it arrives, borrowed from `input`
    /// (a frame spanning several inputs comes in several pieces; padding is skipped).
    ///
    /// Stops at the first error (from the reader or from `each`); the reader must not be used
    /// after an error.
    pub fn read<F>(&mut self, input: &[u8], each: F) -> Result<(), Error>
    where
        F: FnMut(Piece<'_>) -> Result<(), Error>,
    {
        self.run(input, true, each)
    }

    /// The reader itself: `stream_data` chooses whether DATA frames come in pieces (`read`) or
    /// whole like any other frame (`feed`).
    fn run<F>(&mut self, mut input: &[u8], stream_data: bool, mut each: F) -> Result<(), Error>
    where
        F: FnMut(Piece<'_>) -> Result<(), Error>,
    {
        loop {
            if let Some(left) = &mut self.data {
                let (data, rest) = take(&mut input, left.data);
                left.data = rest;
                let (_, pad) = take(&mut input, left.pad);
                left.pad = pad;
                let end = left.data == 0 && left.pad == 0;
                if end {
                    self.data = None;
                }
                if !data.is_empty() || end {
                    each(Piece::Data { data, end })?;
                }
                if !end {
                    // Only an exhausted input leaves a DATA frame unfinished.
                    return Ok(());
                }
                continue;
            }
            // An unpadded DATA header whole in the input (the common case while a body flows)
            // is read where it is; any other header is copied (9 bytes), so that a frame split
            // anywhere reads the same way.
            if stream_data && self.buf.is_empty() {
                if let Some(head) = input.get(..HEADER_LEN).and_then(FrameHeader::parse) {
                    if head.kind == FrameType::DATA && !head.has(flags::PADDED) {
                        if head.length > self.max_frame_size {
                            return Err(size_err());
                        }
                        input = input.get(HEADER_LEN..).unwrap_or_default();
                        self.enter_data(head, None, &mut each)?;
                        continue;
                    }
                }
            }
            if !self.top_up(&mut input, HEADER_LEN) {
                return Ok(());
            }
            let head = FrameHeader::parse(&self.buf).ok_or_else(size_err)?;
            // "An endpoint MUST send an error code of FRAME_SIZE_ERROR if a frame exceeds the
            // size defined in SETTINGS_MAX_FRAME_SIZE".
            if head.length > self.max_frame_size {
                return Err(size_err());
            }
            if stream_data && head.kind == FrameType::DATA {
                if !self.start_data(head, &mut input, &mut each)? {
                    return Ok(());
                }
                continue;
            }
            let len = usize::try_from(head.length).map_err(|_| size_err())?;
            if self.buf.len() == HEADER_LEN {
                // The whole payload is in the input: hand it out from there.
                if let Some((payload, rest)) = input.split_at_checked(len) {
                    input = rest;
                    self.buf.clear();
                    each(Piece::Frame(RawFrame { head, payload }))?;
                    continue;
                }
            }
            if !self.top_up(&mut input, HEADER_LEN.saturating_add(len)) {
                return Ok(());
            }
            let buf = core::mem::take(&mut self.buf);
            let r = match buf.get(HEADER_LEN..) {
                Some(payload) => each(Piece::Frame(RawFrame { head, payload })),
                None => Err(size_err()),
            };
            self.buf = buf;
            self.buf.clear();
            r?;
        }
    }

    /// A DATA header is in `buf`: reads the pad length byte if there is one, hands out the head
    /// and enters the payload. False (input exhausted) while the pad length byte is missing.
    fn start_data<F>(
        &mut self,
        head: FrameHeader,
        input: &mut &[u8],
        each: &mut F,
    ) -> Result<bool, Error>
    where
        F: FnMut(Piece<'_>) -> Result<(), Error>,
    {
        let padded = head.has(flags::PADDED) && head.length > 0;
        let pad_byte = if padded {
            if !self.top_up(input, HEADER_LEN.saturating_add(1)) {
                return Ok(false);
            }
            self.buf.get(HEADER_LEN).copied()
        } else {
            None
        };
        self.enter_data(head, pad_byte, each)?;
        Ok(true)
    }

    /// A DATA frame's header and pad length byte (if `PADDED`) are read: hands out the head
    /// and enters the payload.
    fn enter_data<F>(
        &mut self,
        head: FrameHeader,
        pad_byte: Option<u8>,
        each: &mut F,
    ) -> Result<(), Error>
    where
        F: FnMut(Piece<'_>) -> Result<(), Error>,
    {
        let dh = DataHead {
            head,
            pad: pad_byte,
        };
        // The receiver's checks come first; these guard the arithmetic for any receiver.
        each(Piece::DataHead(dh))?;
        let data = dh.data_len()?;
        let after_pad_byte = head.length.saturating_sub(u32::from(pad_byte.is_some()));
        self.buf.clear();
        self.data = Some(DataLeft {
            data,
            pad: after_pad_byte.saturating_sub(data),
        });
        Ok(())
    }

    /// Copies from `input` until `buf` holds `want` bytes; true when it does.
    fn top_up(&mut self, input: &mut &[u8], want: usize) -> bool {
        let need = want.saturating_sub(self.buf.len()).min(input.len());
        let cur: &[u8] = input;
        let (now, rest) = cur.split_at_checked(need).unwrap_or((cur, &[]));
        self.buf.extend_from_slice(now);
        *input = rest;
        self.buf.len() >= want
    }
}

/// Takes up to `n` bytes off the front of `input`; returns them and how many are still owed.
fn take<'a>(input: &mut &'a [u8], n: u32) -> (&'a [u8], u32) {
    let avail = u32::try_from(input.len()).unwrap_or(u32::MAX);
    let k = n.min(avail);
    let cur: &'a [u8] = input;
    let Some((now, rest)) = usize::try_from(k)
        .ok()
        .and_then(|k| cur.split_at_checked(k))
    else {
        return (&[], n);
    };
    *input = rest;
    (now, n.saturating_sub(k))
}
