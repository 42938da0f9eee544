//! Counts the server controls above the record layer, kept in one struct the driver consults
//! before it acts on a message or an alert; the bounds and why their numbers are in `limits`.

use crate::limits::{
    MAX_HELLO_REQUESTS, MAX_KEY_UPDATES_IN_A_ROW, MAX_POST_HANDSHAKE_IN_A_ROW, MAX_TICKETS,
    MAX_WARNING_ALERTS_IN_A_ROW,
};
use crate::{Error, HandshakeType};

/// The counters behind the bounds above.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    tickets: u32,
    key_updates_in_a_row: u32,
    post_handshake_in_a_row: u32,
    warning_alerts_in_a_row: u32,
    hello_requests: u32,
}

/// Adds one to `n`; the error once it passes `max`.
fn bump(n: &mut u32, max: u32, e: Error) -> Result<(), Error> {
    *n = n.saturating_add(1);
    if *n > max {
        Err(e)
    } else {
        Ok(())
    }
}

impl Counts {
    /// A whole handshake message, before it is handled; `after_handshake` in application
    /// traffic.
    pub(crate) fn handshake_message(
        &mut self,
        typ: HandshakeType,
        after_handshake: bool,
    ) -> Result<(), Error> {
        if typ == HandshakeType::HELLO_REQUEST {
            bump(
                &mut self.hello_requests,
                MAX_HELLO_REQUESTS,
                Error::UnexpectedMessage,
            )?;
        }
        if !after_handshake {
            return Ok(());
        }
        match typ {
            HandshakeType::NEW_SESSION_TICKET => {
                bump(&mut self.tickets, MAX_TICKETS, Error::TooManyTickets)?;
            }
            HandshakeType::KEY_UPDATE => bump(
                &mut self.key_updates_in_a_row,
                MAX_KEY_UPDATES_IN_A_ROW,
                Error::KeyUpdateStorm,
            )?,
            _ => {}
        }
        bump(
            &mut self.post_handshake_in_a_row,
            MAX_POST_HANDSHAKE_IN_A_ROW,
            Error::TooManyPostHandshakeMessages,
        )
    }

    /// A warning alert the connection survives.
    pub(crate) fn warning_alert(&mut self) -> Result<(), Error> {
        bump(
            &mut self.warning_alerts_in_a_row,
            MAX_WARNING_ALERTS_IN_A_ROW,
            Error::TooManyWarningAlerts,
        )
    }

    /// Application data with content: every run ends.
    pub(crate) fn application_data(&mut self) {
        self.key_updates_in_a_row = 0;
        self.post_handshake_in_a_row = 0;
        self.warning_alerts_in_a_row = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bound_lets_its_number_through_and_stops_the_next() {
        let mut c = Counts::default();
        for _ in 0..MAX_WARNING_ALERTS_IN_A_ROW {
            assert_eq!(c.warning_alert(), Ok(()));
        }
        assert_eq!(c.warning_alert(), Err(Error::TooManyWarningAlerts));
        c.application_data();
        assert_eq!(c.warning_alert(), Ok(()));

        let mut c = Counts::default();
        for _ in 0..MAX_HELLO_REQUESTS {
            assert_eq!(
                c.handshake_message(HandshakeType::HELLO_REQUEST, false),
                Ok(())
            );
            c.application_data();
        }
        assert_eq!(
            c.handshake_message(HandshakeType::HELLO_REQUEST, true),
            Err(Error::UnexpectedMessage),
            "per connection: data does not reset it"
        );
    }
}
