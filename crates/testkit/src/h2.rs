//! HTTP/2 on the wire, for tests that play the server by hand: a frame from its parts, the
//! client's frames split off what it sent, and its connection preface (RFC 9113 §3.4, §4.1).

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

/// One frame the client sent, split off the front of `rx`.
#[derive(Debug, PartialEq, Eq)]
pub struct Frame {
    /// The frame type.
    pub ty: u8,
    /// The flags.
    pub flags: u8,
    /// The stream id (the reserved bit cleared).
    pub stream: u32,
    /// The payload.
    pub payload: Vec<u8>,
}

/// Takes the first whole frame off `rx`, or `None` while it has not all arrived.
pub fn take_frame(rx: &mut Vec<u8>) -> Option<Frame> {
    let head = rx.get(..9)?;
    let len = usize::from(head[0]) << 16 | usize::from(head[1]) << 8 | usize::from(head[2]);
    let payload = rx.get(9..9 + len)?.to_vec();
    let frame = Frame {
        ty: head[3],
        flags: head[4],
        stream: u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff,
        payload,
    };
    rx.drain(..9 + len);
    Some(frame)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_taken_whole_and_in_order() {
        let mut rx = [frame(4, 0, 0, b"abc"), frame(1, 5, 1, b"hd")].concat();
        let all = rx.clone();
        for cut in 0..all.len() {
            let mut partial = all[..cut].to_vec();
            let got = take_frame(&mut partial);
            assert_eq!(got.is_some(), cut >= 12, "cut {cut}");
        }
        assert_eq!(
            take_frame(&mut rx).map(|f| (f.ty, f.payload)),
            Some((4, b"abc".to_vec()))
        );
        let f = take_frame(&mut rx).unwrap();
        assert_eq!(
            (f.ty, f.flags, f.stream, f.payload),
            (1, 5, 1, b"hd".to_vec())
        );
        assert!(rx.is_empty() && take_frame(&mut rx).is_none());
    }

    #[test]
    fn a_frame_is_its_nine_byte_head_then_the_payload() {
        assert_eq!(
            frame(0, 1, 3, b"hi"),
            [0, 0, 2, 0, 1, 0, 0, 0, 3, b'h', b'i']
        );
        assert_eq!(frame(4, 0, 0, &[0; 0x10203]).get(..3), Some(&[1, 2, 3][..]));
    }
}
