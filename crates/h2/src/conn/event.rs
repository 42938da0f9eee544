//! What the connection reports.

use crate::error::{Error, Reason};
use crate::frame::StreamId;
use crate::hpack::Header;

/// An event for the caller, in the order the peer's frames caused them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// Response headers. `status` 1xx: an informational response (more HEADERS follow);
    /// otherwise the final response. `headers` has no pseudo-header fields.
    Headers {
        /// The stream.
        stream: StreamId,
        /// `:status`.
        status: u16,
        /// Regular fields in order.
        headers: Vec<Header>,
        /// The response ends here (no body).
        end_stream: bool,
    },
    /// Body bytes (consecutive DATA frames of one stream may be merged; a frame that spans
    /// several inputs may come in several events, as its bytes arrive). Release them with
    /// [`crate::Connection::consume`] to reopen the windows. Only
    /// [`crate::Connection::handle_input`] makes these; with
    /// [`crate::Connection::handle_input_with`] the bytes go to a [`DataSink`] instead.
    Data {
        /// The stream.
        stream: StreamId,
        /// Bytes (padding removed).
        data: Vec<u8>,
        /// The response ends here.
        end_stream: bool,
    },
    /// Trailer fields; the response ends here.
    Trailers {
        /// The stream.
        stream: StreamId,
        /// Fields in order.
        headers: Vec<Header>,
    },
    /// The stream ended abnormally: reset by the peer (`initiator` Remote), refused by a GOAWAY
    /// (kind `Refused`, retryable), or reset by us after the peer broke a rule (`Library`).
    Reset {
        /// The stream.
        stream: StreamId,
        /// Why.
        error: Error,
    },
    /// The peer sent GOAWAY: no new streams; streams above `last_stream_id` were reported as
    /// `Reset` with kind `Refused` just before this event.
    GoAway {
        /// The highest stream the server may process.
        last_stream_id: StreamId,
        /// Why.
        reason: Reason,
        /// Debug data (truncated to the configured limit).
        debug_data: Vec<u8>,
    },
    /// Send capacity grew (WINDOW_UPDATE or SETTINGS); `stream` 0 is the connection.
    WindowOpened {
        /// The stream or 0.
        stream: StreamId,
    },
    /// The peer acknowledged our SETTINGS.
    SettingsAcked,
    /// The peer's SETTINGS were applied (and acknowledged).
    SettingsReceived,
    /// The peer answered our PING.
    PingAcked {
        /// The payload we sent.
        payload: [u8; 8],
    },
}

/// Receives response body bytes straight from the input, during
/// [`crate::Connection::handle_input_with`]: the DATA payloads are lent, never copied.
///
/// What a sink can rely on (the call and the events follow the order of the server's frames):
///
/// * `data` is application data (padding removed) of one stream, in order. A DATA frame that
///   spans several inputs comes in several calls, as its bytes arrive; one call never carries
///   bytes of two frames. `data` is empty only when `end_stream` is set.
/// * Bytes come only for a stream whose final (non-1xx) `Event::Headers` is already queued, in
///   this call or an earlier one: events queued during the call are polled after it, so a sink
///   may see a stream's first bytes before the caller has polled its headers.
/// * `end_stream = true` is the stream's last call (the server ended it with DATA), possibly
///   with empty `data`. A stream the server ends with HEADERS gets no such call: its
///   `Event::Headers { end_stream: true }` (no body) or `Event::Trailers` (queued after its last
///   bytes) says so. After an `Event::Reset` for a stream (also one the caller
///   asked for with [`crate::Connection::reset`], even in the middle of a frame) no more bytes
///   come for it; the rest of its frames is dropped and its flow-control credit given back.
/// * The bytes count against the windows like `Event::Data`: give them back with
///   [`crate::Connection::consume`] once they are used (also after the stream ended or was
///   reset, for the connection window).
/// * A connection error from a later frame of the same input does not take back bytes already
///   handed out.
///
/// Mixing `handle_input` and `handle_input_with` is allowed; `Event::Data` already queued stays
/// in the queue, so drain [`crate::Connection::poll_event`] before switching.
///
/// Implemented for closures `FnMut(StreamId, &[u8], bool)`.
pub trait DataSink {
    /// Body bytes of `stream`; `end_stream`: the server's side of the stream ends here.
    fn data(&mut self, stream: StreamId, data: &[u8], end_stream: bool);
}

impl<F: FnMut(StreamId, &[u8], bool)> DataSink for F {
    fn data(&mut self, stream: StreamId, data: &[u8], end_stream: bool) {
        self(stream, data, end_stream)
    }
}
