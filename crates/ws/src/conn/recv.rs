//! Receiving: the frame reader (any chunking of the input reads the same) and what each frame
//! does to the connection.

use super::counts::Abuse;
use super::event::{Event, MessageKind};
use super::message::Incoming;
use super::{Connection, PendingClose, Recv};
use crate::error::{Error, Kind};
use crate::frame::{CloseFrame, FrameHead, Opcode, MAX_HEAD_LEN};

impl Connection {
    /// Reads server bytes: all of `input` is consumed (a partial frame head is kept, at most 14
    /// bytes; payloads are never buffered beyond the message they belong to). Events are then
    /// ready in [`Connection::poll_event`]. An error fails the connection: a Close naming it is
    /// queued, and the error is returned by every later call.
    pub fn handle_input(&mut self, input: &[u8]) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.read(input).inspect_err(|e| self.fail(*e))
    }

    fn read(&mut self, mut input: &[u8]) -> Result<(), Error> {
        loop {
            match self.recv {
                Recv::Done => return Ok(()),
                Recv::Payload { head, left: 0 } => {
                    self.recv = Recv::HEAD;
                    self.end_frame(head)?;
                }
                Recv::Payload { head, left } => {
                    if input.is_empty() {
                        return Ok(());
                    }
                    let n = usize::try_from(left).unwrap_or(usize::MAX).min(input.len());
                    let (piece, rest) = input.split_at_checked(n).unwrap_or((input, &[]));
                    input = rest;
                    self.recv = Recv::Payload {
                        head,
                        // n <= left.
                        left: left.saturating_sub(u64::try_from(n).unwrap_or(u64::MAX)),
                    };
                    self.frame_payload(head, piece)?;
                }
                Recv::Head { mut buf, have } => {
                    if input.is_empty() {
                        return Ok(());
                    }
                    let lenient = self.config.accept_non_minimal_lengths;
                    // A head whole in the input is read where it is; one split across inputs is
                    // gathered in `buf`, so that any split reads the same.
                    if have == 0 {
                        if let Some((head, used)) = FrameHead::parse(input, lenient)? {
                            input = input.get(used..).unwrap_or_default();
                            self.start_frame(head)?;
                            continue;
                        }
                    }
                    let take = MAX_HEAD_LEN.saturating_sub(have).min(input.len());
                    let end = have.saturating_add(take);
                    if let (Some(dst), Some(src)) = (buf.get_mut(have..end), input.get(..take)) {
                        dst.copy_from_slice(src);
                    }
                    match FrameHead::parse(buf.get(..end).unwrap_or_default(), lenient)? {
                        // All of the input is in `buf`: 14 bytes always make a head, so a
                        // head still incomplete took fewer.
                        None => {
                            self.recv = Recv::Head { buf, have: end };
                            return Ok(());
                        }
                        // The earlier bytes did not make a head, so it ends in the new ones.
                        Some((head, used)) => {
                            input = input.get(used.saturating_sub(have)..).unwrap_or_default();
                            self.start_frame(head)?;
                        }
                    }
                }
            }
        }
    }

    /// A frame head arrived: the checks that need the connection's state.
    fn start_frame(&mut self, head: FrameHead) -> Result<(), Error> {
        // "A client MUST close a connection if it detects a masked frame." (§5.1)
        if head.mask.is_some() {
            return Err(Error::peer(Kind::MaskedFrame));
        }
        // "MUST be 0 unless an extension is negotiated that defines meanings for non-zero
        // values" (§5.2). permessage-deflate defines RSV1 on the first frame of a data message
        // only (RFC 7692 §6: not on control frames, not on continuation frames).
        let rsv1_ok =
            self.deflate.is_some() && matches!(head.opcode, Opcode::TEXT | Opcode::BINARY);
        if head.rsv2 || head.rsv3 || (head.rsv1 && !rsv1_ok) {
            return Err(Error::peer(Kind::ReservedBits));
        }
        if head.opcode.is_control() {
            self.control.clear();
        } else {
            self.start_data(head)?;
        }
        self.recv = Recv::Payload {
            head,
            left: head.len,
        };
        Ok(())
    }

    /// A data frame's head: fragmentation rules (§5.4), the size bound, the abuse budgets.
    fn start_data(&mut self, head: FrameHead) -> Result<(), Error> {
        let kind = match head.opcode {
            Opcode::TEXT => Some(MessageKind::Text),
            Opcode::BINARY => Some(MessageKind::Binary),
            _ => None,
        };
        match (kind, self.incoming.is_some()) {
            // "a continuation frame with no message in progress", or a new message inside one
            (None, false) | (Some(_), true) => return Err(Error::peer(Kind::BadFragmentation)),
            (None, true) => {}
            (Some(kind), false) => {
                self.counts.message();
                if head.rsv1 {
                    if let Some(d) = &mut self.deflate {
                        d.start_message();
                    }
                }
                self.incoming = Some(Incoming::new(kind, head.rsv1));
            }
        }
        let limits = self.config.limits;
        if head.len == 0 {
            self.counts.spend(Abuse::EmptyFrame, &limits)?;
        } else {
            self.counts.turn();
        }
        if !head.fin && head.len < limits.tiny_fragment_len {
            self.counts.spend(Abuse::TinyFragment, &limits)?;
        }
        match &mut self.incoming {
            Some(m) => m.admit(head.len, self.config.max_message_size),
            None => Ok(()),
        }
    }

    /// Payload bytes of the current frame.
    fn frame_payload(&mut self, head: FrameHead, piece: &[u8]) -> Result<(), Error> {
        if head.opcode.is_control() {
            // The head check bounds it at 125 bytes.
            self.control.extend_from_slice(piece);
            return Ok(());
        }
        let Some(m) = &mut self.incoming else {
            return Ok(());
        };
        let inflater = match &mut self.deflate {
            Some(d) if m.is_compressed() => Some(d.inflater()),
            _ => None,
        };
        m.push(piece, inflater, self.config.max_message_size)
    }

    /// The current frame is complete.
    fn end_frame(&mut self, head: FrameHead) -> Result<(), Error> {
        match head.opcode {
            Opcode::PING => self.on_ping(),
            Opcode::PONG => self.on_pong(),
            Opcode::CLOSE => self.on_close(),
            _ if head.fin => self.end_message(),
            _ => Ok(()),
        }
    }

    fn end_message(&mut self) -> Result<(), Error> {
        let Some(m) = self.incoming.take() else {
            return Ok(());
        };
        let inflater = match &mut self.deflate {
            Some(d) if m.is_compressed() => Some(d.inflater()),
            _ => None,
        };
        let msg = m.finish(inflater, self.config.max_message_size)?;
        self.events.push_back(Event::Message(msg));
        Ok(())
    }

    /// "Upon receipt of a Ping frame, an endpoint MUST send a Pong frame in response" (§5.5.2)
    /// "with identical Application data"; only the latest unanswered one (§5.5.3), and none
    /// once our Close is queued.
    fn on_ping(&mut self) -> Result<(), Error> {
        self.counts.spend(Abuse::Ping, &self.config.limits)?;
        let payload = core::mem::take(&mut self.control);
        if !self.close_queued {
            self.pending_pong = Some(payload.clone());
        }
        self.events.push_back(Event::Ping(payload));
        Ok(())
    }

    /// A Pong answers one of our Pings, or is unsolicited (a heartbeat, §5.5.3) and counted.
    fn on_pong(&mut self) -> Result<(), Error> {
        if self.pings_outstanding > 0 {
            self.pings_outstanding = self.pings_outstanding.saturating_sub(1);
        } else {
            self.counts.spend(Abuse::Ping, &self.config.limits)?;
        }
        let payload = core::mem::take(&mut self.control);
        self.events.push_back(Event::Pong(payload));
        Ok(())
    }

    /// The server's Close (§5.5.1): decoded, answered unless we sent ours, and the end of
    /// reading. A message in progress is dropped.
    fn on_close(&mut self) -> Result<(), Error> {
        let frame = CloseFrame::decode(&self.control)?;
        self.close_received = true;
        self.incoming = None;
        self.recv = Recv::Done;
        if !self.close_queued {
            // "When sending a Close frame in response, the endpoint typically echos the status
            // code it received."
            self.pending_close = Some(PendingClose {
                code: frame.code,
                reason: String::new(),
            });
            self.close_queued = true;
            self.pending_pong = None;
        }
        self.events.push_back(Event::Close(frame));
        Ok(())
    }
}
