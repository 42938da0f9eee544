//! One request over HTTP/1.1: encode the head (absolute-form and proxy fields when the hop is
//! a plain HTTP proxy), write it and the body, then read until the response head is decoded.
//! A failure says whether nothing came back at all, so a reused connection that the server
//! had already closed can be retried once.

use std::pin::pin;
use std::rc::Rc;

use burrow_h1::{BodyFraming, BodyKind, Decoder, Event, Limits, RequestHead, Target, Version};
use burrow_proxy::connect::ProxyConnectionHeader;

use super::request::RequestParts;
use super::response::{H1Body, Response, ResponseBody};
use super::Client;
use crate::config::ClientConfig;
use crate::connect::{ConnInfo, Origin};
use crate::deadline::{Clock, Deadline};
use crate::error::Error;
use crate::message::{Body, Request, ResponseMeta};
use crate::net::{Net, NetStream};
use crate::transport::Transport;

/// The response head plus the connection state to read its body.
pub(super) struct Exchange<S: NetStream> {
    pub(super) status: u16,
    version: Version,
    /// The status line's reason phrase (lossy UTF-8).
    reason: String,
    /// The request head as written (lines without CRLF).
    sent_head: Vec<String>,
    headers: Vec<(String, String)>,
    stream: Transport<S>,
    decoder: Decoder,
    buf: Vec<u8>,
    ttfb: u64,
    clock: Clock,
}

/// Why one attempt failed: `stale` when nothing at all came back on a reused connection.
pub(super) struct Attempt {
    pub(super) error: Error,
    pub(super) stale: bool,
}

impl<N: Net> Client<N> {
    /// The response to `exchange`'s head and the body still to read, as a [`Response`].
    pub(super) fn respond(
        &self,
        req: &Request,
        origin: Origin,
        ex: Exchange<N::Stream>,
        info: ConnInfo,
        reused: bool,
        retried: bool,
    ) -> Response<N> {
        let mut timings = info.timings;
        timings.ttfb = ex.ttfb;
        let meta = ResponseMeta {
            tls: info.tls.clone(),
            proxy_tls: info.proxy_tls.clone(),
            proxied: info.proxied,
            http_version: match ex.version {
                Version::Http10 => "HTTP/1.0",
                _ => "HTTP/1.1",
            },
            reason: ex.reason,
            reused,
            retried,
            timings,
            redirects: 0,
            content_encoding: None,
            request_head: ex.sent_head,
        };
        let body = ResponseBody::H1(Box::new(H1Body::new(
            Rc::clone(&self.inner),
            origin,
            ex.stream,
            info,
            ex.decoder,
            ex.buf,
            ex.clock,
        )));
        Response::new(ex.status, ex.headers, req.url.clone(), meta, body)
    }

    /// Sends `req` on `stream` (to `origin`, described by `info`) and reads the response head.
    pub(super) async fn exchange(
        &self,
        req: &Request,
        origin: &Origin,
        mut stream: Transport<N::Stream>,
        info: &ConnInfo,
        clock: &Clock,
    ) -> Result<Exchange<N::Stream>, Attempt> {
        let fatal = |error| Attempt {
            error,
            stale: false,
        };
        let cfg = &self.inner.config;
        let net = &self.inner.net;
        let parts = RequestParts::new(cfg, req, origin);
        let mut absolute = req.url.clone();
        absolute.set_fragment(None);
        let target = match &info.absolute_form {
            Some(_) => Target::Absolute(absolute.as_str()),
            None => Target::Origin(&parts.path),
        };
        let mut head = RequestHead::new(&req.method, target, &parts.authority);
        for (n, v) in &parts.fields {
            head = head.header(n, v);
        }
        let proxy_auth = match info
            .absolute_form
            .as_ref()
            .and_then(|p| p.credentials.as_ref())
        {
            Some(c) => Some(
                c.basic_authorization()
                    .map_err(|e| fatal(Error::Proxy(e)))?,
            ),
            None => None,
        };
        if let Some(a) = proxy_auth.as_deref() {
            head = head.header("Proxy-Authorization", a);
        }
        let pc = info.absolute_form.as_ref().and(match cfg.proxy_connection {
            ProxyConnectionHeader::KeepAlive => Some("keep-alive"),
            ProxyConnectionHeader::Close => Some("close"),
            _ => None,
        });
        if let Some(v) = pc {
            head = head.header("Proxy-Connection", v);
        }
        let mut source = None;
        let body_kind = match (&req.body, req.method.as_str()) {
            (Body::Empty, "POST" | "PUT" | "PATCH") => BodyKind::Length(0),
            (Body::Empty, _) => BodyKind::None,
            (Body::Bytes(b), _) => BodyKind::Length(u64::try_from(b.len()).unwrap_or(u64::MAX)),
            (Body::Stream(s), _) => {
                source = Some(s.take().map_err(fatal)?);
                s.length().map_or(BodyKind::Chunked, BodyKind::Length)
            }
        };
        let mut wire = Vec::new();
        let req_info = head
            .encode(body_kind, &mut wire)
            .map_err(|e| fatal(Error::Http1(e)))?;
        let sent_head = head_lines(&wire);
        // Head and body in one gather write: over TLS the body is copied once, into the
        // record buffer.
        let body: &[u8] = match &req.body {
            Body::Bytes(b) => b.as_slice(),
            _ => &[],
        };
        // A write failing on a pooled connection is the stale case too.
        let sent = clock
            .run(
                net,
                Deadline::Headers,
                cfg.deadlines.headers,
                pin!(stream.write_all_parts(&[&wire, body])),
            )
            .await
            .map_err(fatal)?;
        if let Err(e) = sent {
            return Err(Attempt {
                error: Error::from_io(e, Error::Io),
                stale: true,
            });
        }
        if let Some(src) = source {
            send_h1_stream(net, cfg, clock, &mut stream, src, body_kind)
                .await
                .map_err(fatal)?;
        }
        let t_sent = net.now_ms();
        let mut decoder = Decoder::new(Limits::default());
        decoder.expect_response(req_info);
        let mut buf: Vec<u8> = Vec::new();
        let mut got_any = false;
        let mut ttfb = 0;
        loop {
            let decoded = decoder.decode(&buf).map_err(|e| Attempt {
                stale: !got_any,
                error: Error::Http1(e),
            })?;
            let consumed = decoded.consumed.min(buf.len());
            match decoded.event {
                Event::Head { head, framing } => {
                    buf.drain(..consumed);
                    if let (Some(limit), BodyFraming::Length(n)) = (cfg.max_body_bytes, framing) {
                        if n > limit {
                            return Err(fatal(Error::BodyTooLarge { limit }));
                        }
                    }
                    let headers = head.fields_lossy();
                    return Ok(Exchange {
                        status: head.status,
                        version: head.version,
                        reason: String::from_utf8_lossy(&head.reason).into_owned(),
                        sent_head,
                        headers,
                        stream,
                        decoder,
                        buf,
                        ttfb,
                        clock: *clock,
                    });
                }
                Event::NeedData => {
                    buf.drain(..consumed);
                    let data = clock
                        .run(
                            net,
                            Deadline::Headers,
                            cfg.deadlines.headers,
                            pin!(stream.fill_buf()),
                        )
                        .await
                        .map_err(fatal)?;
                    let n = match data {
                        Ok(data) => {
                            // The head is parsed from a copy (it may span records); body
                            // bytes read with it are framed from that copy too.
                            buf.extend_from_slice(data);
                            data.len()
                        }
                        Err(e) => {
                            return Err(Attempt {
                                error: Error::from_io(e, Error::Io),
                                stale: !got_any,
                            })
                        }
                    };
                    stream.consume(n);
                    if n == 0 {
                        if stream.closure_authenticated() || cfg.allow_close_without_close_notify {
                            decoder.receive_eof();
                        } else {
                            decoder.receive_unauthenticated_eof();
                        }
                    } else {
                        if !got_any {
                            ttfb = net.now_ms().saturating_sub(t_sent);
                        }
                        got_any = true;
                    }
                }
                Event::Closed => {
                    return Err(Attempt {
                        error: Error::HttpProtocol("the connection closed before a response"),
                        stale: !got_any,
                    })
                }
                _ => {
                    buf.drain(..consumed);
                }
            }
        }
    }
}

/// The lines of an encoded HTTP/1.x request head (up to the empty line), without CRLFs.
fn head_lines(wire: &[u8]) -> Vec<String> {
    let end = wire
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(wire.len());
    String::from_utf8_lossy(wire.get(..end).unwrap_or_default())
        .split("\r\n")
        .map(str::to_string)
        .collect()
}

/// Writes a streamed body after the head: raw for a declared length (which must match),
/// chunked otherwise. Each write waits at most `deadlines.idle`.
async fn send_h1_stream<N: Net>(
    net: &N,
    cfg: &ClientConfig,
    clock: &Clock,
    stream: &mut Transport<N::Stream>,
    mut src: Box<dyn crate::message::BodySource>,
    kind: BodyKind,
) -> Result<(), Error> {
    let chunked = kind == BodyKind::Chunked;
    let mut total: u64 = 0;
    loop {
        let piece = src.next_piece().await.map_err(Error::BodySource)?;
        // The framing around the piece (chunk size line, or the last chunk); the piece itself
        // is written from where it is, between `out` and `tail`.
        let mut out = Vec::new();
        let mut data: &[u8] = &[];
        let mut tail: &[u8] = &[];
        match &piece {
            Some(p) if p.is_empty() => continue,
            Some(p) => {
                total = total.saturating_add(u64::try_from(p.len()).unwrap_or(u64::MAX));
                if let BodyKind::Length(n) = kind {
                    if total > n {
                        return Err(Error::BodySource(std::io::Error::other(format!(
                            "the body stream gave more than its declared {n} bytes"
                        ))));
                    }
                }
                if chunked {
                    burrow_h1::encode_chunk_head(p.len(), &mut out);
                    tail = burrow_h1::CHUNK_END;
                }
                data = p;
            }
            None => {
                if let BodyKind::Length(n) = kind {
                    if total != n {
                        return Err(Error::BodySource(std::io::Error::other(format!(
                            "the body stream gave {total} bytes, not its declared {n}"
                        ))));
                    }
                }
                if chunked {
                    burrow_h1::encode_last_chunk(&[], &mut out).map_err(Error::Http1)?;
                }
            }
        }
        if !out.is_empty() || !data.is_empty() {
            clock
                .run(
                    net,
                    Deadline::Idle,
                    cfg.deadlines.idle,
                    pin!(stream.write_all_parts(&[&out, data, tail])),
                )
                .await?
                .map_err(|e| Error::from_io(e, Error::Io))?;
        }
        if piece.is_none() {
            return Ok(());
        }
    }
}
