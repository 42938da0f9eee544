//! PING (RFC 9113 §6.7).

use super::{flags, proto_err, size_err, FrameHeader, FrameType, StreamId};
use crate::error::Error;

/// A PING frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ping {
    /// ACK flag.
    pub ack: bool,
    /// Opaque data.
    pub payload: [u8; 8],
}

impl Ping {
    /// Decodes a PING payload.
    pub fn load(head: FrameHeader, payload: &[u8]) -> Result<Ping, Error> {
        // "If a PING frame is received with a Stream Identifier field value other than 0x00, the
        // recipient MUST respond with a connection error of type PROTOCOL_ERROR."
        if !head.stream_id.is_zero() {
            return Err(proto_err());
        }
        // "Receipt of a PING frame with a length field value other than 8 MUST be treated as a
        // connection error of type FRAME_SIZE_ERROR."
        let payload: [u8; 8] = payload.try_into().map_err(|_| size_err())?;
        Ok(Ping {
            ack: head.has(flags::ACK),
            payload,
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let f = if self.ack { flags::ACK } else { 0 };
        FrameHeader {
            length: 8,
            kind: FrameType::PING,
            flags: f,
            stream_id: StreamId(0),
        }
        .encode(out);
        out.extend_from_slice(&self.payload);
    }
}
