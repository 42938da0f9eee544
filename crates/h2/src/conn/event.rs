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
    /// Body bytes (consecutive DATA frames of one stream may be merged). Release them with
    /// [`crate::Connection::consume`] to reopen the windows.
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
