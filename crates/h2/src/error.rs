//! The one error type of this crate: a typed HTTP/2 `Reason`, what went wrong (`Kind`), its scope
//! (one stream or the whole connection) and who initiated it.

use core::fmt;

use crate::StreamId;

/// An HTTP/2 error code (RFC 9113 §7). An open newtype: any value received round-trips.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reason(pub u32);

impl Reason {
    /// Graceful shutdown or no error.
    pub const NO_ERROR: Reason = Reason(0x0);
    /// Unspecific protocol error.
    pub const PROTOCOL_ERROR: Reason = Reason(0x1);
    /// Unexpected internal error.
    pub const INTERNAL_ERROR: Reason = Reason(0x2);
    /// Flow-control protocol violated.
    pub const FLOW_CONTROL_ERROR: Reason = Reason(0x3);
    /// SETTINGS not acknowledged in time.
    pub const SETTINGS_TIMEOUT: Reason = Reason(0x4);
    /// Frame received on a half-closed or closed stream.
    pub const STREAM_CLOSED: Reason = Reason(0x5);
    /// Frame size incorrect.
    pub const FRAME_SIZE_ERROR: Reason = Reason(0x6);
    /// Stream refused before any processing (safe to retry).
    pub const REFUSED_STREAM: Reason = Reason(0x7);
    /// Stream no longer needed.
    pub const CANCEL: Reason = Reason(0x8);
    /// HPACK state could not be kept.
    pub const COMPRESSION_ERROR: Reason = Reason(0x9);
    /// CONNECT tunnel failed.
    pub const CONNECT_ERROR: Reason = Reason(0xa);
    /// The peer is generating excessive load.
    pub const ENHANCE_YOUR_CALM: Reason = Reason(0xb);
    /// Negotiated TLS parameters not acceptable.
    pub const INADEQUATE_SECURITY: Reason = Reason(0xc);
    /// Use HTTP/1.1 for this request.
    pub const HTTP_1_1_REQUIRED: Reason = Reason(0xd);

    /// The registry name of a known code, `None` for an unknown one.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0x0 => "NO_ERROR",
            0x1 => "PROTOCOL_ERROR",
            0x2 => "INTERNAL_ERROR",
            0x3 => "FLOW_CONTROL_ERROR",
            0x4 => "SETTINGS_TIMEOUT",
            0x5 => "STREAM_CLOSED",
            0x6 => "FRAME_SIZE_ERROR",
            0x7 => "REFUSED_STREAM",
            0x8 => "CANCEL",
            0x9 => "COMPRESSION_ERROR",
            0xa => "CONNECT_ERROR",
            0xb => "ENHANCE_YOUR_CALM",
            0xc => "INADEQUATE_SECURITY",
            0xd => "HTTP_1_1_REQUIRED",
            _ => return None,
        })
    }
}

impl fmt::Debug for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "Reason(0x{:x})", self.0),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Whether an error ends one stream or the whole connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The whole connection is unusable (a GOAWAY is or was sent).
    Connection,
    /// Only this stream ended (an RST_STREAM is or was sent); the connection goes on.
    Stream(StreamId),
}

/// Who decided the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initiator {
    /// This library detected a violation by the peer (or a budget ran out).
    Library,
    /// The peer sent RST_STREAM or GOAWAY.
    Remote,
    /// The caller used the API wrongly (no bytes were sent for the call).
    User,
}

/// What went wrong, in more detail than the wire `Reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A frame broke a MUST rule of RFC 9113 (wrong stream id, flags, state...).
    Protocol,
    /// A frame had an invalid length or exceeded SETTINGS_MAX_FRAME_SIZE.
    FrameSize,
    /// A flow-control window was exceeded or overflowed past 2^31-1.
    FlowControl,
    /// The peer's HPACK data was invalid.
    Hpack(HpackError),
    /// A header list exceeded the configured size cap.
    HeaderListTooLarge,
    /// A header block spread over too many CONTINUATION frames or bytes.
    ContinuationFlood,
    /// Too many SETTINGS frames without useful traffic, or too many entries in one.
    SettingsFlood,
    /// Too many PING frames without useful traffic.
    PingFlood,
    /// Too many empty DATA frames.
    EmptyDataFlood,
    /// Too many RST_STREAM or other frames for closed streams.
    ResetFlood,
    /// Too many WINDOW_UPDATE frames that give back no credit for data we sent, without
    /// useful traffic.
    WindowUpdateFlood,
    /// The peer caused too many stream errors, each answered with RST_STREAM.
    StreamErrorFlood,
    /// The server sent HEADERS or PUSH_PROMISE on a stream it may not open.
    ServerOpenedStream,
    /// A response's header fields were malformed (pseudo-headers, names, values,
    /// connection-specific fields, content-length mismatch).
    MalformedResponse,
    /// The peer sent a SETTINGS value out of range.
    InvalidSetting,
    /// The peer reset the stream (RST_STREAM).
    Reset,
    /// The peer sent GOAWAY.
    GoAway,
    /// The request was not processed by the server (REFUSED_STREAM or above a GOAWAY's
    /// last-stream-id); it is safe to retry on a new connection.
    Refused,
    /// The peer's MAX_CONCURRENT_STREAMS is reached: the request was refused locally, not queued.
    ConcurrencyLimit,
    /// All client stream identifiers are used: open a new connection.
    StreamIdsExhausted,
    /// The caller named a stream that is not open for this operation.
    UnknownStream,
    /// The caller passed header fields that HTTP/2 forbids or that are malformed.
    InvalidRequestHeaders,
    /// The caller released more bytes than were delivered.
    OverRelease,
    /// The connection is closed; no further calls can succeed.
    Closed,
}

/// What was wrong with HPACK data (RFC 7541).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum HpackError {
    /// The block ended in the middle of a representation.
    Truncated,
    /// An integer did not fit in 32 bits.
    IntegerOverflow,
    /// An index was 0 or beyond the static and dynamic tables.
    BadIndex,
    /// A Huffman string contained EOS.
    HuffmanEos,
    /// A Huffman string's padding was longer than 7 bits or not all ones.
    HuffmanPadding,
    /// A string was longer than the configured cap.
    StringTooLong,
    /// A dynamic table size update exceeded the SETTINGS_HEADER_TABLE_SIZE limit.
    TableSizeAboveLimit,
    /// A dynamic table size update appeared after a field in a block (or more than two).
    MisplacedSizeUpdate,
    /// The peer's table size was lowered by SETTINGS but the block did not start with an update.
    MissingSizeUpdate,
}

/// An HTTP/2 error: a `Reason` for the wire, a detailed `Kind`, a scope and an initiator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error {
    kind: Kind,
    reason: Reason,
    scope: Scope,
    initiator: Initiator,
}

impl Error {
    /// A connection error detected by this library.
    pub(crate) fn conn(kind: Kind, reason: Reason) -> Error {
        Error {
            kind,
            reason,
            scope: Scope::Connection,
            initiator: Initiator::Library,
        }
    }

    /// A stream error detected by this library.
    pub(crate) fn stream(id: StreamId, kind: Kind, reason: Reason) -> Error {
        Error {
            kind,
            reason,
            scope: Scope::Stream(id),
            initiator: Initiator::Library,
        }
    }

    /// An API misuse by the caller.
    pub(crate) fn user(kind: Kind) -> Error {
        Error {
            kind,
            reason: Reason::INTERNAL_ERROR,
            scope: Scope::Connection,
            initiator: Initiator::User,
        }
    }

    /// An error the peer signalled (RST_STREAM / GOAWAY).
    pub(crate) fn remote(kind: Kind, reason: Reason, scope: Scope) -> Error {
        Error {
            kind,
            reason,
            scope,
            initiator: Initiator::Remote,
        }
    }

    /// A protocol violation of the connection.
    pub(crate) fn proto() -> Error {
        Error::conn(Kind::Protocol, Reason::PROTOCOL_ERROR)
    }

    /// An HPACK decoding failure (always a connection error, COMPRESSION_ERROR).
    pub(crate) fn hpack(e: HpackError) -> Error {
        Error::conn(Kind::Hpack(e), Reason::COMPRESSION_ERROR)
    }

    /// The same error, rescoped to one stream.
    pub(crate) fn on_stream(mut self, id: StreamId) -> Error {
        self.scope = Scope::Stream(id);
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The HTTP/2 error code sent or received.
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// One stream or the whole connection.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Who decided it.
    pub fn initiator(&self) -> Initiator {
        self.initiator
    }

    /// True when the request was not processed and may be retried on a new connection.
    pub fn is_retryable(&self) -> bool {
        matches!(self.kind, Kind::Refused)
            || (self.initiator == Initiator::Remote && self.reason == Reason::REFUSED_STREAM)
    }

    /// A stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self.kind {
            Kind::Protocol | Kind::ServerOpenedStream => "H2_PROTOCOL",
            Kind::FrameSize => "H2_FRAME_SIZE",
            Kind::FlowControl => "H2_FLOW_CONTROL",
            Kind::Hpack(_) => "H2_COMPRESSION",
            Kind::HeaderListTooLarge => "H2_HEADER_LIST_TOO_LARGE",
            Kind::ContinuationFlood
            | Kind::SettingsFlood
            | Kind::PingFlood
            | Kind::EmptyDataFlood
            | Kind::ResetFlood
            | Kind::WindowUpdateFlood
            | Kind::StreamErrorFlood => "H2_FLOOD",
            Kind::MalformedResponse => "H2_MALFORMED_RESPONSE",
            Kind::InvalidSetting => "H2_INVALID_SETTING",
            Kind::Reset => "H2_STREAM_RESET",
            Kind::GoAway => "H2_GOAWAY",
            Kind::Refused => "H2_REFUSED",
            Kind::ConcurrencyLimit => "H2_CONCURRENCY_LIMIT",
            Kind::StreamIdsExhausted => "H2_STREAM_IDS_EXHAUSTED",
            Kind::UnknownStream => "H2_UNKNOWN_STREAM",
            Kind::InvalidRequestHeaders => "H2_INVALID_REQUEST_HEADERS",
            Kind::OverRelease => "H2_OVER_RELEASE",
            Kind::Closed => "H2_CLOSED",
        }
    }

    fn advice(&self) -> &'static str {
        match self.kind {
            Kind::Protocol
            | Kind::FrameSize
            | Kind::FlowControl
            | Kind::Hpack(_)
            | Kind::ServerOpenedStream
            | Kind::InvalidSetting
            | Kind::MalformedResponse => {
                "the server broke the HTTP/2 protocol; retry over HTTP/1.1 or report the server"
            }
            Kind::HeaderListTooLarge | Kind::ContinuationFlood => {
                "the server sent more header data than allowed; raise the header limits in the h2 Config if it is legitimate"
            }
            Kind::SettingsFlood
            | Kind::PingFlood
            | Kind::EmptyDataFlood
            | Kind::ResetFlood
            | Kind::WindowUpdateFlood
            | Kind::StreamErrorFlood => {
                "the server sent a flood of frames that cost work without progress; the connection was closed to bound it (h2 Limits)"
            }
            Kind::Reset => "the server cancelled this stream; the connection is still usable",
            Kind::GoAway => "the server is closing the connection; open a new one for new requests",
            Kind::Refused => "the server did not process this request; retry it on a new connection",
            Kind::ConcurrencyLimit => {
                "wait for a stream to finish (or open another connection) before sending more requests"
            }
            Kind::StreamIdsExhausted => "open a new connection",
            Kind::UnknownStream => "the stream is not open for this call; check the stream id",
            Kind::InvalidRequestHeaders => {
                "fix the request headers: lowercase names, pseudo-headers first, no connection-specific fields"
            }
            Kind::OverRelease => "release at most the number of body bytes received on the stream",
            Kind::Closed => "the connection is closed; open a new one",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.initiator {
            Initiator::Library => "detected locally",
            Initiator::Remote => "sent by the peer",
            Initiator::User => "caller error",
        };
        match self.scope {
            Scope::Connection => write!(f, "HTTP/2 connection error")?,
            Scope::Stream(id) => write!(f, "HTTP/2 stream {} error", id.0)?,
        }
        write!(
            f,
            " {} ({:?}, {who}, {:?}): {}",
            self.code(),
            self.reason,
            self.kind,
            self.advice()
        )
    }
}

impl std::error::Error for Error {}
