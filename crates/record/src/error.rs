//! The record layer's error type.

use crate::AlertDescription;
use core::fmt;

/// Everything the record layer can fail with. `Copy`, no peer data inside.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The bytes are not TLS records (wrong major version byte in a header).
    NotTls,
    /// A record carried a content type that is not legal here.
    UnexpectedContentType,
    /// A record was longer than the protocol or the negotiated record_size_limit allows.
    RecordOverflow,
    /// A protected record failed authentication.
    BadRecordMac,
    /// A protected record's inner plaintext was all zeros (no content type).
    NoInnerContentType,
    /// A handshake or alert record had no content.
    EmptyFragment,
    /// More than [`MAX_EMPTY_RECORDS`](crate::MAX_EMPTY_RECORDS) empty records in a row.
    TooManyEmptyRecords,
    /// A change_cipher_spec record arrived where RFC 8446 §5 does not allow one, or was not `01`.
    UnexpectedChangeCipherSpec,
    /// The input buffer would exceed its limit: process records before feeding more.
    BufferFull,
    /// The sequence number space of a traffic key is exhausted.
    SequenceExhausted,
    /// A key could not be built (wrong length for the cipher).
    BadKey,
    /// The caller answered an AEAD job that does not exist, or with the wrong length.
    JobMismatch,
    /// A record was read after the peer's close_notify or after a fatal error.
    Closed,
    /// The caller asked to send more than fits one record or a record of an invalid kind.
    BadSend,
}

impl RecordError {
    /// Stable machine-readable code.
    pub fn code(self) -> &'static str {
        match self {
            Self::NotTls => "TLS_NOT_TLS",
            Self::UnexpectedContentType
            | Self::NoInnerContentType
            | Self::EmptyFragment
            | Self::UnexpectedChangeCipherSpec => "TLS_PROTOCOL",
            Self::TooManyEmptyRecords => "TLS_TOO_MANY_EMPTY_RECORDS",
            Self::RecordOverflow => "TLS_RECORD_OVERFLOW",
            Self::BadRecordMac => "TLS_BAD_RECORD_MAC",
            Self::BufferFull => "TLS_BUFFER_FULL",
            Self::SequenceExhausted => "TLS_SEQUENCE_EXHAUSTED",
            Self::BadKey | Self::JobMismatch | Self::BadSend => "TLS_INTERNAL",
            Self::Closed => "TLS_CLOSED",
        }
    }

    /// The alert to send for this error (RFC 8446 §6), if any.
    pub fn alert(self) -> Option<AlertDescription> {
        Some(match self {
            Self::NotTls => AlertDescription::DECODE_ERROR,
            Self::UnexpectedContentType
            | Self::NoInnerContentType
            | Self::EmptyFragment
            | Self::TooManyEmptyRecords
            | Self::UnexpectedChangeCipherSpec => AlertDescription::UNEXPECTED_MESSAGE,
            Self::RecordOverflow => AlertDescription::RECORD_OVERFLOW,
            Self::BadRecordMac => AlertDescription::BAD_RECORD_MAC,
            Self::BufferFull
            | Self::SequenceExhausted
            | Self::BadKey
            | Self::JobMismatch
            | Self::BadSend => AlertDescription::INTERNAL_ERROR,
            Self::Closed => return None,
        })
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = match self {
            Self::NotTls => {
                "the peer did not send TLS records; check the port and that it speaks TLS"
            }
            Self::UnexpectedContentType => {
                "the peer sent a record of a type not allowed at this point"
            }
            Self::RecordOverflow => {
                "the peer sent a record larger than the protocol or record_size_limit allows"
            }
            Self::BadRecordMac => {
                "a protected record failed authentication (corruption or an active attacker)"
            }
            Self::NoInnerContentType => "a protected record had all-zero inner plaintext",
            Self::EmptyFragment => "the peer sent an empty handshake or alert record",
            Self::TooManyEmptyRecords => {
                return write!(
                f,
                "the peer sent more than {} empty records (or TLS 1.3 change_cipher_spec) in a row",
                crate::MAX_EMPTY_RECORDS
            )
            }
            Self::UnexpectedChangeCipherSpec => {
                "the peer sent change_cipher_spec where TLS 1.3 forbids it"
            }
            Self::BufferFull => "input buffer full: drain records before feeding more bytes",
            Self::SequenceExhausted => "record sequence numbers exhausted for this key; reconnect",
            Self::BadKey => "a traffic key had the wrong length for its cipher (a bug)",
            Self::JobMismatch => "an AEAD job answer did not match the pending job (a caller bug)",
            Self::Closed => "the connection is closed; open a new one",
            Self::BadSend => "invalid send: empty handshake data or an unsendable content type",
        };
        f.write_str(msg)
    }
}

impl std::error::Error for RecordError {}
