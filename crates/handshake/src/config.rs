//! The connection's configuration.

use crate::{ClientCertificate, Profile, SignatureCheck, Ticket};

/// What the client is configured to do.
#[derive(Clone, Debug)]
pub struct Config {
    /// The ClientHello shape.
    pub profile: Profile,
    /// The DNS name to send as SNI and hand to the verifier (`None` for IP literals).
    pub server_name: Option<String>,
    /// Who checks the CertificateVerify signature.
    pub signature_check: SignatureCheck,
    /// A ticket to offer for PSK resumption (psk_dhe_ke only).
    pub resumption: Option<Ticket>,
    /// Largest handshake message accepted (bytes).
    pub max_handshake_message: usize,
    /// Hand record AEAD work to the caller ([`Event::TrafficKey`](crate::Event::TrafficKey),
    /// [`Event::NeedOpen`](crate::Event::NeedOpen), [`Event::NeedSeal`](crate::Event::NeedSeal))
    /// instead of doing it inline with burrow-crypto.
    pub aead_offload: bool,
    /// TLS 1.2: refuse a server without extended master secret (RFC 7627) with
    /// `TLS12_NO_EXTENDED_MASTER_SECRET`. Off by default, as in curl, browsers, rustls and Go: such
    /// a server is accepted, but its session is never resumed (no
    /// [`Event::NewSessionTicket`](crate::Event::NewSessionTicket) comes out of it), which is where
    /// the triple-handshake attack needs it;
    /// [`HandshakeSummary::extended_master_secret`](crate::HandshakeSummary::extended_master_secret)
    /// says which case it was.
    pub require_extended_master_secret: bool,
    /// Collect the connection's secrets in the NSS key log format for
    /// [`Connection::take_key_log`](crate::Connection::take_key_log) (the `SSLKEYLOGFILE` of other
    /// clients, for decrypting a capture). Off by default: whoever reads the entries can decrypt
    /// the connection.
    pub key_log: bool,
    /// The certificate to offer when the server sends a CertificateRequest (`None`: answer
    /// with an empty Certificate). Its key stays with the caller, who signs on
    /// [`Event::NeedSign`](crate::Event::NeedSign).
    pub client_certificate: Option<ClientCertificate>,
}

impl Config {
    /// A config with `profile` for `server_name`.
    pub fn new(profile: Profile, server_name: Option<&str>) -> Self {
        Self {
            profile,
            server_name: server_name.map(str::to_string),
            signature_check: SignatureCheck::Inline,
            resumption: None,
            max_handshake_message: 128 * 1024,
            aead_offload: false,
            require_extended_master_secret: false,
            key_log: false,
            client_certificate: None,
        }
    }
}
