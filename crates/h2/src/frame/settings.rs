//! SETTINGS (RFC 9113 §6.5).

use super::{
    flags, len24, proto_err, size_err, FrameHeader, FrameType, StreamId, MAX_MAX_FRAME_SIZE,
    MAX_WINDOW,
};
use crate::error::{Error, Kind, Reason};

/// A setting identifier (RFC 9113 §6.5.2). An open newtype: unknown ids are ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingId(pub u16);

impl SettingId {
    /// SETTINGS_HEADER_TABLE_SIZE.
    pub const HEADER_TABLE_SIZE: SettingId = SettingId(0x1);
    /// SETTINGS_ENABLE_PUSH.
    pub const ENABLE_PUSH: SettingId = SettingId(0x2);
    /// SETTINGS_MAX_CONCURRENT_STREAMS.
    pub const MAX_CONCURRENT_STREAMS: SettingId = SettingId(0x3);
    /// SETTINGS_INITIAL_WINDOW_SIZE.
    pub const INITIAL_WINDOW_SIZE: SettingId = SettingId(0x4);
    /// SETTINGS_MAX_FRAME_SIZE.
    pub const MAX_FRAME_SIZE: SettingId = SettingId(0x5);
    /// SETTINGS_MAX_HEADER_LIST_SIZE.
    pub const MAX_HEADER_LIST_SIZE: SettingId = SettingId(0x6);
    /// SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441).
    pub const ENABLE_CONNECT_PROTOCOL: SettingId = SettingId(0x8);
}

/// One setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// Identifier.
    pub id: SettingId,
    /// Value.
    pub value: u32,
}

impl Setting {
    /// Checks the value ranges of RFC 9113 §6.5.2.
    pub fn validate(&self) -> Result<(), Error> {
        match self.id {
            // "Any value other than 0 or 1 MUST be treated as a connection error of type
            // PROTOCOL_ERROR."
            SettingId::ENABLE_PUSH | SettingId::ENABLE_CONNECT_PROTOCOL if self.value > 1 => {
                Err(Error::conn(Kind::InvalidSetting, Reason::PROTOCOL_ERROR))
            }
            // "Values above the maximum flow-control window size of 2^31-1 MUST be treated as a
            // connection error of type FLOW_CONTROL_ERROR."
            SettingId::INITIAL_WINDOW_SIZE if self.value > MAX_WINDOW => Err(Error::conn(
                Kind::InvalidSetting,
                Reason::FLOW_CONTROL_ERROR,
            )),
            // "Values outside this range MUST be treated as a connection error of type
            // PROTOCOL_ERROR." (16,384 ..= 2^24-1)
            SettingId::MAX_FRAME_SIZE if !(16_384..=MAX_MAX_FRAME_SIZE).contains(&self.value) => {
                Err(Error::conn(Kind::InvalidSetting, Reason::PROTOCOL_ERROR))
            }
            _ => Ok(()),
        }
    }
}

/// A SETTINGS frame: the settings in the order received (they are applied in that order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// ACK flag (then `values` is empty).
    pub ack: bool,
    /// The settings, in wire order.
    pub values: Vec<Setting>,
}

impl Settings {
    /// Decodes a SETTINGS payload (values validated).
    pub fn load(head: FrameHeader, payload: &[u8]) -> Result<Settings, Error> {
        // "If an endpoint receives a SETTINGS frame whose Stream Identifier field is anything
        // other than 0x00, the endpoint MUST respond with a connection error of type
        // PROTOCOL_ERROR."
        if !head.stream_id.is_zero() {
            return Err(proto_err());
        }
        let ack = head.has(flags::ACK);
        // "Receipt of a SETTINGS frame with the ACK flag set and a length field value other than
        // 0 MUST be treated as a connection error of type FRAME_SIZE_ERROR."
        if ack && !payload.is_empty() {
            return Err(size_err());
        }
        // "A SETTINGS frame with a length other than a multiple of 6 octets MUST be treated as a
        // connection error of type FRAME_SIZE_ERROR."
        if payload.len() % 6 != 0 {
            return Err(size_err());
        }
        let mut values = Vec::with_capacity(payload.len() / 6);
        for c in payload.chunks_exact(6) {
            let [a, b, v0, v1, v2, v3]: [u8; 6] = c.try_into().map_err(|_| size_err())?;
            let s = Setting {
                id: SettingId(u16::from_be_bytes([a, b])),
                value: u32::from_be_bytes([v0, v1, v2, v3]),
            };
            s.validate()?;
            values.push(s);
        }
        Ok(Settings { ack, values })
    }

    /// Appends the frame.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let f = if self.ack { flags::ACK } else { 0 };
        let length = len24(self.values.len().saturating_mul(6));
        FrameHeader {
            length,
            kind: FrameType::SETTINGS,
            flags: f,
            stream_id: StreamId(0),
        }
        .encode(out);
        for s in &self.values {
            out.extend_from_slice(&s.id.0.to_be_bytes());
            out.extend_from_slice(&s.value.to_be_bytes());
        }
    }
}
