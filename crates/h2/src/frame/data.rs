//! DATA (RFC 9113 §6.1).

use super::{
    flags, len24, payload_len_padded, proto_err, strip_padding, FrameHeader, FrameType, StreamId,
};
use crate::error::Error;

/// A DATA frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Data<'a> {
    /// The stream.
    pub stream_id: StreamId,
    /// Application data (padding removed).
    pub data: &'a [u8],
    /// END_STREAM.
    pub end_stream: bool,
    /// Padding length, if the frame was (or is to be) padded.
    pub pad: Option<u8>,
    /// The whole payload length, padding included: what flow control counts.
    pub flow_len: u32,
}

impl<'a> Data<'a> {
    /// Decodes a DATA payload.
    pub fn load(head: FrameHeader, payload: &'a [u8]) -> Result<Data<'a>, Error> {
        // "If a DATA frame is received whose Stream Identifier field is 0x00, the recipient MUST
        // respond with a connection error of type PROTOCOL_ERROR."
        if head.stream_id.is_zero() {
            return Err(proto_err());
        }
        let (pad, data) = strip_padding(&head, payload)?;
        Ok(Data {
            stream_id: head.stream_id,
            data,
            end_stream: head.has(flags::END_STREAM),
            pad: head.has(flags::PADDED).then_some(pad),
            flow_len: len24(payload.len()),
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let mut f = 0;
        if self.end_stream {
            f |= flags::END_STREAM;
        }
        if self.pad.is_some() {
            f |= flags::PADDED;
        }
        let length = len24(payload_len_padded(self.data.len(), self.pad));
        FrameHeader {
            length,
            kind: FrameType::DATA,
            flags: f,
            stream_id: self.stream_id,
        }
        .encode(out);
        if let Some(p) = self.pad {
            out.push(p);
        }
        out.extend_from_slice(self.data);
        if let Some(p) = self.pad {
            out.resize(out.len().saturating_add(usize::from(p)), 0);
        }
    }
}
