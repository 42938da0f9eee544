//! What the ClientHello looks like: a plain value, so fingerprints are data, not code.

use crate::{CipherSuite, NamedGroup, SignatureScheme};

/// One extension position in the ClientHello. Extensions whose condition does not hold (no
/// server name, no ALPN, no cookie, no ticket) are skipped; `PreSharedKey` is always last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExtensionSlot {
    /// server_name (when a DNS name is configured).
    ServerName,
    /// renegotiation_info, empty (signals secure renegotiation to TLS 1.2 stacks).
    RenegotiationInfo,
    /// supported_groups.
    SupportedGroups,
    /// session_ticket (TLS 1.2), empty.
    SessionTicket,
    /// key_share.
    KeyShare,
    /// early_data indication (only with a ticket; see the crate docs: no 0-RTT data is sent).
    EarlyData,
    /// supported_versions (TLS 1.3 only).
    SupportedVersions,
    /// signature_algorithms.
    SignatureAlgorithms,
    /// signature_algorithms_cert (when the profile lists any).
    SignatureAlgorithmsCert,
    /// cookie (only in a ClientHello answering a HelloRetryRequest with one).
    Cookie,
    /// psk_key_exchange_modes (psk_dhe_ke only).
    PskKeyExchangeModes,
    /// record_size_limit (when the profile sets one).
    RecordSizeLimit,
    /// padding, per RFC 7685 / the BoringSSL rule: pad hellos of 256..511 bytes to 512.
    Padding,
    /// application_layer_protocol_negotiation (when the profile lists protocols).
    Alpn,
    /// status_request (OCSP stapling).
    StatusRequest,
    /// signed_certificate_timestamp.
    Sct,
    /// extended_master_secret, empty (for TLS 1.2 compatibility).
    ExtendedMasterSecret,
    /// ec_point_formats (TLS 1.2, RFC 8422): uncompressed only.
    EcPointFormats,
    /// An empty GREASE extension (when `grease` is on).
    Grease,
    /// pre_shared_key (with a ticket), always emitted last.
    PreSharedKey,
}

/// Everything that shapes the ClientHello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Offered cipher suites, in preference order.
    pub cipher_suites: Vec<CipherSuite>,
    /// supported_groups, in preference order.
    pub groups: Vec<NamedGroup>,
    /// Groups for which a key share is sent in the first ClientHello.
    pub key_shares: Vec<NamedGroup>,
    /// signature_algorithms.
    pub signature_schemes: Vec<SignatureScheme>,
    /// signature_algorithms_cert (empty: the extension is omitted).
    pub signature_schemes_cert: Vec<SignatureScheme>,
    /// ALPN protocols (empty: the extension is omitted).
    pub alpn: Vec<Vec<u8>>,
    /// record_size_limit to advertise (RFC 8449), if any.
    pub record_size_limit: Option<u16>,
    /// Send a 32-byte legacy_session_id and a dummy change_cipher_spec (middlebox
    /// compatibility mode, RFC 8446 §D.4).
    pub compatibility_mode: bool,
    /// Insert GREASE values (RFC 8701) in suites, groups, versions and a GREASE extension.
    pub grease: bool,
    /// The extension order.
    pub extension_order: Vec<ExtensionSlot>,
}

impl Profile {
    /// A modern browser-like default: TLS 1.3 and TLS 1.2 (ECDHE only) with AES-128/256-GCM,
    /// ChaCha20, X25519 share, P-256/P-384,
    /// ECDSA/RSA-PSS/Ed25519, ALPN `http/1.1`, compatibility mode, OCSP stapling requested.
    pub fn default_web() -> Self {
        use ExtensionSlot as E;
        Self {
            cipher_suites: vec![
                CipherSuite::TLS13_AES_128_GCM_SHA256,
                CipherSuite::TLS13_AES_256_GCM_SHA384,
                CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
                CipherSuite::ECDHE_ECDSA_AES_128_GCM_SHA256,
                CipherSuite::ECDHE_RSA_AES_128_GCM_SHA256,
                CipherSuite::ECDHE_ECDSA_AES_256_GCM_SHA384,
                CipherSuite::ECDHE_RSA_AES_256_GCM_SHA384,
                CipherSuite::ECDHE_ECDSA_CHACHA20_POLY1305_SHA256,
                CipherSuite::ECDHE_RSA_CHACHA20_POLY1305_SHA256,
            ],
            groups: vec![
                NamedGroup::X25519,
                NamedGroup::SECP256R1,
                NamedGroup::SECP384R1,
            ],
            key_shares: vec![NamedGroup::X25519],
            signature_schemes: vec![
                SignatureScheme::ECDSA_SECP256R1_SHA256,
                SignatureScheme::RSA_PSS_RSAE_SHA256,
                SignatureScheme::RSA_PKCS1_SHA256,
                SignatureScheme::ECDSA_SECP384R1_SHA384,
                SignatureScheme::RSA_PSS_RSAE_SHA384,
                SignatureScheme::RSA_PKCS1_SHA384,
                SignatureScheme::RSA_PSS_RSAE_SHA512,
                SignatureScheme::RSA_PKCS1_SHA512,
                SignatureScheme::ED25519,
            ],
            signature_schemes_cert: Vec::new(),
            alpn: vec![b"http/1.1".to_vec()],
            record_size_limit: None,
            compatibility_mode: true,
            grease: false,
            extension_order: vec![
                E::Grease,
                E::ServerName,
                E::ExtendedMasterSecret,
                E::RenegotiationInfo,
                E::SupportedGroups,
                E::SessionTicket,
                E::Alpn,
                E::StatusRequest,
                E::SignatureAlgorithms,
                E::Sct,
                E::KeyShare,
                E::PskKeyExchangeModes,
                E::SupportedVersions,
                E::Cookie,
                E::Padding,
                E::PreSharedKey,
            ],
        }
    }

    /// The ClientHello of the RFC 8448 simple 1-RTT trace (§3).
    pub fn rfc8448() -> Self {
        use ExtensionSlot as E;
        Self {
            cipher_suites: vec![
                CipherSuite::TLS13_AES_128_GCM_SHA256,
                CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
                CipherSuite::TLS13_AES_256_GCM_SHA384,
            ],
            groups: [
                0x001d, 0x0017, 0x0018, 0x0019, 0x0100, 0x0101, 0x0102, 0x0103, 0x0104,
            ]
            .into_iter()
            .map(NamedGroup)
            .collect(),
            key_shares: vec![NamedGroup::X25519],
            signature_schemes: [
                0x0403, 0x0503, 0x0603, 0x0203, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601,
                0x0201, 0x0402, 0x0502, 0x0602, 0x0202,
            ]
            .into_iter()
            .map(SignatureScheme)
            .collect(),
            signature_schemes_cert: Vec::new(),
            alpn: Vec::new(),
            record_size_limit: Some(0x4001),
            compatibility_mode: false,
            grease: false,
            extension_order: vec![
                E::ServerName,
                E::RenegotiationInfo,
                E::SupportedGroups,
                E::SessionTicket,
                E::KeyShare,
                E::EarlyData,
                E::SupportedVersions,
                E::SignatureAlgorithms,
                E::Cookie,
                E::PskKeyExchangeModes,
                E::RecordSizeLimit,
                E::Padding,
                E::PreSharedKey,
            ],
        }
    }
}
