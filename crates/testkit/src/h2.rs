//! HTTP/2 on the wire, for tests that play the server by hand: a frame from its parts and the
//! client's connection preface (RFC 9113 §3.4, §4.1).

/// The client connection preface.
pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// A frame: 24-bit length, type, flags, stream id, payload. `payload` must be shorter than
/// 2^24 bytes (a test's frames are).
pub fn frame(ty: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    let mut f = Vec::with_capacity(9 + payload.len());
    f.extend_from_slice(len.to_be_bytes().get(1..).unwrap_or_default());
    f.extend([ty, flags]);
    f.extend_from_slice(&stream.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_its_nine_byte_head_then_the_payload() {
        assert_eq!(
            frame(0, 1, 3, b"hi"),
            [0, 0, 2, 0, 1, 0, 0, 0, 3, b'h', b'i']
        );
        assert_eq!(frame(4, 0, 0, &[0; 0x10203]).get(..3), Some(&[1, 2, 3][..]));
    }
}
