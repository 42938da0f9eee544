//! What the connection hands out, and what the caller sends.

use crate::frame::{CloseFrame, Opcode};

/// A complete message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// A text message (validated UTF-8).
    Text(String),
    /// A binary message.
    Binary(Vec<u8>),
}

/// The kind of an outgoing message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// Text (opcode 0x1).
    Text,
    /// Binary (opcode 0x2).
    Binary,
}

impl MessageKind {
    pub(crate) fn opcode(self) -> Opcode {
        match self {
            MessageKind::Text => Opcode::TEXT,
            MessageKind::Binary => Opcode::BINARY,
        }
    }
}

/// An event from the server.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A complete message, reassembled from its fragments and decompressed.
    Message(Message),
    /// A Ping with its payload; the Pong is already queued (§5.5.2). If several Pings arrive
    /// within one turn, only the last is answered (§5.5.3 allows it).
    Ping(Vec<u8>),
    /// A Pong with its payload.
    Pong(Vec<u8>),
    /// The server's Close frame. A reply is queued when we had not sent Close (§5.5.1: it
    /// echoes the code, without a reason). Input after it is ignored.
    Close(CloseFrame),
}

/// Where the closing handshake stands (§7.1.2, §7.1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseState {
    /// Neither side has sent Close.
    Open,
    /// Our Close is in the transmit buffer (or was taken); the server's has not arrived.
    CloseSent,
    /// The server's Close arrived; our reply is queued but not yet taken.
    CloseReceived,
    /// Both sides sent Close: "the WebSocket Closing Handshake is Started" on both and the
    /// server is expected to close the TCP connection first (§7.1.1).
    Closed,
}

/// Where masking keys come from: the platform's random source, drawn by the caller (RFC 6455
/// §5.3: "the masking key MUST be derived from a strong source of entropy"). The crate never
/// makes one up. Any `FnMut() -> [u8; 4]` is one.
pub trait MaskSource {
    /// A fresh key for one frame.
    fn mask_key(&mut self) -> [u8; 4];
}

impl<F: FnMut() -> [u8; 4]> MaskSource for F {
    fn mask_key(&mut self) -> [u8; 4] {
        self()
    }
}
