//! A response whose head has arrived, and its body: read from the HTTP/1.1 connection (which
//! goes back to the pool once the body ends cleanly) or from the HTTP/2 stream, capped at
//! `max_body_bytes`, and decoded per `Content-Encoding` when the client asked for it.

use std::pin::pin;
use std::rc::Rc;

use burrow_h1::{Decoder, Event};

use super::Inner;
use crate::config::{ClientConfig, Decompress};
use crate::connect::{ConnInfo, Origin};
use crate::deadline::{Clock, Deadline};
use crate::error::Error;
use crate::h2::H2Conn;
use crate::message::{Request, ResponseMeta};
use crate::net::Net;
use crate::transport::Transport;

/// A response whose head has arrived; the body streams with [`Response::chunk`].
pub struct Response<N: Net> {
    /// Status code.
    pub status: u16,
    /// Header fields as received, in order (values decoded as UTF-8, lossily). Decoding the
    /// body changes none of them: `Content-Encoding` and `Content-Length` still say what the
    /// server sent (as the platform's `fetch` keeps `Content-Encoding`); whether the body
    /// handed out was decoded, and from what, is [`ResponseMeta::content_encoding`].
    pub headers: Vec<(String, String)>,
    /// The final URL (after redirects).
    pub url: url::Url,
    /// How the response was obtained.
    pub meta: ResponseMeta,
    body: ResponseBody<N>,
    decoding: Option<Decoding>,
    /// The chunk lent by `next_chunk`, reused.
    chunk: Vec<u8>,
}

/// A content decoder over the body.
struct Decoding {
    decoder: burrow_decode::Decoder,
    fed: bool,
    done: bool,
}

impl<N: Net> core::fmt::Debug for Response<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Response")
            .field("status", &self.status)
            .field("headers", &self.headers)
            .field("url", &self.url.as_str())
            .field("meta", &self.meta)
            .finish_non_exhaustive()
    }
}

impl<N: Net> Response<N> {
    /// A response with this head whose body comes from `body`, not decoded (yet).
    pub(super) fn new(
        status: u16,
        headers: Vec<(String, String)>,
        url: url::Url,
        meta: ResponseMeta,
        body: ResponseBody<N>,
    ) -> Response<N> {
        Response {
            status,
            headers,
            url,
            meta,
            body,
            decoding: None,
            chunk: Vec::new(),
        }
    }

    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The next piece of the body, lent from the response's own buffer (reused from chunk to
    /// chunk: no allocation per chunk); `None` at the end. A piece gathers what has arrived,
    /// up to about [`CHUNK_TARGET`] bytes, and never waits for more once it has some. Each
    /// wait for the peer lasts at most `deadlines.idle` (`TIMEOUT_IDLE`).
    ///
    /// Copies on the way here, per byte of body: none between the TLS record and this buffer
    /// but one — HTTP/1.1 bodies are framed over the plaintext where it was decrypted and
    /// copied into the chunk (only a chunk-size line or a head split across records is copied
    /// aside first); HTTP/2 DATA payloads are appended to the stream's buffer by the
    /// connection's driver, and that buffer is swapped in whole. A coded body is decoded
    /// straight from those bytes into the chunk.
    pub async fn next_chunk(&mut self) -> Result<Option<&[u8]>, Error> {
        loop {
            self.chunk.clear();
            let mut out = ChunkOut {
                chunk: &mut self.chunk,
                decoding: self.decoding.as_mut(),
            };
            let more = match &mut self.body {
                ResponseBody::H1(b) => b.fill(&mut out).await?,
                ResponseBody::H2(b) => b.fill(&mut out).await?,
            };
            if !more {
                if let Some(d) = self.decoding.as_mut().filter(|d| !d.done) {
                    d.done = true;
                    // An empty coded body (e.g. Content-Length: 0) has nothing to finish.
                    if d.fed {
                        d.decoder.finish(&mut self.chunk).map_err(Error::Decode)?;
                    }
                }
                return Ok((!self.chunk.is_empty()).then_some(self.chunk.as_slice()));
            }
            if !self.chunk.is_empty() {
                return Ok(Some(self.chunk.as_slice()));
            }
        }
    }

    /// [`next_chunk`](Self::next_chunk), owned (one allocation per chunk).
    pub async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        Ok(self.next_chunk().await?.map(<[u8]>::to_vec))
    }

    /// Sets up decoding per `decompress` (see [`crate::Decompress`]): whoever asked for the
    /// coding, burrow or the request.
    pub(super) fn decode_if_coded(
        &mut self,
        req: &Request,
        cfg: &ClientConfig,
    ) -> Result<(), Error> {
        let caller_asked = req
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("accept-encoding"));
        let no_body = req.method == "HEAD" || matches!(self.status, 204 | 304);
        if cfg.decompress != Decompress::Auto || no_body {
            return Ok(());
        }
        let coding: Vec<String> = self
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("content-encoding"))
            .map(|(_, v)| v.clone())
            .collect();
        if coding.is_empty() {
            return Ok(());
        }
        let coding = coding.join(", ");
        let codings = match burrow_decode::Coding::parse_list(&coding) {
            Ok(c) => c,
            // The request asked for codings of its own: one burrow cannot decode is theirs,
            // as sent (workerd's fetch hands on the codings it does not decode too).
            Err(_) if caller_asked => return Ok(()),
            Err(e) => return Err(Error::Decode(e)),
        };
        if codings.is_empty() {
            return Ok(());
        }
        // The headers stay as the server sent them; `meta.content_encoding` says the body is
        // decoded (so `Content-Length`, if any, counts the coded bytes, not the ones handed out).
        self.meta.content_encoding = Some(coding);
        self.decoding = Some(Decoding {
            decoder: burrow_decode::Decoder::new(&codings, cfg.max_body_bytes),
            fed: false,
            done: false,
        });
        Ok(())
    }

    /// The whole body (bounded by `max_body_bytes`).
    pub async fn bytes(&mut self) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        while let Some(c) = self.next_chunk().await? {
            out.extend_from_slice(c);
        }
        Ok(out)
    }
}

/// Body bytes gathered into one chunk, at most (about: a decoded piece may overshoot).
pub const CHUNK_TARGET: usize = 64 * 1024;

/// Where body bytes go: the chunk handed out, through the content decoder if there is one.
pub(super) struct ChunkOut<'a> {
    chunk: &'a mut Vec<u8>,
    decoding: Option<&'a mut Decoding>,
}

impl ChunkOut<'_> {
    fn push(&mut self, data: &[u8]) -> Result<(), Error> {
        match self.decoding.as_mut() {
            Some(d) => {
                d.fed |= !data.is_empty();
                d.decoder.decode(data, self.chunk).map_err(Error::Decode)
            }
            None => {
                self.chunk.extend_from_slice(data);
                Ok(())
            }
        }
    }

    /// Nothing gathered yet: the next read may wait for the peer.
    fn is_empty(&self) -> bool {
        self.chunk.is_empty()
    }

    fn is_full(&self) -> bool {
        self.chunk.len() >= CHUNK_TARGET
    }
}

/// Counts body bytes off the wire against `max_body_bytes`.
fn count_wire(wire: &mut u64, n: usize, limit: Option<u64>) -> Result<(), Error> {
    *wire = wire.saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
    match limit {
        Some(limit) if *wire > limit => Err(Error::BodyTooLarge { limit }),
        _ => Ok(()),
    }
}

/// Where the body's bytes come from.
pub(super) enum ResponseBody<N: Net> {
    H1(Box<H1Body<N>>),
    H2(H2Body<N>),
}

/// The rest of an HTTP/1.1 response: the connection, its decoder and what it had read past
/// the head.
pub(super) struct H1Body<N: Net> {
    client: Rc<Inner<N>>,
    origin: Origin,
    stream: Option<Transport<N::Stream>>,
    info: ConnInfo,
    decoder: Decoder,
    /// Bytes set aside: read with the head, or a chunk-size line or trailer split across
    /// records. Body bytes are otherwise framed where the TLS layer lent them.
    carry: Vec<u8>,
    /// The stream ended (the decoder was told how).
    eof: bool,
    done: bool,
    wire: u64,
    clock: Clock,
}

impl<N: Net> H1Body<N> {
    /// The body after a head decoded by `decoder` from `stream`, `carry` holding the bytes
    /// read past the head; the connection (to `origin`, described by `info`) is pooled at its
    /// end.
    pub(super) fn new(
        client: Rc<Inner<N>>,
        origin: Origin,
        stream: Transport<N::Stream>,
        info: ConnInfo,
        decoder: Decoder,
        carry: Vec<u8>,
        clock: Clock,
    ) -> H1Body<N> {
        H1Body {
            client,
            origin,
            stream: Some(stream),
            info,
            decoder,
            carry,
            eof: false,
            done: false,
            wire: 0,
            clock,
        }
    }

    /// Gathers body bytes into `out` (see [`Response::next_chunk`]); `false` at the end.
    async fn fill(&mut self, out: &mut ChunkOut<'_>) -> Result<bool, Error> {
        let r = self.fill_inner(out).await;
        if r.is_err() {
            self.done = true;
            self.stream = None;
        }
        r
    }

    async fn fill_inner(&mut self, out: &mut ChunkOut<'_>) -> Result<bool, Error> {
        let limit = self.client.config.max_body_bytes;
        loop {
            if self.done {
                return Ok(false);
            }
            if out.is_full() {
                return Ok(true);
            }
            // First what was set aside (read with the head, or a chunk-size line split
            // across records) — or nothing: the decoder may know the body has ended.
            let decoded = self.decoder.decode(&self.carry).map_err(Error::Http1)?;
            let consumed = decoded.consumed.min(self.carry.len());
            match decoded.event {
                Event::Data(range) => {
                    let data = self.carry.get(range).unwrap_or_default();
                    count_wire(&mut self.wire, data.len(), limit)?;
                    out.push(data)?;
                    self.carry.drain(..consumed);
                    continue;
                }
                Event::NeedData if self.eof => {
                    return Err(Error::HttpProtocol("the body ended without its framing"));
                }
                Event::NeedData if consumed < self.carry.len() => {
                    self.carry.drain(..consumed);
                    // Too little to decode: the next bytes join the carry.
                    match self.read(out.is_empty()).await? {
                        Read::Nothing => return Ok(true),
                        Read::Eof => {}
                        Read::Lent(n) => {
                            if let Some(s) = self.stream.as_mut() {
                                // `read` made them available: they are lent now.
                                let data = s.lent();
                                let n = n.min(data.len());
                                self.carry
                                    .extend_from_slice(data.get(..n).unwrap_or_default());
                                s.consume(n);
                            }
                        }
                    }
                    continue;
                }
                Event::NeedData => self.carry.clear(),
                other => {
                    self.carry.drain(..consumed);
                    let clean = self.carry.is_empty();
                    if let Some(more) = self.after(other, clean) {
                        return Ok(more);
                    }
                    continue;
                }
            }
            // The plaintext where it was decrypted, framed in place.
            let n = match self.read(out.is_empty()).await? {
                Read::Nothing => return Ok(true),
                Read::Eof => continue,
                Read::Lent(n) => n,
            };
            let H1Body {
                stream,
                decoder,
                carry,
                wire,
                ..
            } = self;
            let Some(stream) = stream.as_mut() else {
                continue;
            };
            // `read` made them available: they are lent now.
            let data = stream.lent().get(..n).unwrap_or_default();
            let len = data.len();
            let decoded = decoder.decode(data).map_err(Error::Http1)?;
            let consumed = decoded.consumed.min(data.len());
            let event = match decoded.event {
                Event::Data(range) => {
                    let piece = data.get(range).unwrap_or_default();
                    count_wire(wire, piece.len(), limit)?;
                    out.push(piece)?;
                    stream.consume(consumed);
                    continue;
                }
                Event::NeedData => {
                    // A partial chunk-size line or trailer: set the rest aside.
                    carry.extend_from_slice(data.get(consumed..).unwrap_or_default());
                    stream.consume(len);
                    continue;
                }
                other => other,
            };
            // Bytes after the response: the connection cannot be reused.
            let clean = len == consumed;
            stream.consume(consumed);
            if let Some(more) = self.after(event, clean) {
                return Ok(more);
            }
        }
    }

    /// End, Closed (or an event that needs nothing): `Some(more)` when the body is over.
    /// `clean`: nothing follows the response in what was read.
    fn after(&mut self, event: Event, clean: bool) -> Option<bool> {
        match event {
            Event::End { keep_alive } => {
                self.done = true;
                if let Some(stream) = self.stream.take() {
                    if keep_alive && clean {
                        self.client
                            .pool
                            .put_idle(self.origin.clone(), stream, self.info.clone());
                    }
                }
                Some(false)
            }
            Event::Closed => {
                self.done = true;
                self.stream = None;
                Some(false)
            }
            _ => None,
        }
    }

    /// Makes bytes available at `Transport::lent` (lent, not taken): waits for the peer only
    /// when `wait`. At the end of the stream tells the decoder how it ended.
    async fn read(&mut self, wait: bool) -> Result<Read, Error> {
        let allow_bare_close = self.client.config.allow_close_without_close_notify;
        let idle = self.client.config.deadlines.idle;
        let Some(stream) = self.stream.as_mut() else {
            return Err(Error::HttpProtocol("the body ended without its framing"));
        };
        let n = if wait {
            self.clock
                .run(
                    &self.client.net,
                    Deadline::Idle,
                    idle,
                    pin!(stream.fill_buf()),
                )
                .await?
                .map_err(io)?
                .len()
        } else if stream.buffered_ready() {
            // No future per record when nothing needs to wait (see `Transport::buffered_ready`).
            stream.lent().len()
        } else {
            stream.fill_buffered().await.map_err(io)?.len()
        };
        if n > 0 {
            return Ok(Read::Lent(n));
        }
        if !wait {
            return Ok(Read::Nothing);
        }
        self.eof = true;
        if stream.closure_authenticated() || allow_bare_close {
            self.decoder.receive_eof();
        } else {
            self.decoder.receive_unauthenticated_eof();
        }
        Ok(Read::Eof)
    }
}

/// What [`H1Body::read`] made available.
enum Read {
    /// Nothing has arrived (and the caller did not want to wait).
    Nothing,
    /// The stream ended.
    Eof,
    /// This many bytes are lent at `Transport::lent`.
    Lent(usize),
}

fn io(e: std::io::Error) -> Error {
    Error::from_io(e, Error::Io)
}

/// The rest of an HTTP/2 response: its stream on the shared connection (reset if dropped
/// before the end).
pub(super) struct H2Body<N: Net> {
    client: Rc<Inner<N>>,
    conn: H2Conn,
    id: u32,
    done: bool,
    wire: u64,
    clock: Clock,
    /// Coded bytes on their way to the decoder (the stream's buffer swapped in).
    raw: Vec<u8>,
}

impl<N: Net> H2Body<N> {
    /// The body of stream `id` on `conn`.
    pub(super) fn new(client: Rc<Inner<N>>, conn: H2Conn, id: u32, clock: Clock) -> H2Body<N> {
        H2Body {
            client,
            conn,
            id,
            done: false,
            wire: 0,
            clock,
            raw: Vec::new(),
        }
    }

    /// Gathers body bytes into `out` (see [`Response::next_chunk`]); `false` at the end.
    async fn fill(&mut self, out: &mut ChunkOut<'_>) -> Result<bool, Error> {
        if self.done {
            return Ok(false);
        }
        let r = self.fill_inner(out).await;
        if !matches!(r, Ok(true)) {
            self.done = true;
        }
        if r.is_err() {
            self.conn.cancel(self.id);
        }
        r
    }

    async fn fill_inner(&mut self, out: &mut ChunkOut<'_>) -> Result<bool, Error> {
        let net = &self.client.net;
        let idle = self.client.config.deadlines.idle;
        // Without decoding, the stream's buffer becomes the chunk; with it, it is decoded
        // from `raw` into the chunk.
        let direct = out.decoding.is_none();
        let buf = if direct {
            &mut *out.chunk
        } else {
            &mut self.raw
        };
        let more = self
            .clock
            .run(
                net,
                Deadline::Idle,
                idle,
                pin!(self.conn.take_data(self.id, buf)),
            )
            .await??;
        if !more {
            return Ok(false);
        }
        let n = if direct {
            out.chunk.len()
        } else {
            self.raw.len()
        };
        count_wire(&mut self.wire, n, self.client.config.max_body_bytes)?;
        if !direct {
            out.push(&self.raw)?;
        }
        Ok(true)
    }
}

impl<N: Net> Drop for H2Body<N> {
    fn drop(&mut self) {
        if !self.done {
            self.conn.cancel(self.id);
        }
    }
}
