//! DATA (RFC 9113 §6.1).

use super::{
    flags, len24, payload_len_padded, proto_err, size_err, strip_padding, FrameHeader, FrameType,
    StreamId,
};
use crate::error::Error;

/// The start of a DATA frame whose payload is handed out piece by piece
/// ([`super::FrameReader::read`]): the header and, for PADDED, the pad length byte.
///
/// Nothing is checked when the reader builds it, so that the receiver can apply the checks that
/// come first for every frame (preface, CONTINUATION) before [`DataHead::data_len`] applies those
/// of [`Data::load`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataHead {
    /// The frame header.
    pub head: FrameHeader,
    /// The pad length byte: `Some` when PADDED and the payload is not empty.
    pub pad: Option<u8>,
}

impl DataHead {
    /// The length of the application data (payload minus the pad length byte and padding),
    /// with the checks of [`Data::load`]: stream 0 and padding as long as the payload are
    /// PROTOCOL_ERROR, PADDED with an empty payload is FRAME_SIZE_ERROR. All connection errors.
    pub fn data_len(&self) -> Result<u32, Error> {
        // "If a DATA frame is received whose Stream Identifier field is 0x00, the recipient MUST
        // respond with a connection error of type PROTOCOL_ERROR."
        if self.head.stream_id.is_zero() {
            return Err(proto_err());
        }
        if !self.head.has(flags::PADDED) {
            return Ok(self.head.length);
        }
        // The same rules as `strip_padding`, on lengths instead of bytes.
        let pad = self.pad.ok_or_else(size_err)?;
        self.head
            .length
            .checked_sub(1)
            .and_then(|rest| rest.checked_sub(u32::from(pad)))
            .ok_or_else(proto_err)
    }

    /// The stream.
    pub fn stream_id(&self) -> StreamId {
        self.head.stream_id
    }

    /// END_STREAM.
    pub fn end_stream(&self) -> bool {
        self.head.has(flags::END_STREAM)
    }

    /// The whole payload length, padding included: what flow control counts.
    pub fn flow_len(&self) -> u32 {
        self.head.length
    }
}

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
        self.encode_head(self.data.len(), out);
        if let Some(p) = self.pad {
            out.push(p);
        }
        out.extend_from_slice(self.data);
        if let Some(p) = self.pad {
            out.resize(out.len().saturating_add(usize::from(p)), 0);
        }
    }

    /// Appends the 9-byte frame header of this frame with a payload of `data_len` bytes
    /// (`self.data` is not looked at). For an unpadded frame the payload follows the header
    /// directly, so the caller may send it from where it is instead of copying it after.
    pub fn encode_head(&self, data_len: usize, out: &mut Vec<u8>) {
        let mut f = 0;
        if self.end_stream {
            f |= flags::END_STREAM;
        }
        if self.pad.is_some() {
            f |= flags::PADDED;
        }
        let length = len24(payload_len_padded(data_len, self.pad));
        FrameHeader {
            length,
            kind: FrameType::DATA,
            flags: f,
            stream_id: self.stream_id,
        }
        .encode(out);
    }
}
