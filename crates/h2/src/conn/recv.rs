//! Handling of received frames: one handler per frame type.

use super::counts::Abuse;
use super::stream::{Phase, Stream};
use super::validate;
use super::{Connection, Deliver, Event, InData, PartialBlock};
use crate::error::{Error, Kind, Reason, Scope};
use crate::frame::{
    self, Continuation, DataHead, Frame, FrameHeader, FrameType, GoAway, Headers, Ping, RstStream,
    SettingId, Settings, StreamId, WindowUpdate,
};
use crate::hpack::Header;

/// Where a stream id stands from our side.
enum Known {
    /// In the stream map.
    Open,
    /// Opened by us earlier and since closed.
    Closed,
    /// Never opened (or even: the server may not open streams).
    Idle,
}

impl Connection {
    /// Handles one complete frame. Stream errors are dealt with here (RST_STREAM + event);
    /// connection errors are returned.
    pub(super) fn handle_frame(
        &mut self,
        head: FrameHeader,
        payload: &[u8],
        to: &mut Deliver<'_>,
    ) -> Result<(), Error> {
        self.check_frame_order(&head)?;
        let frame = match Frame::decode(head, payload) {
            Ok(f) => f,
            // A HEADERS frame refused as a stream error still carries a header block that the
            // peer's HPACK encoder counted on us decoding: without it the tables would drift.
            // "An endpoint MAY choose to treat a stream error as a connection error" (§5.4.1).
            Err(e) if head.kind == FrameType::HEADERS => {
                return Err(Error::conn(e.kind(), e.reason()))
            }
            Err(e) => return self.stream_or_conn_error(e),
        };
        match frame {
            // The reader hands DATA out in pieces; a whole one is its head and a single piece.
            Frame::Data(f) => {
                let h = DataHead { head, pad: f.pad };
                self.recv_data_start(h, frame::len24(f.data.len()))?;
                self.recv_data_piece(f.data, true, to);
                Ok(())
            }
            Frame::Headers(f) => self.recv_headers(f),
            Frame::Continuation(f) => self.recv_continuation(f),
            Frame::Priority(f) => self.recv_priority(f.stream_id),
            Frame::RstStream(f) => self.recv_rst(f),
            Frame::Settings(f) => self.recv_settings(f),
            // "An endpoint that has set SETTINGS_ENABLE_PUSH to 0 ... MUST treat the receipt of a
            // PUSH_PROMISE frame as a connection error of type PROTOCOL_ERROR." We always send 0
            // first thing, so a conforming server never sends one.
            Frame::PushPromise(_) => Err(Error::conn(
                Kind::ServerOpenedStream,
                Reason::PROTOCOL_ERROR,
            )),
            Frame::Ping(f) => self.recv_ping(f),
            Frame::GoAway(f) => self.recv_goaway(f),
            Frame::WindowUpdate(f) => self.recv_window_update(f),
            Frame::Unknown(_) => Ok(()),
        }
    }

    /// The rules on which frame may come next, checked first for every frame (DATA included).
    fn check_frame_order(&self, head: &FrameHeader) -> Result<(), Error> {
        // "The server connection preface consists of a potentially empty SETTINGS frame that MUST
        // be the first frame the server sends".
        if !self.seen_server_settings
            && (head.kind != FrameType::SETTINGS || head.has(frame::flags::ACK))
        {
            return Err(Error::proto());
        }
        // "A HEADERS frame without the END_HEADERS flag set MUST be followed by a CONTINUATION
        // frame for the same stream. A receiver MUST treat the receipt of any other type of frame
        // or a frame on a different stream as a connection error of type PROTOCOL_ERROR."
        if let Some(p) = &self.continuation {
            if head.kind != FrameType::CONTINUATION || head.stream_id != p.stream {
                return Err(Error::proto());
            }
        }
        Ok(())
    }

    /// A stream-scoped error resets that stream; a connection error is returned.
    fn stream_or_conn_error(&mut self, e: Error) -> Result<(), Error> {
        match e.scope() {
            Scope::Stream(id) => self.reset_with_error(id, e),
            Scope::Connection => Err(e),
        }
    }

    /// Sends RST_STREAM for `id`, forgets the stream and reports the error (if it was open).
    /// Each such reset is the peer's doing and costs us a frame: past
    /// `Limits::max_local_resets` the connection ends instead (`StreamErrorFlood`).
    pub(super) fn reset_with_error(&mut self, id: StreamId, e: Error) -> Result<(), Error> {
        // Never RST_STREAM an idle stream (that would be our protocol error).
        if matches!(self.known(id), Known::Idle) {
            return Ok(());
        }
        self.counts.spend(Abuse::LocalReset, &self.config.limits)?;
        RstStream {
            stream_id: id,
            reason: e.reason(),
        }
        .encode(&mut self.out);
        if self.streams.remove(&id.0).is_some() {
            self.events.push_back(Event::Reset {
                stream: id,
                error: e,
            });
        }
        Ok(())
    }

    fn known(&self, id: StreamId) -> Known {
        if self.streams.contains_key(&id.0) {
            Known::Open
        } else if id.is_client_initiated() && id.0 < self.next_stream_id {
            Known::Closed
        } else {
            Known::Idle
        }
    }

    /// PRIORITY is ignored (RFC 9113 §5.3.2: the signals are deprecated); it may name any
    /// stream, even an idle one. Its length and self-dependency were checked on decode.
    fn recv_priority(&mut self, _id: StreamId) -> Result<(), Error> {
        Ok(())
    }

    /// A DATA frame's header (and pad length byte) arrived: every check of the frame happens
    /// here, before any of its bytes are delivered.
    pub(super) fn recv_data_head(&mut self, h: DataHead) -> Result<(), Error> {
        self.check_frame_order(&h.head)?;
        let data_len = h.data_len()?;
        self.recv_data_start(h, data_len)
    }

    fn recv_data_start(&mut self, h: DataHead, data_len: u32) -> Result<(), Error> {
        let flow_len = h.flow_len();
        // The whole frame is counted now, padding included. Connection window first: every DATA
        // frame counts, whatever its stream.
        if self.conn_recv.consume(flow_len).is_err() {
            return Err(Error::conn(Kind::FlowControl, Reason::FLOW_CONTROL_ERROR));
        }
        let id = h.stream_id();
        let end_stream = h.end_stream();
        // Until accepted below, the payload is dropped (and its credit given back).
        self.data_in = Some(InData {
            stream: id,
            end_stream,
            left: data_len,
            deliver: false,
            empty: data_len == 0,
        });
        let padding = flow_len.saturating_sub(data_len);
        // One lookup for an open stream (every DATA frame); `known` only for the others.
        let Some(s) = self.streams.get_mut(&id.0) else {
            return match self.known(id) {
                // "If a DATA frame is received whose stream is not in the "open" or
                // "half-closed (local)" state, the recipient MUST respond with a stream error
                // of type STREAM_CLOSED." For streams that we closed, frames in flight are
                // expected: ignore them (within a budget) and give the connection window back.
                Known::Closed => {
                    self.counts
                        .spend(Abuse::ClosedStreamFrame, &self.config.limits)?;
                    self.release_conn(flow_len);
                    Ok(())
                }
                // DATA on an idle stream: "MUST treat this as a connection error of type
                // PROTOCOL_ERROR" (§5.1).
                Known::Idle => Err(Error::proto()),
                Known::Open => Ok(()),
            };
        };
        if !s.state.remote_open() {
            self.release_conn(flow_len);
            return self
                .reset_with_error(id, Error::stream(id, Kind::Protocol, Reason::STREAM_CLOSED));
        }
        if s.recv_window.consume(flow_len).is_err() {
            self.release_conn(flow_len);
            return self.reset_with_error(
                id,
                Error::stream(id, Kind::FlowControl, Reason::FLOW_CONTROL_ERROR),
            );
        }
        // DATA before the final response headers is malformed (§8.1).
        if s.phase != Phase::Body {
            self.release_conn(flow_len);
            return self.reset_with_error(
                id,
                Error::stream(id, Kind::MalformedResponse, Reason::PROTOCOL_ERROR),
            );
        }
        // The frame's data length is known now, so a body that this frame would take beyond
        // content-length (or leave short of it at END_STREAM) is refused before any of it is
        // delivered, whatever the chunking.
        s.body_received = s.body_received.saturating_add(u64::from(data_len));
        let cl_bad = match s.content_length {
            Some(cl) if !s.is_head => s.body_received > cl || (end_stream && s.body_received != cl),
            _ => false,
        };
        if cl_bad {
            self.release_conn(flow_len);
            return self.reset_with_error(
                id,
                Error::stream(id, Kind::MalformedResponse, Reason::PROTOCOL_ERROR),
            );
        }
        if data_len == 0 && !end_stream {
            self.counts.spend(Abuse::EmptyData, &self.config.limits)?;
        } else if data_len > 0 {
            self.counts.progress();
        }
        // Padding is released at once.
        if padding > 0 {
            self.release(id, padding);
        }
        if let Some(d) = &mut self.data_in {
            d.deliver = true;
        }
        Ok(())
    }

    /// Bytes of the current DATA frame's data; `end`: the frame is complete.
    pub(super) fn recv_data_piece(&mut self, data: &[u8], end: bool, to: &mut Deliver<'_>) {
        let Some(mut cur) = self.data_in else {
            return;
        };
        let id = cur.stream;
        let n = frame::len24(data.len());
        cur.left = cur.left.saturating_sub(n);
        if cur.deliver {
            match self.streams.get_mut(&id.0) {
                Some(s) if s.state.remote_open() => {
                    let len = u64::from(n);
                    s.unconsumed = s.unconsumed.saturating_add(len);
                    self.conn_unconsumed = self.conn_unconsumed.saturating_add(len);
                }
                // Gone since the head (reset by the caller between inputs) and not seen by
                // `drop_data_in`: drop this piece and the rest.
                _ => {
                    self.release_conn(n.saturating_add(cur.left));
                    cur.deliver = false;
                }
            }
        }
        if cur.deliver {
            let end_stream = end && cur.end_stream;
            match to {
                // As before pieces: an empty DATA frame still makes a (possibly empty) event.
                Deliver::Events => {
                    if !data.is_empty() || end_stream || (end && cur.empty) {
                        self.push_data(id, data, end_stream);
                    }
                }
                Deliver::Sink(sink) => {
                    if !data.is_empty() || end_stream {
                        sink.data(id, data, end_stream);
                    }
                }
            }
            if end_stream {
                self.remote_end(id);
            }
        }
        self.data_in = if end { None } else { Some(cur) };
    }

    /// The stream `id` was reset by us: if a DATA frame of it is part-way, the rest of its
    /// payload is dropped and its connection credit given back now.
    pub(super) fn drop_data_in(&mut self, id: StreamId) {
        let Some(cur) = &mut self.data_in else {
            return;
        };
        if cur.stream != id || !cur.deliver {
            return;
        }
        cur.deliver = false;
        let left = cur.left;
        self.release_conn(left);
    }

    fn push_data(&mut self, stream: StreamId, data: &[u8], end_stream: bool) {
        // Merge with the previous event when it is body data of the same stream.
        if let Some(Event::Data {
            stream: s,
            data: d,
            end_stream: e,
        }) = self.events.back_mut()
        {
            if *s == stream && !*e {
                d.extend_from_slice(data);
                *e = end_stream;
                return;
            }
        }
        self.events.push_back(Event::Data {
            stream,
            data: data.to_vec(),
            end_stream,
        });
    }

    /// The server ended its side of `id`.
    fn remote_end(&mut self, id: StreamId) {
        if let Some(s) = self.streams.get_mut(&id.0) {
            match s.state.after_remote_end() {
                Some(next) => s.state = next,
                None => {
                    self.streams.remove(&id.0);
                }
            }
        }
    }

    fn recv_headers(&mut self, f: Headers<'_>) -> Result<(), Error> {
        let id = f.stream_id;
        // The server may not open streams: even ids would be pushed streams (push is disabled)
        // and odd ids above ours were never opened.
        if matches!(self.known(id), Known::Idle) {
            return Err(Error::conn(
                Kind::ServerOpenedStream,
                Reason::PROTOCOL_ERROR,
            ));
        }
        let limits = self.config.limits;
        if f.block.len() > limits.max_header_block_bytes {
            return Err(Error::conn(
                Kind::ContinuationFlood,
                Reason::ENHANCE_YOUR_CALM,
            ));
        }
        if !f.end_headers {
            self.continuation = Some(PartialBlock {
                stream: id,
                block: f.block.to_vec(),
                end_stream: f.end_stream,
                continuations: 0,
            });
            return Ok(());
        }
        self.header_block(id, f.block, f.end_stream)
    }

    fn recv_continuation(&mut self, f: Continuation<'_>) -> Result<(), Error> {
        // A CONTINUATION not preceded by HEADERS without END_HEADERS is a connection error.
        let Some(mut p) = self.continuation.take() else {
            return Err(Error::proto());
        };
        let limits = self.config.limits;
        p.continuations = p.continuations.saturating_add(1);
        let total = p.block.len().saturating_add(f.block.len());
        if p.continuations > limits.max_continuation_frames || total > limits.max_header_block_bytes
        {
            return Err(Error::conn(
                Kind::ContinuationFlood,
                Reason::ENHANCE_YOUR_CALM,
            ));
        }
        p.block.extend_from_slice(f.block);
        if !f.end_headers {
            self.continuation = Some(p);
            return Ok(());
        }
        self.header_block(p.stream, &p.block, p.end_stream)
    }

    /// A complete header block for `id`: decode (always, to keep HPACK in step), then apply.
    fn header_block(&mut self, id: StreamId, block: &[u8], end_stream: bool) -> Result<(), Error> {
        let decoded = self.decoder.decode(block);
        let fields = match decoded {
            Ok(f) => f,
            Err(e) if e.kind() == Kind::HeaderListTooLarge => {
                if self.streams.contains_key(&id.0) {
                    return self.reset_with_error(id, e.on_stream(id));
                }
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        if !self.streams.contains_key(&id.0) {
            // A closed stream: frames in flight after our reset are ignored (within a budget).
            self.counts
                .spend(Abuse::ClosedStreamFrame, &self.config.limits)?;
            return Ok(());
        }
        self.counts.progress();
        let Some(s) = self.streams.get_mut(&id.0) else {
            return Ok(());
        };
        if !s.state.remote_open() {
            return self
                .reset_with_error(id, Error::stream(id, Kind::Protocol, Reason::STREAM_CLOSED));
        }
        let malformed = Error::stream(id, Kind::MalformedResponse, Reason::PROTOCOL_ERROR);
        match s.phase {
            Phase::AwaitingHeaders => {
                let Some(head) = validate::response(fields) else {
                    return self.reset_with_error(id, malformed);
                };
                if (100..200).contains(&head.status) {
                    // Informational: more HEADERS follow; END_STREAM on one is malformed, and
                    // 101 does not exist in HTTP/2 (§8.6).
                    if end_stream || head.status == 101 {
                        return self.reset_with_error(id, malformed);
                    }
                } else {
                    s.phase = Phase::Body;
                    s.status = head.status;
                    s.content_length = head.content_length;
                    let no_body = s.is_head || head.status == 204 || head.status == 304;
                    if end_stream && !no_body && head.content_length.is_some_and(|c| c != 0) {
                        return self.reset_with_error(id, malformed);
                    }
                }
                self.events.push_back(Event::Headers {
                    stream: id,
                    status: head.status,
                    headers: head.headers,
                    end_stream,
                });
            }
            Phase::Body => {
                // Trailers: must end the stream and carry no pseudo-header.
                let cl_short = !s.is_head && s.content_length.is_some_and(|c| c != s.body_received);
                if !end_stream || !validate::trailers(&fields) || cl_short {
                    return self.reset_with_error(id, malformed);
                }
                let headers: Vec<Header> = fields;
                self.events.push_back(Event::Trailers {
                    stream: id,
                    headers,
                });
            }
        }
        if end_stream {
            self.remote_end(id);
        }
        Ok(())
    }

    fn recv_rst(&mut self, f: RstStream) -> Result<(), Error> {
        let id = f.stream_id;
        match self.known(id) {
            // "If a RST_STREAM frame identifying an idle stream is received, the recipient MUST
            // treat this as a connection error of type PROTOCOL_ERROR."
            Known::Idle => Err(Error::proto()),
            Known::Closed => self
                .counts
                .spend(Abuse::ClosedStreamFrame, &self.config.limits),
            Known::Open => {
                self.streams.remove(&id.0);
                let kind = if f.reason == Reason::REFUSED_STREAM {
                    Kind::Refused
                } else {
                    Kind::Reset
                };
                let error = Error::remote(kind, f.reason, Scope::Stream(id));
                self.events.push_back(Event::Reset { stream: id, error });
                Ok(())
            }
        }
    }

    fn recv_settings(&mut self, f: Settings) -> Result<(), Error> {
        if f.ack {
            // An ACK we did not ask for is a protocol error.
            self.settings_unacked = self
                .settings_unacked
                .checked_sub(1)
                .ok_or_else(Error::proto)?;
            self.apply_local_settings()?;
            self.events.push_back(Event::SettingsAcked);
            return Ok(());
        }
        self.counts.spend(Abuse::Settings, &self.config.limits)?;
        if f.values.len() > self.config.limits.max_settings_entries {
            return Err(Error::conn(Kind::SettingsFlood, Reason::ENHANCE_YOUR_CALM));
        }
        self.seen_server_settings = true;
        // "The values in the SETTINGS frame MUST be processed in the order they appear".
        for s in &f.values {
            self.apply_peer_setting(s.id, s.value)?;
        }
        Settings {
            ack: true,
            values: Vec::new(),
        }
        .encode(&mut self.out);
        self.events.push_back(Event::SettingsReceived);
        Ok(())
    }

    fn apply_peer_setting(&mut self, id: SettingId, value: u32) -> Result<(), Error> {
        match id {
            SettingId::HEADER_TABLE_SIZE => self.encoder.set_peer_limit(super::usize_of(value)),
            // "A client MUST treat receipt of a SETTINGS frame with SETTINGS_ENABLE_PUSH set to 1
            // as a connection error of type PROTOCOL_ERROR."
            SettingId::ENABLE_PUSH if value != 0 => {
                return Err(Error::conn(Kind::InvalidSetting, Reason::PROTOCOL_ERROR))
            }
            SettingId::MAX_CONCURRENT_STREAMS => self.peer.max_concurrent_streams = Some(value),
            SettingId::INITIAL_WINDOW_SIZE => {
                // "the receiver MUST adjust the size of all stream flow-control windows that it
                // maintains by the difference between the new value and the old value."
                let delta = i64::from(value).saturating_sub(i64::from(self.peer.initial_window));
                self.peer.initial_window = value;
                for s in self.streams.values_mut() {
                    s.send_window
                        .adjust(delta)
                        .map_err(|_| Error::conn(Kind::FlowControl, Reason::FLOW_CONTROL_ERROR))?;
                }
                if delta > 0 {
                    self.events.push_back(Event::WindowOpened {
                        stream: StreamId::CONNECTION,
                    });
                }
            }
            SettingId::MAX_FRAME_SIZE => self.peer.max_frame_size = value,
            SettingId::MAX_HEADER_LIST_SIZE => self.peer.max_header_list_size = Some(value),
            _ => {}
        }
        Ok(())
    }

    /// Our SETTINGS were acknowledged: the server now uses our values.
    fn apply_local_settings(&mut self) -> Result<(), Error> {
        let new = self.config.stream_window;
        let delta = i64::from(new).saturating_sub(i64::from(self.local_initial_window));
        self.local_initial_window = new;
        for s in self.streams.values_mut() {
            s.recv_window
                .adjust(delta)
                .map_err(|_| Error::conn(Kind::FlowControl, Reason::FLOW_CONTROL_ERROR))?;
        }
        self.decoder
            .set_table_size_limit(super::usize_of(self.config.header_table_size));
        Ok(())
    }

    fn recv_ping(&mut self, f: Ping) -> Result<(), Error> {
        if f.ack {
            if let Some(pos) = self.outstanding_pings.iter().position(|p| *p == f.payload) {
                self.outstanding_pings.remove(pos);
                self.events
                    .push_back(Event::PingAcked { payload: f.payload });
                return Ok(());
            }
            // An unsolicited PING ack costs us nothing to send, but is counted.
            return self.counts.spend(Abuse::Ping, &self.config.limits);
        }
        self.counts.spend(Abuse::Ping, &self.config.limits)?;
        // "Receivers of a PING frame that does not include an ACK flag MUST send a PING frame
        // with the ACK flag set in response, with an identical frame payload."
        Ping {
            ack: true,
            payload: f.payload,
        }
        .encode(&mut self.out);
        Ok(())
    }

    fn recv_goaway(&mut self, f: GoAway<'_>) -> Result<(), Error> {
        // "Endpoints MUST NOT increase the value they send in the last stream identifier".
        if let Some(prev) = self.goaway_received {
            if f.last_stream_id > prev {
                return Err(Error::proto());
            }
        }
        self.goaway_received = Some(f.last_stream_id);
        let refused: Vec<u32> = self
            .streams
            .range(f.last_stream_id.0.saturating_add(1)..)
            .map(|(k, _)| *k)
            .collect();
        for k in refused {
            self.streams.remove(&k);
            let id = StreamId(k);
            let error = Error::remote(Kind::Refused, f.reason, Scope::Stream(id));
            self.events.push_back(Event::Reset { stream: id, error });
        }
        let keep = f.debug_data.len().min(self.config.limits.max_goaway_debug);
        self.events.push_back(Event::GoAway {
            last_stream_id: f.last_stream_id,
            reason: f.reason,
            debug_data: f.debug_data.get(..keep).unwrap_or_default().to_vec(),
        });
        Ok(())
    }

    fn recv_window_update(&mut self, f: WindowUpdate) -> Result<(), Error> {
        let id = f.stream_id;
        if id.is_zero() {
            // "If a sender receives a WINDOW_UPDATE that causes a flow-control window to exceed
            // this maximum, it MUST terminate either the stream or the connection".
            self.conn_send
                .increase(f.increment)
                .map_err(|_| Error::conn(Kind::FlowControl, Reason::FLOW_CONTROL_ERROR))?;
            if !returns_credit(&mut self.conn_unreturned, f.increment) {
                self.counts
                    .spend(Abuse::WindowUpdate, &self.config.limits)?;
            }
            self.events.push_back(Event::WindowOpened { stream: id });
            return Ok(());
        }
        match self.known(id) {
            Known::Idle => Err(Error::proto()),
            Known::Closed => self
                .counts
                .spend(Abuse::ClosedStreamFrame, &self.config.limits),
            Known::Open => {
                let (overflow, returns) = match self.streams.get_mut(&id.0) {
                    Some(s) => (
                        s.send_window.increase(f.increment).is_err(),
                        returns_credit(&mut s.unreturned, f.increment),
                    ),
                    None => (false, true),
                };
                if overflow {
                    return self.reset_with_error(
                        id,
                        Error::stream(id, Kind::FlowControl, Reason::FLOW_CONTROL_ERROR),
                    );
                }
                if !returns {
                    self.counts
                        .spend(Abuse::WindowUpdate, &self.config.limits)?;
                }
                self.events.push_back(Event::WindowOpened { stream: id });
                Ok(())
            }
        }
    }

    /// Returns `n` bytes to the connection window (WINDOW_UPDATE once half the window is owed).
    pub(super) fn release_conn(&mut self, n: u32) {
        self.conn_release_pending = self.conn_release_pending.saturating_add(n);
        let threshold = self.config.connection_window.max(1) / 2;
        if self.conn_release_pending >= threshold && self.conn_release_pending > 0 {
            let inc = self.conn_release_pending;
            if self.conn_recv.increase(inc).is_ok() {
                WindowUpdate {
                    stream_id: StreamId::CONNECTION,
                    increment: inc,
                }
                .encode(&mut self.out);
                self.conn_release_pending = 0;
            }
        }
    }

    /// Returns `n` bytes to the stream's window and the connection's.
    pub(super) fn release(&mut self, id: StreamId, n: u32) {
        self.release_conn(n);
        let threshold = self.config.stream_window.max(1) / 2;
        let Some(s) = self.streams.get_mut(&id.0) else {
            return;
        };
        if !s.state.remote_open() {
            return;
        }
        s.release_pending = s.release_pending.saturating_add(n);
        if s.release_pending >= threshold && s.release_pending > 0 {
            let inc = s.release_pending;
            if s.recv_window.increase(inc).is_ok() {
                WindowUpdate {
                    stream_id: id,
                    increment: inc,
                }
                .encode(&mut self.out);
                s.release_pending = 0;
            }
        }
    }

    /// A new stream entry for a request we send.
    pub(super) fn new_stream(&self, is_head: bool, end_stream: bool) -> Stream {
        use super::stream::StreamState;
        Stream {
            state: if end_stream {
                StreamState::HalfClosedLocal
            } else {
                StreamState::Open
            },
            send_window: super::flow::Window::new(self.peer.initial_window),
            recv_window: super::flow::Window::new(self.local_initial_window),
            release_pending: 0,
            unconsumed: 0,
            unreturned: 0,
            phase: Phase::AwaitingHeaders,
            is_head,
            status: 0,
            content_length: None,
            body_received: 0,
        }
    }
}

/// A WINDOW_UPDATE of `increment` arrived for a window with `unreturned` bytes of our DATA not
/// yet given back: true when it gives some back (what a peer reading our body does); false for
/// one on a window already returned in full (counted: `Abuse::WindowUpdate`).
fn returns_credit(unreturned: &mut u64, increment: u32) -> bool {
    let returns = *unreturned > 0;
    *unreturned = unreturned.saturating_sub(u64::from(increment));
    returns
}
