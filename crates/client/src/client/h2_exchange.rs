//! One request on an HTTP/2 connection, the request side: build the header block (pseudo-
//! headers in the profile's order, then the fields), open the stream, feed a streamed body,
//! and wait for the response head. The connection itself is driven by `crate::h2`.

use std::pin::pin;
use std::rc::Rc;

use super::request::RequestParts;
use super::response::{H2Body, Response, ResponseBody};
use super::Client;
use crate::connect::{ConnInfo, Origin};
use crate::deadline::{Clock, Deadline};
use crate::error::Error;
use crate::h2::{request_headers, H2Conn};
use crate::message::{Body, Request, ResponseMeta, Timings};
use crate::net::Net;

impl<N: Net> Client<N> {
    /// Sends `req` on `h2` (a connection to its origin, described by `info`) and waits for
    /// the response head.
    pub(super) async fn send_h2(
        &self,
        req: &Request,
        h2: &H2Conn,
        info: ConnInfo,
        reused: bool,
        retried: bool,
        clock: &Clock,
    ) -> Result<Response<N>, Error> {
        let cfg = &self.inner.config;
        let net = &self.inner.net;
        let origin = Origin::of(&req.url)?;
        let has = |name: &str| {
            req.headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        let RequestParts {
            path,
            authority,
            mut fields,
        } = RequestParts::new(cfg, req, &origin);
        let (body, mut source, length) = match &req.body {
            Body::Empty => (Rc::default(), None, None),
            Body::Bytes(b) => (Rc::clone(b), None, u64::try_from(b.len()).ok()),
            Body::Stream(s) => (Rc::default(), Some(s.take()?), s.length()),
        };
        if let Some(n) = length.filter(|n| *n > 0 && !has("content-length")) {
            fields.push(("content-length".to_string(), n.to_string()));
        }
        let headers = request_headers(
            &cfg.http.pseudo_order,
            &req.method,
            req.url.scheme(),
            &authority,
            &path,
            &fields,
        );
        let sent_head: Vec<String> = headers
            .iter()
            .map(|h| {
                format!(
                    "{}: {}",
                    String::from_utf8_lossy(&h.name),
                    String::from_utf8_lossy(&h.value)
                )
            })
            .collect();
        let t_sent = net.now_ms();
        let id = h2.send(&headers, body, source.is_some())?;
        if let Some(src) = source.as_mut() {
            if let Err(e) = send_h2_stream(h2, id, src.as_mut(), length).await {
                h2.cancel(id);
                return Err(e);
            }
        }
        let head = clock
            .run(
                net,
                Deadline::Headers,
                cfg.deadlines.headers,
                pin!(h2.head(id)),
            )
            .await;
        let (status, headers) = match head {
            Ok(Ok(h)) => h,
            Ok(Err(e)) | Err(e) => {
                h2.cancel(id);
                return Err(e);
            }
        };
        let mut timings = if reused {
            Timings::default()
        } else {
            info.timings
        };
        timings.ttfb = net.now_ms().saturating_sub(t_sent);
        let declared = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.trim().parse::<u64>().ok());
        if let (Some(limit), Some(n)) = (cfg.max_body_bytes, declared) {
            if n > limit {
                h2.cancel(id);
                return Err(Error::BodyTooLarge { limit });
            }
        }
        let body = H2Body::new(Rc::clone(&self.inner), h2.clone(), id, *clock);
        let meta = ResponseMeta {
            tls: info.tls,
            proxy_tls: info.proxy_tls,
            proxied: info.proxied,
            http_version: "HTTP/2",
            reason: String::new(),
            reused,
            retried,
            timings,
            redirects: 0,
            content_encoding: None,
            request_head: sent_head,
        };
        Ok(Response::new(
            status,
            headers,
            req.url.clone(),
            meta,
            ResponseBody::H2(body),
        ))
    }
}

/// Feeds a streamed body into an HTTP/2 stream (the driver frames it as windows allow).
async fn send_h2_stream(
    h2: &H2Conn,
    id: u32,
    src: &mut dyn crate::message::BodySource,
    length: Option<u64>,
) -> Result<(), Error> {
    let mut total: u64 = 0;
    while let Some(piece) = src.next_piece().await.map_err(Error::BodySource)? {
        total = total.saturating_add(u64::try_from(piece.len()).unwrap_or(u64::MAX));
        if length.is_some_and(|n| total > n) {
            return Err(Error::BodySource(std::io::Error::other(
                "the body stream gave more than its declared length",
            )));
        }
        h2.push(id, piece).await?;
    }
    if length.is_some_and(|n| total != n) {
        return Err(Error::BodySource(std::io::Error::other(format!(
            "the body stream gave {total} bytes, not its declared length"
        ))));
    }
    h2.finish_body(id);
    Ok(())
}
