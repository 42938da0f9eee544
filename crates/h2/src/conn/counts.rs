//! All the abuse counters in one place, each with its budget (the numbers, and what other
//! HTTP/2 stacks do, are in the crate README's "Counts a peer controls").

use super::config::Limits;
use crate::error::{Error, Kind, Reason};

/// Counters of frames that cost us work without useful progress.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counts {
    settings: u32,
    pings: u32,
    empty_data: u32,
    closed_stream_frames: u32,
    window_updates: u32,
    /// Stream errors we answered with RST_STREAM: over the connection's life, never restarted.
    local_resets: u32,
}

/// Which counter.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Abuse {
    Settings,
    Ping,
    EmptyData,
    ClosedStreamFrame,
    /// A WINDOW_UPDATE that gives back no credit for DATA we sent.
    WindowUpdate,
    /// A stream error of the peer's making that we answer with RST_STREAM.
    LocalReset,
}

impl Counts {
    /// Spends one unit; running out is a connection error ENHANCE_YOUR_CALM.
    pub(crate) fn spend(&mut self, which: Abuse, limits: &Limits) -> Result<(), Error> {
        let (counter, budget, kind) = match which {
            Abuse::Settings => (
                &mut self.settings,
                limits.max_settings_frames,
                Kind::SettingsFlood,
            ),
            Abuse::Ping => (&mut self.pings, limits.max_pings, Kind::PingFlood),
            Abuse::EmptyData => (
                &mut self.empty_data,
                limits.max_empty_data,
                Kind::EmptyDataFlood,
            ),
            Abuse::ClosedStreamFrame => (
                &mut self.closed_stream_frames,
                limits.max_closed_stream_frames,
                Kind::ResetFlood,
            ),
            Abuse::WindowUpdate => (
                &mut self.window_updates,
                limits.max_window_updates,
                Kind::WindowUpdateFlood,
            ),
            Abuse::LocalReset => (
                &mut self.local_resets,
                limits.max_local_resets,
                Kind::StreamErrorFlood,
            ),
        };
        *counter = counter.saturating_add(1);
        if *counter > budget {
            return Err(Error::conn(kind, Reason::ENHANCE_YOUR_CALM));
        }
        Ok(())
    }

    /// Useful traffic arrived: the per-progress budgets start again (not `local_resets`, which
    /// counts over the connection's life).
    pub(crate) fn progress(&mut self) {
        *self = Counts {
            local_resets: self.local_resets,
            ..Counts::default()
        };
    }
}
