//! HEADERS (RFC 9113 §6.2).

use super::{
    be_u32, flags, len24, proto_err, size_err, strip_padding, FrameHeader, FrameType, StreamId,
};
use crate::error::{Error, Kind, Reason};

/// The deprecated priority fields (RFC 9113 §5.3.2): parsed, checked, then ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrioritySpec {
    /// Exclusive flag.
    pub exclusive: bool,
    /// Stream dependency.
    pub dependency: StreamId,
    /// Weight minus one.
    pub weight: u8,
}

impl PrioritySpec {
    pub(crate) fn parse(b: &[u8]) -> Option<PrioritySpec> {
        let dep = be_u32(b)?;
        let weight = *b.get(4)?;
        Some(PrioritySpec {
            exclusive: dep & 0x8000_0000 != 0,
            dependency: StreamId(dep & 0x7fff_ffff),
            weight,
        })
    }

    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        let mut d = self.dependency.0 & 0x7fff_ffff;
        if self.exclusive {
            d |= 0x8000_0000;
        }
        out.extend_from_slice(&d.to_be_bytes());
        out.push(self.weight);
    }
}

/// A HEADERS frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headers<'a> {
    /// The stream.
    pub stream_id: StreamId,
    /// The (first part of the) field block.
    pub block: &'a [u8],
    /// END_STREAM.
    pub end_stream: bool,
    /// END_HEADERS.
    pub end_headers: bool,
    /// Priority fields, if present.
    pub priority: Option<PrioritySpec>,
    /// Padding length, if padded.
    pub pad: Option<u8>,
}

impl<'a> Headers<'a> {
    /// Decodes a HEADERS payload.
    pub fn load(head: FrameHeader, payload: &'a [u8]) -> Result<Headers<'a>, Error> {
        // "If a HEADERS frame is received whose Stream Identifier field is 0x00, the recipient
        // MUST respond with a connection error of type PROTOCOL_ERROR."
        if head.stream_id.is_zero() {
            return Err(proto_err());
        }
        let (pad, rest) = strip_padding(&head, payload)?;
        let (priority, block) = if head.has(flags::PRIORITY) {
            let spec = PrioritySpec::parse(rest).ok_or_else(size_err)?;
            // "A stream cannot depend on itself. An endpoint MUST treat this as a stream error of
            // type PROTOCOL_ERROR." (§5.3.1)
            if spec.dependency == head.stream_id {
                return Err(Error::stream(
                    head.stream_id,
                    Kind::Protocol,
                    Reason::PROTOCOL_ERROR,
                ));
            }
            (Some(spec), rest.get(5..).ok_or_else(size_err)?)
        } else {
            (None, rest)
        };
        Ok(Headers {
            stream_id: head.stream_id,
            block,
            end_stream: head.has(flags::END_STREAM),
            end_headers: head.has(flags::END_HEADERS),
            priority,
            pad: head.has(flags::PADDED).then_some(pad),
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let mut f = 0;
        let mut len = self.block.len();
        if self.end_stream {
            f |= flags::END_STREAM;
        }
        if self.end_headers {
            f |= flags::END_HEADERS;
        }
        if let Some(p) = self.pad {
            f |= flags::PADDED;
            len = len.saturating_add(1).saturating_add(usize::from(p));
        }
        if self.priority.is_some() {
            f |= flags::PRIORITY;
            len = len.saturating_add(5);
        }
        FrameHeader {
            length: len24(len),
            kind: FrameType::HEADERS,
            flags: f,
            stream_id: self.stream_id,
        }
        .encode(out);
        if let Some(p) = self.pad {
            out.push(p);
        }
        if let Some(spec) = &self.priority {
            spec.encode(out);
        }
        out.extend_from_slice(self.block);
        if let Some(p) = self.pad {
            out.resize(out.len().saturating_add(usize::from(p)), 0);
        }
    }
}
