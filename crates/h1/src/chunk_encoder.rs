//! Encoding a chunked request body (RFC 9112 §7.1).

use crate::request::{push_field, validate_field};
use crate::syntax::push_hex;
use crate::Error;

/// Appends `data` as one chunk. Empty data writes nothing (an empty chunk would end the body).
pub fn encode_chunk(data: &[u8], out: &mut Vec<u8>) {
    if data.is_empty() {
        return;
    }
    push_hex(out, u64::try_from(data.len()).unwrap_or(u64::MAX));
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(data);
    out.extend_from_slice(b"\r\n");
}

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
