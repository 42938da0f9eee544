//! WebSocket frames (RFC 6455 §5): the frame head with the MUST checks of §5.2 and §5.5 next to
//! the code, the close frame's payload (§5.5.1, §7.4), and masking (§5.3).

mod close;
mod head;
mod mask;

pub use close::{CloseCode, CloseFrame};
pub use head::{FrameHead, MAX_HEAD_LEN};
pub use mask::mask_into;

/// A frame opcode (RFC 6455 §5.2, §11.8). An open newtype: a reserved value decodes into a
/// [`crate::Kind::ReservedOpcode`] error, and any value encodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opcode(pub u8);

impl Opcode {
    /// A continuation frame of a fragmented message.
    pub const CONTINUATION: Opcode = Opcode(0x0);
    /// The first frame of a text message.
    pub const TEXT: Opcode = Opcode(0x1);
    /// The first frame of a binary message.
    pub const BINARY: Opcode = Opcode(0x2);
    /// Close (§5.5.1).
    pub const CLOSE: Opcode = Opcode(0x8);
    /// Ping (§5.5.2).
    pub const PING: Opcode = Opcode(0x9);
    /// Pong (§5.5.3).
    pub const PONG: Opcode = Opcode(0xA);

    /// Control frames have the most significant opcode bit set (§5.5).
    pub fn is_control(self) -> bool {
        self.0 & 0x8 != 0
    }

    /// True for the six opcodes RFC 6455 defines.
    pub fn is_defined(self) -> bool {
        matches!(self.0, 0x0..=0x2 | 0x8..=0xA)
    }

    /// The registry name of a defined opcode, `None` for a reserved one.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0x0 => "continuation",
            0x1 => "text",
            0x2 => "binary",
            0x8 => "close",
            0x9 => "ping",
            0xA => "pong",
            _ => return None,
        })
    }
}

/// The longest payload of a control frame (§5.5: "125 bytes or less").
pub const MAX_CONTROL_PAYLOAD: usize = 125;
