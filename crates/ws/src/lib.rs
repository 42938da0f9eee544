//! burrow-ws: a sans-IO WebSocket client codec (RFC 6455) with permessage-deflate (RFC 7692).
//!
//! * [`Handshake`]: the Upgrade request's WebSocket fields from a caller's 16-byte nonce, and
//!   the check of the server's 101 response ([`Handshake::check_response`] → [`Accepted`]).
//! * [`Connection`]: the connection after the handshake. Bytes in
//!   ([`Connection::handle_input`], [`Connection::handle_eof`]), events out
//!   ([`Connection::poll_event`]: whole messages, pings, pongs, the server's close), commands
//!   ([`Connection::send`], [`Connection::ping`], [`Connection::close`]), bytes out
//!   ([`Connection::take_transmit`]). Masking keys come from the caller ([`MaskSource`]).
//! * [`frame`]: the frame head, close codes and payloads, masking.
//! * [`deflate`]: permessage-deflate negotiation.
//!
//! No I/O, no clock, no randomness: the caller's transport moves the bytes and its random
//! source gives the nonce and the masking keys. Every count and size the server controls is
//! bounded ([`Config`], [`Limits`]; README.md lists each bound).

pub mod conn;
pub mod deflate;
pub mod error;
pub mod frame;
mod grow;
pub mod handshake;
mod utf8;

pub use conn::{CloseState, Config, Connection, Event, Limits, MaskSource, Message, MessageKind};
pub use deflate::{ClientWindowOffer, DeflateOffer, DeflateParams};
pub use error::{DeflateParam, Error, Initiator, Kind, ParamProblem, Scope};
pub use frame::{CloseCode, CloseFrame, Opcode};
pub use handshake::{accept_key, Accepted, Handshake};

/// Entry points for the fuzz target (not a stable API).
#[doc(hidden)]
pub mod fuzz {
    use crate::{Config, Connection, DeflateParams, Error, Event, Message, MessageKind};

    /// Input beyond this is ignored, so that the live heap stays under [`MAX_LIVE_HEAP`]:
    /// DEFLATE expands at most 1032-fold, so 8 KiB of input makes at most 8.1 MiB of messages.
    pub const MAX_INPUT: usize = 8 * 1024;

    /// The live heap bound the fuzz target enforces. Two runs are alive at once (the whole
    /// input's and the split being compared). One run holds the messages its input makes
    /// (≤ 8.1 MiB), their echo (≤ 8.1 MiB masked), one message being inflated (≤ 256 KiB +
    /// 64 KiB of step) and its compressed copy (≤ 256 KiB), the compressor (~0.3 MiB), the
    /// inflater (~40 KiB), events' overhead (≤ 4 K events × 64 bytes): ≤ 17.3 MiB, so
    /// ≤ 34.6 MiB for two. 64 MiB leaves room for the allocator's rounding and libFuzzer.
    pub const MAX_LIVE_HEAP: usize = 64 << 20;

    /// What one run produced.
    #[derive(Debug, PartialEq, Eq)]
    struct Outcome {
        events: Vec<Event>,
        error: Option<Error>,
        eof: Option<Error>,
        out: Vec<u8>,
    }

    /// Feeds the server bytes `data[1..]` to a client connection whose configuration `data[0]`
    /// chooses (permessage-deflate with or without context takeover, lenient lengths, small
    /// message bound and budgets), whole, in two, in sevens and (up to 2 KiB) byte by byte: each must give
    /// the same events, error and transmitted bytes (a debug assertion fires otherwise). Each
    /// message received is echoed back, compressed or fragmented as configured. Never panics.
    pub fn frames(data: &[u8]) {
        let Some((&choice, rest)) = data.split_first() else {
            return;
        };
        let rest = rest.get(..MAX_INPUT).unwrap_or(rest);
        let whole = run(choice, &[rest]);
        let (a, b) = rest.split_at(rest.len() / 2);
        let mut splits: Vec<Vec<&[u8]>> = vec![vec![a, b], rest.chunks(7).collect()];
        if rest.len() <= 2048 {
            splits.push(rest.chunks(1).collect());
        }
        for pieces in splits {
            // One split's outcome at a time, dropped after the comparison.
            let split = run(choice, &pieces);
            debug_assert!(
                whole == split,
                "{} pieces: {split:?} != whole {whole:?}",
                pieces.len()
            );
        }
        heads(rest);
    }

    fn run(choice: u8, pieces: &[&[u8]]) -> Outcome {
        let deflate = match choice & 3 {
            0 => None,
            1 => Some(DeflateParams::default()),
            2 => Some(DeflateParams {
                server_no_context_takeover: true,
                client_no_context_takeover: true,
                server_max_window_bits: 10,
                client_max_window_bits: 9,
            }),
            _ => Some(DeflateParams {
                client_max_window_bits: 8,
                ..DeflateParams::default()
            }),
        };
        let mut config = Config {
            max_message_size: 256 * 1024,
            accept_non_minimal_lengths: choice & 4 != 0,
            fragment_size: (choice & 8 != 0).then_some(100),
            compression_level: choice >> 4 & 7,
            ..Config::default()
        };
        config.limits.max_pings = 8;
        config.limits.max_empty_frames = 8;
        config.limits.max_tiny_fragments = 16;
        let mut c = Connection::new(config, deflate);
        let mut n: u32 = 0;
        let mut keys = || {
            n = n.wrapping_add(0x9e37_79b9);
            n.to_be_bytes()
        };
        let mut error = None;
        for p in pieces {
            if let Err(e) = c.handle_input(p) {
                error = Some(e);
                break;
            }
        }
        let eof = c.handle_eof().err();
        let mut events = Vec::new();
        while let Some(ev) = c.poll_event() {
            if let Event::Message(m) = &ev {
                let _ = match m {
                    Message::Text(t) => c.send(MessageKind::Text, t.as_bytes(), &mut keys),
                    Message::Binary(b) => c.send(MessageKind::Binary, b, &mut keys),
                };
            }
            events.push(ev);
        }
        let _ = c.ping(b"fuzz", &mut keys);
        let _ = c.close(Some(crate::CloseCode::NORMAL), "done", &mut keys);
        let out = c.take_transmit(&mut keys);
        Outcome {
            events,
            error,
            eof,
            out,
        }
    }

    /// Every frame head in `data` (read one after another, skipping payloads) re-encodes to a
    /// head that parses the same, and the minimal encoding is what strict parsing accepts.
    fn heads(mut data: &[u8]) {
        while let Ok(Some((h, n))) = crate::frame::FrameHead::parse(data, true) {
            let mut out = Vec::new();
            h.encode(&mut out);
            let again = crate::frame::FrameHead::parse(&out, false);
            debug_assert!(
                matches!(again, Ok(Some((g, m))) if g == h && m == out.len()),
                "re-encoding changed {h:?}"
            );
            let skip = usize::try_from(h.len).unwrap_or(usize::MAX);
            data = data
                .get(n..)
                .and_then(|d| d.get(skip.min(d.len())..))
                .unwrap_or_default();
        }
    }
}
