//! burrow-decode: streaming HTTP content decoding (`Content-Encoding`) with hard caps.
//!
//! * [`Coding::parse_list`] parses `Content-Encoding`; unknown codings fail closed.
//! * [`Decoder`] decodes a body given in any split, stage by stage (last coding applied is
//!   decoded first), appending to the caller's buffer and stopping a decompression bomb as soon
//!   as the output crosses the cap ([`DEFAULT_MAX_DECODED`] by default in the client).
//! * gzip (CRC-32 and ISIZE checked, multiple members), deflate (zlib or raw DEFLATE), br, zstd
//!   (window at most [`MAX_ZSTD_WINDOW`], checksum checked).
//!
//! Sans-IO, synchronous, no clock. Pure Rust backends, so it runs in wasm32 too.

mod brotli;
mod coding;
mod decoder;
mod deflate;
mod error;
mod gzip;
mod inflate;
mod zstd;

pub use coding::{Coding, ACCEPT_ENCODING};
pub use decoder::Decoder;
pub use error::Error;
pub use inflate::InflateBackend;
pub use zstd::MAX_ZSTD_WINDOW;

pub(crate) use decoder::Emit;

/// Default cap on decoded bytes (32 MiB), the client's default `max_body_bytes`.
pub const DEFAULT_MAX_DECODED: u64 = 32 * 1024 * 1024;

/// Most codings one body may stack (`Content-Encoding: gzip, br, ...`). Each stage costs
/// buffers and a level of recursion; real servers apply one, curl allows five.
pub const MAX_CODINGS: usize = 5;
