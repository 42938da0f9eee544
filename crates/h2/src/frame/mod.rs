//! HTTP/2 frames (RFC 9113 §4, §6): one module per frame type, each decoding with the MUST checks
//! of its section next to the code, and encoding.

mod continuation;
mod data;
mod goaway;
mod headers;
mod ping;
mod priority;
mod push_promise;
mod reader;
mod rst_stream;
mod settings;
mod window_update;

pub use continuation::Continuation;
pub use data::{Data, DataHead};
pub use goaway::GoAway;
pub use headers::{Headers, PrioritySpec};
pub use ping::Ping;
pub use priority::Priority;
pub use push_promise::PushPromise;
pub use reader::{FrameReader, Piece, RawFrame};
pub use rst_stream::RstStream;
pub use settings::{Setting, SettingId, Settings};
pub use window_update::WindowUpdate;

use crate::error::{Error, Kind, Reason};

/// The length of a frame header.
pub const HEADER_LEN: usize = 9;
/// The smallest SETTINGS_MAX_FRAME_SIZE (and the initial one).
pub const DEFAULT_MAX_FRAME_SIZE: u32 = 16_384;
/// The largest SETTINGS_MAX_FRAME_SIZE (2^24-1).
pub const MAX_MAX_FRAME_SIZE: u32 = 16_777_215;
/// The largest stream identifier and window size (2^31-1).
pub const MAX_WINDOW: u32 = 0x7fff_ffff;

/// A stream identifier (31 bits; the reserved bit is cleared on decode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamId(pub u32);

impl StreamId {
    /// Stream 0: the connection itself.
    pub const CONNECTION: StreamId = StreamId(0);

    /// True for stream 0.
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// True for a stream a client opens (odd).
    pub fn is_client_initiated(self) -> bool {
        self.0 % 2 == 1
    }
}

/// A frame type (RFC 9113 §11.2). An open newtype: unknown types are kept and ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameType(pub u8);

impl FrameType {
    /// DATA.
    pub const DATA: FrameType = FrameType(0x0);
    /// HEADERS.
    pub const HEADERS: FrameType = FrameType(0x1);
    /// PRIORITY.
    pub const PRIORITY: FrameType = FrameType(0x2);
    /// RST_STREAM.
    pub const RST_STREAM: FrameType = FrameType(0x3);
    /// SETTINGS.
    pub const SETTINGS: FrameType = FrameType(0x4);
    /// PUSH_PROMISE.
    pub const PUSH_PROMISE: FrameType = FrameType(0x5);
    /// PING.
    pub const PING: FrameType = FrameType(0x6);
    /// GOAWAY.
    pub const GOAWAY: FrameType = FrameType(0x7);
    /// WINDOW_UPDATE.
    pub const WINDOW_UPDATE: FrameType = FrameType(0x8);
    /// CONTINUATION.
    pub const CONTINUATION: FrameType = FrameType(0x9);
}

/// Frame flags.
pub mod flags {
    /// DATA, HEADERS: last frame of the stream from this sender.
    pub const END_STREAM: u8 = 0x1;
    /// SETTINGS, PING: acknowledgement.
    pub const ACK: u8 = 0x1;
    /// HEADERS, PUSH_PROMISE, CONTINUATION: the header block ends here.
    pub const END_HEADERS: u8 = 0x4;
    /// DATA, HEADERS, PUSH_PROMISE: a pad length byte and padding are present.
    pub const PADDED: u8 = 0x8;
    /// HEADERS: priority fields are present.
    pub const PRIORITY: u8 = 0x20;
}

/// The 9-byte frame header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameHeader {
    /// Payload length (24 bits).
    pub length: u32,
    /// Frame type.
    pub kind: FrameType,
    /// Flags.
    pub flags: u8,
    /// Stream identifier (reserved bit cleared).
    pub stream_id: StreamId,
}

impl FrameHeader {
    /// Parses the first 9 bytes of `b`; `None` if fewer are present.
    pub fn parse(b: &[u8]) -> Option<FrameHeader> {
        let h: &[u8; HEADER_LEN] = b.get(..HEADER_LEN)?.try_into().ok()?;
        let [l0, l1, l2, kind, flags, s0, s1, s2, s3] = *h;
        Some(FrameHeader {
            length: u32::from_be_bytes([0, l0, l1, l2]),
            kind: FrameType(kind),
            flags,
            // "A reserved 1-bit field ... MUST be ignored when receiving."
            stream_id: StreamId(u32::from_be_bytes([s0, s1, s2, s3]) & MAX_WINDOW),
        })
    }

    /// Appends the header; `length` must fit in 24 bits (callers split payloads accordingly).
    pub fn encode(&self, out: &mut Vec<u8>) {
        let l = self.length.to_be_bytes();
        out.extend_from_slice(&[l[1], l[2], l[3], self.kind.0, self.flags]);
        out.extend_from_slice(&(self.stream_id.0 & MAX_WINDOW).to_be_bytes());
    }

    /// True if `flag` is set.
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// A decoded frame borrowing its payload.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Frame<'a> {
    /// DATA.
    Data(Data<'a>),
    /// HEADERS.
    Headers(Headers<'a>),
    /// PRIORITY.
    Priority(Priority),
    /// RST_STREAM.
    RstStream(RstStream),
    /// SETTINGS.
    Settings(Settings),
    /// PUSH_PROMISE.
    PushPromise(PushPromise<'a>),
    /// PING.
    Ping(Ping),
    /// GOAWAY.
    GoAway(GoAway<'a>),
    /// WINDOW_UPDATE.
    WindowUpdate(WindowUpdate),
    /// CONTINUATION.
    Continuation(Continuation<'a>),
    /// A frame of an unknown type: "Implementations MUST ignore and discard frames of unknown
    /// types" (§4.1).
    Unknown(FrameHeader),
}

impl<'a> Frame<'a> {
    /// Decodes a frame whose header and whole payload are known.
    pub fn decode(head: FrameHeader, payload: &'a [u8]) -> Result<Frame<'a>, Error> {
        Ok(match head.kind {
            FrameType::DATA => Frame::Data(Data::load(head, payload)?),
            FrameType::HEADERS => Frame::Headers(Headers::load(head, payload)?),
            FrameType::PRIORITY => Frame::Priority(Priority::load(head, payload)?),
            FrameType::RST_STREAM => Frame::RstStream(RstStream::load(head, payload)?),
            FrameType::SETTINGS => Frame::Settings(Settings::load(head, payload)?),
            FrameType::PUSH_PROMISE => Frame::PushPromise(PushPromise::load(head, payload)?),
            FrameType::PING => Frame::Ping(Ping::load(head, payload)?),
            FrameType::GOAWAY => Frame::GoAway(GoAway::load(head, payload)?),
            FrameType::WINDOW_UPDATE => Frame::WindowUpdate(WindowUpdate::load(head, payload)?),
            FrameType::CONTINUATION => Frame::Continuation(Continuation::load(head, payload)?),
            _ => Frame::Unknown(head),
        })
    }

    /// Appends the encoded frame (header and payload).
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Frame::Data(f) => f.encode(out),
            Frame::Headers(f) => f.encode(out),
            Frame::Priority(f) => f.encode(out),
            Frame::RstStream(f) => f.encode(out),
            Frame::Settings(f) => f.encode(out),
            Frame::PushPromise(f) => f.encode(out),
            Frame::Ping(f) => f.encode(out),
            Frame::GoAway(f) => f.encode(out),
            Frame::WindowUpdate(f) => f.encode(out),
            Frame::Continuation(f) => f.encode(out),
            Frame::Unknown(h) => {
                // Only the header is kept; an unknown frame re-encodes with an empty payload.
                FrameHeader { length: 0, ..*h }.encode(out)
            }
        }
    }
}

/// A connection error of type PROTOCOL_ERROR.
pub(crate) fn proto_err() -> Error {
    Error::proto()
}

/// A connection error of type FRAME_SIZE_ERROR.
pub(crate) fn size_err() -> Error {
    Error::conn(Kind::FrameSize, Reason::FRAME_SIZE_ERROR)
}

/// Reads a big-endian u32 at the start of `b`.
pub(crate) fn be_u32(b: &[u8]) -> Option<u32> {
    let a: [u8; 4] = b.get(..4)?.try_into().ok()?;
    Some(u32::from_be_bytes(a))
}

/// Strips padding (RFC 9113 §6.1): returns the payload without the pad length byte and padding.
///
/// "If the length of the padding is the length of the frame payload or greater, the recipient
/// MUST treat this as a connection error of type PROTOCOL_ERROR."
pub(crate) fn strip_padding<'a>(
    head: &FrameHeader,
    payload: &'a [u8],
) -> Result<(u8, &'a [u8]), Error> {
    if !head.has(flags::PADDED) {
        return Ok((0, payload));
    }
    let (&pad, rest) = payload.split_first().ok_or_else(size_err)?;
    let keep = rest
        .len()
        .checked_sub(usize::from(pad))
        .ok_or_else(proto_err)?;
    let body = rest.get(..keep).ok_or_else(proto_err)?;
    Ok((pad, body))
}

/// Length of a payload for a frame header; payloads are limited by the sender to 2^24-1.
pub(crate) fn len24(n: usize) -> u32 {
    u32::try_from(n)
        .unwrap_or(MAX_MAX_FRAME_SIZE)
        .min(MAX_MAX_FRAME_SIZE)
}

/// Appends padding (`pad` zero bytes) preceded by the pad length byte, when `pad` is `Some`.
pub(crate) fn payload_len_padded(body: usize, pad: Option<u8>) -> usize {
    match pad {
        None => body,
        Some(p) => body.saturating_add(1).saturating_add(usize::from(p)),
    }
}
