//! Commands: requests, body data, trailers, resets, pings, releasing received data.

use super::stream::StreamState;
use super::{validate, Connection};
use crate::error::{Error, Kind, Reason};
use crate::frame::{Continuation, Data, GoAway, Headers, Ping, RstStream, StreamId, MAX_WINDOW};
use crate::hpack::Header;
use core::ops::Range;

/// Where [`Connection::send_data_lent`] left a DATA frame's payload to the caller: the next
/// `len` bytes of the caller's data go right after the first `at` bytes of the transmit
/// buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LentPayload {
    /// Offset in the transmit buffer (from its start) where the payload goes.
    pub at: usize,
    /// Payload length (at most the server's maximum frame size; never 0).
    pub len: usize,
}

impl Connection {
    /// Opens a stream with a request header block (pseudo-headers first: `:method`, `:scheme`,
    /// `:authority`, `:path`). With `end_stream` the request has no body.
    ///
    /// Refused (nothing sent) when the server's MAX_CONCURRENT_STREAMS is reached
    /// (`ConcurrencyLimit`: wait for a stream to finish), after a GOAWAY (`GoAway`), when the
    /// fields are invalid (`InvalidRequestHeaders`) or stream ids are exhausted.
    pub fn send_request(
        &mut self,
        headers: &[Header],
        end_stream: bool,
    ) -> Result<StreamId, Error> {
        self.check_open()?;
        if self.goaway_received.is_some() || self.goaway_sent {
            return Err(Error::user(Kind::GoAway));
        }
        let is_head =
            validate::request(headers).ok_or_else(|| Error::user(Kind::InvalidRequestHeaders))?;
        if !self.under_concurrency_limit() {
            return Err(Error::user(Kind::ConcurrencyLimit));
        }
        if self.next_stream_id > MAX_WINDOW {
            return Err(Error::user(Kind::StreamIdsExhausted));
        }
        let id = StreamId(self.next_stream_id);
        self.next_stream_id = self.next_stream_id.saturating_add(2);
        let stream = self.new_stream(is_head, end_stream);
        self.streams.insert(id.0, stream);
        self.write_header_block(id, headers, end_stream);
        Ok(id)
    }

    /// Sends trailer fields, ending our side of the stream.
    pub fn send_trailers(&mut self, id: StreamId, trailers: &[Header]) -> Result<(), Error> {
        self.check_open()?;
        let ok = trailers.iter().all(|h| h.name.first() != Some(&b':'))
            && validate::request_trailers(trailers);
        if !ok {
            return Err(Error::user(Kind::InvalidRequestHeaders));
        }
        self.local_stream(id)?;
        self.write_header_block(id, trailers, true);
        self.local_end(id);
        Ok(())
    }

    fn local_stream(&self, id: StreamId) -> Result<StreamState, Error> {
        match self.streams.get(&id.0) {
            Some(s) if s.state.local_open() => Ok(s.state),
            _ => Err(Error::user(Kind::UnknownStream)),
        }
    }

    /// HPACK-encodes `headers` and writes HEADERS (+ CONTINUATION) frames within the server's
    /// maximum frame size.
    fn write_header_block(&mut self, id: StreamId, headers: &[Header], end_stream: bool) {
        let mut block = Vec::new();
        self.encoder.encode(headers, &mut block);
        let max = super::usize_of(self.peer.max_frame_size).max(1);
        let mut chunks = block.chunks(max);
        let first = chunks.next().unwrap_or_default();
        let mut rest = chunks.peekable();
        Headers {
            stream_id: id,
            block: first,
            end_stream,
            end_headers: rest.peek().is_none(),
            priority: self.config.headers_priority,
            pad: None,
        }
        .encode(&mut self.out);
        while let Some(c) = rest.next() {
            Continuation {
                stream_id: id,
                block: c,
                end_headers: rest.peek().is_none(),
            }
            .encode(&mut self.out);
        }
    }

    /// Sends as much of `data` as the windows allow, in frames within the server's maximum frame
    /// size; returns how many bytes were taken. `end_stream` is applied only when all of `data`
    /// was taken (then our side of the stream is closed). When fewer bytes are taken, wait for
    /// `Event::WindowOpened` and send the rest.
    pub fn send_data(
        &mut self,
        id: StreamId,
        data: &[u8],
        end_stream: bool,
    ) -> Result<usize, Error> {
        self.frame_data(id, data.len(), end_stream, |out, taken| {
            out.extend_from_slice(data.get(taken).unwrap_or_default());
        })
    }

    /// [`send_data`](Self::send_data) without the payload: the same frames, the same windows
    /// and state, for `len` bytes of data the caller holds, but only the 9-byte DATA frame
    /// headers go into the transmit buffer. Each frame's payload is described in `lent` (one
    /// [`LentPayload`] per non-empty frame, appended in order): the caller sends the transmit
    /// buffer with the next `len` bytes of its data spliced in at `at`, which is then exactly
    /// what `send_data` would have queued. Returns how many bytes were taken (the first that
    /// many of the caller's data; the rest waits for `Event::WindowOpened`).
    ///
    /// `at` counts from the start of the transmit buffer, so keep the entries of every call
    /// until the bytes are taken with [`take_transmit`](Self::take_transmit) or
    /// [`swap_transmit`](Self::swap_transmit) (which start the buffer over), and splice them
    /// then; frames queued after a call (by other commands or by `handle_input`) come after
    /// its payloads, as they would with `send_data`.
    pub fn send_data_lent(
        &mut self,
        id: StreamId,
        len: usize,
        end_stream: bool,
        lent: &mut Vec<LentPayload>,
    ) -> Result<usize, Error> {
        self.frame_data(id, len, end_stream, |out, taken| {
            lent.push(LentPayload {
                at: out.len(),
                len: taken.len(),
            });
        })
    }

    /// The accounting and frame headers of `send_data` for `len` bytes; `payload` is called
    /// after each non-empty frame's header with the range of the data it carries.
    fn frame_data(
        &mut self,
        id: StreamId,
        len: usize,
        end_stream: bool,
        mut payload: impl FnMut(&mut Vec<u8>, Range<usize>),
    ) -> Result<usize, Error> {
        self.check_open()?;
        self.local_stream(id)?;
        let cap = self.send_capacity(id).min(len);
        let max = super::usize_of(self.peer.max_frame_size).max(1);
        let all = cap == len;
        if cap == 0 {
            if all && end_stream {
                Data {
                    stream_id: id,
                    data: &[],
                    end_stream: true,
                    pad: None,
                    flow_len: 0,
                }
                .encode(&mut self.out);
                self.local_end(id);
            }
            return Ok(0);
        }
        let mut start = 0;
        while start < cap {
            let end = start.saturating_add(max).min(cap);
            let last = end >= cap;
            let n = crate::frame::len24(end.saturating_sub(start));
            Data {
                stream_id: id,
                data: &[],
                end_stream: last && all && end_stream,
                pad: None,
                flow_len: n,
            }
            .encode_head(end.saturating_sub(start), &mut self.out);
            payload(&mut self.out, start..end);
            // Cannot fail: cap <= both windows.
            let _ = self.conn_send.consume(n);
            self.conn_unreturned = self.conn_unreturned.saturating_add(u64::from(n));
            if let Some(s) = self.streams.get_mut(&id.0) {
                let _ = s.send_window.consume(n);
                s.unreturned = s.unreturned.saturating_add(u64::from(n));
            }
            start = end;
        }
        if all && end_stream {
            self.local_end(id);
        }
        Ok(cap)
    }

    /// We ended our side of `id`.
    fn local_end(&mut self, id: StreamId) {
        if let Some(s) = self.streams.get_mut(&id.0) {
            match s.state.after_local_end() {
                Some(next) => s.state = next,
                None => {
                    self.streams.remove(&id.0);
                }
            }
        }
    }

    /// Cancels a stream (RST_STREAM with `reason`, e.g. `Reason::CANCEL`). Frames the server
    /// already sent for it are then ignored, as is the rest of a DATA frame of it that is
    /// part-way (its connection-window credit is given back now).
    pub fn reset(&mut self, id: StreamId, reason: Reason) -> Result<(), Error> {
        self.check_open()?;
        if self.streams.remove(&id.0).is_none() {
            return Err(Error::user(Kind::UnknownStream));
        }
        self.drop_data_in(id);
        RstStream {
            stream_id: id,
            reason,
        }
        .encode(&mut self.out);
        Ok(())
    }

    /// Sends a PING; `Event::PingAcked` reports the answer. At most
    /// `Limits::max_outstanding_pings` may be unanswered (else a `PingFlood` user error).
    pub fn ping(&mut self, payload: [u8; 8]) -> Result<(), Error> {
        self.check_open()?;
        if self.outstanding_pings.len() >= self.config.limits.max_outstanding_pings {
            return Err(Error::user(Kind::PingFlood));
        }
        self.outstanding_pings.push_back(payload);
        Ping {
            ack: false,
            payload,
        }
        .encode(&mut self.out);
        Ok(())
    }

    /// Starts a graceful shutdown: GOAWAY(NO_ERROR); no new requests, open streams go on.
    pub fn goaway(&mut self) {
        if !self.goaway_sent && self.error.is_none() {
            GoAway {
                last_stream_id: StreamId(0),
                reason: Reason::NO_ERROR,
                debug_data: &[],
            }
            .encode(&mut self.out);
            self.goaway_sent = true;
        }
    }

    /// The caller is done with `n` body bytes of `id` (delivered by `Event::Data` or to a
    /// [`super::DataSink`]): the windows
    /// reopen by that much (WINDOW_UPDATE frames once half a window is owed). Works for streams
    /// that have since closed (then only the connection window reopens).
    pub fn consume(&mut self, id: StreamId, n: usize) -> Result<(), Error> {
        self.check_open()?;
        let n64 = u64::try_from(n).unwrap_or(u64::MAX);
        if n64 > self.conn_unconsumed {
            return Err(Error::user(Kind::OverRelease));
        }
        if let Some(s) = self.streams.get_mut(&id.0) {
            if n64 > s.unconsumed {
                return Err(Error::user(Kind::OverRelease));
            }
            s.unconsumed = s.unconsumed.saturating_sub(n64);
        }
        self.conn_unconsumed = self.conn_unconsumed.saturating_sub(n64);
        let mut left = n;
        while left > 0 {
            let step = left.min(super::usize_of(MAX_WINDOW));
            self.release(id, u32::try_from(step).unwrap_or(MAX_WINDOW));
            left = left.saturating_sub(step);
        }
        Ok(())
    }
}
