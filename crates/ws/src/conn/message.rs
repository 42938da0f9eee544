//! A message being reassembled from its fragments (§5.4): its size bound, its inflation, and
//! the UTF-8 check of text as it arrives (§8.1).

use super::event::{Message, MessageKind};
use crate::deflate::Inflater;
use crate::error::{Error, Kind};
use crate::utf8::Utf8Check;

/// The most a frame head makes us reserve before its payload arrives (the rest grows as it
/// does): a head alone does not commit memory up to the message bound.
const MAX_RESERVE: u64 = 256 * 1024;

/// The message in progress.
pub(crate) struct Incoming {
    kind: MessageKind,
    compressed: bool,
    data: Vec<u8>,
    utf8: Utf8Check,
    /// Payload bytes announced by this message's frame heads so far.
    wire: u64,
}

impl Incoming {
    pub(crate) fn new(kind: MessageKind, compressed: bool) -> Incoming {
        Incoming {
            kind,
            compressed,
            data: Vec::new(),
            utf8: Utf8Check::default(),
            wire: 0,
        }
    }

    pub(crate) fn is_compressed(&self) -> bool {
        self.compressed
    }

    /// A frame of `len` payload bytes belongs to this message: refuses it, before any of its
    /// payload is read, when the message's payload would pass the bound. Compressed payloads may
    /// pass `max` by what DEFLATE's stored blocks add to incompressible data.
    pub(crate) fn admit(&mut self, len: u64, max: usize) -> Result<(), Error> {
        let max = u64::try_from(max).unwrap_or(u64::MAX);
        let bound = if self.compressed {
            max.saturating_add(max / 1024).saturating_add(64)
        } else {
            max
        };
        self.wire = self.wire.saturating_add(len);
        if self.wire > bound {
            return Err(Error::peer(Kind::MessageTooBig));
        }
        if !self.compressed {
            let more = usize::try_from(len.min(MAX_RESERVE)).unwrap_or(0);
            let limit = usize::try_from(self.wire).unwrap_or(usize::MAX);
            crate::grow::reserve_within(&mut self.data, more, limit);
        }
        Ok(())
    }

    /// A piece of payload arrived: stored, or inflated onto the message, then checked as text.
    pub(crate) fn push(
        &mut self,
        piece: &[u8],
        inflater: Option<&mut Inflater>,
        max: usize,
    ) -> Result<(), Error> {
        match inflater {
            Some(z) if self.compressed => {
                let (kind, utf8) = (self.kind, &mut self.utf8);
                return z
                    .inflate(piece, &mut self.data, max, &mut |d| {
                        check_text(kind, utf8, d)
                    })
                    .map_err(Error::peer);
            }
            // Uncompressed: `admit` already held the message to `max`, and its frames' total
            // bounds the capacity.
            _ => {
                let limit = usize::try_from(self.wire).unwrap_or(usize::MAX);
                crate::grow::reserve_within(&mut self.data, piece.len(), limit);
                self.data.extend_from_slice(piece);
            }
        }
        self.check_text()
    }

    /// The last frame ended: the trailer inflated, the text complete.
    pub(crate) fn finish(
        mut self,
        inflater: Option<&mut Inflater>,
        max: usize,
    ) -> Result<Message, Error> {
        if let (true, Some(z)) = (self.compressed, inflater) {
            let (kind, utf8) = (self.kind, &mut self.utf8);
            z.finish(&mut self.data, max, &mut |d| check_text(kind, utf8, d))
                .map_err(Error::peer)?;
        }
        match self.kind {
            MessageKind::Binary => Ok(Message::Binary(self.data)),
            MessageKind::Text => {
                if !self.utf8.is_complete(&self.data) {
                    return Err(Error::peer(Kind::InvalidUtf8));
                }
                // Checked piece by piece above; std checks once more to hand out a String
                // without `unsafe` (README.md, "Costs").
                String::from_utf8(self.data)
                    .map(Message::Text)
                    .map_err(|_| Error::peer(Kind::InvalidUtf8))
            }
        }
    }

    fn check_text(&mut self) -> Result<(), Error> {
        check_text(self.kind, &mut self.utf8, &self.data).map_err(Error::peer)
    }
}

/// A text message's bytes so far must be UTF-8, but for a character still open at the end.
fn check_text(kind: MessageKind, utf8: &mut Utf8Check, data: &[u8]) -> Result<(), Kind> {
    if kind == MessageKind::Text {
        utf8.advance(data).map_err(|_| Kind::InvalidUtf8)?;
    }
    Ok(())
}
