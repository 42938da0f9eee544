//! PRIORITY (RFC 9113 §6.3): parsed and checked, otherwise ignored (§5.3.2 deprecates it).

use super::{headers::PrioritySpec, proto_err, FrameHeader, FrameType, StreamId};
use crate::error::{Error, Kind, Reason};

/// A PRIORITY frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Priority {
    /// The stream.
    pub stream_id: StreamId,
    /// The priority fields.
    pub spec: PrioritySpec,
}

impl Priority {
    /// Decodes a PRIORITY payload.
    pub fn load(head: FrameHeader, payload: &[u8]) -> Result<Priority, Error> {
        // "If a PRIORITY frame is received with a stream identifier of 0x00, the recipient MUST
        // respond with a connection error of type PROTOCOL_ERROR."
        if head.stream_id.is_zero() {
            return Err(proto_err());
        }
        // "A PRIORITY frame with a length other than 5 octets MUST be treated as a stream error
        // of type FRAME_SIZE_ERROR."
        if payload.len() != 5 {
            return Err(Error::stream(
                head.stream_id,
                Kind::FrameSize,
                Reason::FRAME_SIZE_ERROR,
            ));
        }
        let spec = PrioritySpec::parse(payload).ok_or_else(|| {
            Error::stream(head.stream_id, Kind::FrameSize, Reason::FRAME_SIZE_ERROR)
        })?;
        if spec.dependency == head.stream_id {
            return Err(Error::stream(
                head.stream_id,
                Kind::Protocol,
                Reason::PROTOCOL_ERROR,
            ));
        }
        Ok(Priority {
            stream_id: head.stream_id,
            spec,
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        FrameHeader {
            length: 5,
            kind: FrameType::PRIORITY,
            flags: 0,
            stream_id: self.stream_id,
        }
        .encode(out);
        self.spec.encode(out);
    }
}
