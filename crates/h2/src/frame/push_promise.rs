//! PUSH_PROMISE (RFC 9113 §6.6). burrow disables push, so receiving one is an error; the frame is
//! still decoded (and encodable) so that the error names it and tests can build one.

use super::{
    be_u32, flags, len24, proto_err, size_err, strip_padding, FrameHeader, FrameType, StreamId,
};
use crate::error::Error;

/// A PUSH_PROMISE frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushPromise<'a> {
    /// The associated stream.
    pub stream_id: StreamId,
    /// The promised stream.
    pub promised_id: StreamId,
    /// The (first part of the) field block.
    pub block: &'a [u8],
    /// END_HEADERS.
    pub end_headers: bool,
    /// Padding length, if padded.
    pub pad: Option<u8>,
}

impl<'a> PushPromise<'a> {
    /// Decodes a PUSH_PROMISE payload.
    pub fn load(head: FrameHeader, payload: &'a [u8]) -> Result<PushPromise<'a>, Error> {
        // "If the Stream Identifier field specifies the value 0x00, a recipient MUST respond with
        // a connection error of type PROTOCOL_ERROR."
        if head.stream_id.is_zero() {
            return Err(proto_err());
        }
        let (pad, rest) = strip_padding(&head, payload)?;
        let promised = be_u32(rest).ok_or_else(size_err)? & 0x7fff_ffff;
        let block = rest.get(4..).ok_or_else(size_err)?;
        Ok(PushPromise {
            stream_id: head.stream_id,
            promised_id: StreamId(promised),
            block,
            end_headers: head.has(flags::END_HEADERS),
            pad: head.has(flags::PADDED).then_some(pad),
        })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let mut f = 0;
        let mut len = self.block.len().saturating_add(4);
        if self.end_headers {
            f |= flags::END_HEADERS;
        }
        if let Some(p) = self.pad {
            f |= flags::PADDED;
            len = len.saturating_add(1).saturating_add(usize::from(p));
        }
        FrameHeader {
            length: len24(len),
            kind: FrameType::PUSH_PROMISE,
            flags: f,
            stream_id: self.stream_id,
        }
        .encode(out);
        if let Some(p) = self.pad {
            out.push(p);
        }
        out.extend_from_slice(&self.promised_id.0.to_be_bytes());
        out.extend_from_slice(self.block);
        if let Some(p) = self.pad {
            out.resize(out.len().saturating_add(usize::from(p)), 0);
        }
    }
}
