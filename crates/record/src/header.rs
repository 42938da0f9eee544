//! The 5-byte record header (RFC 8446 §5.1).

use crate::{ContentType, ProtocolVersion, RecordError};

/// Bytes in a record header.
pub const HEADER_LEN: usize = 5;

/// A parsed record header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The (outer) content type.
    pub content_type: ContentType,
    /// `legacy_record_version`: ignored except that its major byte must be 3.
    pub version: ProtocolVersion,
    /// Length of the fragment that follows.
    pub len: u16,
}

impl Header {
    /// Parses a header from the first five bytes of `b`; `Ok(None)` if fewer are present.
    pub fn parse(b: &[u8]) -> Result<Option<Self>, RecordError> {
        let Some(&[ct, major, minor, l0, l1]) = b.get(..HEADER_LEN) else {
            return Ok(None);
        };
        if major != 3 {
            return Err(RecordError::NotTls);
        }
        Ok(Some(Self {
            content_type: ContentType(ct),
            version: ProtocolVersion(u16::from_be_bytes([major, minor])),
            len: u16::from_be_bytes([l0, l1]),
        }))
    }

    /// The five header bytes (also the AEAD additional data in TLS 1.3).
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let [v0, v1] = self.version.0.to_be_bytes();
        let [l0, l1] = self.len.to_be_bytes();
        [self.content_type.0, v0, v1, l0, l1]
    }
}
