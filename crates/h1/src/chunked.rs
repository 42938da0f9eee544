//! The chunked transfer coding decoder (RFC 9112 §7.1), incremental over borrowed input.
//!
//! The decoder never copies chunk data: it reports where the data lies in the input it was
//! given. It holds only the trailer section (bounded by [`Limits::max_trailer_bytes`]) and a few
//! counters, and looks at every input byte at most once.

use core::ops::Range;

use crate::headers::{parse_fields, Headers, LineEnds};
use crate::syntax::is_field_byte;
use crate::{Error, Limits};

/// What one call to [`ChunkedDecoder::decode`] produced.
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChunkEvent {
    /// Body bytes: `input[range]`.
    Data(Range<usize>),
    /// The trailer section (only when it holds at least one field); `End` follows.
    Trailers(Headers),
    /// The last chunk and the trailer section have been read.
    End,
    /// Every byte of the input was consumed; more is needed.
    NeedData,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    /// Reading hex digits of the chunk size.
    Size { digits: bool },
    /// After the size: optional whitespace, then `;` extensions, until CR.
    Ext { semicolon: bool },
    /// CR of the chunk-size line seen; LF expected.
    SizeLf,
    /// This many data bytes remain in the current chunk.
    Data(u64),
    /// After chunk data: CR expected.
    DataCr,
    /// After chunk data and CR: LF expected.
    DataLf,
    /// Collecting the trailer section.
    Trailer,
    /// Trailers were returned; `End` is next.
    TrailersDone,
    /// The body is complete.
    Done,
}

/// Incremental decoder for a chunked body.
#[derive(Clone, Debug)]
pub struct ChunkedDecoder {
    state: State,
    size: u64,
    line_len: usize,
    trailer: Vec<u8>,
    trailer_line_start: usize,
    limits: Limits,
}

impl ChunkedDecoder {
    /// A decoder positioned at the first chunk-size line.
    pub fn new(limits: Limits) -> Self {
        ChunkedDecoder {
            state: State::Size { digits: false },
            size: 0,
            line_len: 0,
            trailer: Vec::new(),
            trailer_line_start: 0,
            limits,
        }
    }

    /// True once the last chunk and trailer section have been read.
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// Decodes from `input` (bytes not consumed by earlier calls). Returns how many bytes of
    /// `input` were consumed and what they produced. Data ranges index into `input` and lie
    /// within the consumed prefix. Call again with the unconsumed rest (plus new bytes).
    pub fn decode(&mut self, input: &[u8]) -> Result<(usize, ChunkEvent), Error> {
        let mut pos = 0usize;
        loop {
            if let State::Data(remaining) = self.state {
                let avail = input.len().saturating_sub(pos);
                if avail == 0 {
                    return Ok((pos, ChunkEvent::NeedData));
                }
                let take = usize::try_from(remaining).map_or(avail, |r| r.min(avail));
                let end = pos.saturating_add(take);
                let left = remaining.saturating_sub(u64::try_from(take).unwrap_or(u64::MAX));
                self.state = if left == 0 {
                    State::DataCr
                } else {
                    State::Data(left)
                };
                return Ok((end, ChunkEvent::Data(pos..end)));
            }
            match self.state {
                State::TrailersDone => {
                    self.state = State::Done;
                    return Ok((pos, ChunkEvent::End));
                }
                State::Done => return Ok((pos, ChunkEvent::End)),
                _ => {}
            }
            let Some(&b) = input.get(pos) else {
                return Ok((pos, ChunkEvent::NeedData));
            };
            pos = pos.saturating_add(1);
            if let Some(event) = self.step(b)? {
                return Ok((pos, event));
            }
        }
    }

    /// Feeds one control byte (anything but chunk data).
    fn step(&mut self, b: u8) -> Result<Option<ChunkEvent>, Error> {
        match self.state {
            State::Size { digits } => {
                self.count_line_byte()?;
                if let Some(d) = hex_value(b) {
                    self.size = self
                        .size
                        .checked_mul(16)
                        .and_then(|s| s.checked_add(u64::from(d)))
                        .ok_or(Error::ChunkSizeOverflow)?;
                    self.state = State::Size { digits: true };
                } else if !digits {
                    return Err(Error::BadChunkSize);
                } else {
                    self.after_size(b)?;
                }
            }
            State::Ext { semicolon } => {
                self.count_line_byte()?;
                match b {
                    b'\r' => self.state = State::SizeLf,
                    b'\n' => return Err(Error::BareLf),
                    b';' => self.state = State::Ext { semicolon: true },
                    b' ' | b'\t' => {}
                    _ if semicolon && is_field_byte(b) => {}
                    _ => return Err(Error::BadChunkExtension),
                }
            }
            State::SizeLf => {
                if b != b'\n' {
                    return Err(Error::BareCr);
                }
                self.line_len = 0;
                if self.size == 0 {
                    self.state = State::Trailer;
                } else {
                    self.state = State::Data(self.size);
                    self.size = 0;
                }
            }
            State::DataCr => {
                if b != b'\r' {
                    return Err(Error::BadChunkTerminator);
                }
                self.state = State::DataLf;
            }
            State::DataLf => {
                if b != b'\n' {
                    return Err(Error::BadChunkTerminator);
                }
                self.state = State::Size { digits: false };
            }
            State::Trailer => return self.trailer_byte(b),
            State::Data(_) | State::TrailersDone | State::Done => {}
        }
        Ok(None)
    }

    /// The first byte after the hex digits of a chunk size.
    fn after_size(&mut self, b: u8) -> Result<(), Error> {
        match b {
            b'\r' => self.state = State::SizeLf,
            b'\n' => return Err(Error::BareLf),
            b';' => self.state = State::Ext { semicolon: true },
            b' ' | b'\t' => self.state = State::Ext { semicolon: false },
            _ => return Err(Error::BadChunkSize),
        }
        Ok(())
    }

    fn count_line_byte(&mut self) -> Result<(), Error> {
        self.line_len = self.line_len.saturating_add(1);
        if self.line_len > self.limits.max_chunk_line {
            return Err(Error::ChunkLineTooLong {
                limit: self.limits.max_chunk_line,
            });
        }
        Ok(())
    }

    /// Collects the trailer section; parses it when its empty line arrives.
    fn trailer_byte(&mut self, b: u8) -> Result<Option<ChunkEvent>, Error> {
        if self.trailer.len() >= self.limits.max_trailer_bytes {
            return Err(Error::TrailersTooLarge {
                limit: self.limits.max_trailer_bytes,
            });
        }
        self.trailer.push(b);
        if b != b'\n' {
            return Ok(None);
        }
        let end = self.trailer.len();
        let line = self
            .trailer
            .get(self.trailer_line_start..end.saturating_sub(1))
            .unwrap_or_default();
        if !(line.is_empty() || line == b"\r") {
            self.trailer_line_start = end;
            return Ok(None);
        }
        let (fields, _) = parse_fields(&self.trailer, self.limits.max_headers, LineEnds::Crlf)?;
        self.trailer = Vec::new();
        if fields.is_empty() {
            self.state = State::Done;
            Ok(Some(ChunkEvent::End))
        } else {
            self.state = State::TrailersDone;
            Ok(Some(ChunkEvent::Trailers(fields)))
        }
    }
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => b.checked_sub(b'0'),
        b'a'..=b'f' => b.checked_sub(b'a').and_then(|v| v.checked_add(10)),
        b'A'..=b'F' => b.checked_sub(b'A').and_then(|v| v.checked_add(10)),
        _ => None,
    }
}
