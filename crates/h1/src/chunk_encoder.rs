//! Encoding a chunked request body (RFC 9112 §7.1).

use crate::request::{push_field, validate_field};
use crate::syntax::push_hex;
use crate::Error;

/// Appends `data` as one chunk. Empty data writes nothing (an empty chunk would end the body).
pub fn encode_chunk(data: &[u8], out: &mut Vec<u8>) {
    if data.is_empty() {
        return;
    }
    encode_chunk_head(data.len(), out);
    out.extend_from_slice(data);
    out.extend_from_slice(CHUNK_END);
}

/// Appends the size line of a chunk of `len` bytes (`len` must not be 0: that is the last
/// chunk): [`encode_chunk`] is this, the data, then [`CHUNK_END`]. For a caller that sends the
/// data from where it is instead of copying it after the size line.
pub fn encode_chunk_head(len: usize, out: &mut Vec<u8>) {
    push_hex(out, u64::try_from(len).unwrap_or(u64::MAX));
    out.extend_from_slice(b"\r\n");
}

/// What follows a chunk's data.
pub const CHUNK_END: &[u8] = b"\r\n";

/// Appends the last chunk and a trailer section with `trailers` (may be empty). The trailers
/// are validated first; on error nothing is appended.
pub fn encode_last_chunk(trailers: &[(&[u8], &[u8])], out: &mut Vec<u8>) -> Result<(), Error> {
    for (name, value) in trailers {
        validate_field(name, value)?;
    }
    out.extend_from_slice(b"0\r\n");
    for (name, value) in trailers {
        push_field(out, name, value);
    }
    out.extend_from_slice(b"\r\n");
    Ok(())
}
