//! [`ResponseDecoder`]: the h11-style front-end that owns its receive buffer.
//!
//! `receive(bytes)` appends what the transport delivered; `next_event()` returns the next event,
//! with body bytes borrowed from the internal buffer (no copy beyond the one into the buffer).
//! Loop on `next_event()` until it returns [`Next::NeedData`], then receive more.

use crate::decoder::{Decoder, Event};
use crate::framing::{BodyFraming, RequestInfo};
use crate::head::ResponseHead;
use crate::{Error, Headers, Limits};

/// An event from [`ResponseDecoder::next_event`]; body bytes borrow the decoder's buffer.
#[non_exhaustive]
#[derive(Debug, PartialEq, Eq)]
pub enum Next<'a> {
    /// A 1xx interim response; the final response follows.
    Interim(ResponseHead),
    /// The head of the final response and how its body is framed.
    Head {
        /// Status line and headers.
        head: ResponseHead,
        /// How the body is delimited.
        framing: BodyFraming,
    },
    /// Body bytes.
    Data(&'a [u8]),
    /// The trailer section of a chunked body.
    Trailers(Headers),
    /// The response is complete; `keep_alive` says whether the connection may be reused.
    End {
        /// Whether the connection can be reused.
        keep_alive: bool,
    },
    /// Receive more bytes (or the end of the stream) and call again.
    NeedData,
    /// No response can follow on this connection.
    Closed,
}

/// HTTP/1.1 response decoder with an internal receive buffer.
#[derive(Clone, Debug, Default)]
pub struct ResponseDecoder {
    core: Decoder,
    buf: Vec<u8>,
    start: usize,
}

impl ResponseDecoder {
    /// A decoder with the given limits.
    pub fn new(limits: Limits) -> Self {
        ResponseDecoder {
            core: Decoder::new(limits),
            buf: Vec::new(),
            start: 0,
        }
    }

    /// Records that a request was sent (see [`Decoder::expect_response`]).
    pub fn expect_response(&mut self, req: RequestInfo) {
        self.core.expect_response(req);
    }

    /// Appends received bytes.
    pub fn receive(&mut self, bytes: &[u8]) {
        if self.start >= self.buf.len() {
            self.buf.clear();
            self.start = 0;
        } else if self.start > 0 && self.start >= self.buf.len() / 2 {
            // Move the unconsumed tail (at most half the buffer) to the front: amortised O(1).
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Records that the peer closed the stream.
    pub fn receive_eof(&mut self) {
        self.core.receive_eof();
    }

    /// Records that the stream ended without a valid closure (see
    /// [`Decoder::receive_unauthenticated_eof`]).
    pub fn receive_unauthenticated_eof(&mut self) {
        self.core.receive_unauthenticated_eof();
    }

    /// Bytes received and not consumed yet.
    pub fn buffered(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or_default()
    }

    /// Takes the unconsumed bytes, e.g. the first bytes of a tunnel after a CONNECT response.
    pub fn take_buffered(&mut self) -> Vec<u8> {
        let rest = self.buffered().to_vec();
        self.buf.clear();
        self.start = 0;
        rest
    }

    /// Number of requests whose responses have not ended yet.
    pub fn outstanding(&self) -> usize {
        self.core.outstanding()
    }

    /// See [`Decoder::head_bytes_examined`].
    #[doc(hidden)]
    pub fn head_bytes_examined(&self) -> usize {
        self.core.head_bytes_examined()
    }

    /// The next event.
    pub fn next_event(&mut self) -> Result<Next<'_>, Error> {
        let base = self.start;
        let d = self.core.decode(self.buf.get(base..).unwrap_or_default())?;
        self.start = base.saturating_add(d.consumed).min(self.buf.len());
        Ok(match d.event {
            Event::Interim(h) => Next::Interim(h),
            Event::Head { head, framing } => Next::Head { head, framing },
            Event::Data(r) => Next::Data(
                self.buf
                    .get(base.saturating_add(r.start)..base.saturating_add(r.end))
                    .unwrap_or_default(),
            ),
            Event::Trailers(t) => Next::Trailers(t),
            Event::End { keep_alive } => Next::End { keep_alive },
            Event::NeedData => Next::NeedData,
            Event::Closed => Next::Closed,
        })
    }
}
