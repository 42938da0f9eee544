//! One stream's state (RFC 9113 §5.1, client side) and what we know of its response.

use super::flow::Window;

/// The states a client stream can be in once opened. (Idle streams are not stored; reserved
/// states cannot occur because push is disabled; closed streams are removed.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamState {
    /// Both sides may send.
    Open,
    /// We sent END_STREAM; the server may still send.
    HalfClosedLocal,
    /// The server sent END_STREAM; we may still send.
    HalfClosedRemote,
}

impl StreamState {
    /// The state after we send END_STREAM; `None` = closed.
    pub(crate) fn after_local_end(self) -> Option<StreamState> {
        match self {
            StreamState::Open => Some(StreamState::HalfClosedLocal),
            StreamState::HalfClosedLocal => Some(StreamState::HalfClosedLocal),
            StreamState::HalfClosedRemote => None,
        }
    }

    /// The state after the peer sends END_STREAM; `None` = closed.
    pub(crate) fn after_remote_end(self) -> Option<StreamState> {
        match self {
            StreamState::Open => Some(StreamState::HalfClosedRemote),
            StreamState::HalfClosedLocal | StreamState::HalfClosedRemote => None,
        }
    }

    /// May the peer send frames carrying data on it?
    pub(crate) fn remote_open(self) -> bool {
        matches!(self, StreamState::Open | StreamState::HalfClosedLocal)
    }

    /// May we send on it?
    pub(crate) fn local_open(self) -> bool {
        matches!(self, StreamState::Open | StreamState::HalfClosedRemote)
    }
}

/// Where the response is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// No final response headers yet (informational ones may have come).
    AwaitingHeaders,
    /// Final headers received; DATA or trailers may follow.
    Body,
}

/// A stream.
#[derive(Debug)]
pub(crate) struct Stream {
    pub(crate) state: StreamState,
    pub(crate) send_window: Window,
    pub(crate) recv_window: Window,
    /// Consumed by the caller, not yet returned with a WINDOW_UPDATE.
    pub(crate) release_pending: u32,
    /// Delivered to the caller, not yet consumed.
    pub(crate) unconsumed: u64,
    /// DATA bytes we sent whose window the peer has not given back yet.
    pub(crate) unreturned: u64,
    pub(crate) phase: Phase,
    pub(crate) is_head: bool,
    pub(crate) status: u16,
    pub(crate) content_length: Option<u64>,
    pub(crate) body_received: u64,
}
