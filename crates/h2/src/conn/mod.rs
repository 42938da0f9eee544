//! The client connection: a sans-IO state machine.
//!
//! Call order: create with [`Connection::new`] (the preface and our SETTINGS are queued), write
//! out [`Connection::take_transmit`]; then loop: feed what the transport read to
//! [`Connection::handle_input`] (or [`Connection::handle_input_with`], to receive body bytes as
//! borrowed slices), drain [`Connection::poll_event`], issue commands, and write out
//! `take_transmit()` whenever it is non-empty. A connection error is returned by
//! `handle_input` (and by every later call); a GOAWAY naming it is then in the transmit buffer.
//!
//! Concurrency: when the server's SETTINGS_MAX_CONCURRENT_STREAMS is reached,
//! [`Connection::send_request`] refuses with [`Kind::ConcurrencyLimit`] (nothing is queued);
//! [`Connection::can_open_stream`] tells in advance.

mod config;
mod counts;
mod event;
mod flow;
mod recv;
mod send;
mod stream;
mod validate;

pub use config::{Config, Limits};
pub use event::{DataSink, Event};
pub use send::LentPayload;
pub use stream::StreamState;

use std::collections::{BTreeMap, VecDeque};

use crate::error::{Error, Kind};
use crate::frame::{FrameReader, Piece, Setting, SettingId, Settings, StreamId, WindowUpdate};
use crate::hpack::{Decoder, Encoder};
use counts::Counts;
use flow::Window;
use stream::Stream;

/// The client connection preface (RFC 9113 §3.4).
pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// The default initial window (RFC 9113 §6.9.2).
const DEFAULT_WINDOW: u32 = 65_535;

/// What the server told us in its SETTINGS.
#[derive(Debug, Clone, Copy)]
struct PeerSettings {
    max_concurrent_streams: Option<u32>,
    initial_window: u32,
    max_frame_size: u32,
    max_header_list_size: Option<u32>,
}

/// A header block being assembled from HEADERS + CONTINUATION frames.
#[derive(Debug)]
struct PartialBlock {
    stream: StreamId,
    block: Vec<u8>,
    end_stream: bool,
    continuations: u32,
}

/// The DATA frame whose payload is arriving (its head has been handled).
#[derive(Debug, Clone, Copy)]
struct InData {
    stream: StreamId,
    end_stream: bool,
    /// Application data bytes still to arrive.
    left: u32,
    /// The payload goes to the caller; when false it is dropped and its credit was given back.
    deliver: bool,
    /// The frame has no application data at all.
    empty: bool,
}

/// Where body bytes go.
enum Deliver<'s> {
    /// `Event::Data`, owned and merged ([`Connection::handle_input`]).
    Events,
    /// The caller's sink, borrowed ([`Connection::handle_input_with`]).
    Sink(&'s mut dyn DataSink),
}

/// An HTTP/2 client connection.
#[derive(Debug)]
pub struct Connection {
    config: Config,
    reader: FrameReader,
    decoder: Decoder,
    encoder: Encoder,
    streams: BTreeMap<u32, Stream>,
    next_stream_id: u32,
    peer: PeerSettings,
    /// Our SETTINGS sent and not yet acknowledged.
    settings_unacked: u32,
    /// Our stream receive window as the server currently knows it.
    local_initial_window: u32,
    conn_send: Window,
    /// DATA bytes we sent whose connection window the peer has not given back yet.
    conn_unreturned: u64,
    conn_recv: Window,
    conn_release_pending: u32,
    /// Delivered and not yet consumed, over all streams (also closed ones).
    conn_unconsumed: u64,
    seen_server_settings: bool,
    continuation: Option<PartialBlock>,
    data_in: Option<InData>,
    goaway_received: Option<StreamId>,
    goaway_sent: bool,
    outstanding_pings: VecDeque<[u8; 8]>,
    counts: Counts,
    events: VecDeque<Event>,
    out: Vec<u8>,
    error: Option<Error>,
}

impl Connection {
    /// A new connection; the preface, our SETTINGS and the connection WINDOW_UPDATE are queued.
    pub fn new(mut config: Config) -> Connection {
        if let Some(order) = &config.settings_order {
            // A setting the first flight leaves out keeps its protocol default on both sides.
            let has = |id: SettingId| order.contains(&id.0);
            if !has(SettingId::INITIAL_WINDOW_SIZE) {
                config.stream_window = DEFAULT_WINDOW;
            }
            if !has(SettingId::HEADER_TABLE_SIZE) {
                config.header_table_size = 4096;
            }
            if !has(SettingId::MAX_FRAME_SIZE) {
                config.max_frame_size = crate::frame::DEFAULT_MAX_FRAME_SIZE;
            }
        }
        let mut encoder = Encoder::new(config.encoder.clone());
        encoder.set_own_cap(usize_of(config.encoder_table_size));
        // Until the server acknowledges our SETTINGS it may use the protocol defaults.
        let mut decoder = Decoder::new(usize_of(config.header_table_size.max(4096)));
        decoder.set_max_string_len(config.limits.max_string_len);
        decoder.set_max_header_list_size(usize_of(config.max_header_list_size));
        let mut c = Connection {
            reader: FrameReader::new(config.max_frame_size),
            decoder,
            encoder,
            streams: BTreeMap::new(),
            next_stream_id: 1,
            peer: PeerSettings {
                max_concurrent_streams: None,
                initial_window: DEFAULT_WINDOW,
                max_frame_size: crate::frame::DEFAULT_MAX_FRAME_SIZE,
                max_header_list_size: None,
            },
            settings_unacked: 0,
            local_initial_window: DEFAULT_WINDOW,
            conn_send: Window::new(DEFAULT_WINDOW),
            conn_unreturned: 0,
            conn_recv: Window::new(DEFAULT_WINDOW),
            conn_release_pending: 0,
            conn_unconsumed: 0,
            seen_server_settings: false,
            continuation: None,
            data_in: None,
            goaway_received: None,
            goaway_sent: false,
            outstanding_pings: VecDeque::new(),
            counts: Counts::default(),
            events: VecDeque::new(),
            out: Vec::new(),
            error: None,
            config,
        };
        c.write_preface();
        c
    }

    fn write_preface(&mut self) {
        self.out.extend_from_slice(PREFACE);
        let values = match &self.config.settings_order {
            Some(order) => self.ordered_settings(order),
            None => self.default_settings(),
        };
        Settings { ack: false, values }.encode(&mut self.out);
        self.finish_preface();
    }

    /// burrow's own SETTINGS: ENABLE_PUSH 0, the table size when not the default, the
    /// stream window, the frame size when not the default, the header list size.
    fn default_settings(&self) -> Vec<Setting> {
        let mut values = vec![Setting {
            id: SettingId::ENABLE_PUSH,
            value: 0,
        }];
        if self.config.header_table_size != 4096 {
            values.push(Setting {
                id: SettingId::HEADER_TABLE_SIZE,
                value: self.config.header_table_size,
            });
        }
        values.push(Setting {
            id: SettingId::INITIAL_WINDOW_SIZE,
            value: self.config.stream_window,
        });
        if self.config.max_frame_size != crate::frame::DEFAULT_MAX_FRAME_SIZE {
            values.push(Setting {
                id: SettingId::MAX_FRAME_SIZE,
                value: self.config.max_frame_size,
            });
        }
        values.push(Setting {
            id: SettingId::MAX_HEADER_LIST_SIZE,
            value: self.config.max_header_list_size,
        });
        values
    }

    /// The configured settings in the order `order` names them (see
    /// [`Config::settings_order`]).
    fn ordered_settings(&self, order: &[u16]) -> Vec<Setting> {
        let c = &self.config;
        order
            .iter()
            .filter_map(|id| {
                let value = match SettingId(*id) {
                    SettingId::HEADER_TABLE_SIZE => c.header_table_size,
                    SettingId::ENABLE_PUSH => 0,
                    SettingId::MAX_CONCURRENT_STREAMS => c.max_concurrent_streams?,
                    SettingId::INITIAL_WINDOW_SIZE => c.stream_window,
                    SettingId::MAX_FRAME_SIZE => c.max_frame_size,
                    SettingId::MAX_HEADER_LIST_SIZE => c.max_header_list_size,
                    _ => return None,
                };
                Some(Setting {
                    id: SettingId(*id),
                    value,
                })
            })
            .collect()
    }

    fn finish_preface(&mut self) {
        self.settings_unacked = self.settings_unacked.saturating_add(1);
        let extra = self
            .config
            .connection_window
            .min(crate::frame::MAX_WINDOW)
            .saturating_sub(DEFAULT_WINDOW);
        if extra > 0 {
            WindowUpdate {
                stream_id: StreamId::CONNECTION,
                increment: extra,
            }
            .encode(&mut self.out);
            // Cannot fail: extra <= 2^31-1 - 65,535.
            let _ = self.conn_recv.increase(extra);
        }
    }

    /// Feeds bytes received from the server. Complete frames are processed at once; a partial
    /// frame is kept (at most one frame's worth, DATA payloads excepted: their bytes are
    /// delivered as they arrive). Events, body bytes included (`Event::Data`, copied), are
    /// queued for [`Connection::poll_event`].
    pub fn handle_input(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.input(bytes, Deliver::Events)
    }

    /// Like [`Connection::handle_input`], except that body bytes are lent to `sink` during the
    /// call, as slices of `bytes`, instead of becoming `Event::Data`: burrow-h2 never copies
    /// them. Every other event is queued as usual. See [`DataSink`] for the order of calls and
    /// events.
    pub fn handle_input_with(
        &mut self,
        bytes: &[u8],
        sink: &mut dyn DataSink,
    ) -> Result<(), Error> {
        self.input(bytes, Deliver::Sink(sink))
    }

    fn input(&mut self, bytes: &[u8], mut to: Deliver<'_>) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut reader = core::mem::replace(&mut self.reader, FrameReader::new(0));
        let r = reader.read(bytes, |p| match p {
            Piece::Frame(f) => self.handle_frame(f.head, f.payload, &mut to),
            Piece::DataHead(h) => self.recv_data_head(h),
            Piece::Data { data, end } => {
                self.recv_data_piece(data, end, &mut to);
                Ok(())
            }
        });
        self.reader = reader;
        r.map_err(|e| self.fail(e))
    }

    /// Bytes of an incomplete frame held by the connection: at most SETTINGS_MAX_FRAME_SIZE + 9
    /// (a header block or control frame), at most 10 (a header and pad length byte) while DATA
    /// flows.
    pub fn buffered_input(&self) -> usize {
        self.reader.buffered()
    }

    /// The connection receive window, counting credit given back but not yet announced (a
    /// WINDOW_UPDATE goes out once half the window is owed). What it lacks of the full window
    /// is the body bytes delivered and not yet consumed, plus those of a DATA frame still
    /// arriving.
    pub fn connection_recv_window(&self) -> u32 {
        self.conn_recv
            .available()
            .saturating_add(self.conn_release_pending)
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// Takes the bytes to send to the server (empty when there is nothing).
    #[must_use]
    pub fn take_transmit(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.out)
    }

    /// Swaps the bytes to send into `out` (whose old contents are dropped and whose
    /// allocation the connection keeps for the next ones): no copy, no allocation.
    pub fn swap_transmit(&mut self, out: &mut Vec<u8>) {
        out.clear();
        core::mem::swap(out, &mut self.out);
    }

    /// Appends the bytes to send to `out`.
    pub fn poll_transmit(&mut self, out: &mut Vec<u8>) {
        out.append(&mut self.out);
    }

    /// True when bytes wait to be sent.
    pub fn wants_write(&self) -> bool {
        !self.out.is_empty()
    }

    /// The connection error, if the connection failed.
    pub fn error(&self) -> Option<Error> {
        self.error
    }

    /// True when no more requests can be sent (error, or GOAWAY sent or received).
    pub fn is_closing(&self) -> bool {
        self.error.is_some() || self.goaway_received.is_some() || self.goaway_sent
    }

    /// The number of open (not closed) streams.
    pub fn active_streams(&self) -> usize {
        self.streams.len()
    }

    /// True when `send_request` would not be refused for concurrency or shutdown.
    pub fn can_open_stream(&self) -> bool {
        !self.is_closing()
            && self.under_concurrency_limit()
            && self.next_stream_id <= crate::frame::MAX_WINDOW
    }

    fn under_concurrency_limit(&self) -> bool {
        match self.peer.max_concurrent_streams {
            Some(max) => u32::try_from(self.streams.len()).is_ok_and(|n| n < max),
            None => true,
        }
    }

    /// The state of a stream; `None` when idle or closed.
    pub fn stream_state(&self, id: StreamId) -> Option<StreamState> {
        self.streams.get(&id.0).map(|s| s.state)
    }

    /// How many body bytes could be sent on `id` now (stream and connection windows).
    pub fn send_capacity(&self, id: StreamId) -> usize {
        self.streams.get(&id.0).map_or(0, |s| {
            usize_of(s.send_window.available().min(self.conn_send.available()))
        })
    }

    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS, if it sent one.
    pub fn peer_max_concurrent_streams(&self) -> Option<u32> {
        self.peer.max_concurrent_streams
    }

    /// The server's SETTINGS_MAX_HEADER_LIST_SIZE, if it sent one.
    pub fn peer_max_header_list_size(&self) -> Option<u32> {
        self.peer.max_header_list_size
    }

    /// Records a connection error: queues GOAWAY and makes the error sticky.
    fn fail(&mut self, e: Error) -> Error {
        if self.error.is_none() {
            self.error = Some(e);
            if !self.goaway_sent && e.initiator() != crate::error::Initiator::Remote {
                crate::frame::GoAway {
                    last_stream_id: StreamId(0),
                    reason: e.reason(),
                    debug_data: &[],
                }
                .encode(&mut self.out);
                self.goaway_sent = true;
            }
        }
        self.error.unwrap_or(e)
    }

    fn check_open(&self) -> Result<(), Error> {
        match self.error {
            Some(_) => Err(Error::user(Kind::Closed)),
            None => Ok(()),
        }
    }
}

fn usize_of(v: u32) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}
