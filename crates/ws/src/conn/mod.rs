//! The client connection after the opening handshake: a sans-IO state machine.
//!
//! Call order: create with [`Connection::new`] from what the handshake agreed; then loop: feed
//! what the transport read to [`Connection::handle_input`] (all of it is consumed), drain
//! [`Connection::poll_event`], issue commands ([`Connection::send`], [`Connection::ping`],
//! [`Connection::close`]), and write out [`Connection::take_transmit`] whenever
//! [`Connection::wants_transmit`]. At the transport's end call [`Connection::handle_eof`].
//!
//! Every frame we send is masked with a key from the caller's [`MaskSource`]. A connection
//! error is returned by `handle_input` (and by every later call); a Close frame naming it is then
//! queued for `take_transmit`, after which the caller closes the transport.

mod config;
mod counts;
mod event;
mod message;
mod recv;
mod send;

pub use config::{Config, Limits};
pub use event::{CloseState, Event, MaskSource, Message, MessageKind};

use std::collections::VecDeque;

use crate::deflate::{DeflateParams, PerMessageDeflate};
use crate::error::Error;
use crate::frame::{CloseCode, FrameHead, MAX_HEAD_LEN};
use counts::Counts;
use message::Incoming;

/// Where the frame reader stands.
#[derive(Debug, Clone, Copy)]
enum Recv {
    /// Collecting a frame head.
    Head {
        buf: [u8; MAX_HEAD_LEN],
        have: usize,
    },
    /// Inside a frame's payload: `left` bytes to come.
    Payload { head: FrameHead, left: u64 },
    /// The server's Close arrived, or the connection failed: input is ignored.
    Done,
}

impl Recv {
    const HEAD: Recv = Recv::Head {
        buf: [0; MAX_HEAD_LEN],
        have: 0,
    };
}

/// A Close frame waiting for a masking key.
#[derive(Debug, Clone)]
struct PendingClose {
    code: Option<CloseCode>,
    reason: String,
}

/// A WebSocket client connection.
pub struct Connection {
    config: Config,
    deflate: Option<PerMessageDeflate>,
    recv: Recv,
    incoming: Option<Incoming>,
    /// The payload of the control frame being read (at most 125 bytes).
    control: Vec<u8>,
    counts: Counts,
    events: VecDeque<Event>,
    out: Vec<u8>,
    /// An outgoing message's compressed payload, kept for its capacity.
    scratch: Vec<u8>,
    /// The payload of the last Ping not yet answered.
    pending_pong: Option<Vec<u8>>,
    pending_close: Option<PendingClose>,
    /// A Close of ours is queued or written: nothing more may be sent.
    close_queued: bool,
    /// A Close of ours is in the transmit buffer.
    close_sent: bool,
    close_received: bool,
    /// Our Pings not answered by a Pong yet.
    pings_outstanding: u32,
    error: Option<Error>,
}

impl core::fmt::Debug for Connection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Connection")
            .field(
                "deflate",
                &self.deflate.as_ref().map(PerMessageDeflate::params),
            )
            .field("close_state", &self.close_state())
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// A connection after a successful handshake: `deflate` is what it agreed
    /// ([`crate::Accepted::deflate`]).
    pub fn new(config: Config, deflate: Option<DeflateParams>) -> Connection {
        Connection {
            config,
            deflate: deflate.map(PerMessageDeflate::new),
            recv: Recv::HEAD,
            incoming: None,
            control: Vec::new(),
            counts: Counts::default(),
            events: VecDeque::new(),
            out: Vec::new(),
            scratch: Vec::new(),
            pending_pong: None,
            pending_close: None,
            close_queued: false,
            close_sent: false,
            close_received: false,
            pings_outstanding: 0,
            error: None,
        }
    }

    /// The next event, in the order the server sent them.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// Whether [`Connection::take_transmit`] has bytes to hand out.
    pub fn wants_transmit(&self) -> bool {
        !self.out.is_empty() || self.pending_pong.is_some() || self.pending_close.is_some()
    }

    /// The bytes to write to the transport: frames the caller sent, then the Pong and the Close
    /// the connection queued itself, masked with keys from `keys`. Ends a turn of the caller's
    /// loop for the per-turn budgets ([`Limits`]).
    pub fn take_transmit(&mut self, keys: &mut dyn MaskSource) -> Vec<u8> {
        self.flush_pending(keys);
        self.counts.turn();
        core::mem::take(&mut self.out)
    }

    /// Where the closing handshake stands.
    pub fn close_state(&self) -> CloseState {
        match (self.close_sent, self.close_received) {
            (false, false) => CloseState::Open,
            (true, false) => CloseState::CloseSent,
            (false, true) => CloseState::CloseReceived,
            (true, true) => CloseState::Closed,
        }
    }

    /// The error that ended the connection, if one did.
    pub fn error(&self) -> Option<Error> {
        self.error
    }

    /// The agreed permessage-deflate parameters.
    pub fn deflate(&self) -> Option<DeflateParams> {
        self.deflate.as_ref().map(PerMessageDeflate::params)
    }

    /// The transport reached its end. After the server's Close that is the normal end (§7.1.1:
    /// the server closes TCP first); before it, [`crate::Kind::AbnormalClosure`] (1006).
    pub fn handle_eof(&mut self) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.recv = Recv::Done;
        if self.close_received {
            return Ok(());
        }
        // Nothing can be written any more.
        self.pending_pong = None;
        self.pending_close = None;
        let e = Error::abnormal();
        self.error = Some(e);
        Err(e)
    }

    /// The connection failed with `e` (found by this library): remember it, drop the message in
    /// progress and queue a Close naming it unless one of ours is already on its way.
    fn fail(&mut self, e: Error) {
        self.error = Some(e);
        self.incoming = None;
        self.recv = Recv::Done;
        self.pending_pong = None;
        if let (Some(code), false) = (e.close_code(), self.close_queued) {
            self.pending_close = Some(PendingClose {
                code: Some(code),
                reason: String::new(),
            });
            self.close_queued = true;
        }
    }
}
