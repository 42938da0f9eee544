//! The one error type of this crate.

use core::fmt;

/// Why a body could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// `Content-Encoding` names a coding this build cannot decode (fail closed: the body is not
    /// handed out still encoded).
    UnsupportedCoding(String),
    /// `Content-Encoding` stacks more than [`crate::MAX_CODINGS`] codings.
    TooManyCodings {
        /// How many were listed (counted up to one past the limit).
        count: usize,
    },
    /// The decoded body (or an intermediate stage of a multi-coding body) would exceed `limit`.
    TooLarge {
        /// The cap on decoded bytes that was in force.
        limit: u64,
    },
    /// The coded data is invalid.
    Corrupt {
        /// The coding whose data is invalid ("gzip", "deflate", "br", "zstd").
        coding: &'static str,
        /// What is wrong.
        what: String,
    },
    /// The coded body ended before its stream did.
    Truncated {
        /// The coding whose stream is incomplete.
        coding: &'static str,
    },
}

impl Error {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::UnsupportedCoding(_) | Error::TooManyCodings { .. } => {
                "UNSUPPORTED_CONTENT_ENCODING"
            }
            Error::TooLarge { .. } => "BODY_TOO_LARGE",
            Error::Corrupt { .. } | Error::Truncated { .. } => "DECODE_FAILED",
        }
    }

    pub(crate) fn corrupt(coding: &'static str, what: impl Into<String>) -> Error {
        Error::Corrupt {
            coding,
            what: what.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnsupportedCoding(name) => write!(
                f,
                "unsupported Content-Encoding {name:?}: only gzip, deflate, br and zstd can be \
                 decoded; send Accept-Encoding with burrow_decode::ACCEPT_ENCODING only"
            ),
            Error::TooManyCodings { count } => write!(
                f,
                "Content-Encoding stacks {count} or more codings, over MAX_CODINGS ({}); a real \
                 server applies one. Use decompress: Passthrough to receive the bytes as sent",
                crate::MAX_CODINGS
            ),
            Error::TooLarge { limit } => write!(
                f,
                "decoded body exceeds max_body_bytes ({limit} bytes); raise max_body_bytes \
                 (or set it to None for no limit) to accept larger bodies"
            ),
            Error::Corrupt { coding, what } => {
                write!(f, "{coding} content coding is corrupt: {what}")
            }
            Error::Truncated { coding } => write!(
                f,
                "{coding} content coding is truncated: the body ended before the compressed \
                 stream did (connection cut or wrong Content-Length?)"
            ),
        }
    }
}

impl std::error::Error for Error {}
