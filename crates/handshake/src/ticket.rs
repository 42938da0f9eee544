//! Session tickets (RFC 8446 §4.6.1) kept by the client for PSK resumption.

use crate::secret::Secret;
use crate::CipherSuite;

/// A resumption ticket: opaque to the server's clients, secret-bearing (the PSK).
#[derive(Clone, PartialEq, Eq)]
pub struct Ticket {
    pub(crate) suite: CipherSuite,
    pub(crate) psk: Secret,
    pub(crate) ticket: Vec<u8>,
    pub(crate) age_add: u32,
    pub(crate) lifetime_s: u32,
    pub(crate) received_ms: u64,
    pub(crate) max_early_data: Option<u32>,
    pub(crate) server_name: Option<String>,
    pub(crate) alpn: Option<Vec<u8>>,
    /// TLS 1.2 session ticket (RFC 5077): `psk` is then the 48-byte master secret.
    pub(crate) tls12: bool,
    /// TLS 1.2: whether the session used extended master secret (RFC 7627 §5.3).
    pub(crate) ems: bool,
}

impl core::fmt::Debug for Ticket {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ticket")
            .field("suite", &self.suite)
            .field("lifetime_s", &self.lifetime_s)
            .field("received_ms", &self.received_ms)
            .field("server_name", &self.server_name)
            .finish_non_exhaustive()
    }
}

impl Ticket {
    /// The server name the ticket was issued for; offer it only to the same name.
    pub fn server_name(&self) -> Option<&str> {
        self.server_name.as_deref()
    }

    /// The cipher suite of the connection that issued it.
    pub fn cipher_suite(&self) -> CipherSuite {
        self.suite
    }

    /// Whether this is a TLS 1.2 session ticket (RFC 5077) rather than a TLS 1.3 PSK.
    pub fn is_tls12(&self) -> bool {
        self.tls12
    }

    /// The opaque ticket bytes (the PSK identity).
    pub fn identity(&self) -> &[u8] {
        &self.ticket
    }

    /// Whether the ticket may still be offered at `now_ms` (within its lifetime, at most 7 days).
    pub fn is_usable(&self, now_ms: u64) -> bool {
        let Some(age) = now_ms.checked_sub(self.received_ms) else {
            return false;
        };
        age < u64::from(self.lifetime_s).saturating_mul(1000)
    }

    /// obfuscated_ticket_age at `now_ms` (RFC 8446 §4.2.11.1).
    pub(crate) fn obfuscated_age(&self, now_ms: u64) -> u32 {
        let age = now_ms.saturating_sub(self.received_ms);
        let age = u32::try_from(age).unwrap_or(u32::MAX);
        age.wrapping_add(self.age_add)
    }
}
