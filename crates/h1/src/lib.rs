//! burrow-h1: a sans-IO HTTP/1.1 client codec.
//!
//! * [`RequestHead`] encodes a request head exactly as given (order and case kept), adding only
//!   `Host` (if absent) and the framing header chosen by [`BodyKind`]; [`encode_chunk`] and
//!   [`encode_last_chunk`] encode a chunked request body.
//! * [`ResponseDecoder`] is the h11-style event API with an internal buffer:
//!   `receive(bytes)` / `receive_eof()` / `next_event()` → [`Next`].
//! * [`Decoder`] is the same state machine over a buffer the caller owns: `decode(input)` returns
//!   the bytes consumed and an [`Event`] whose body data is a range into `input`.
//! * [`parse_response_head`] is a pure head parser; [`ChunkedDecoder`] decodes a chunked body.
//!
//! Strictness (RFC 9112): a bare LF ends a line of the response head (§2.2 lets a recipient
//! accept it; curl, browsers and httparse do) but not inside chunk framing or trailers, where it
//! is refused; obs-fold, bare CR, whitespace before the colon, control bytes
//! in values, `Transfer-Encoding` with `Content-Length`, differing `Content-Length` values,
//! `Transfer-Encoding` in HTTP/1.0 and any transfer coding other than exactly `chunked` are
//! refused. Identical duplicate `Content-Length` values are accepted as one (RFC 9110 §8.6).
//! Every count and size the server controls is bounded by [`Limits`].
//!
//! No I/O, no clock, no randomness, no dependencies.

mod buffered;
mod chunk_encoder;
mod chunked;
mod decoder;
mod error;
mod framing;
mod head;
mod headers;
mod limits;
mod request;
mod syntax;

pub use buffered::{Next, ResponseDecoder};
pub use chunk_encoder::{encode_chunk, encode_chunk_head, encode_last_chunk, CHUNK_END};
pub use chunked::{ChunkEvent, ChunkedDecoder};
pub use decoder::{Decoded, Decoder, Event};
pub use error::{Error, Stage};
pub use framing::{BodyFraming, RequestInfo};
pub use head::{parse_response_head, ResponseHead, Version};
pub use headers::Headers;
pub use limits::Limits;
pub use request::{BodyKind, RequestHead, Target};
