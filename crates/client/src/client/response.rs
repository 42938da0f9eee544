//! A response whose head has arrived, and its body: read from the HTTP/1.1 connection (which
//! goes back to the pool once the body ends cleanly) or from the HTTP/2 stream, capped at
//! `max_body_bytes`, and decoded per `Content-Encoding` when the client asked for it.

use std::rc::Rc;

use burrow_h1::{Decoder, Event};

use super::{Inner, READ_CHUNK};
use crate::config::{ClientConfig, Decompress};
use crate::connect::{ConnInfo, Origin};
use crate::deadline::Clock;
use crate::error::{Error, Phase};
use crate::h2::H2Conn;
use crate::message::{Request, ResponseMeta};
use crate::net::{Net, NetStream};
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
        }
    }

    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The next piece of the body as it arrives; `None` at the end. Each read waits at most
    /// `deadlines.idle` (`TIMEOUT_IDLE`).
    pub async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        loop {
            let raw = match &mut self.body {
                ResponseBody::H1(b) => b.chunk().await?,
                ResponseBody::H2(b) => b.chunk().await?,
            };
            let Some(d) = self.decoding.as_mut() else {
                return Ok(raw);
            };
            let mut out = Vec::new();
            match raw {
                Some(coded) => {
                    d.fed = true;
                    d.decoder.decode(&coded, &mut out).map_err(Error::Decode)?;
                    if !out.is_empty() {
                        return Ok(Some(out));
                    }
                }
                None if d.done => return Ok(None),
                None => {
                    d.done = true;
                    // An empty coded body (e.g. Content-Length: 0) has nothing to finish.
                    if d.fed {
                        d.decoder.finish(&mut out).map_err(Error::Decode)?;
                    }
                    return Ok((!out.is_empty()).then_some(out));
                }
            }
        }
    }

    /// Sets up decoding per `decompress` (see [`crate::Decompress`]).
    pub(super) fn decode_if_coded(
        &mut self,
        req: &Request,
        cfg: &ClientConfig,
    ) -> Result<(), Error> {
        let asked = req
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("accept-encoding"));
        let no_body = req.method == "HEAD" || matches!(self.status, 204 | 304);
        if cfg.decompress != Decompress::Auto || asked || no_body {
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
        let codings = burrow_decode::Coding::parse_list(&coding).map_err(Error::Decode)?;
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
        while let Some(c) = self.chunk().await? {
            out.extend_from_slice(&c);
        }
        Ok(out)
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
    buf: Vec<u8>,
    done: bool,
    wire: u64,
    clock: Clock,
}

impl<N: Net> H1Body<N> {
    /// The body after a head decoded by `decoder` from `stream`, `buf` holding the bytes read
    /// past the head; the connection (to `origin`, described by `info`) is pooled at its end.
    pub(super) fn new(
        client: Rc<Inner<N>>,
        origin: Origin,
        stream: Transport<N::Stream>,
        info: ConnInfo,
        decoder: Decoder,
        buf: Vec<u8>,
        clock: Clock,
    ) -> H1Body<N> {
        H1Body {
            client,
            origin,
            stream: Some(stream),
            info,
            decoder,
            buf,
            done: false,
            wire: 0,
            clock,
        }
    }

    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        loop {
            if self.done {
                return Ok(None);
            }
            let decoded = self.decoder.decode(&self.buf).map_err(Error::Http1)?;
            let consumed = decoded.consumed.min(self.buf.len());
            match decoded.event {
                Event::Data(range) => {
                    let data = self.buf.get(range).unwrap_or(&[]).to_vec();
                    self.buf.drain(..consumed);
                    self.wire = self
                        .wire
                        .saturating_add(u64::try_from(data.len()).unwrap_or(u64::MAX));
                    if let Some(limit) = self.client.config.max_body_bytes {
                        if self.wire > limit {
                            self.done = true;
                            self.stream = None;
                            return Err(Error::BodyTooLarge { limit });
                        }
                    }
                    if data.is_empty() {
                        continue;
                    }
                    return Ok(Some(data));
                }
                Event::End { keep_alive } => {
                    self.buf.drain(..consumed);
                    self.done = true;
                    if let Some(stream) = self.stream.take() {
                        if keep_alive && self.buf.is_empty() {
                            self.client.pool.put_idle(
                                self.origin.clone(),
                                stream,
                                self.info.clone(),
                            );
                        }
                    }
                    return Ok(None);
                }
                Event::NeedData => {
                    self.buf.drain(..consumed);
                    let Some(stream) = self.stream.as_mut() else {
                        return Err(Error::HttpProtocol("the body ended without its framing"));
                    };
                    let net = &self.client.net;
                    let idle = self.client.config.deadlines.idle;
                    let mut tmp = vec![0u8; READ_CHUNK];
                    let n = self
                        .clock
                        .run(net, Phase::Idle, idle, stream.read(&mut tmp))
                        .await?
                        .map_err(|e| Error::from_io(e, Error::Io))?;
                    if n == 0 {
                        if stream.closure_authenticated()
                            || self.client.config.allow_close_without_close_notify
                        {
                            self.decoder.receive_eof();
                        } else {
                            self.decoder.receive_unauthenticated_eof();
                        }
                    } else {
                        self.buf.extend_from_slice(tmp.get(..n).unwrap_or(&[]));
                    }
                }
                Event::Closed => {
                    self.done = true;
                    self.stream = None;
                    return Ok(None);
                }
                _ => {
                    self.buf.drain(..consumed);
                }
            }
        }
    }
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
        }
    }

    async fn chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        if self.done {
            return Ok(None);
        }
        let net = &self.client.net;
        let idle = self.client.config.deadlines.idle;
        let got = self
            .clock
            .run(net, Phase::Idle, idle, self.conn.data(self.id))
            .await;
        let piece = match got {
            Ok(Ok(p)) => p,
            Ok(Err(e)) | Err(e) => {
                self.done = true;
                self.conn.cancel(self.id);
                return Err(e);
            }
        };
        let Some(piece) = piece else {
            self.done = true;
            return Ok(None);
        };
        self.wire = self
            .wire
            .saturating_add(u64::try_from(piece.len()).unwrap_or(u64::MAX));
        if let Some(limit) = self.client.config.max_body_bytes {
            if self.wire > limit {
                self.done = true;
                self.conn.cancel(self.id);
                return Err(Error::BodyTooLarge { limit });
            }
        }
        Ok(Some(piece))
    }
}

impl<N: Net> Drop for H2Body<N> {
    fn drop(&mut self) {
        if !self.done {
            self.conn.cancel(self.id);
        }
    }
}
