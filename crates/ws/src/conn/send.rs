//! Sending: every frame masked with a caller's key (§5.3), the payload copied once, by the
//! masking, into the transmit buffer.

use super::event::{MaskSource, MessageKind};
use super::{Connection, PendingClose};
use crate::error::{Error, Kind};
use crate::frame::{mask_into, CloseCode, CloseFrame, FrameHead, Opcode, MAX_CONTROL_PAYLOAD};

impl Connection {
    /// Sends one message, compressed when permessage-deflate was agreed and
    /// [`super::Config::compress`] allows, in frames of at most
    /// [`super::Config::fragment_size`] bytes.
    pub fn send(
        &mut self,
        kind: MessageKind,
        payload: &[u8],
        keys: &mut dyn MaskSource,
    ) -> Result<(), Error> {
        self.check_open()?;
        let compress = self.config.compress && payload.len() >= self.config.compress_min_size;
        let mut z = core::mem::take(&mut self.scratch);
        z.clear();
        let level = self.config.compression_level;
        let compressed = compress
            && self
                .deflate
                .as_mut()
                .is_some_and(|d| d.compress(level, payload, &mut z));
        if compressed {
            self.write_message(kind.opcode(), &z, true, keys);
        } else {
            self.write_message(kind.opcode(), payload, false, keys);
        }
        self.scratch = z;
        Ok(())
    }

    /// Sends a text message.
    pub fn send_text(&mut self, text: &str, keys: &mut dyn MaskSource) -> Result<(), Error> {
        self.send(MessageKind::Text, text.as_bytes(), keys)
    }

    /// Sends a binary message.
    pub fn send_binary(&mut self, data: &[u8], keys: &mut dyn MaskSource) -> Result<(), Error> {
        self.send(MessageKind::Binary, data, keys)
    }

    /// Sends a Ping with up to 125 bytes of payload; the server's Pong comes as
    /// [`super::Event::Pong`].
    pub fn ping(&mut self, payload: &[u8], keys: &mut dyn MaskSource) -> Result<(), Error> {
        if payload.len() > MAX_CONTROL_PAYLOAD {
            return Err(Error::user(Kind::ControlPayloadTooLong));
        }
        self.check_open()?;
        self.write_frame(Opcode::PING, payload, keys.mask_key());
        self.pings_outstanding = self.pings_outstanding.saturating_add(1);
        Ok(())
    }

    /// Starts the closing handshake (§7.1.2): a Close with `code` (none: an empty Close) and a
    /// UTF-8 `reason` of at most 123 bytes (only with a code). Nothing may be sent after it;
    /// messages still arrive until the server's Close.
    pub fn close(
        &mut self,
        code: Option<CloseCode>,
        reason: &str,
        keys: &mut dyn MaskSource,
    ) -> Result<(), Error> {
        CloseFrame::check_sendable(code, reason)?;
        self.check_open()?;
        self.pending_close = Some(PendingClose {
            code,
            reason: reason.to_owned(),
        });
        self.close_queued = true;
        self.flush_pending(keys);
        Ok(())
    }

    /// Writes the Pong and the Close the connection queued (in that order: nothing follows a
    /// Close).
    pub(super) fn flush_pending(&mut self, keys: &mut dyn MaskSource) {
        if let Some(p) = self.pending_pong.take() {
            self.write_frame(Opcode::PONG, &p, keys.mask_key());
        }
        if let Some(c) = self.pending_close.take() {
            let mut payload = Vec::with_capacity(MAX_CONTROL_PAYLOAD);
            CloseFrame::encode_payload(c.code, &c.reason, &mut payload);
            self.write_frame(Opcode::CLOSE, &payload, keys.mask_key());
            self.close_sent = true;
        }
    }

    /// Refuses to send after a failure (that error) or after our Close ([`Kind::Closed`]).
    fn check_open(&self) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.close_queued {
            return Err(Error::user(Kind::Closed));
        }
        Ok(())
    }

    /// One message as frames of at most `fragment_size` bytes; RSV1 on the first when
    /// `compressed` (RFC 7692 §6.1).
    fn write_message(
        &mut self,
        opcode: Opcode,
        payload: &[u8],
        compressed: bool,
        keys: &mut dyn MaskSource,
    ) {
        let size = self.config.fragment_size.unwrap_or(usize::MAX).max(1);
        let mut rest = payload;
        let mut first = true;
        loop {
            let (piece, tail) = rest.split_at_checked(size).unwrap_or((rest, &[]));
            let fin = tail.is_empty();
            let key = keys.mask_key();
            FrameHead {
                fin,
                rsv1: compressed && first,
                rsv2: false,
                rsv3: false,
                opcode: if first { opcode } else { Opcode::CONTINUATION },
                mask: Some(key),
                len: u64::try_from(piece.len()).unwrap_or(u64::MAX),
            }
            .encode(&mut self.out);
            mask_into(&mut self.out, piece, key);
            if fin {
                return;
            }
            rest = tail;
            first = false;
        }
    }

    /// One unfragmented, uncompressed frame.
    fn write_frame(&mut self, opcode: Opcode, payload: &[u8], key: [u8; 4]) {
        FrameHead {
            fin: true,
            rsv1: false,
            rsv2: false,
            rsv3: false,
            opcode,
            mask: Some(key),
            len: u64::try_from(payload.len()).unwrap_or(u64::MAX),
        }
        .encode(&mut self.out);
        mask_into(&mut self.out, payload, key);
    }
}
