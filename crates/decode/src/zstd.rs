//! Zstandard (RFC 8878) via the pure-Rust `ruzstd`, fed one whole block at a time.
//!
//! ruzstd reads from `io::Read` and cannot resume inside a block, so this module frames the
//! stream itself (frame headers, block headers, checksums, skippable frames) and hands ruzstd
//! only complete units. A block is at most 128 KiB, so the input buffer is bounded; the window
//! is refused above [`MAX_ZSTD_WINDOW`], so ruzstd's history buffer is bounded too.

use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
use std::io::Read;

use crate::{Emit, Error};

const CODING: &str = "zstd";

/// Largest zstd window accepted (RFC 9659 §3: HTTP zstd encoders must not use more than 8 MiB;
/// decoders may refuse larger). It bounds the memory a peer can make us allocate.
pub const MAX_ZSTD_WINDOW: u64 = 8 * 1024 * 1024;

const ZSTD_MAGIC: u32 = 0xFD2F_B528;
const SKIPPABLE_MAGIC_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;
/// RFC 8878 §3.1.1.2: no block is larger than 128 KiB.
const MAX_BLOCK: usize = 128 * 1024;
const BLOCK_HEADER: usize = 3;
const CHECKSUM: usize = 4;

enum State {
    /// Expecting a frame (or the end of the body).
    FrameStart,
    /// Inside a frame's blocks.
    Blocks {
        checksum: bool,
        /// Frame_Content_Size, when the header has it: the frame must decode to exactly this.
        content_size: Option<u64>,
    },
    /// Skipping the rest of a skippable frame.
    Skip { left: u64 },
}

pub(crate) struct ZstdDecoder {
    frame: Box<FrameDecoder>,
    state: State,
    /// The unit (frame header, block, skippable header) being assembled; at most one block.
    pending: Vec<u8>,
    frames: u64,
    /// Bytes the current frame has decoded to so far.
    frame_output: u64,
}

impl ZstdDecoder {
    pub(crate) fn new() -> ZstdDecoder {
        ZstdDecoder {
            frame: Box::new(FrameDecoder::new()),
            state: State::FrameStart,
            pending: Vec::new(),
            frames: 0,
            frame_output: 0,
        }
    }

    pub(crate) fn decode(
        &mut self,
        mut input: &[u8],
        scratch: &mut [u8],
        emit: &mut Emit<'_>,
    ) -> Result<(), Error> {
        while self.step(&mut input, scratch, emit)? {}
        Ok(())
    }

    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        match self.state {
            State::FrameStart if self.pending.is_empty() => Ok(()),
            State::FrameStart if self.frames > 0 => Err(Error::corrupt(
                CODING,
                "trailing data after the last zstd frame",
            )),
            _ => Err(Error::Truncated { coding: CODING }),
        }
    }

    /// Processes one unit; false when more input is needed.
    fn step(
        &mut self,
        input: &mut &[u8],
        scratch: &mut [u8],
        emit: &mut Emit<'_>,
    ) -> Result<bool, Error> {
        match self.state {
            State::FrameStart => {
                if !fill(&mut self.pending, input, 4) {
                    return Ok(false);
                }
                let magic = le_u32(&self.pending, 0);
                if magic == ZSTD_MAGIC {
                    if !fill(&mut self.pending, input, 5) {
                        return Ok(false);
                    }
                    let descriptor = le_u8(&self.pending, 4);
                    let header_len = 4usize.saturating_add(frame_header_len(descriptor));
                    if !fill(&mut self.pending, input, header_len) {
                        return Ok(false);
                    }
                    let (checksum, content_size) = check_frame_header(&self.pending)?;
                    self.frame
                        .reset(self.pending.as_slice())
                        .map_err(|e| Error::corrupt(CODING, e.to_string()))?;
                    self.pending.clear();
                    self.frame_output = 0;
                    self.state = State::Blocks {
                        checksum,
                        content_size,
                    };
                } else if magic & SKIPPABLE_MAGIC_MASK == SKIPPABLE_MAGIC {
                    if !fill(&mut self.pending, input, 8) {
                        return Ok(false);
                    }
                    let left = u64::from(le_u32(&self.pending, 4));
                    self.pending.clear();
                    self.state = State::Skip { left };
                } else if self.frames > 0 {
                    return Err(Error::corrupt(
                        CODING,
                        "trailing data after the last zstd frame",
                    ));
                } else {
                    return Err(Error::corrupt(
                        CODING,
                        "not a zstd stream (bad magic number)",
                    ));
                }
                Ok(true)
            }
            State::Skip { left } => {
                if left == 0 {
                    self.state = State::FrameStart;
                    return Ok(true);
                }
                if input.is_empty() {
                    return Ok(false);
                }
                let take = usize::try_from(left).unwrap_or(usize::MAX).min(input.len());
                *input = input.get(take..).unwrap_or_default();
                self.state = State::Skip {
                    left: left.saturating_sub(u64::try_from(take).unwrap_or(u64::MAX)),
                };
                Ok(true)
            }
            State::Blocks {
                checksum,
                content_size,
            } => {
                // The block header, from `pending` or straight from `input`.
                let header = if self.pending.is_empty() && input.len() >= BLOCK_HEADER {
                    [le_u8(input, 0), le_u8(input, 1), le_u8(input, 2)]
                } else if fill(&mut self.pending, input, BLOCK_HEADER) {
                    [
                        le_u8(&self.pending, 0),
                        le_u8(&self.pending, 1),
                        le_u8(&self.pending, 2),
                    ]
                } else {
                    return Ok(false);
                };
                let (content, last) = block_content_len(header)?;
                let unit = BLOCK_HEADER
                    .saturating_add(content)
                    .saturating_add(if last && checksum { CHECKSUM } else { 0 });
                let whole: &[u8] = if self.pending.is_empty() {
                    match input.split_at_checked(unit) {
                        Some((whole, rest)) => {
                            *input = rest;
                            whole
                        }
                        None => {
                            fill(&mut self.pending, input, unit);
                            return Ok(false);
                        }
                    }
                } else if fill(&mut self.pending, input, unit) {
                    &self.pending
                } else {
                    return Ok(false);
                };
                self.frame
                    .decode_blocks(whole, BlockDecodingStrategy::UptoBlocks(1))
                    .map_err(|e| Error::corrupt(CODING, e.to_string()))?;
                self.pending.clear();
                self.drain(scratch, emit)?;
                if last {
                    self.end_frame(checksum, content_size)?;
                }
                Ok(true)
            }
        }
    }

    /// Hands out what ruzstd no longer needs for its window (everything once the frame ended).
    fn drain(&mut self, scratch: &mut [u8], emit: &mut Emit<'_>) -> Result<(), Error> {
        loop {
            let n = self
                .frame
                .read(scratch)
                .map_err(|e| Error::corrupt(CODING, e.to_string()))?;
            if n == 0 {
                return Ok(());
            }
            self.frame_output = self
                .frame_output
                .saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
            emit(scratch.get(..n).unwrap_or_default())?;
        }
    }

    fn end_frame(&mut self, checksum: bool, content_size: Option<u64>) -> Result<(), Error> {
        if content_size.is_some_and(|size| size != self.frame_output) {
            return Err(Error::corrupt(
                CODING,
                "frame decoded to a size other than its Frame_Content_Size",
            ));
        }
        if checksum && self.frame.get_checksum_from_data() != self.frame.get_calculated_checksum() {
            return Err(Error::corrupt(CODING, "content checksum mismatch"));
        }
        self.frames = self.frames.saturating_add(1);
        self.state = State::FrameStart;
        Ok(())
    }
}

/// Moves bytes from `input` into `pending` until it holds `n`; whether it does.
fn fill(pending: &mut Vec<u8>, input: &mut &[u8], n: usize) -> bool {
    let take = n.saturating_sub(pending.len()).min(input.len());
    let (head, rest) = input.split_at(take);
    pending.extend_from_slice(head);
    *input = rest;
    pending.len() >= n
}

fn le_u8(bytes: &[u8], at: usize) -> u8 {
    bytes.get(at).copied().unwrap_or(0)
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::try_from(le_u64(bytes, at, 4)).unwrap_or(u32::MAX)
}

/// Little-endian integer of `len` bytes at `at` (missing bytes read as zero; callers check lengths).
fn le_u64(bytes: &[u8], at: usize, len: usize) -> u64 {
    (0..len).rev().fold(0u64, |acc, i| {
        acc << 8 | u64::from(le_u8(bytes, at.saturating_add(i)))
    })
}

/// Length of the frame header after the magic number, from its descriptor byte (RFC 8878 §3.1.1.1).
fn frame_header_len(descriptor: u8) -> usize {
    let single_segment = descriptor & 0x20 != 0;
    let window = usize::from(!single_segment);
    let dict = dict_id_len(descriptor);
    let fcs = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    1usize
        .saturating_add(window)
        .saturating_add(dict)
        .saturating_add(fcs)
}

/// Length of the dictionary ID field, from the frame header descriptor.
fn dict_id_len(descriptor: u8) -> usize {
    match descriptor & 3 {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 4,
    }
}

/// Checks a whole frame header (magic included): no dictionary, window within the limit.
/// Returns whether the frame carries a content checksum, and its content size if given.
fn check_frame_header(header: &[u8]) -> Result<(bool, Option<u64>), Error> {
    let descriptor = le_u8(header, 4);
    if descriptor & 0x08 != 0 {
        return Err(Error::corrupt(CODING, "reserved frame header bit set"));
    }
    let single_segment = descriptor & 0x20 != 0;
    let mut at = 5;
    let window = if single_segment {
        None
    } else {
        let descriptor = le_u8(header, at);
        at = at.saturating_add(1);
        // Window_Log is 10 + exponent, at most 41: the shift cannot overflow.
        let base = 1u64 << (10u32.saturating_add(u32::from(descriptor >> 3)));
        Some(base.saturating_add((base / 8).saturating_mul(u64::from(descriptor & 7))))
    };
    let dict_len = dict_id_len(descriptor);
    if le_u64(header, at, dict_len) != 0 {
        return Err(Error::corrupt(
            CODING,
            "frame needs a dictionary; none is supported",
        ));
    }
    at = at.saturating_add(dict_len);
    let content_size = match descriptor >> 6 {
        0 if single_segment => Some(le_u64(header, at, 1)),
        0 => None,
        1 => Some(le_u64(header, at, 2).saturating_add(256)),
        2 => Some(le_u64(header, at, 4)),
        _ => Some(le_u64(header, at, 8)),
    };
    // Single segment: the window is the content size (RFC 8878 §3.1.1.1.2).
    let window = window.or(content_size).unwrap_or(0);
    if window > MAX_ZSTD_WINDOW {
        return Err(Error::corrupt(
            CODING,
            format!("window of {window} bytes exceeds the {MAX_ZSTD_WINDOW}-byte limit (RFC 9659)"),
        ));
    }
    Ok((descriptor & 0x04 != 0, content_size))
}

/// The size of a block's content and whether it is the frame's last (RFC 8878 §3.1.1.2).
fn block_content_len(header: [u8; 3]) -> Result<(usize, bool), Error> {
    let raw = le_u64(&header, 0, 3);
    let last = raw & 1 != 0;
    let size = usize::try_from(raw >> 3).unwrap_or(usize::MAX);
    if size > MAX_BLOCK {
        return Err(Error::corrupt(CODING, "block larger than 128 KiB"));
    }
    let content = match (raw >> 1) & 3 {
        0 | 2 => size,
        1 => 1,
        _ => return Err(Error::corrupt(CODING, "reserved block type")),
    };
    Ok((content, last))
}
