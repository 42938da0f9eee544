//! burrow-h2: a sans-IO HTTP/2 client (RFC 9113) with HPACK (RFC 7541).
//!
//! * [`frame`]: every frame type, decoded with the RFC's MUST checks and encoded; a
//!   chunking-independent [`frame::FrameReader`].
//! * [`hpack`]: decoder with dynamic table and limits, encoder with per-field representation and
//!   Huffman choices, the Huffman code both ways.
//! * [`Connection`]: the client state machine. Bytes in ([`Connection::handle_input`]), events out
//!   ([`Connection::poll_event`]), commands ([`Connection::send_request`],
//!   [`Connection::send_data`], [`Connection::reset`], [`Connection::ping`],
//!   [`Connection::consume`]), bytes out ([`Connection::take_transmit`]). No I/O, no clock.

pub mod conn;
pub mod error;
pub mod frame;
pub mod hpack;

pub use conn::{Config, Connection, Event, Limits, StreamState};
pub use error::{Error, HpackError, Initiator, Kind, Reason, Scope};
pub use frame::StreamId;
pub use hpack::Header;

/// Entry points for the fuzz targets (not a stable API).
#[doc(hidden)]
pub mod fuzz {
    use crate::{Config, Connection};

    /// Feeds `data` to a fresh client connection as server bytes (after the server preface
    /// would be: the first frame must be SETTINGS), polling every event; never panics.
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
        let _ = c.take_transmit();
        let mid = data.len() / 2;
        let (a, b) = data.split_at(mid);
        for part in [a, b] {
            if c.handle_input(part).is_err() {
                break;
            }
            while let Some(ev) = c.poll_event() {
                if let crate::Event::Data { stream, data, .. } = ev {
                    let _ = c.consume(stream, data.len());
                }
            }
        }
        let _ = c.take_transmit();
    }

    /// Decodes `data` as a sequence of header blocks (length-prefixed by one byte each) with a
    /// shared dynamic table; never panics.
    pub fn hpack_decoder(data: &[u8]) {
        let mut d = crate::hpack::Decoder::new(4096);
        d.set_max_header_list_size(16 * 1024);
        let mut rest = data;
        while let Some((&n, tail)) = rest.split_first() {
            let n = usize::from(n).min(tail.len());
            let (block, tail) = tail.split_at(n);
            if d.decode(block).is_err() {
                return;
            }
            rest = tail;
        }
    }
}
