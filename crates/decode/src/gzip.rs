//! gzip (RFC 1952): header, raw DEFLATE body, CRC-32 and ISIZE trailer; members in sequence.

use crate::inflate::{pump, Format, InflateBackend, Inflater};
use crate::{Emit, Error};

const CODING: &str = "gzip";
const RESERVED_FLAGS: u8 = 0b1110_0000;
const FHCRC: u8 = 0b0000_0010;
const FEXTRA: u8 = 0b0000_0100;
const FNAME: u8 = 0b0000_1000;
const FCOMMENT: u8 = 0b0001_0000;

/// Where in a member the decoder is.
enum State {
    /// The 10 fixed header bytes.
    Fixed { buf: [u8; 10], have: usize },
    /// The 2-byte XLEN of FEXTRA.
    ExtraLen { buf: [u8; 2], have: usize },
    /// Skipping FEXTRA data.
    Extra { left: usize },
    /// Skipping the zero-terminated FNAME.
    Name,
    /// Skipping the zero-terminated FCOMMENT.
    Comment,
    /// The 2-byte header CRC.
    HeaderCrc { buf: [u8; 2], have: usize },
    /// The DEFLATE data.
    Body,
    /// CRC32 and ISIZE.
    Trailer { buf: [u8; 8], have: usize },
    /// A member ended; more input must be another member.
    MemberEnd,
}

pub(crate) struct GzipDecoder {
    state: State,
    flags: u8,
    header_crc: crc32fast::Hasher,
    inflater: Inflater,
    backend: InflateBackend,
    /// Output CRC and size of the current member.
    crc: crc32fast::Hasher,
    size: u32,
    members: u64,
}

impl GzipDecoder {
    pub(crate) fn new(backend: InflateBackend) -> GzipDecoder {
        GzipDecoder {
            state: State::Fixed {
                buf: [0; 10],
                have: 0,
            },
            flags: 0,
            header_crc: crc32fast::Hasher::new(),
            inflater: Inflater::new(backend, Format::Raw),
            backend,
            crc: crc32fast::Hasher::new(),
            size: 0,
            members: 0,
        }
    }

    pub(crate) fn decode(
        &mut self,
        mut input: &[u8],
        scratch: &mut [u8],
        emit: &mut Emit<'_>,
    ) -> Result<(), Error> {
        while !input.is_empty() {
            input = match &mut self.state {
                State::Fixed { buf, have } => {
                    let (rest, full) = fill(buf, have, input);
                    if full {
                        let fixed = *buf;
                        self.header_crc.update(&fixed);
                        self.begin_member(&fixed)?;
                    }
                    rest
                }
                State::ExtraLen { buf, have } => {
                    let (rest, full) = fill(buf, have, input);
                    if full {
                        let xlen = *buf;
                        self.header_crc.update(&xlen);
                        self.state = State::Extra {
                            left: usize::from(u16::from_le_bytes(xlen)),
                        };
                    }
                    rest
                }
                State::Extra { left } => {
                    let take = (*left).min(input.len());
                    let (skipped, rest) = input.split_at(take);
                    self.header_crc.update(skipped);
                    *left = left.saturating_sub(take);
                    if *left == 0 {
                        self.after(FEXTRA);
                    }
                    rest
                }
                State::Name | State::Comment => {
                    let field = if matches!(self.state, State::Name) {
                        FNAME
                    } else {
                        FCOMMENT
                    };
                    match input.iter().position(|&b| b == 0) {
                        Some(nul) => {
                            let (text, rest) = input.split_at(nul.saturating_add(1));
                            self.header_crc.update(text);
                            self.after(field);
                            rest
                        }
                        None => {
                            self.header_crc.update(input);
                            &[]
                        }
                    }
                }
                State::HeaderCrc { buf, have } => {
                    let (rest, full) = fill(buf, have, input);
                    if full {
                        let stored = u16::from_le_bytes(*buf);
                        // The header CRC is the low 16 bits of the CRC-32 (RFC 1952 §2.3.1).
                        let computed = self.header_crc.clone().finalize().to_le_bytes();
                        if stored.to_le_bytes() != [computed[0], computed[1]] {
                            return Err(Error::corrupt(CODING, "header CRC mismatch"));
                        }
                        self.state = State::Body;
                    }
                    rest
                }
                State::Body => {
                    let crc = &mut self.crc;
                    let size = &mut self.size;
                    let (rest, ended) = pump(
                        &mut self.inflater,
                        CODING,
                        input,
                        scratch,
                        &mut |chunk: &[u8]| {
                            crc.update(chunk);
                            // ISIZE is the size modulo 2^32 (RFC 1952 §2.3.1); chunks are at most 32 KiB.
                            *size =
                                size.wrapping_add(u32::try_from(chunk.len()).unwrap_or(u32::MAX));
                            emit(chunk)
                        },
                    )?;
                    if ended {
                        self.state = State::Trailer {
                            buf: [0; 8],
                            have: 0,
                        };
                    }
                    rest
                }
                State::Trailer { buf, have } => {
                    let (rest, full) = fill(buf, have, input);
                    if full {
                        let [c0, c1, c2, c3, s0, s1, s2, s3] = *buf;
                        let crc = core::mem::take(&mut self.crc).finalize();
                        if u32::from_le_bytes([c0, c1, c2, c3]) != crc {
                            return Err(Error::corrupt(
                                CODING,
                                "CRC-32 of the decoded data mismatch",
                            ));
                        }
                        if u32::from_le_bytes([s0, s1, s2, s3]) != self.size {
                            return Err(Error::corrupt(
                                CODING,
                                "ISIZE does not match the decoded size",
                            ));
                        }
                        self.members = self.members.saturating_add(1);
                        self.state = State::MemberEnd;
                    }
                    rest
                }
                State::MemberEnd => {
                    // RFC 1952 §2.2: a gzip file is a series of members; anything else after
                    // a member is garbage, refused below by the magic check.
                    self.inflater = Inflater::new(self.backend, Format::Raw);
                    self.header_crc = crc32fast::Hasher::new();
                    self.size = 0;
                    self.state = State::Fixed {
                        buf: [0; 10],
                        have: 0,
                    };
                    input
                }
            };
        }
        Ok(())
    }

    pub(crate) fn finish(&mut self, started: bool) -> Result<(), Error> {
        match self.state {
            State::MemberEnd => Ok(()),
            State::Fixed { have: 0, .. } if !started => Ok(()),
            _ => Err(Error::Truncated { coding: CODING }),
        }
    }

    fn begin_member(&mut self, fixed: &[u8; 10]) -> Result<(), Error> {
        let [id1, id2, cm, flags, ..] = *fixed;
        if [id1, id2] != [0x1f, 0x8b] {
            let what = if self.members > 0 {
                "trailing data after the last gzip member"
            } else {
                "not a gzip stream (bad magic bytes)"
            };
            return Err(Error::corrupt(CODING, what));
        }
        if cm != 8 {
            return Err(Error::corrupt(
                CODING,
                format!("compression method {cm} is not DEFLATE (8)"),
            ));
        }
        if flags & RESERVED_FLAGS != 0 {
            return Err(Error::corrupt(CODING, "reserved header flag bits set"));
        }
        self.flags = flags;
        self.after(0);
        Ok(())
    }

    /// Moves to the header field after `done` (0 = the fixed part), in RFC 1952 order.
    fn after(&mut self, done: u8) {
        let order = [FEXTRA, FNAME, FCOMMENT, FHCRC];
        let next = order
            .iter()
            .skip_while(|&&f| done != 0 && f != done)
            .skip(usize::from(done != 0))
            .find(|&&f| self.flags & f != 0);
        self.state = match next {
            Some(&FEXTRA) => State::ExtraLen {
                buf: [0; 2],
                have: 0,
            },
            Some(&FNAME) => State::Name,
            Some(&FCOMMENT) => State::Comment,
            Some(_) => State::HeaderCrc {
                buf: [0; 2],
                have: 0,
            },
            None => State::Body,
        };
    }
}

/// Copies from `input` into `buf[*have..]`; returns the rest of `input` and whether `buf` is full.
pub(crate) fn fill<'i, const N: usize>(
    buf: &mut [u8; N],
    have: &mut usize,
    input: &'i [u8],
) -> (&'i [u8], bool) {
    let want = N.saturating_sub(*have);
    let take = want.min(input.len());
    let (head, rest) = input.split_at(take);
    if let Some(dst) = buf.get_mut(*have..have.saturating_add(take)) {
        dst.copy_from_slice(head);
    }
    *have = have.saturating_add(take);
    (rest, *have == N)
}
