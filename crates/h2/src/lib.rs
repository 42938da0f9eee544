//! burrow-h2: a sans-IO HTTP/2 client (RFC 9113) with HPACK (RFC 7541).
//!
//! * [`frame`]: every frame type, decoded with the RFC's MUST checks and encoded; a
//!   chunking-independent [`frame::FrameReader`].
//! * [`hpack`]: decoder with dynamic table and limits, encoder with per-field representation and
//!   Huffman choices, the Huffman code both ways.
//! * [`Connection`]: the client state machine. Bytes in ([`Connection::handle_input`], or
//!   [`Connection::handle_input_with`] to have body bytes lent to a [`DataSink`]), events out
//!   ([`Connection::poll_event`]), commands ([`Connection::send_request`],
//!   [`Connection::send_data`], [`Connection::reset`], [`Connection::ping`],
//!   [`Connection::consume`]), bytes out ([`Connection::take_transmit`]). No I/O, no clock.

pub mod conn;
pub mod error;
pub mod frame;
pub mod hpack;

pub use conn::{Config, Connection, DataSink, Event, Limits, StreamState};
pub use error::{Error, HpackError, Initiator, Kind, Reason, Scope};
pub use frame::StreamId;
pub use hpack::Header;

/// Entry points for the fuzz targets (not a stable API).
#[doc(hidden)]
pub mod fuzz {
    use crate::{Config, Connection};

    /// Feeds `data` to a fresh client connection as server bytes after a server preface
    /// (empty SETTINGS + ACK), split in two, polling every event and releasing all data;
    /// then runs the raw frames of `data` through decode → encode → decode. Never panics on
    /// any input (a debug assertion fires if re-encoding changes a frame).
    pub fn connection(data: &[u8]) {
        let mut c = Connection::new(Config::default());
        let _ = c.send_request(
            &[
                crate::Header::new(":method", "GET"),
                crate::Header::new(":scheme", "https"),
                crate::Header::new(":authority", "localhost"),
                crate::Header::new(":path", "/"),
            ],
            true,
        );
        let _ = c.send_request(
            &[
                crate::Header::new(":method", "POST"),
                crate::Header::new(":scheme", "https"),
                crate::Header::new(":authority", "localhost"),
                crate::Header::new(":path", "/echo"),
            ],
            false,
        );
        let _ = c.take_transmit();
        let mut preface = Vec::new();
        crate::frame::Settings {
            ack: false,
            values: Vec::new(),
        }
        .encode(&mut preface);
        crate::frame::Settings {
            ack: true,
            values: Vec::new(),
        }
        .encode(&mut preface);
        let mid = data.len() / 2;
        let (a, b) = data.split_at(mid);
        for part in [preface.as_slice(), a, b] {
            if c.handle_input(part).is_err() {
                break;
            }
            while let Some(ev) = c.poll_event() {
                if let crate::Event::Data { stream, data, .. } = ev {
                    let _ = c.consume(stream, data.len());
                }
            }
            let _ = c.send_data(crate::StreamId(3), b"body", false);
        }
        let _ = c.take_transmit();
        frames(data);
    }

    /// Splits `data` into frames and checks that each decodable frame re-encodes to a frame that
    /// decodes to the same value.
    pub fn frames(data: &[u8]) {
        let mut r = crate::frame::FrameReader::new(crate::frame::MAX_MAX_FRAME_SIZE);
        let _ = r.feed(data, |f| {
            if let Ok(frame) = crate::frame::Frame::decode(f.head, f.payload) {
                if matches!(frame, crate::frame::Frame::Unknown(_)) {
                    return Ok(());
                }
                let mut out = Vec::new();
                frame.encode(&mut out);
                let again = crate::frame::FrameHeader::parse(&out)
                    .and_then(|h| out.get(crate::frame::HEADER_LEN..).map(|p| (h, p)))
                    .map(|(h, p)| crate::frame::Frame::decode(h, p));
                debug_assert!(
                    matches!(&again, Some(Ok(g)) if *g == frame),
                    "re-encoding changed {frame:?}"
                );
            }
            Ok(())
        });
    }

    /// Decodes `data` as a sequence of header blocks (each preceded by a 2-byte big-endian
    /// length) with a
    /// shared dynamic table; each decoded list is re-encoded by our encoder and decoded by a
    /// second decoder, which must give the same list. Never panics on any input (a debug
    /// assertion fires on a round-trip mismatch).
    pub fn hpack_decoder(data: &[u8]) {
        let mut d = crate::hpack::Decoder::new(4096);
        d.set_max_header_list_size(16 * 1024);
        let mut enc = crate::hpack::Encoder::new(crate::hpack::EncoderPolicy::default());
        let mut mirror = crate::hpack::Decoder::new(4096);
        mirror.set_max_header_list_size(usize::MAX);
        let mut rest = data;
        while let Some((len, tail)) = rest.split_first_chunk::<2>() {
            let n = usize::from(u16::from_be_bytes(*len)).min(tail.len());
            let (block, tail) = tail.split_at(n);
            let Ok(list) = d.decode(block) else { return };
            let mut wire = Vec::new();
            enc.encode(&list, &mut wire);
            let again = mirror.decode(&wire);
            debug_assert!(
                again.as_ref() == Ok(&list),
                "HPACK round trip changed {list:?}"
            );
            rest = tail;
        }
    }
}
