//! The response decoder over the caller's buffer.
//!
//! Call order: [`Decoder::expect_response`] once per request sent (in order; pipelining is
//! allowed), then [`Decoder::decode`] with the bytes received and not yet consumed, dropping
//! `consumed` bytes from the front after each call, until it returns [`Event::NeedData`] (read
//! more) or [`Event::End`]. Call [`Decoder::receive_eof`] when the peer closed the stream, or
//! [`Decoder::receive_unauthenticated_eof`] when the stream ended without a valid closure
//! (TLS: a TCP close with no `close_notify`): a close-delimited body then fails with
//! [`Error::UnauthenticatedClose`] rather than being reported complete (RFC 9112 §9.8).
//!
//! An error is sticky: every later call returns it again and the connection must be closed.

use core::ops::Range;
use std::collections::VecDeque;

use crate::chunked::{ChunkEvent, ChunkedDecoder};
use crate::framing::{decide, BodyFraming, RequestInfo};
use crate::head::{parse_complete_head, HeadScan, ResponseHead};
use crate::{Error, Headers, Limits, Stage};

/// What one call to [`Decoder::decode`] produced, and how many input bytes it consumed.
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Bytes of the input consumed; drop them before the next call.
    pub consumed: usize,
    /// The event.
    pub event: Event,
}

/// An event of the response stream.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A 1xx interim response (e.g. 100 Continue, 103 Early Hints). The final response follows.
    Interim(ResponseHead),
    /// The head of the final response and how its body is framed.
    Head {
        /// Status line and headers.
        head: ResponseHead,
        /// How the body is delimited.
        framing: BodyFraming,
    },
    /// Body bytes at `input[range]` of the input passed to this call.
    Data(Range<usize>),
    /// The trailer section of a chunked body.
    Trailers(Headers),
    /// The response is complete. `keep_alive` says whether the connection may carry another
    /// request (false after `Connection: close`, an HTTP/1.0 response without keep-alive, a
    /// close-delimited body, a tunnel, or a request that asked to close).
    End {
        /// Whether the connection can be reused.
        keep_alive: bool,
    },
    /// More input is needed.
    NeedData,
    /// No response is outstanding and none can follow: the connection ended after a response,
    /// after `End { keep_alive: false }`, or became a tunnel. Unconsumed bytes are left alone.
    Closed,
}

#[derive(Clone, Debug)]
enum Body {
    Empty,
    Length(u64),
    Chunked(Box<ChunkedDecoder>),
    Close,
}

#[derive(Clone, Debug)]
enum State {
    /// No request outstanding.
    Idle,
    /// Reading a head for the request at the front of the queue.
    Head(HeadScan),
    /// Reading the body of a final response.
    Body { body: Body, keep_alive: bool },
    /// The connection cannot carry another response.
    Closed,
    /// A sticky error.
    Failed(Error),
}

/// Sans-IO HTTP/1.1 response decoder working over a buffer the caller owns.
#[derive(Clone, Debug)]
pub struct Decoder {
    limits: Limits,
    pending: VecDeque<RequestInfo>,
    state: State,
    eof: bool,
    /// The end of the stream was not authenticated (no TLS close_notify).
    unauthenticated_eof: bool,
    interim: usize,
    head_work: usize,
}

impl Decoder {
    /// A decoder with the given limits and no request outstanding.
    pub fn new(limits: Limits) -> Self {
        Decoder {
            limits,
            pending: VecDeque::new(),
            state: State::Idle,
            eof: false,
            unauthenticated_eof: false,
            interim: 0,
            head_work: 0,
        }
    }

    /// Records that a request was sent; its response is expected after those of earlier requests.
    pub fn expect_response(&mut self, req: RequestInfo) {
        self.pending.push_back(req);
        if matches!(self.state, State::Idle) {
            self.state = State::Head(HeadScan::default());
        }
    }

    /// Records that the peer closed its side: the input passed from now on is all there is.
    pub fn receive_eof(&mut self) {
        self.eof = true;
    }

    /// Records that the stream ended without a valid closure: for TLS, the TCP connection
    /// closed with no `close_notify` alert, so an attacker may have cut it. A body delimited by
    /// `Content-Length` or chunked framing is judged by its framing as with
    /// [`Decoder::receive_eof`]; a close-delimited body fails with
    /// [`Error::UnauthenticatedClose`], since its end cannot be told from a truncation
    /// (RFC 9112 §9.8). A caller that accepts such servers calls `receive_eof` instead.
    pub fn receive_unauthenticated_eof(&mut self) {
        self.eof = true;
        self.unauthenticated_eof = true;
    }

    /// Number of requests whose responses have not ended yet.
    pub fn outstanding(&self) -> usize {
        self.pending.len()
    }

    /// Total bytes the head scanner has examined (for tests proving the scan is linear: feeding
    /// a head one byte at a time examines each byte once).
    #[doc(hidden)]
    pub fn head_bytes_examined(&self) -> usize {
        self.head_work
    }

    /// Decodes the next event from `input` (the received bytes not consumed so far).
    pub fn decode(&mut self, input: &[u8]) -> Result<Decoded, Error> {
        match self.decode_inner(input) {
            Ok(d) => Ok(d),
            Err(e) => {
                self.state = State::Failed(e);
                Err(e)
            }
        }
    }

    fn decode_inner(&mut self, input: &[u8]) -> Result<Decoded, Error> {
        match &mut self.state {
            State::Failed(e) => Err(*e),
            State::Closed => Ok(done(0, Event::Closed)),
            State::Idle => {
                if !input.is_empty() {
                    Err(Error::UnsolicitedData)
                } else if self.eof {
                    self.state = State::Closed;
                    Ok(done(0, Event::Closed))
                } else {
                    Ok(done(0, Event::NeedData))
                }
            }
            State::Head(_) => self.decode_head(input),
            State::Body { .. } => self.decode_body(input),
        }
    }

    fn decode_head(&mut self, input: &[u8]) -> Result<Decoded, Error> {
        let State::Head(scan) = &mut self.state else {
            return Ok(done(0, Event::NeedData));
        };
        let before = scan.examined();
        let found = scan.scan(input, &self.limits);
        self.head_work = self
            .head_work
            .saturating_add(scan.examined().saturating_sub(before));
        let Some(len) = found? else {
            return if !self.eof {
                Ok(done(0, Event::NeedData))
            } else if input.is_empty() && scan.is_fresh() && self.interim == 0 {
                Err(Error::ClosedBeforeResponse)
            } else {
                Err(Error::Truncated { stage: Stage::Head })
            };
        };
        let bytes = input
            .get(..len)
            .ok_or(Error::Truncated { stage: Stage::Head })?;
        let head = parse_complete_head(bytes, &self.limits)?;
        let req = self.pending.front().copied().unwrap_or_default();
        if head.status == 101 {
            return Err(Error::UnsolicitedUpgrade);
        }
        if head.is_interim() {
            self.interim = self.interim.saturating_add(1);
            if self.interim > self.limits.max_interim_responses {
                return Err(Error::TooManyInterim {
                    limit: self.limits.max_interim_responses,
                });
            }
            self.state = State::Head(HeadScan::default());
            return Ok(done(len, Event::Interim(head)));
        }
        self.interim = 0;
        let (framing, keep_alive) = decide(&head, &req)?;
        let body = match framing {
            BodyFraming::None | BodyFraming::Tunnel | BodyFraming::Length(0) => Body::Empty,
            BodyFraming::Length(n) => Body::Length(n),
            BodyFraming::Chunked => Body::Chunked(Box::new(ChunkedDecoder::new(self.limits))),
            BodyFraming::CloseDelimited => Body::Close,
        };
        self.state = State::Body { body, keep_alive };
        Ok(done(len, Event::Head { head, framing }))
    }

    fn decode_body(&mut self, input: &[u8]) -> Result<Decoded, Error> {
        let eof = self.eof;
        let unauthenticated = self.unauthenticated_eof;
        let State::Body { body, keep_alive } = &mut self.state else {
            return Ok(done(0, Event::NeedData));
        };
        let keep_alive = *keep_alive;
        match body {
            Body::Empty => Ok(self.finish(0, keep_alive)),
            Body::Length(remaining) => {
                if input.is_empty() {
                    return if eof {
                        Err(Error::Truncated { stage: Stage::Body })
                    } else {
                        Ok(done(0, Event::NeedData))
                    };
                }
                let take = usize::try_from(*remaining).map_or(input.len(), |r| r.min(input.len()));
                let left = remaining.saturating_sub(u64::try_from(take).unwrap_or(u64::MAX));
                if left == 0 {
                    *body = Body::Empty;
                } else {
                    *remaining = left;
                }
                Ok(done(take, Event::Data(0..take)))
            }
            Body::Close => {
                if !input.is_empty() {
                    Ok(done(input.len(), Event::Data(0..input.len())))
                } else if eof && unauthenticated {
                    Err(Error::UnauthenticatedClose)
                } else if eof {
                    Ok(self.finish(0, false))
                } else {
                    Ok(done(0, Event::NeedData))
                }
            }
            Body::Chunked(dec) => {
                let (consumed, ev) = dec.decode(input)?;
                match ev {
                    ChunkEvent::Data(r) => Ok(done(consumed, Event::Data(r))),
                    ChunkEvent::Trailers(t) => Ok(done(consumed, Event::Trailers(t))),
                    ChunkEvent::End => Ok(self.finish(consumed, keep_alive)),
                    ChunkEvent::NeedData if eof => Err(Error::Truncated {
                        stage: Stage::Chunked,
                    }),
                    ChunkEvent::NeedData => Ok(done(consumed, Event::NeedData)),
                }
            }
        }
    }

    /// Ends the current response and moves on to the next one, if any.
    fn finish(&mut self, consumed: usize, keep_alive: bool) -> Decoded {
        self.pending.pop_front();
        self.state = if !keep_alive {
            State::Closed
        } else if self.pending.is_empty() {
            State::Idle
        } else {
            State::Head(HeadScan::default())
        };
        done(consumed, Event::End { keep_alive })
    }
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder::new(Limits::default())
    }
}

fn done(consumed: usize, event: Event) -> Decoded {
    Decoded { consumed, event }
}
