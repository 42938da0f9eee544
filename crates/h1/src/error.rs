//! The one error type of burrow-h1.
//!
//! Peer errors (the server sent something we refuse) and caller errors (the request the caller
//! asked us to encode is unsafe to put on the wire) share one `Copy` enum. Every variant has a
//! stable machine-readable [`Error::code`] and a message that says what to do.

use core::fmt;

/// Which part of a response was cut short by the end of the stream.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The status line or header section.
    Head,
    /// A `Content-Length` body.
    Body,
    /// A chunked body (chunk-size line, chunk data or trailer section).
    Chunked,
}

/// Everything that can go wrong while encoding a request or decoding a response.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    // ---- response head (peer) ----
    /// The status line is not `HTTP/1.x SP 3DIGIT [SP reason]`.
    BadStatusLine,
    /// The server answered with an HTTP version other than 1.0 or 1.1.
    UnsupportedVersion,
    /// A header line has no colon, or its name is not a token (this includes whitespace between
    /// the name and the colon, RFC 9112 §5.1).
    BadHeaderName,
    /// A header value (or the reason phrase) holds a control character such as NUL.
    BadHeaderValue,
    /// A header line starts with whitespace (obsolete line folding, RFC 9112 §5.2).
    ObsFold,
    /// A CR not followed by LF.
    BareCr,
    /// A LF not preceded by CR.
    BareLf,
    /// The header section (or the whole head) is larger than the configured limit in bytes.
    HeadersTooLarge {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// More header fields than the configured limit.
    TooManyHeaders {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// More 1xx interim responses before the final one than the configured limit.
    TooManyInterim {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// A 101 Switching Protocols response, though no upgrade was requested.
    UnsolicitedUpgrade,

    // ---- framing (peer) ----
    /// A `Content-Length` value that is not a decimal number that fits in 64 bits.
    BadContentLength,
    /// Several `Content-Length` values that differ.
    ConflictingContentLength,
    /// Both `Transfer-Encoding` and `Content-Length`: the classic request-smuggling shape.
    TransferEncodingWithContentLength,
    /// `Transfer-Encoding` in an HTTP/1.0 response (RFC 9112 §6.1: the framing is faulty).
    TransferEncodingInHttp10,
    /// A transfer coding other than exactly `chunked`.
    UnsupportedTransferEncoding,

    // ---- chunked body (peer) ----
    /// A chunk-size line that does not start with a hexadecimal size.
    BadChunkSize,
    /// A chunk size that does not fit in 64 bits.
    ChunkSizeOverflow,
    /// A chunk-size line (size plus extensions) longer than the configured limit.
    ChunkLineTooLong {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// A malformed chunk extension.
    BadChunkExtension,
    /// Chunk data not followed by CRLF.
    BadChunkTerminator,
    /// The trailer section is larger than the configured limit in bytes.
    TrailersTooLarge {
        /// The limit that was exceeded.
        limit: usize,
    },

    // ---- connection (peer) ----
    /// The stream ended in the middle of a response.
    Truncated {
        /// Where the response was cut.
        stage: Stage,
    },
    /// A close-delimited body (neither `Content-Length` nor chunked) ended with a close that
    /// was not authenticated (TLS: no `close_notify`), so it may have been cut (RFC 9112 §9.8).
    UnauthenticatedClose,
    /// The connection closed before any byte of the response arrived (a request on a reused
    /// connection may be retried if it is idempotent).
    ClosedBeforeResponse,
    /// The server sent bytes while no request was outstanding.
    UnsolicitedData,

    // ---- caller (request encoding and API use) ----
    /// The method is not a token.
    InvalidMethod,
    /// The request-target is empty, has the wrong form, or holds whitespace or control bytes.
    InvalidTarget,
    /// A request header name (or trailer name) is not a token.
    InvalidHeaderName,
    /// A request header value holds CR, LF, NUL or another control byte.
    InvalidHeaderValue,
    /// The caller set `Content-Length` or `Transfer-Encoding` as a header; the encoder writes
    /// the framing itself from the body kind so the two cannot disagree.
    FramingHeaderSet,
    /// A request was encoded with a body kind that its method cannot carry (a body on CONNECT).
    BodyNotAllowed,
}

impl Error {
    /// A stable machine-readable code for this error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::BadStatusLine
            | Error::UnsupportedVersion
            | Error::BadHeaderName
            | Error::BadHeaderValue
            | Error::ObsFold
            | Error::BareCr
            | Error::BareLf
            | Error::UnsolicitedUpgrade
            | Error::UnsolicitedData => "H1_PROTOCOL",
            Error::HeadersTooLarge { .. } | Error::TooManyHeaders { .. } => "H1_HEADERS_TOO_LARGE",
            Error::TooManyInterim { .. } => "H1_TOO_MANY_INTERIM",
            Error::BadContentLength
            | Error::ConflictingContentLength
            | Error::TransferEncodingWithContentLength
            | Error::TransferEncodingInHttp10 => "H1_SMUGGLING",
            Error::UnsupportedTransferEncoding => "H1_TRANSFER_ENCODING",
            Error::BadChunkSize
            | Error::ChunkSizeOverflow
            | Error::BadChunkExtension
            | Error::BadChunkTerminator => "H1_CHUNKED",
            Error::ChunkLineTooLong { .. } => "H1_CHUNK_LINE_TOO_LONG",
            Error::TrailersTooLarge { .. } => "H1_TRAILERS_TOO_LARGE",
            Error::Truncated { .. } => "H1_INCOMPLETE",
            Error::UnauthenticatedClose => "BODY_TRUNCATED",
            Error::ClosedBeforeResponse => "H1_CLOSED",
            Error::InvalidMethod
            | Error::InvalidTarget
            | Error::InvalidHeaderName
            | Error::InvalidHeaderValue
            | Error::FramingHeaderSet
            | Error::BodyNotAllowed => "H1_INVALID_REQUEST",
        }
    }

    /// True when the error is about the request the caller asked us to encode, not about
    /// anything the server sent.
    pub fn is_caller_error(&self) -> bool {
        self.code() == "H1_INVALID_REQUEST"
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadStatusLine => f.write_str(
                "the server's status line is not HTTP/1.x: check that the port speaks HTTP/1.1 \
                 (not TLS, HTTP/2 or another protocol)",
            ),
            Error::UnsupportedVersion => {
                f.write_str("the server answered with an HTTP version other than 1.0/1.1")
            }
            Error::BadHeaderName => f.write_str(
                "the server sent a malformed header line (no colon, or a name that is not a \
                 token); the response was refused",
            ),
            Error::BadHeaderValue => f.write_str(
                "the server sent a control byte (e.g. NUL) in a header value or reason phrase; \
                 the response was refused",
            ),
            Error::ObsFold => f.write_str(
                "the server used obsolete header line folding (RFC 9112 §5.2), which burrow \
                 refuses; the response was refused",
            ),
            Error::BareCr => f.write_str("the server sent a CR not followed by LF in the head"),
            Error::BareLf => f.write_str(
                "the server ended a line with a bare LF instead of CRLF; the response was refused",
            ),
            Error::HeadersTooLarge { limit } => write!(
                f,
                "the response head exceeds {limit} bytes; raise Limits::max_head_bytes if the \
                 server is trusted"
            ),
            Error::TooManyHeaders { limit } => write!(
                f,
                "the response has more than {limit} header fields; raise Limits::max_headers if \
                 the server is trusted"
            ),
            Error::TooManyInterim { limit } => write!(
                f,
                "the server sent more than {limit} 1xx interim responses; raise \
                 Limits::max_interim_responses if this is legitimate"
            ),
            Error::UnsolicitedUpgrade => {
                f.write_str("the server switched protocols (101) though no upgrade was requested")
            }
            Error::BadContentLength => f.write_str(
                "the server sent an invalid Content-Length; the body length is unknown, so the \
                 response was refused",
            ),
            Error::ConflictingContentLength => f.write_str(
                "the server sent Content-Length values that differ (possible response \
                 smuggling); the response was refused",
            ),
            Error::TransferEncodingWithContentLength => f.write_str(
                "the server sent both Transfer-Encoding and Content-Length (possible response \
                 smuggling); the response was refused",
            ),
            Error::TransferEncodingInHttp10 => f.write_str(
                "an HTTP/1.0 response carried Transfer-Encoding, so its framing is faulty \
                 (RFC 9112 §6.1); the response was refused",
            ),
            Error::UnsupportedTransferEncoding => f.write_str(
                "the server used a transfer coding other than `chunked`; burrow only accepts \
                 `Transfer-Encoding: chunked`",
            ),
            Error::BadChunkSize => f.write_str("the server sent a malformed chunk-size line"),
            Error::ChunkSizeOverflow => {
                f.write_str("the server sent a chunk size that does not fit in 64 bits")
            }
            Error::ChunkLineTooLong { limit } => write!(
                f,
                "a chunk-size line (with extensions) exceeds {limit} bytes; raise \
                 Limits::max_chunk_line if the server is trusted"
            ),
            Error::BadChunkExtension => f.write_str("the server sent a malformed chunk extension"),
            Error::BadChunkTerminator => {
                f.write_str("chunk data was not followed by CRLF; the chunked body is corrupt")
            }
            Error::TrailersTooLarge { limit } => write!(
                f,
                "the trailer section exceeds {limit} bytes; raise Limits::max_trailer_bytes if \
                 the server is trusted"
            ),
            Error::Truncated { stage } => write!(
                f,
                "the connection closed in the middle of the response ({}); the body is \
                 incomplete",
                match stage {
                    Stage::Head => "head",
                    Stage::Body => "Content-Length body",
                    Stage::Chunked => "chunked body",
                }
            ),
            Error::UnauthenticatedClose => f.write_str(
                "the body has neither Content-Length nor chunked framing and the connection \
                 closed without TLS close_notify, so it may be truncated (RFC 9112 §9.8); a \
                 caller that accepts such servers treats that close as the end \
                 (Decoder::receive_eof)",
            ),
            Error::ClosedBeforeResponse => f.write_str(
                "the connection closed before any response arrived; an idempotent request may \
                 be retried on a new connection",
            ),
            Error::UnsolicitedData => f.write_str(
                "the server sent bytes while no request was outstanding; close the connection",
            ),
            Error::InvalidMethod => f.write_str("the request method is not a valid token"),
            Error::InvalidTarget => f.write_str(
                "the request target is empty, of the wrong form, or holds whitespace or \
                 control bytes; percent-encode it",
            ),
            Error::InvalidHeaderName => {
                f.write_str("a request header or trailer name is not a valid token")
            }
            Error::InvalidHeaderValue => f.write_str(
                "a request header or trailer value holds CR, LF, NUL or another control byte \
                 (this could smuggle a request); remove or encode it",
            ),
            Error::FramingHeaderSet => f.write_str(
                "do not set Content-Length or Transfer-Encoding as headers: pass the body kind \
                 (BodyKind::Length / BodyKind::Chunked) and the encoder writes the framing",
            ),
            Error::BodyNotAllowed => {
                f.write_str("this request method cannot carry a body; use BodyKind::None")
            }
        }
    }
}

impl std::error::Error for Error {}
