//! The one error type of this crate: what went wrong (`Kind`), its scope (the opening handshake,
//! the connection, or only the call that returned it), who initiated it, and the close code sent
//! for it.

use core::fmt;

use crate::frame::CloseCode;

/// How much an error ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The opening handshake failed (RFC 6455 §4.1: "_Fail the WebSocket Connection_"); no
    /// WebSocket connection exists.
    Handshake,
    /// The connection failed; a Close frame naming [`Error::close_code`] is queued when one may
    /// still be sent (§7.1.7), and every later call returns this error.
    Connection,
    /// Only this call was refused; nothing was queued and the connection goes on.
    Call,
}

/// Who decided the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initiator {
    /// This library detected a violation by the server (or a budget ran out).
    Library,
    /// The server ended the connection without the closing handshake.
    Remote,
    /// The caller used the API wrongly.
    User,
}

/// A permessage-deflate extension parameter (RFC 7692 §7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeflateParam {
    /// `server_no_context_takeover` (§7.1.1.1).
    ServerNoContextTakeover,
    /// `client_no_context_takeover` (§7.1.1.2).
    ClientNoContextTakeover,
    /// `server_max_window_bits` (§7.1.2.1).
    ServerMaxWindowBits,
    /// `client_max_window_bits` (§7.1.2.2).
    ClientMaxWindowBits,
    /// A parameter this extension does not define (§7.1: "MUST decline").
    Unknown,
}

/// What was wrong with a permessage-deflate parameter in the server's response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamProblem {
    /// The parameter is not defined by RFC 7692.
    Unknown,
    /// The parameter appeared twice.
    Repeated,
    /// A value where none is allowed, none where one is required, or a window size outside
    /// 8..=15 (decimal without leading zeros).
    BadValue,
    /// The server named a parameter the client did not offer and may not add on its own
    /// (`client_max_window_bits`, §7.1.2.2).
    NotOffered,
    /// A window size above the one the client offered.
    AboveOffer,
    /// The client's offer included it and the response, accepting the offer, left it out
    /// (`server_max_window_bits`, `server_no_context_takeover`).
    Missing,
}

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    // The opening handshake (RFC 6455 §4.1, RFC 7692 §7.1).
    /// The response status was not 101 Switching Protocols.
    NotSwitchingProtocols {
        /// The status the server sent.
        status: u16,
    },
    /// The `Upgrade` field is missing, repeated, or not `websocket`.
    BadUpgrade,
    /// No `Connection` field holds the token `upgrade`.
    BadConnection,
    /// `Sec-WebSocket-Accept` is missing or repeated.
    MissingAccept,
    /// `Sec-WebSocket-Accept` is not base64(SHA-1(key + GUID)) of our key.
    WrongAccept,
    /// The server selected a subprotocol the client did not offer, more than one, or one when
    /// none was offered.
    UnofferedProtocol,
    /// `Sec-WebSocket-Extensions` does not parse (RFC 6455 §9.1).
    MalformedExtensions,
    /// The server accepted an extension the client did not offer, or accepted one twice.
    UnofferedExtension,
    /// A permessage-deflate parameter in the response is unacceptable.
    DeflateParameter {
        /// Which parameter.
        param: DeflateParam,
        /// What was wrong with it.
        problem: ParamProblem,
    },

    // Frames and messages (RFC 6455 §5, §8, RFC 7692 §6).
    /// A server frame was masked (§5.1: "A client MUST close a connection if it detects a
    /// masked frame").
    MaskedFrame,
    /// A reserved bit was set that no negotiated extension defines (§5.2), or RSV1 outside the
    /// first frame of a data message under permessage-deflate (RFC 7692 §6).
    ReservedBits,
    /// A reserved opcode (0x3-0x7, 0xB-0xF).
    ReservedOpcode,
    /// A control frame longer than 125 bytes or without FIN (§5.5).
    BadControlFrame,
    /// A 64-bit length with its most significant bit set (§5.2).
    LengthTopBit,
    /// A length not in its minimal encoding (§5.2), refused unless
    /// `Config::accept_non_minimal_lengths`.
    NonMinimalLength,
    /// A continuation frame with no message in progress, or a new data message before the
    /// previous one ended (§5.4).
    BadFragmentation,
    /// A text message or a close reason that is not UTF-8 (§8.1).
    InvalidUtf8,
    /// A message (after decompression, or its compressed bytes) over `Config::max_message_size`.
    MessageTooBig,
    /// Compressed data that does not inflate (RFC 7692 §7.2.2).
    BadCompressedData,
    /// A close frame with a 1-byte payload or a status code not valid on the wire (§7.4).
    BadClosePayload,
    /// Too many Ping frames (and unsolicited Pongs) within one turn of the caller's loop
    /// (`Limits::max_pings`).
    PingFlood,
    /// Too many data frames without payload within one turn (`Limits::max_empty_frames`).
    EmptyFrameFlood,
    /// Too many small fragments in one message (`Limits::max_tiny_fragments`).
    TinyFragmentFlood,
    /// The transport ended before the closing handshake (close code 1006, §7.1.5).
    AbnormalClosure,

    // Caller errors.
    /// A subprotocol to offer is not an RFC 9110 token, or is offered twice.
    InvalidProtocol,
    /// A permessage-deflate offer with a window size outside 8..=15.
    InvalidDeflateOffer,
    /// A ping payload or close reason longer than a control frame allows (125 bytes; a reason
    /// at most 123).
    ControlPayloadTooLong,
    /// A close code that may not be sent (1005, 1006, 1015, or outside the ranges of §7.4).
    UnsendableCloseCode,
    /// The connection has sent a Close frame or failed: nothing more may be sent.
    Closed,
}

/// A WebSocket error: a `Kind`, a scope, an initiator and the close code sent for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error {
    kind: Kind,
    scope: Scope,
    initiator: Initiator,
    close_code: Option<CloseCode>,
}

impl Error {
    /// The opening handshake failed.
    pub(crate) fn handshake(kind: Kind) -> Error {
        Error {
            kind,
            scope: Scope::Handshake,
            initiator: Initiator::Library,
            close_code: None,
        }
    }

    /// A permessage-deflate parameter in the response is unacceptable.
    pub(crate) fn param(param: DeflateParam, problem: ParamProblem) -> Error {
        Error::handshake(Kind::DeflateParameter { param, problem })
    }

    /// The server broke the protocol: the connection fails with the close code of `kind`.
    pub(crate) fn peer(kind: Kind) -> Error {
        Error {
            kind,
            scope: Scope::Connection,
            initiator: Initiator::Library,
            close_code: Some(close_code_for(kind)),
        }
    }

    /// The transport ended before the closing handshake.
    pub(crate) fn abnormal() -> Error {
        Error {
            kind: Kind::AbnormalClosure,
            scope: Scope::Connection,
            initiator: Initiator::Remote,
            close_code: None,
        }
    }

    /// The caller's call was refused.
    pub(crate) fn user(kind: Kind) -> Error {
        Error {
            kind,
            scope: Scope::Call,
            initiator: Initiator::User,
            close_code: None,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The handshake, the connection, or one call.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Who decided it.
    pub fn initiator(&self) -> Initiator {
        self.initiator
    }

    /// The status code of the Close frame queued for this error (connection errors this library
    /// detected); `None` for the others.
    pub fn close_code(&self) -> Option<CloseCode> {
        self.close_code
    }

    /// A stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self.kind {
            Kind::NotSwitchingProtocols { .. } => "WS_HANDSHAKE_STATUS",
            Kind::BadUpgrade
            | Kind::BadConnection
            | Kind::MissingAccept
            | Kind::WrongAccept
            | Kind::UnofferedProtocol
            | Kind::MalformedExtensions
            | Kind::UnofferedExtension
            | Kind::DeflateParameter { .. } => "WS_HANDSHAKE",
            Kind::MaskedFrame
            | Kind::ReservedBits
            | Kind::ReservedOpcode
            | Kind::BadControlFrame
            | Kind::LengthTopBit
            | Kind::NonMinimalLength
            | Kind::BadFragmentation
            | Kind::BadClosePayload => "WS_PROTOCOL",
            Kind::InvalidUtf8 => "WS_INVALID_UTF8",
            Kind::MessageTooBig => "WS_MESSAGE_TOO_BIG",
            Kind::BadCompressedData => "WS_COMPRESSION",
            Kind::PingFlood | Kind::EmptyFrameFlood | Kind::TinyFragmentFlood => "WS_FLOOD",
            Kind::AbnormalClosure => "WS_ABNORMAL_CLOSURE",
            Kind::InvalidProtocol
            | Kind::InvalidDeflateOffer
            | Kind::ControlPayloadTooLong
            | Kind::UnsendableCloseCode => "WS_INVALID_ARGUMENT",
            Kind::Closed => "WS_CLOSED",
        }
    }

    fn advice(&self) -> &'static str {
        match self.kind {
            Kind::NotSwitchingProtocols { .. } => {
                "the server did not switch to WebSocket; check the URL, the credentials and that the server speaks WebSocket"
            }
            Kind::BadUpgrade
            | Kind::BadConnection
            | Kind::MissingAccept
            | Kind::WrongAccept => {
                "the 101 response is not a WebSocket handshake (RFC 6455 §4.1); a proxy or server in the path may not support WebSocket"
            }
            Kind::UnofferedProtocol => {
                "the server chose a subprotocol the client did not offer; offer it, or fix the server"
            }
            Kind::MalformedExtensions | Kind::UnofferedExtension => {
                "the server's Sec-WebSocket-Extensions is malformed or names an extension that was not offered"
            }
            Kind::DeflateParameter { .. } => {
                "the server's permessage-deflate parameters are not acceptable (RFC 7692 §7.1); offering no permessage-deflate avoids the extension"
            }
            Kind::MaskedFrame
            | Kind::ReservedBits
            | Kind::ReservedOpcode
            | Kind::BadControlFrame
            | Kind::LengthTopBit
            | Kind::BadFragmentation
            | Kind::BadClosePayload => "the server broke the WebSocket protocol (RFC 6455 §5)",
            Kind::NonMinimalLength => {
                "the server encoded a frame length in more bytes than needed; Config::accept_non_minimal_lengths accepts it"
            }
            Kind::InvalidUtf8 => "the server sent text that is not UTF-8 (RFC 6455 §8.1)",
            Kind::MessageTooBig => {
                "the server sent a message larger than allowed; raise Config::max_message_size if it is legitimate"
            }
            Kind::BadCompressedData => "the server sent permessage-deflate data that does not inflate",
            Kind::PingFlood | Kind::EmptyFrameFlood | Kind::TinyFragmentFlood => {
                "the server sent a flood of frames that cost work without progress; the connection was closed to bound it (ws Limits)"
            }
            Kind::AbnormalClosure => {
                "the connection ended without a Close frame; reconnect if more is expected"
            }
            Kind::InvalidProtocol => "offer each subprotocol once, as an HTTP token",
            Kind::InvalidDeflateOffer => "offer window sizes between 8 and 15 bits",
            Kind::ControlPayloadTooLong => {
                "keep ping payloads within 125 bytes and close reasons within 123 bytes"
            }
            Kind::UnsendableCloseCode => {
                "send 1000, 1001-1003, 1007-1014 or 3000-4999; 1005, 1006 and 1015 are never sent"
            }
            Kind::Closed => "the connection is closing or failed; open a new one",
        }
    }
}

/// The close code this library sends when the server broke a rule (RFC 6455 §7.4.1).
fn close_code_for(kind: Kind) -> CloseCode {
    match kind {
        Kind::InvalidUtf8 => CloseCode::INVALID_PAYLOAD,
        Kind::MessageTooBig => CloseCode::MESSAGE_TOO_BIG,
        Kind::PingFlood | Kind::EmptyFrameFlood | Kind::TinyFragmentFlood => {
            CloseCode::POLICY_VIOLATION
        }
        _ => CloseCode::PROTOCOL_ERROR,
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.initiator {
            Initiator::Library => "detected locally",
            Initiator::Remote => "by the peer",
            Initiator::User => "caller error",
        };
        let scope = match self.scope {
            Scope::Handshake => "handshake",
            Scope::Connection => "connection",
            Scope::Call => "call",
        };
        write!(
            f,
            "WebSocket {scope} error {} ({:?}",
            self.code(),
            self.kind
        )?;
        if let Some(c) = self.close_code {
            write!(f, ", close {c}")?;
        }
        write!(f, ", {who}): {}", self.advice())
    }
}

impl std::error::Error for Error {}
