//! Flow-control windows (RFC 9113 §6.9): signed, checked, never above 2^31-1.

use crate::frame::MAX_WINDOW;

/// A window; may go negative after a SETTINGS_INITIAL_WINDOW_SIZE decrease (§6.9.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window(i64);

impl Window {
    pub(crate) fn new(size: u32) -> Window {
        Window(i64::from(size))
    }

    /// What may be sent or received now (0 when negative).
    pub(crate) fn available(self) -> u32 {
        u32::try_from(self.0.max(0)).unwrap_or(MAX_WINDOW)
    }

    /// Adds `inc`; `Err` if the result would exceed 2^31-1 ("A sender MUST NOT allow a
    /// flow-control window to exceed 2^31-1 octets").
    pub(crate) fn increase(&mut self, inc: u32) -> Result<(), ()> {
        self.adjust(i64::from(inc))
    }

    /// Adds a signed delta (a change of SETTINGS_INITIAL_WINDOW_SIZE).
    pub(crate) fn adjust(&mut self, delta: i64) -> Result<(), ()> {
        let v = self.0.checked_add(delta).ok_or(())?;
        if v > i64::from(MAX_WINDOW) {
            return Err(());
        }
        self.0 = v;
        Ok(())
    }

    /// Takes `n`; `Err` if more than available (a FLOW_CONTROL_ERROR for received data).
    pub(crate) fn consume(&mut self, n: u32) -> Result<(), ()> {
        if n > self.available() {
            return Err(());
        }
        self.0 = self.0.checked_sub(i64::from(n)).ok_or(())?;
        Ok(())
    }
}
