//! CONTINUATION (RFC 9113 §6.10).

use super::{flags, len24, proto_err, FrameHeader, FrameType, StreamId};
use crate::error::Error;

/// A CONTINUATION frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Continuation<'a> {
    /// The stream.
    pub stream_id: StreamId,
    /// A further part of the field block.
    pub block: &'a [u8],
    /// END_HEADERS.
    pub end_headers: bool,
}

impl<'a> Continuation<'a> {
    /// Decodes a CONTINUATION payload. (Whether one was expected is the connection's check.)
    pub fn load(head: FrameHeader, payload: &'a [u8]) -> Result<Continuation<'a>, Error> {
        // "If a CONTINUATION frame is received with a Stream Identifier field of 0x00, the
        // recipient MUST respond with a connection error of type PROTOCOL_ERROR."
        if head.stream_id.is_zero() {
            return Err(proto_err());
        }
        Ok(Continuation {
            stream_id: head.stream_id,
            block: payload,
            end_headers: head.has(flags::END_HEADERS),
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let f = if self.end_headers {
            flags::END_HEADERS
        } else {
            0
        };
        FrameHeader {
            length: len24(self.block.len()),
            kind: FrameType::CONTINUATION,
            flags: f,
            stream_id: self.stream_id,
        }
        .encode(out);
        out.extend_from_slice(self.block);
    }
}
