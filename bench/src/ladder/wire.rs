//! What a server puts on the wire for the ladder's 4 MiB response, built once per line: HTTP/2
//! frames, HTTP/1.1 messages, and their cut into 16 KiB TLS record payloads.

use std::ops::Range;

/// Plaintext bytes per TLS record, as servers fill them (2^14).
pub(crate) const RECORD_PAYLOAD: usize = 16_384;

/// DATA frame payload (the default SETTINGS_MAX_FRAME_SIZE, what nginx sends).
pub(crate) const H2_FRAME: usize = 16_384;

/// Chunk size of the chunked HTTP/1.1 body.
pub(crate) const H1_CHUNK: usize = 16_384;

/// HTTP/2 frame types and flags used here (RFC 9113 §6).
pub(crate) mod h2 {
    pub(crate) const DATA: u8 = 0;
    pub(crate) const HEADERS: u8 = 1;
    pub(crate) const SETTINGS: u8 = 4;
    pub(crate) const PING: u8 = 6;
    pub(crate) const WINDOW_UPDATE: u8 = 8;
    pub(crate) const END_STREAM: u8 = 0x1;
    pub(crate) const ACK: u8 = 0x1;
    pub(crate) const END_HEADERS: u8 = 0x4;
}

/// Appends one HTTP/2 frame.
pub(crate) fn frame(out: &mut Vec<u8>, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
    let len = u32::try_from(payload.len()).unwrap_or(0).to_be_bytes();
    out.extend_from_slice(&len[1..]);
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&stream.to_be_bytes());
    out.extend_from_slice(payload);
}

/// An HTTP/2 response for `stream`: HEADERS (`:status 200`, content-type, content-length; HPACK
/// without the dynamic table, so any stream can take it), then DATA frames of [`H2_FRAME`]
/// bytes, END_STREAM on the last. Also returns where each frame's stream id sits (to give the
/// same bytes to a later stream) and, per frame end, the body bytes sent so far.
pub(crate) fn h2_response(body: &[u8], stream: u32) -> (Vec<u8>, Vec<usize>, Vec<(usize, u64)>) {
    let mut out = Vec::with_capacity(body.len() + body.len() / H2_FRAME * 9 + 64);
    let mut ids = Vec::new();
    let mut data_ends = Vec::new();
    let len = body.len().to_string();
    // :status 200 (static index 8), then literals without indexing on static names
    // content-type (31) and content-length (28).
    let mut block = vec![0x88, 0x0f, 31 - 15];
    block.push(u8::try_from("application/octet-stream".len()).unwrap_or(0));
    block.extend_from_slice(b"application/octet-stream");
    block.extend_from_slice(&[0x0f, 28 - 15, u8::try_from(len.len()).unwrap_or(0)]);
    block.extend_from_slice(len.as_bytes());
    ids.push(out.len() + 5);
    frame(&mut out, h2::HEADERS, h2::END_HEADERS, stream, &block);
    let mut sent = 0u64;
    let frames = body.chunks(H2_FRAME).count();
    for (i, piece) in body.chunks(H2_FRAME).enumerate() {
        let flags = if i + 1 == frames { h2::END_STREAM } else { 0 };
        ids.push(out.len() + 5);
        frame(&mut out, h2::DATA, flags, stream, piece);
        sent += piece.len() as u64;
        data_ends.push((out.len(), sent));
    }
    (out, ids, data_ends)
}

/// Writes `stream` into every frame header of a response from [`h2_response`].
pub(crate) fn set_stream(bytes: &mut [u8], ids: &[usize], stream: u32) {
    for &at in ids {
        if let Some(d) = bytes.get_mut(at..at + 4) {
            d.copy_from_slice(&stream.to_be_bytes());
        }
    }
}

/// An HTTP/1.1 response carrying `body`, with `Content-Length` or chunked in [`H1_CHUNK`]s.
pub(crate) fn h1_response(body: &[u8], chunked: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + body.len() / H1_CHUNK * 8 + 128);
    out.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n");
    if chunked {
        out.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
        for piece in body.chunks(H1_CHUNK) {
            out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
            out.extend_from_slice(piece);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
    } else {
        out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        out.extend_from_slice(body);
    }
    out
}

/// The cut of `len` bytes into record payloads of [`RECORD_PAYLOAD`] bytes (the last shorter).
pub(crate) fn record_ranges(len: usize) -> Vec<Range<usize>> {
    (0..len)
        .step_by(RECORD_PAYLOAD)
        .map(|s| s..(s + RECORD_PAYLOAD).min(len))
        .collect()
}
