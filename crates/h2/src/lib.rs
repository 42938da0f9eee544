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

pub use conn::{Config, Connection, DataSink, Event, LentPayload, Limits, StreamState};
pub use error::{Error, HpackError, Initiator, Kind, Reason, Scope};
pub use frame::StreamId;
pub use hpack::Header;

/// Entry points for the fuzz targets (not a stable API).
#[doc(hidden)]
pub mod fuzz {
    use std::collections::BTreeMap;

    use crate::{Config, Connection, StreamId};

    /// Feeds `data` to a fresh client connection as server bytes after a server preface
    /// (empty SETTINGS + ACK), split in two, polling every event and releasing all data; once
    /// with body bytes as `Event::Data` and once lent to a `DataSink`, which must give the same
    /// bodies, events, error, transmitted bytes and connection window. Then runs the raw frames
    /// of `data` through decode → encode → decode. Never panics on any input (a debug
    /// assertion fires if the two paths differ or re-encoding changes a frame).
    pub fn connection(data: &[u8]) {
        let events = drive(data, false);
        let sink = drive(data, true);
        debug_assert!(
            events == sink,
            "sink path {sink:?} != event path {events:?}"
        );
        frames(data);
    }

    /// What one run of [`connection`] produced.
    #[derive(Debug, PartialEq, Eq, Default)]
    struct Outcome {
        /// Every event except `Data`.
        events: Vec<crate::Event>,
        /// Per stream: body bytes, and whether a DATA END_STREAM ended it.
        bodies: BTreeMap<u32, (Vec<u8>, bool)>,
        error: Option<crate::Error>,
        out: Vec<u8>,
        window: u32,
    }

    impl Outcome {
        fn body(&mut self, owed: &mut BTreeMap<u32, usize>, s: StreamId, d: &[u8], end: bool) {
            // Only `Event::Data` reports an empty DATA frame; it carries nothing.
            if d.is_empty() && !end {
                return;
            }
            let b = self.bodies.entry(s.0).or_default();
            b.0.extend_from_slice(d);
            b.1 |= end;
            let n = owed.entry(s.0).or_default();
            *n = n.saturating_add(d.len());
        }
    }

    fn drive(data: &[u8], sink: bool) -> Outcome {
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
        let mut o = Outcome::default();
        let mut owed = BTreeMap::new();
        for part in [preface.as_slice(), a, b] {
            let r = if sink {
                c.handle_input_with(part, &mut |s: StreamId, d: &[u8], e: bool| {
                    o.body(&mut owed, s, d, e)
                })
            } else {
                c.handle_input(part)
            };
            while let Some(ev) = c.poll_event() {
                match ev {
                    crate::Event::Data {
                        stream,
                        data,
                        end_stream,
                    } => o.body(&mut owed, stream, &data, end_stream),
                    ev => o.events.push(ev),
                }
            }
            if let Err(e) = r {
                o.error = Some(e);
                break;
            }
            // Per stream in id order, so that both paths release alike.
            for (s, n) in core::mem::take(&mut owed) {
                let _ = c.consume(StreamId(s), n);
            }
            let _ = c.send_data(StreamId(3), b"body", false);
        }
        o.out = c.take_transmit();
        o.window = c.connection_recv_window();
        o
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
