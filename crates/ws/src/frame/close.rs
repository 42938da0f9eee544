//! The Close frame's payload (RFC 6455 §5.5.1) and its status codes (§7.4, IANA "WebSocket Close
//! Code Number Registry").

use core::fmt;

use super::MAX_CONTROL_PAYLOAD;
use crate::error::{Error, Kind};

/// A close status code. An open newtype: any value round-trips; [`CloseCode::is_valid_on_wire`]
/// says whether it may appear in a Close frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CloseCode(pub u16);

impl CloseCode {
    /// 1000: the purpose for which the connection was established has been fulfilled.
    pub const NORMAL: CloseCode = CloseCode(1000);
    /// 1001: an endpoint is going away (server shutdown, page navigation).
    pub const GOING_AWAY: CloseCode = CloseCode(1001);
    /// 1002: a protocol error.
    pub const PROTOCOL_ERROR: CloseCode = CloseCode(1002);
    /// 1003: a type of data the endpoint cannot accept.
    pub const UNSUPPORTED_DATA: CloseCode = CloseCode(1003);
    /// 1005: no status code was present (never sent; what an empty Close frame means).
    pub const NO_STATUS_RECEIVED: CloseCode = CloseCode(1005);
    /// 1006: the connection closed without a Close frame (never sent).
    pub const ABNORMAL: CloseCode = CloseCode(1006);
    /// 1007: data inconsistent with the message type (e.g. text that is not UTF-8).
    pub const INVALID_PAYLOAD: CloseCode = CloseCode(1007);
    /// 1008: a message violates the endpoint's policy.
    pub const POLICY_VIOLATION: CloseCode = CloseCode(1008);
    /// 1009: a message too big to process.
    pub const MESSAGE_TOO_BIG: CloseCode = CloseCode(1009);
    /// 1010: the client expected the server to negotiate an extension.
    pub const MANDATORY_EXTENSION: CloseCode = CloseCode(1010);
    /// 1011: the server met an unexpected condition.
    pub const INTERNAL_ERROR: CloseCode = CloseCode(1011);
    /// 1012: the service is restarting (IANA registry).
    pub const SERVICE_RESTART: CloseCode = CloseCode(1012);
    /// 1013: try again later (IANA registry).
    pub const TRY_AGAIN_LATER: CloseCode = CloseCode(1013);
    /// 1014: a gateway received an invalid response (IANA registry).
    pub const BAD_GATEWAY: CloseCode = CloseCode(1014);
    /// 1015: the TLS handshake failed (never sent).
    pub const TLS_HANDSHAKE: CloseCode = CloseCode(1015);

    /// Whether the code may appear in a Close frame: 1000-1003 and 1007-1014 (RFC 6455 §7.4.1
    /// and the IANA registry), and 3000-4999 (libraries, frameworks, applications: §7.4.2).
    /// 1004 is reserved, and 1005, 1006 and 1015 "MUST NOT be set as a status code in a Close
    /// control frame"; the rest of 0-2999 is unassigned or reserved, and 5000 and above are
    /// undefined. ws (npm) and Python websockets accept exactly this set.
    pub fn is_valid_on_wire(self) -> bool {
        matches!(self.0, 1000..=1003 | 1007..=1014 | 3000..=4999)
    }

    /// The registry name of a code RFC 6455 or the IANA registry defines, `None` otherwise.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            1000 => "NORMAL",
            1001 => "GOING_AWAY",
            1002 => "PROTOCOL_ERROR",
            1003 => "UNSUPPORTED_DATA",
            1005 => "NO_STATUS_RECEIVED",
            1006 => "ABNORMAL",
            1007 => "INVALID_PAYLOAD",
            1008 => "POLICY_VIOLATION",
            1009 => "MESSAGE_TOO_BIG",
            1010 => "MANDATORY_EXTENSION",
            1011 => "INTERNAL_ERROR",
            1012 => "SERVICE_RESTART",
            1013 => "TRY_AGAIN_LATER",
            1014 => "BAD_GATEWAY",
            1015 => "TLS_HANDSHAKE",
            _ => return None,
        })
    }
}

impl fmt::Debug for CloseCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "{} {n}", self.0),
            None => write!(f, "CloseCode({})", self.0),
        }
    }
}

impl fmt::Display for CloseCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The body of a Close frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloseFrame {
    /// The status code; `None` for an empty Close frame (reported to applications as 1005,
    /// [`CloseCode::NO_STATUS_RECEIVED`]).
    pub code: Option<CloseCode>,
    /// The reason, UTF-8 (§5.5.1), empty when there is none.
    pub reason: String,
}

impl CloseFrame {
    /// The longest reason: a control frame's 125 bytes less the 2-byte code.
    pub const MAX_REASON: usize = MAX_CONTROL_PAYLOAD - 2;

    /// Decodes a received Close payload: empty, or a code valid on the wire and a UTF-8 reason.
    pub fn decode(payload: &[u8]) -> Result<CloseFrame, Error> {
        let Some((code, reason)) = payload.split_first_chunk::<2>() else {
            if payload.is_empty() {
                return Ok(CloseFrame {
                    code: None,
                    reason: String::new(),
                });
            }
            // "If there is a body, the first two bytes of the body MUST be a 2-byte unsigned
            // integer": a 1-byte body is neither empty nor a code.
            return Err(Error::peer(Kind::BadClosePayload));
        };
        let code = CloseCode(u16::from_be_bytes(*code));
        if !code.is_valid_on_wire() {
            return Err(Error::peer(Kind::BadClosePayload));
        }
        let reason = core::str::from_utf8(reason).map_err(|_| Error::peer(Kind::InvalidUtf8))?;
        Ok(CloseFrame {
            code: Some(code),
            reason: reason.to_owned(),
        })
    }

    /// Checks that the frame may be sent: a code valid on the wire (a reason needs a code) and
    /// a reason of at most [`CloseFrame::MAX_REASON`] bytes.
    pub fn check_sendable(code: Option<CloseCode>, reason: &str) -> Result<(), Error> {
        match code {
            Some(c) if !c.is_valid_on_wire() => Err(Error::user(Kind::UnsendableCloseCode)),
            None if !reason.is_empty() => Err(Error::user(Kind::UnsendableCloseCode)),
            _ if reason.len() > CloseFrame::MAX_REASON => {
                Err(Error::user(Kind::ControlPayloadTooLong))
            }
            _ => Ok(()),
        }
    }

    /// Appends the payload: nothing without a code, else the code and the reason.
    pub fn encode_payload(code: Option<CloseCode>, reason: &str, out: &mut Vec<u8>) {
        if let Some(c) = code {
            out.extend_from_slice(&c.0.to_be_bytes());
            out.extend_from_slice(reason.as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_valid_on_the_wire() {
        let valid = [
            1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014,
        ];
        let invalid = [
            0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535,
        ];
        for c in valid.into_iter().chain([3000, 3999, 4000, 4999]) {
            assert!(CloseCode(c).is_valid_on_wire(), "{c}");
        }
        for c in invalid {
            assert!(!CloseCode(c).is_valid_on_wire(), "{c}");
        }
    }

    #[test]
    fn decode_close_payloads() {
        assert_eq!(CloseFrame::decode(&[]).unwrap().code, None);
        let f = CloseFrame::decode(b"\x03\xe8bye").unwrap();
        assert_eq!(
            (f.code, f.reason.as_str()),
            (Some(CloseCode::NORMAL), "bye")
        );
        let kind = |b: &[u8]| CloseFrame::decode(b).unwrap_err().kind();
        assert_eq!(kind(&[0x03]), Kind::BadClosePayload);
        assert_eq!(kind(&[0x03, 0xed]), Kind::BadClosePayload); // 1005
        assert_eq!(kind(&[0x03, 0xe8, 0xff]), Kind::InvalidUtf8);
    }

    #[test]
    fn sendable_close_frames() {
        assert!(CloseFrame::check_sendable(None, "").is_ok());
        assert!(CloseFrame::check_sendable(Some(CloseCode(4000)), "x").is_ok());
        let kind = |c, r| CloseFrame::check_sendable(c, r).unwrap_err().kind();
        assert_eq!(
            kind(Some(CloseCode::ABNORMAL), ""),
            Kind::UnsendableCloseCode
        );
        assert_eq!(kind(None, "why"), Kind::UnsendableCloseCode);
        assert_eq!(
            kind(Some(CloseCode::NORMAL), &"x".repeat(124)),
            Kind::ControlPayloadTooLong
        );
    }
}
