//! All the abuse counters in one place, each with its budget in [`Limits`] (the numbers are in
//! the crate README's "Bounds").

use super::config::Limits;
use crate::error::{Error, Kind};

/// Counters of frames that cost work without progress.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counts {
    pings: u32,
    empty_frames: u32,
    tiny_fragments: u32,
}

/// Which counter.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Abuse {
    /// A Ping, or a Pong that answers none of ours.
    Ping,
    /// A data frame without payload.
    EmptyFrame,
    /// A non-final fragment shorter than `Limits::tiny_fragment_len`.
    TinyFragment,
}

impl Counts {
    /// Spends one unit; running out fails the connection (close code 1008).
    pub(crate) fn spend(&mut self, which: Abuse, limits: &Limits) -> Result<(), Error> {
        let (counter, budget, kind) = match which {
            Abuse::Ping => (&mut self.pings, limits.max_pings, Kind::PingFlood),
            Abuse::EmptyFrame => (
                &mut self.empty_frames,
                limits.max_empty_frames,
                Kind::EmptyFrameFlood,
            ),
            Abuse::TinyFragment => (
                &mut self.tiny_fragments,
                limits.max_tiny_fragments,
                Kind::TinyFragmentFlood,
            ),
        };
        *counter = counter.saturating_add(1);
        if *counter > budget {
            return Err(Error::peer(kind));
        }
        Ok(())
    }

    /// A turn of the caller's loop ended, or a data frame with payload arrived: the per-turn
    /// budgets start again.
    pub(crate) fn turn(&mut self) {
        self.pings = 0;
        self.empty_frames = 0;
    }

    /// A message starts: the per-message budget starts again.
    pub(crate) fn message(&mut self) {
        self.tiny_fragments = 0;
    }
}
