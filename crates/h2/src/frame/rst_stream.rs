//! RST_STREAM (RFC 9113 §6.4).

use super::{be_u32, proto_err, size_err, FrameHeader, FrameType, StreamId};
use crate::error::{Error, Reason};

/// An RST_STREAM frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RstStream {
    /// The stream.
    pub stream_id: StreamId,
    /// Why.
    pub reason: Reason,
}

impl RstStream {
    /// Decodes an RST_STREAM payload.
    pub fn load(head: FrameHeader, payload: &[u8]) -> Result<RstStream, Error> {
        // "If a RST_STREAM frame is received with a stream identifier of 0x00, the recipient MUST
        // treat this as a connection error of type PROTOCOL_ERROR."
        if head.stream_id.is_zero() {
            return Err(proto_err());
        }
        // "A RST_STREAM frame with a length other than 4 octets MUST be treated as a connection
        // error of type FRAME_SIZE_ERROR."
        if payload.len() != 4 {
            return Err(size_err());
        }
        let code = be_u32(payload).ok_or_else(size_err)?;
        Ok(RstStream {
            stream_id: head.stream_id,
            reason: Reason(code),
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        FrameHeader {
            length: 4,
            kind: FrameType::RST_STREAM,
            flags: 0,
            stream_id: self.stream_id,
        }
        .encode(out);
        out.extend_from_slice(&self.reason.0.to_be_bytes());
    }
}
