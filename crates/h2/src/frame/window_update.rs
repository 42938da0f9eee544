//! WINDOW_UPDATE (RFC 9113 §6.9).

use super::{be_u32, size_err, FrameHeader, FrameType, StreamId};
use crate::error::{Error, Kind, Reason};

/// A WINDOW_UPDATE frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowUpdate {
    /// The stream, or 0 for the connection.
    pub stream_id: StreamId,
    /// The increment (1..=2^31-1).
    pub increment: u32,
}

impl WindowUpdate {
    /// Decodes a WINDOW_UPDATE payload.
    pub fn load(head: FrameHeader, payload: &[u8]) -> Result<WindowUpdate, Error> {
        // "A WINDOW_UPDATE frame with a length other than 4 octets MUST be treated as a
        // connection error of type FRAME_SIZE_ERROR."
        if payload.len() != 4 {
            return Err(size_err());
        }
        let increment = be_u32(payload).ok_or_else(size_err)? & 0x7fff_ffff;
        // "A receiver MUST treat the receipt of a WINDOW_UPDATE frame with a flow-control window
        // increment of 0 as a stream error of type PROTOCOL_ERROR; errors on the connection
        // flow-control window MUST be treated as a connection error."
        if increment == 0 {
            return Err(if head.stream_id.is_zero() {
                Error::proto()
            } else {
                Error::stream(head.stream_id, Kind::Protocol, Reason::PROTOCOL_ERROR)
            });
        }
        Ok(WindowUpdate {
            stream_id: head.stream_id,
            increment,
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        FrameHeader {
            length: 4,
            kind: FrameType::WINDOW_UPDATE,
            flags: 0,
            stream_id: self.stream_id,
        }
        .encode(out);
        out.extend_from_slice(&(self.increment & 0x7fff_ffff).to_be_bytes());
    }
}
