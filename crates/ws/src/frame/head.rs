//! The frame head: FIN, RSV1-3, opcode, MASK, payload length, masking key (RFC 6455 §5.2).

use super::{Opcode, MAX_CONTROL_PAYLOAD};
use crate::error::{Error, Kind};

/// The longest frame head: 2 bytes, an 8-byte extended length and a 4-byte masking key.
pub const MAX_HEAD_LEN: usize = 14;

const FIN: u8 = 0x80;
const RSV1: u8 = 0x40;
const RSV2: u8 = 0x20;
const RSV3: u8 = 0x10;
const MASK: u8 = 0x80;

/// A decoded frame head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameHead {
    /// The final fragment of a message.
    pub fin: bool,
    /// RSV1 (permessage-deflate's "Per-Message Compressed" bit, RFC 7692 §6).
    pub rsv1: bool,
    /// RSV2 (no extension here defines it).
    pub rsv2: bool,
    /// RSV3 (no extension here defines it).
    pub rsv3: bool,
    /// The opcode.
    pub opcode: Opcode,
    /// The masking key, present when the MASK bit is set.
    pub mask: Option<[u8; 4]>,
    /// The payload length.
    pub len: u64,
}

impl FrameHead {
    /// Decodes the head at the start of `buf`.
    ///
    /// `Ok(None)`: more bytes are needed (at most [`MAX_HEAD_LEN`] in all). Otherwise the head
    /// and its length in bytes. Checks what needs no connection state: defined opcodes, control
    /// frames unfragmented and at most 125 bytes (§5.5), a 64-bit length with its top bit clear,
    /// and lengths in their minimal encoding unless `accept_non_minimal` (§5.2: "the minimal
    /// number of bytes MUST be used to encode the length").
    pub fn parse(
        buf: &[u8],
        accept_non_minimal: bool,
    ) -> Result<Option<(FrameHead, usize)>, Error> {
        let Some((&[b0, b1], rest)) = buf.split_first_chunk::<2>() else {
            return Ok(None);
        };
        let opcode = Opcode(b0 & 0x0f);
        // "If an unknown opcode is received, the receiving endpoint MUST _Fail the WebSocket
        // Connection_."
        if !opcode.is_defined() {
            return Err(Error::peer(Kind::ReservedOpcode));
        }
        let fin = b0 & FIN != 0;
        let short = b1 & 0x7f;
        // "All control frames MUST have a payload length of 125 bytes or less and MUST NOT be
        // fragmented."
        if opcode.is_control() && (!fin || usize::from(short) > MAX_CONTROL_PAYLOAD) {
            return Err(Error::peer(Kind::BadControlFrame));
        }
        let (len, rest) = match short {
            126 => {
                let Some((b, rest)) = rest.split_first_chunk::<2>() else {
                    return Ok(None);
                };
                let len = u64::from(u16::from_be_bytes(*b));
                if len < 126 && !accept_non_minimal {
                    return Err(Error::peer(Kind::NonMinimalLength));
                }
                (len, rest)
            }
            127 => {
                let Some((b, rest)) = rest.split_first_chunk::<8>() else {
                    return Ok(None);
                };
                let len = u64::from_be_bytes(*b);
                // "the most significant bit MUST be 0"
                if len >> 63 != 0 {
                    return Err(Error::peer(Kind::LengthTopBit));
                }
                if len <= u64::from(u16::MAX) && !accept_non_minimal {
                    return Err(Error::peer(Kind::NonMinimalLength));
                }
                (len, rest)
            }
            n => (u64::from(n), rest),
        };
        let (mask, rest) = if b1 & MASK != 0 {
            let Some((key, rest)) = rest.split_first_chunk::<4>() else {
                return Ok(None);
            };
            (Some(*key), rest)
        } else {
            (None, rest)
        };
        let used = buf.len().saturating_sub(rest.len());
        Ok(Some((
            FrameHead {
                fin,
                rsv1: b0 & RSV1 != 0,
                rsv2: b0 & RSV2 != 0,
                rsv3: b0 & RSV3 != 0,
                opcode,
                mask,
                len,
            },
            used,
        )))
    }

    /// Appends the head with the length in its minimal encoding. The opcode is written as given
    /// (its low 4 bits).
    pub fn encode(&self, out: &mut Vec<u8>) {
        let flag = |on: bool, bit: u8| if on { bit } else { 0 };
        let b0 = flag(self.fin, FIN)
            | flag(self.rsv1, RSV1)
            | flag(self.rsv2, RSV2)
            | flag(self.rsv3, RSV3)
            | (self.opcode.0 & 0x0f);
        let m = flag(self.mask.is_some(), MASK);
        match (u8::try_from(self.len), u16::try_from(self.len)) {
            (Ok(n), _) if n < 126 => out.extend_from_slice(&[b0, m | n]),
            (_, Ok(n)) => {
                out.extend_from_slice(&[b0, m | 126]);
                out.extend_from_slice(&n.to_be_bytes());
            }
            _ => {
                out.extend_from_slice(&[b0, m | 127]);
                out.extend_from_slice(&self.len.to_be_bytes());
            }
        }
        if let Some(key) = self.mask {
            out.extend_from_slice(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(b: &[u8]) -> Result<Option<(FrameHead, usize)>, Error> {
        FrameHead::parse(b, false)
    }

    #[test]
    fn rfc6455_examples() {
        // §5.7: a single-frame unmasked text message "Hello".
        let (h, n) = parse(&[0x81, 0x05, 0x48]).unwrap().unwrap();
        assert_eq!(
            (h.fin, h.opcode, h.mask, h.len, n),
            (true, Opcode::TEXT, None, 5, 2)
        );
        // §5.7: a masked "Hello".
        let (h, n) = parse(&[0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d])
            .unwrap()
            .unwrap();
        assert_eq!((h.mask, n), (Some([0x37, 0xfa, 0x21, 0x3d]), 6));
        // §5.7: 256 bytes binary, 16-bit length; 64 KiB with a 64-bit length.
        let (h, n) = parse(&[0x82, 0x7E, 0x01, 0x00]).unwrap().unwrap();
        assert_eq!((h.opcode, h.len, n), (Opcode::BINARY, 256, 4));
        let (h, n) = parse(&[0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
            .unwrap()
            .unwrap();
        assert_eq!((h.len, n), (65536, 10));
    }

    #[test]
    fn incomplete_heads_ask_for_more() {
        let full = [0x82, 0xFF, 0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 3, 4];
        for end in 0..full.len() {
            assert_eq!(parse(&full[..end]).unwrap(), None, "{end} bytes");
        }
        assert_eq!(parse(&full).unwrap().unwrap().1, 14);
    }

    #[test]
    fn refusals() {
        let kind = |b: &[u8]| parse(b).unwrap_err().kind();
        assert_eq!(kind(&[0x83, 0]), Kind::ReservedOpcode);
        assert_eq!(kind(&[0x8B, 0]), Kind::ReservedOpcode);
        assert_eq!(kind(&[0x09, 0]), Kind::BadControlFrame); // ping without FIN
        assert_eq!(kind(&[0x89, 126]), Kind::BadControlFrame);
        assert_eq!(kind(&[0x82, 126, 0, 125]), Kind::NonMinimalLength);
        assert_eq!(
            kind(&[0x82, 127, 0, 0, 0, 0, 0, 0, 0xff, 0xff]),
            Kind::NonMinimalLength
        );
        assert_eq!(
            kind(&[0x82, 127, 0x80, 0, 0, 0, 0, 1, 0, 0]),
            Kind::LengthTopBit
        );
        // Leniency, when asked for: the length is taken as written.
        let (h, _) = FrameHead::parse(&[0x82, 126, 0, 5], true).unwrap().unwrap();
        assert_eq!(h.len, 5);
        let (h, _) = FrameHead::parse(&[0x82, 127, 0, 0, 0, 0, 0, 0, 0, 5], true)
            .unwrap()
            .unwrap();
        assert_eq!(h.len, 5);
    }

    #[test]
    fn encode_is_minimal_and_round_trips() {
        for len in [0u64, 125, 126, 65535, 65536, 1 << 40] {
            for mask in [None, Some([1, 2, 3, 4])] {
                let h = FrameHead {
                    fin: len % 2 == 0,
                    rsv1: true,
                    rsv2: false,
                    rsv3: true,
                    opcode: Opcode::BINARY,
                    mask,
                    len,
                };
                let mut out = Vec::new();
                h.encode(&mut out);
                let (back, n) = parse(&out).unwrap().unwrap();
                assert_eq!((back, n), (h, out.len()));
            }
        }
    }
}
