//! GOAWAY (RFC 9113 §6.8).

use super::{be_u32, len24, proto_err, size_err, FrameHeader, FrameType, StreamId};
use crate::error::{Error, Reason};

/// A GOAWAY frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoAway<'a> {
    /// The highest stream the sender may have processed.
    pub last_stream_id: StreamId,
    /// Why.
    pub reason: Reason,
    /// Opaque debug data.
    pub debug_data: &'a [u8],
}

impl<'a> GoAway<'a> {
    /// Decodes a GOAWAY payload.
    pub fn load(head: FrameHeader, payload: &'a [u8]) -> Result<GoAway<'a>, Error> {
        // "An endpoint MUST treat a GOAWAY frame with a stream identifier other than 0x00 as a
        // connection error of type PROTOCOL_ERROR."
        if !head.stream_id.is_zero() {
            return Err(proto_err());
        }
        let last = be_u32(payload).ok_or_else(size_err)?;
        let code = payload.get(4..).and_then(be_u32).ok_or_else(size_err)?;
        let debug_data = payload.get(8..).ok_or_else(size_err)?;
        Ok(GoAway {
            last_stream_id: StreamId(last & 0x7fff_ffff),
            reason: Reason(code),
            debug_data,
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let length = len24(self.debug_data.len().saturating_add(8));
        FrameHeader {
            length,
            kind: FrameType::GOAWAY,
            flags: 0,
            stream_id: StreamId(0),
        }
        .encode(out);
        out.extend_from_slice(&(self.last_stream_id.0 & 0x7fff_ffff).to_be_bytes());
        out.extend_from_slice(&self.reason.0.to_be_bytes());
        out.extend_from_slice(self.debug_data);
    }
}
