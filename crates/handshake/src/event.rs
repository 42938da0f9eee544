//! What the connection hands the caller: events, the handshake's summary, traffic keys.

use crate::{CipherSuite, NamedGroup, SignRequest, Ticket, VerifyRequest};
use burrow_crypto::aead::AeadAlgorithm;
use burrow_record::{OpenJob, SealJob};

/// What the handshake negotiated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandshakeSummary {
    /// The cipher suite.
    pub cipher_suite: CipherSuite,
    /// The key exchange group.
    pub group: NamedGroup,
    /// The ALPN protocol, if any.
    pub alpn: Option<Vec<u8>>,
    /// Whether a ticket was accepted (PSK resumption).
    pub resumed: bool,
    /// Whether the server sent a HelloRetryRequest.
    pub hello_retry: bool,
    /// Whether the server accepted the (empty) early data indication.
    pub early_data_accepted: bool,
    /// TLS 1.2: whether the session uses extended master secret (RFC 7627); `None` for TLS 1.3,
    /// whose key schedule always binds the transcript. `Some(false)` sessions issue no ticket.
    pub extended_master_secret: Option<bool>,
}

/// Something the caller must act on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// Nothing to do until more bytes are fed.
    NeedData,
    /// Nothing to do until the outstanding request ([`Event::NeedVerify`], [`Event::NeedSeal`])
    /// is answered. Feeding bytes does not help: answer it.
    AwaitingAnswer,
    /// Bytes are waiting in [`Connection::take_transmit`](crate::Connection::take_transmit).
    Transmit,
    /// Validate the server's certificate chain; answer with
    /// [`Connection::complete`](crate::Connection::complete).
    NeedVerify(VerifyRequest),
    /// Sign the CertificateVerify with the client certificate's key; answer with
    /// [`Connection::complete_sign`](crate::Connection::complete_sign).
    NeedSign(SignRequest),
    /// The handshake finished; application data may flow.
    HandshakeDone(HandshakeSummary),
    /// Application data from the server: this many bytes are lent at
    /// [`Connection::plaintext`](crate::Connection::plaintext), in the record buffer where they
    /// were decrypted. The event repeats until they are all
    /// [`Connection::consume_plaintext`](crate::Connection::consume_plaintext)-ed.
    Plaintext(usize),
    /// A ticket for resuming a later connection to the same server.
    NewSessionTicket(Ticket),
    /// The server sent close_notify; nothing more will be read.
    PeerClosed,
    /// Offload mode: a traffic key to import; later jobs name it by `key_id`.
    TrafficKey(TrafficKeyInfo),
    /// Offload mode: open [`Connection::open_buffer`](crate::Connection::open_buffer) in place,
    /// then [`Connection::complete_open`](crate::Connection::complete_open).
    NeedOpen(OpenJob),
    /// Offload mode: seal [`Connection::seal_buffer`](crate::Connection::seal_buffer) in place
    /// (ciphertext, then the 16-byte tag into its last 16 bytes), then
    /// [`Connection::complete_seal`](crate::Connection::complete_seal).
    NeedSeal(SealJob),
}

/// A traffic key for an offloading caller.
#[derive(Clone, PartialEq, Eq)]
pub struct TrafficKeyInfo {
    /// The id jobs use.
    pub key_id: u32,
    /// The AEAD.
    pub algorithm: AeadAlgorithm,
    /// The raw key.
    pub key: Vec<u8>,
    /// Whether it opens server records (else it seals ours).
    pub for_reading: bool,
}

impl core::fmt::Debug for TrafficKeyInfo {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TrafficKeyInfo")
            .field("key_id", &self.key_id)
            .field("algorithm", &self.algorithm)
            .field("for_reading", &self.for_reading)
            .finish_non_exhaustive()
    }
}
