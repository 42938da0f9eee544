//! HTTP/2 over burrow-h2: one driver task per connection owns the transport (spawned with
//! [`Net::spawn`]); requests and response bodies talk to it through shared state and wakers.
//!
//! The driver races a transport read against a "kick" (a request queued frames); a read that
//! loses the race is dropped, which is safe for the streams here: `TlsStream::fill_buf` takes
//! nothing until its inner read returns and never writes (so no record is cut on the wire),
//! and tokio's read and the Worker's are cancel-safe. After a read, the records already in
//! the buffer (the rest of that transport read) go to burrow-h2 one after another, without
//! the race and the queue check between them: they need no wait, so a kick waits at most for
//! what has already arrived. They are taken in one plain loop ([`drain_buffered`]: no future
//! built or polled, no borrow taken, per record) unless something must be awaited (an
//! offloaded open), then one at a time with `fill_buffered`.
//!
//! Body bytes: the driver hands burrow-h2 the TLS plaintext where it was decrypted
//! (`fill_buf`), and burrow-h2 lends each DATA payload to [`SlotSink`], which appends it to the
//! stream's body buffers (chunk-sized, never grown, so never moved by a reallocation) — the
//! one copy between the record and the response. The response takes the oldest buffer whole,
//! giving back its previous one ([`H2Conn::take_data`]); the connection keeps the spares, so
//! a warm connection allocates no buffer per frame, chunk or response. A reader is woken for
//! a whole chunk, the end, or once the records of a transport read are all handed over, and
//! takes no partial chunk before then: so a response comes out in chunks of what arrived, not
//! a chunk per record, even when every record's open is awaited (WebCrypto in the Worker).
//!
//! Request body bytes: the body (the request's `Vec`, or each streamed piece as the
//! `BodySource` gave it) is queued whole in its stream's [`Slot`] (`to_send`, at most
//! [`H2_SEND_BUFFER`] bytes ahead of the windows), never joined. [`Shared::pump`] frames it
//! with `Connection::send_data_lent`: only the 9-byte DATA heads go into burrow-h2's transmit
//! buffer, the payloads become [`Splice`]s pointing into the queued buffers. The driver takes
//! both out of the shared state (no borrow across the write) and makes one gather write
//! (`NetStream::write_all_parts`) of the frames with the payloads in place; `TlsStream` fills
//! its records straight from those parts — the one copy between the caller's buffer and the
//! sealed record. Plain h2c joins the parts instead (one copy, then the transport's). A
//! `Body::Bytes` body is shared with the request (`Rc`, which keeps it to replay for a
//! redirect or retry), not copied.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::ops::Range;
use std::pin::pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Poll, Waker};

use burrow_h2::{Connection, DataSink, Event, Header, LentPayload, StreamId};

use crate::deadline::race;
use crate::error::Error;
use crate::net::NetStream;
use crate::profile::PseudoHeader;
use crate::transport::Transport;

/// Per-stream receive window: the most body bytes a server may send ahead of the reader (so
/// also the most buffered per stream). Large, because each WINDOW_UPDATE is a small write that
/// proxies without TCP_NODELAY (tinyproxy, microsocks) hold back ~40 ms: with the 64 KiB
/// default a 4 MiB body took seconds through them.
pub const H2_STREAM_WINDOW: u32 = 1024 * 1024;

/// Streamed request body bytes queued for a stream before the sender waits for the windows.
pub const H2_SEND_BUFFER: usize = 256 * 1024;

/// Connection receive window (bounds buffered body bytes across all streams).
pub const H2_CONNECTION_WINDOW: u32 = 4 * 1024 * 1024;

/// Why a connection ended, kept so every stream can report it.
type Dead = Arc<Error>;

#[derive(Default)]
struct Slot {
    head: Option<(u16, Vec<(String, String)>)>,
    /// Body bytes received and not yet taken by the response: buffers of at most
    /// [`crate::CHUNK_TARGET`] bytes each, filled in order.
    data: VecDeque<Vec<u8>>,
    end: bool,
    error: Option<burrow_h2::Error>,
    waker: Option<Waker>,
    /// Request body bytes not yet taken by the flow-control windows: the buffers the caller
    /// gave (the whole body, or each streamed piece), in order, never copied or joined; the
    /// first from `sent` on.
    to_send: VecDeque<Rc<Vec<u8>>>,
    /// Bytes of the first buffer of `to_send` already framed.
    sent: usize,
    /// Bytes of `to_send` not yet framed.
    queued: usize,
    /// A streamed body has more pieces to come.
    body_open: bool,
    /// Body bytes arrived that the reader has not been woken for (see [`SlotSink`]).
    held: bool,
    /// END_STREAM went out (our side of the stream is closed).
    ended: bool,
}

pub(crate) struct Shared {
    conn: Connection,
    /// By stream id. Looked up for every DATA piece; a B-tree of a few entries finds it
    /// without hashing (SipHash was 13 % of the per-record instructions of the h2 path
    /// outside the AEAD and the copies, by callgrind), as burrow-h2's own stream map does.
    slots: BTreeMap<u32, Slot>,
    driver: Option<Waker>,
    kick: bool,
    dead: Option<Dead>,
    /// The client is gone: end the connection once no response is being read.
    shutdown: bool,
    /// Body buffers given back by responses, reused for the next DATA (see [`append`]).
    spare: Vec<Vec<u8>>,
    /// Request body bytes framed (their DATA heads are in the connection's transmit buffer)
    /// and not yet written, with where each goes in that buffer.
    splices: Vec<Splice>,
    /// Scratch for `send_data_lent`.
    lent: Vec<LentPayload>,
    /// Some slot is `held`: its reader is woken before the driver next waits for the peer.
    held: bool,
}

/// A request body piece that goes on the wire from the caller's buffer: `buf[range]` follows
/// the first `at` bytes of the transmit buffer (a DATA frame's head). The buffer is shared
/// with the stream's queue while the rest of it waits for the windows.
struct Splice {
    at: usize,
    buf: Rc<Vec<u8>>,
    range: Range<usize>,
}

impl Slot {
    /// Queues a body buffer (an empty one is nothing).
    fn queue(&mut self, buf: Vec<u8>) {
        self.queue_shared(Rc::new(buf));
    }

    /// Queues a buffer the request keeps too (a `Body::Bytes` body, replayable).
    fn queue_shared(&mut self, buf: Rc<Vec<u8>>) {
        if !buf.is_empty() {
            self.queued = self.queued.saturating_add(buf.len());
            self.to_send.push_back(buf);
        }
    }

    /// The next `p.len` queued bytes were framed at `p.at`: they become splices.
    fn frame(&mut self, p: LentPayload, splices: &mut Vec<Splice>) {
        let mut left = p.len;
        while left > 0 {
            let Some(buf) = self.to_send.front() else {
                return;
            };
            let end = buf.len().min(self.sent.saturating_add(left));
            left = left.saturating_sub(end.saturating_sub(self.sent));
            splices.push(Splice {
                at: p.at,
                buf: Rc::clone(buf),
                range: self.sent..end,
            });
            if end >= buf.len() {
                self.to_send.pop_front();
                self.sent = 0;
            } else {
                self.sent = end;
            }
        }
    }
}

/// Spare body buffers kept per connection: a stream window's worth (1 MiB).
#[allow(
    clippy::as_conversions,
    reason = "a u32 widens into usize on every target burrow builds for; const has no try_from"
)]
const MAX_SPARE: usize = (H2_STREAM_WINDOW as usize) / crate::CHUNK_TARGET;

/// Appends body bytes to a stream's buffers. Each holds at most a chunk and is never grown
/// past it, so bytes are copied once and never moved by a reallocation; a buffer comes from
/// the connection's spares when there is one (no allocation once warm).
fn append(queue: &mut VecDeque<Vec<u8>>, spare: &mut Vec<Vec<u8>>, mut data: &[u8]) {
    while !data.is_empty() {
        let full = queue.back().is_none_or(|b| b.len() >= crate::CHUNK_TARGET);
        if full {
            let mut b = spare.pop().unwrap_or_default();
            b.clear();
            b.reserve_exact(crate::CHUNK_TARGET);
            queue.push_back(b);
        }
        let Some(b) = queue.back_mut() else {
            return;
        };
        let n = crate::CHUNK_TARGET.saturating_sub(b.len()).min(data.len());
        let (now, rest) = data.split_at(n);
        b.extend_from_slice(now);
        data = rest;
    }
}

/// Keeps a body buffer for reuse, if it is chunk-sized and there is room.
fn recycle(spare: &mut Vec<Vec<u8>>, b: Vec<u8>) {
    if b.capacity() >= crate::CHUNK_TARGET && spare.len() < MAX_SPARE {
        spare.push(b);
    }
}

/// A handle on one HTTP/2 connection (cheap to clone).
#[derive(Clone)]
pub(crate) struct H2Conn {
    shared: Rc<RefCell<Shared>>,
}

impl Shared {
    fn kick(&mut self) {
        self.kick = true;
        if let Some(w) = self.driver.take() {
            w.wake();
        }
    }

    /// Wakes the readers of body bytes held back while records were being handed over.
    fn wake_held(&mut self) {
        if !std::mem::take(&mut self.held) {
            return;
        }
        for slot in self.slots.values_mut().filter(|s| s.held) {
            slot.held = false;
            if let Some(w) = slot.waker.take() {
                w.wake();
            }
        }
    }

    fn fail_all(&mut self, dead: Dead) {
        self.dead = Some(dead);
        for slot in self.slots.values_mut() {
            if let Some(w) = slot.waker.take() {
                w.wake();
            }
        }
    }

    /// Moves pending request bodies into frames as far as the windows allow: the DATA heads
    /// go into the transmit buffer, the payloads stay in the caller's buffers as splices.
    fn pump(&mut self) {
        let ids: Vec<u32> = self
            .slots
            .iter()
            .filter(|(_, s)| !s.ended && (s.queued > 0 || !s.body_open))
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            let Some(slot) = self.slots.get_mut(&id) else {
                continue;
            };
            let end = !slot.body_open;
            self.lent.clear();
            match self
                .conn
                .send_data_lent(StreamId(id), slot.queued, end, &mut self.lent)
            {
                Ok(n) => {
                    for p in &self.lent {
                        slot.frame(*p, &mut self.splices);
                    }
                    slot.queued = slot.queued.saturating_sub(n);
                    if slot.queued == 0 {
                        slot.ended = end;
                    }
                    // A streaming sender may be waiting for room.
                    if let Some(w) = slot.waker.take() {
                        w.wake();
                    }
                }
                Err(e) => {
                    slot.error = Some(e);
                    slot.to_send.clear();
                    slot.sent = 0;
                    slot.queued = 0;
                    if let Some(w) = slot.waker.take() {
                        w.wake();
                    }
                }
            }
        }
    }

    fn dispatch(&mut self) {
        while let Some(ev) = self.conn.poll_event() {
            let stream = match &ev {
                Event::Headers { stream, .. }
                | Event::Data { stream, .. }
                | Event::Trailers { stream, .. }
                | Event::Reset { stream, .. } => *stream,
                _ => continue,
            };
            let Some(slot) = self.slots.get_mut(&stream.0) else {
                // A stream we gave up on: give its bytes' credit back to the connection
                // window, or the connection would slowly choke.
                if let Event::Data { data, .. } = &ev {
                    let _ = self.conn.consume(stream, data.len());
                }
                continue;
            };
            match ev {
                Event::Headers {
                    status,
                    headers,
                    end_stream,
                    ..
                } => {
                    if !(100..200).contains(&status) {
                        let fields = headers
                            .into_iter()
                            .map(|h| {
                                (
                                    String::from_utf8_lossy(&h.name).into_owned(),
                                    String::from_utf8_lossy(&h.value).into_owned(),
                                )
                            })
                            .collect();
                        slot.head = Some((status, fields));
                    }
                    slot.end |= end_stream;
                }
                // Not made by `handle_input_with` (the sink gets the bytes); kept for
                // completeness.
                Event::Data {
                    data, end_stream, ..
                } => {
                    append(&mut slot.data, &mut self.spare, &data);
                    slot.end |= end_stream;
                }
                Event::Trailers { .. } => slot.end = true,
                Event::Reset { error, .. } => slot.error = Some(error),
                _ => {}
            }
            if let Some(w) = slot.waker.take() {
                w.wake();
            }
        }
    }
}

impl H2Conn {
    /// Starts a connection over `stream`; returns the handle and the driver future to spawn.
    pub(crate) fn start<S: NetStream>(
        stream: Transport<S>,
        config: burrow_h2::Config,
    ) -> (H2Conn, impl std::future::Future<Output = ()>) {
        let shared = Rc::new(RefCell::new(Shared {
            conn: Connection::new(config),
            slots: BTreeMap::new(),
            spare: Vec::new(),
            splices: Vec::new(),
            lent: Vec::new(),
            held: false,
            driver: None,
            kick: true,
            dead: None,
            shutdown: false,
        }));
        let driver = drive(Rc::clone(&shared), stream);
        (H2Conn { shared }, driver)
    }

    /// Whether a new request can go on this connection.
    pub(crate) fn usable(&self) -> bool {
        let s = self.shared.borrow();
        s.dead.is_none() && s.conn.can_open_stream()
    }

    /// Opens a stream for the request; the driver sends it. `streaming`: more body follows
    /// through [`H2Conn::push`] and [`H2Conn::finish_body`].
    pub(crate) fn send(
        &self,
        headers: &[Header],
        body: Rc<Vec<u8>>,
        streaming: bool,
    ) -> Result<u32, Error> {
        let mut s = self.shared.borrow_mut();
        if let Some(d) = &s.dead {
            return Err(Error::ConnectionFailed(Arc::clone(d)));
        }
        let end = body.is_empty() && !streaming;
        let id = s.conn.send_request(headers, end).map_err(Error::H2)?;
        let mut slot = Slot {
            body_open: streaming,
            ended: end,
            ..Slot::default()
        };
        slot.queue_shared(body);
        s.slots.insert(id.0, slot);
        s.pump();
        s.kick();
        Ok(id.0)
    }

    /// Queues a piece of a streamed body (kept as it is until written: no copy); waits while
    /// more than [`H2_SEND_BUFFER`] bytes are queued.
    pub(crate) async fn push(&self, id: u32, piece: Vec<u8>) -> Result<(), Error> {
        {
            let mut s = self.shared.borrow_mut();
            let slot = s
                .slots
                .get_mut(&id)
                .ok_or(Error::HttpProtocol("the HTTP/2 stream vanished"))?;
            slot.queue(piece);
            s.pump();
            s.kick();
        }
        std::future::poll_fn(|cx| {
            let mut s = self.shared.borrow_mut();
            let dead = s.dead.clone();
            let Some(slot) = s.slots.get_mut(&id) else {
                return Poll::Ready(Err(Error::HttpProtocol("the HTTP/2 stream vanished")));
            };
            if let Some(e) = slot.error {
                return Poll::Ready(Err(Error::H2(e)));
            }
            if let Some(d) = dead {
                return Poll::Ready(Err(Error::ConnectionFailed(d)));
            }
            if slot.queued <= H2_SEND_BUFFER {
                return Poll::Ready(Ok(()));
            }
            slot.waker = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }

    /// The streamed body is complete: END_STREAM follows the queued bytes.
    pub(crate) fn finish_body(&self, id: u32) {
        let mut s = self.shared.borrow_mut();
        if let Some(slot) = s.slots.get_mut(&id) {
            slot.body_open = false;
        }
        s.pump();
        s.kick();
    }

    fn check(&self, id: u32) -> Result<(), Error> {
        let s = self.shared.borrow();
        if let Some(e) = s.slots.get(&id).and_then(|slot| slot.error) {
            return Err(Error::H2(e));
        }
        Ok(())
    }

    /// Waits for the response head of stream `id`.
    pub(crate) async fn head(&self, id: u32) -> Result<(u16, Vec<(String, String)>), Error> {
        std::future::poll_fn(|cx| {
            let mut s = self.shared.borrow_mut();
            let dead = s.dead.clone();
            let Some(slot) = s.slots.get_mut(&id) else {
                return Poll::Ready(Err(Error::HttpProtocol("the HTTP/2 stream vanished")));
            };
            if let Some(head) = slot.head.take() {
                return Poll::Ready(Ok(head));
            }
            if let Some(e) = slot.error {
                return Poll::Ready(Err(Error::H2(e)));
            }
            if slot.end {
                return Poll::Ready(Err(Error::HttpProtocol(
                    "the HTTP/2 stream ended without a response",
                )));
            }
            if let Some(d) = dead {
                return Poll::Ready(Err(Error::ConnectionFailed(d)));
            }
            slot.waker = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }

    /// Waits for body bytes of stream `id` and swaps them into `buf` (whose old contents are
    /// dropped; its allocation becomes the stream's next buffer). `false` at the end of the
    /// body. Releases flow-control credit for what it hands out (backpressure: an unread body
    /// stops the server).
    pub(crate) async fn take_data(&self, id: u32, buf: &mut Vec<u8>) -> Result<bool, Error> {
        self.check(id)?;
        std::future::poll_fn(|cx| {
            let mut s = self.shared.borrow_mut();
            let dead = s.dead.clone();
            let Some(slot) = s.slots.get_mut(&id) else {
                return Poll::Ready(Ok(false));
            };
            // While the driver is still handing over the records of one read, a partial chunk
            // waits for the rest of them (it is woken by `wake_held` before the driver waits).
            // A reader polled unwoken meanwhile (the Worker's `next()` polls at once) would
            // otherwise take each record alone.
            let chunk_ready = slot
                .data
                .front()
                .is_some_and(|b| b.len() >= crate::CHUNK_TARGET);
            let rest_coming =
                slot.held && !chunk_ready && !slot.end && slot.error.is_none() && dead.is_none();
            if let Some(mut piece) = (!rest_coming).then(|| slot.data.pop_front()).flatten() {
                // The response's previous buffer goes back to the spares.
                std::mem::swap(buf, &mut piece);
                recycle(&mut s.spare, piece);
                let n = buf.len();
                // Credit can only fail on a dead connection; the bytes are good either way.
                let _ = s.conn.consume(StreamId(id), n);
                // The driver has work only if that queued a WINDOW_UPDATE; a kick for nothing
                // costs it a turn and drops its read (most chunks release too little credit
                // for an update).
                if s.conn.wants_write() {
                    s.kick();
                }
                return Poll::Ready(Ok(true));
            }
            if let Some(e) = slot.error {
                return Poll::Ready(Err(Error::H2(e)));
            }
            if slot.end {
                s.slots.remove(&id);
                return Poll::Ready(Ok(false));
            }
            if let Some(d) = dead {
                return Poll::Ready(Err(Error::ConnectionFailed(d)));
            }
            slot.waker = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }

    /// The client is dropped: close the connection (GOAWAY) once its streams are done.
    pub(crate) fn shut_down(&self) {
        let mut s = self.shared.borrow_mut();
        s.shutdown = true;
        s.kick();
    }

    /// The response is abandoned: reset the stream so the server stops sending.
    pub(crate) fn cancel(&self, id: u32) {
        let mut s = self.shared.borrow_mut();
        if let Some(slot) = s.slots.remove(&id) {
            if s.dead.is_none() {
                // Unread bytes still hold connection-window credit: release it.
                let unread = slot.data.iter().map(Vec::len).sum();
                let _ = s.conn.consume(StreamId(id), unread);
                for b in slot.data {
                    recycle(&mut s.spare, b);
                }
                let _ = s.conn.reset(StreamId(id), burrow_h2::Reason::CANCEL);
                s.kick();
            }
        }
    }
}

/// Lends DATA payloads to the streams' body buffers, during `handle_input_with`.
struct SlotSink<'a> {
    slots: &'a mut BTreeMap<u32, Slot>,
    spare: &'a mut Vec<Vec<u8>>,
    /// Set when a slot got bytes its reader has not been woken for (`Shared::held`).
    held: &'a mut bool,
    /// Bytes of streams given up on: their credit goes back once the call is over.
    orphans: Vec<(StreamId, usize)>,
}

impl DataSink for SlotSink<'_> {
    fn data(&mut self, stream: StreamId, data: &[u8], end_stream: bool) {
        let Some(slot) = self.slots.get_mut(&stream.0) else {
            self.orphans.push((stream, data.len()));
            return;
        };
        append(&mut slot.data, self.spare, data);
        slot.end |= end_stream;
        // The reader is woken for a whole chunk or the end; for less, once the driver has
        // handed over everything already received (`Shared::wake_held`), so it takes chunks,
        // not records. Woken per piece, it ran between the records of one transport read
        // whenever their opens were awaited (WebCrypto in the Worker) and took each record
        // alone: four times the chunks, each a trip out to JavaScript.
        let chunk_ready = slot
            .data
            .front()
            .is_some_and(|b| b.len() >= crate::CHUNK_TARGET);
        if end_stream || chunk_ready {
            if let Some(w) = slot.waker.take() {
                w.wake();
            }
        } else {
            slot.held = true;
            *self.held = true;
        }
    }
}

impl Shared {
    /// Feeds the server's bytes; body bytes go straight to the streams' buffers.
    fn receive(&mut self, bytes: &[u8]) -> Result<(), burrow_h2::Error> {
        let mut sink = SlotSink {
            slots: &mut self.slots,
            spare: &mut self.spare,
            held: &mut self.held,
            orphans: Vec::new(),
        };
        let r = self.conn.handle_input_with(bytes, &mut sink);
        // A stream we gave up on: give its bytes' credit back to the connection window, or
        // the connection would slowly choke.
        for (id, n) in sink.orphans {
            let _ = self.conn.consume(id, n);
        }
        self.dispatch();
        r
    }
}

impl Shared {
    /// The server broke the protocol: every stream fails, and the last words (the GOAWAY
    /// burrow-h2 queued, after any frames still unwritten) are what to write.
    fn failed(&mut self, e: burrow_h2::Error) -> (Vec<u8>, Vec<Splice>) {
        self.fail_all(Arc::new(Error::H2(e)));
        let mut last = Vec::new();
        let splices = self.take_flight(&mut last);
        (last, splices)
    }

    /// Takes what is to be written: the transmit buffer (swapped into `out`) and the body
    /// pieces to splice into it.
    fn take_flight(&mut self, out: &mut Vec<u8>) -> Vec<Splice> {
        self.conn.swap_transmit(out);
        std::mem::take(&mut self.splices)
    }
}

/// Writes `out` with the splices' body bytes in place, as one gather write: over TLS each
/// body byte is copied once, into the record buffer (see the module docs).
async fn write_flight<S: NetStream>(
    stream: &mut Transport<S>,
    out: &[u8],
    splices: &[Splice],
) -> std::io::Result<()> {
    if splices.is_empty() {
        return stream.write_all(out).await;
    }
    stream.write_all_parts(&flight_parts(out, splices)).await
}

/// The flight's bytes in order: `out` with each splice's body bytes at its place.
fn flight_parts<'a>(out: &'a [u8], splices: &'a [Splice]) -> Vec<&'a [u8]> {
    let mut parts: Vec<&[u8]> =
        Vec::with_capacity(splices.len().saturating_mul(2).saturating_add(1));
    let mut at = 0;
    for sp in splices {
        parts.push(out.get(at..sp.at).unwrap_or_default());
        parts.push(sp.buf.get(sp.range.clone()).unwrap_or_default());
        at = sp.at;
    }
    parts.push(out.get(at..).unwrap_or_default());
    parts
}

/// Hands burrow-h2 the records already buffered (the rest of one transport read) one after
/// another, under one borrow of the shared state and without a future or a turn of the
/// driver's loop each. `Ok(true)`: nothing whole is left (or the stream ended); `Ok(false)`:
/// the next record needs an await (`fill_buffered`).
fn drain_buffered<S: NetStream>(
    shared: &RefCell<Shared>,
    stream: &mut Transport<S>,
) -> Result<bool, burrow_h2::Error> {
    let mut s = shared.borrow_mut();
    while stream.buffered_ready() {
        let data = stream.lent();
        if data.is_empty() {
            return Ok(true);
        }
        let n = data.len();
        s.receive(data)?;
        stream.consume(n);
    }
    Ok(false)
}

async fn drive<S: NetStream>(shared: Rc<RefCell<Shared>>, mut stream: Transport<S>) {
    // Frames to write, swapped with the connection's buffer (both allocations are reused),
    // and the body pieces that go between them.
    let mut out = Vec::new();
    let mut splices;
    // Records already buffered (the rest of one transport read) are handed to the connection
    // one after another, without the queue check and race between them: they need no wait.
    let mut draining = false;
    loop {
        // The server broke the protocol while buffered records were handed over.
        let mut broken = None;
        let read = if draining {
            // Without a future or a turn of this loop per record when nothing needs to wait
            // (inline AEAD); an awaited open (offload) comes back here one record at a time.
            let drained = drain_buffered(&shared, &mut stream);
            match drained {
                Ok(true) => {
                    draining = false;
                    continue;
                }
                Ok(false) => match stream.fill_buffered().await {
                    Ok([]) => {
                        draining = false;
                        continue;
                    }
                    r => Some(r),
                },
                Err(e) => {
                    broken = Some(shared.borrow_mut().failed(e));
                    None
                }
            }
        } else {
            let finished = {
                let mut s = shared.borrow_mut();
                // Everything received so far is handed over: readers of a partial chunk go
                // now, before anything here can wait.
                s.wake_held();
                // Nobody can use this connection any more: the client is gone (or only this
                // driver holds the state) and no response is being read.
                let finished = (s.shutdown || Rc::strong_count(&shared) == 1) && s.slots.is_empty();
                if finished {
                    s.conn.goaway();
                }
                s.pump();
                s.kick = false;
                splices = s.take_flight(&mut out);
                if finished {
                    // The spare body buffers (up to a stream window's worth) go now.
                    s.spare = Vec::new();
                }
                finished
            };
            if finished {
                // Nothing below needs the shared state: let it go before the farewell, which
                // may never complete (in a Worker, a request that has ended leaves its
                // promises unsettled, and this task with them).
                drop(shared);
                // Best effort: GOAWAY and close_notify (one write), then the driver ends.
                stream.farewell();
                let _ = stream.close_after(&flight_parts(&out, &splices)).await;
                return;
            }
            if !out.is_empty() {
                // No borrow of the shared state is held across the write; the splices keep
                // their buffers alive until it is done.
                let written = write_flight(&mut stream, &out, &splices).await;
                splices.clear();
                if let Err(e) = written {
                    let e = Error::from_io(e, Error::Io);
                    shared.borrow_mut().fail_all(Arc::new(e));
                    return;
                }
                continue;
            }
            let kicked = std::future::poll_fn(|cx| {
                let mut s = shared.borrow_mut();
                if s.kick {
                    return Poll::Ready(());
                }
                s.driver = Some(cx.waker().clone());
                Poll::Pending
            });
            race(pin!(stream.fill_buf()), pin!(kicked)).await
        };
        let mut used = 0;
        // The last words (a GOAWAY the library queued, after any frames still unwritten)
        // when the connection must end.
        let goodbye: Option<(Vec<u8>, Vec<Splice>)> = if broken.is_some() {
            broken
        } else {
            let mut s = shared.borrow_mut();
            match read {
                None => None,
                Some(Ok([])) => {
                    s.fail_all(Arc::new(Error::Io(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "the server closed the HTTP/2 connection",
                    ))));
                    Some((Vec::new(), Vec::new()))
                }
                Some(Ok(data)) => {
                    used = data.len();
                    match s.receive(data) {
                        Ok(()) => None,
                        Err(e) => Some(s.failed(e)),
                    }
                }
                Some(Err(e)) => {
                    let e = Error::from_io(e, Error::Io);
                    s.fail_all(Arc::new(e));
                    Some((Vec::new(), Vec::new()))
                }
            }
        };
        stream.consume(used);
        draining = used > 0;
        if let Some((out, splices)) = goodbye {
            if !out.is_empty() {
                // Best effort: the connection is finished either way.
                drop(shared);
                stream.farewell();
                let _ = write_flight(&mut stream, &out, &splices).await;
            }
            return;
        }
    }
}

/// The request header block: pseudo-headers, then the caller's fields lower-cased, without
/// the HTTP/1.1 connection-specific ones (RFC 9113 §8.2.2).
pub(crate) fn request_headers(
    order: &[PseudoHeader; 4],
    method: &str,
    scheme: &str,
    authority: &str,
    path: &str,
    fields: &[(String, String)],
) -> Vec<Header> {
    let mut out: Vec<Header> = order
        .iter()
        .map(|p| match p {
            PseudoHeader::Method => Header::new(":method", method),
            PseudoHeader::Scheme => Header::new(":scheme", scheme),
            PseudoHeader::Authority => Header::new(":authority", authority),
            PseudoHeader::Path => Header::new(":path", path),
        })
        .collect();
    for (n, v) in fields {
        let n = n.to_ascii_lowercase();
        if matches!(
            n.as_str(),
            "connection"
                | "keep-alive"
                | "proxy-connection"
                | "transfer-encoding"
                | "upgrade"
                | "host"
        ) || (n == "te" && !v.eq_ignore_ascii_case("trailers"))
        {
            continue;
        }
        out.push(Header::new(n, v.as_str()));
    }
    out
}
