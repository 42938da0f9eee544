//! What the ClientHello looks like: a plain value, so fingerprints are data, not code.

use crate::error::Unperformable;
use crate::{CipherSuite, Error, NamedGroup, SignatureScheme};
use burrow_crypto::kx::Group;

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
    /// An empty GREASE extension (when `grease.extensions` is on).
    Grease,
    /// A second GREASE extension with a different value and a one-byte body (BoringSSL puts it
    /// last), when `grease.extensions` is on.
    Grease2,
    /// encrypt_then_mac (RFC 7366), empty. Only affects CBC suites, which burrow never performs.
    EncryptThenMac,
    /// post_handshake_auth (RFC 8446 §4.2.6), empty, sent only for a profile's fidelity: burrow
    /// presents a client certificate during the handshake only, and a post-handshake
    /// CertificateRequest is refused (`TLS_POST_HANDSHAKE_AUTH`).
    PostHandshakeAuth,
    /// compress_certificate (RFC 8879), when `compress_certificate` lists algorithms.
    CompressCertificate,
    /// application_settings (ALPS) under `alps_codepoint`, when `alps` lists protocols.
    ApplicationSettings,
    /// trust_anchors (draft-ietf-tls-trust-anchor-ids), when `trust_anchor_ids` is not empty.
    TrustAnchors,
    /// encrypted_client_hello GREASE (RFC 9849 §6.2), when `ech_grease` is on: random
    /// config id, enc and payload, fresh per connection, repeated verbatim after a
    /// HelloRetryRequest.
    EchGrease,
    /// pre_shared_key (with a ticket), always emitted last.
    PreSharedKey,
}

impl ExtensionSlot {
    /// Slots that keep their place under [`Profile::permute_extensions`] (GREASE, padding and
    /// pre_shared_key, as BoringSSL does).
    pub fn is_fixed(self) -> bool {
        matches!(
            self,
            Self::Grease | Self::Grease2 | Self::Padding | Self::PreSharedKey
        )
    }
}

/// Where GREASE values (RFC 8701) go. Values are drawn from the connection's [`Entropy`]
/// (fresh per connection) and reused in a ClientHello answering a HelloRetryRequest.
///
/// [`Entropy`]: crate::Entropy
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GreasePlaces {
    /// First entry of cipher_suites.
    pub cipher_suites: bool,
    /// First entry of supported_groups.
    pub groups: bool,
    /// First key_share entry: the groups' GREASE value with a one-byte (0x00) key.
    pub key_share: bool,
    /// First entry of signature_algorithms.
    pub signature_algorithms: bool,
    /// First entry of supported_versions.
    pub versions: bool,
    /// The [`ExtensionSlot::Grease`] and [`ExtensionSlot::Grease2`] extensions.
    pub extensions: bool,
}

impl GreasePlaces {
    /// No GREASE at all.
    pub const NONE: Self = Self {
        cipher_suites: false,
        groups: false,
        key_share: false,
        signature_algorithms: false,
        versions: false,
        extensions: false,
    };
    /// Everywhere Chromium 156 puts it.
    pub const ALL: Self = Self {
        cipher_suites: true,
        groups: true,
        key_share: true,
        signature_algorithms: true,
        versions: true,
        extensions: true,
    };

    /// Whether any GREASE value is sent.
    pub fn any(&self) -> bool {
        self.cipher_suites
            || self.groups
            || self.key_share
            || self.signature_algorithms
            || self.versions
            || self.extensions
    }
}

/// TLS_EMPTY_RENEGOTIATION_INFO_SCSV: a signal in the suite list, never selectable.
const RENEGOTIATION_SCSV: CipherSuite = CipherSuite(0x00ff);

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
    /// Where GREASE values (RFC 8701) go.
    pub grease: GreasePlaces,
    /// The extension order (conditional slots are skipped when their condition does not hold).
    pub extension_order: Vec<ExtensionSlot>,
    /// Shuffle the non-fixed slots of `extension_order` per connection, as Chromium does
    /// (seeded from [`Entropy`](crate::Entropy); GREASE, padding and pre_shared_key stay put;
    /// a HelloRetryRequest answer keeps the same order).
    pub permute_extensions: bool,
    /// supported_versions, in order (empty: derived from the suites, TLS 1.3 then 1.2).
    pub supported_versions: Vec<u16>,
    /// ec_point_formats body entries (uncompressed = 0).
    pub ec_point_formats: Vec<u8>,
    /// compress_certificate algorithms (RFC 8879: 1 zlib, 2 brotli, 3 zstd), in order.
    pub compress_certificate: Vec<u16>,
    /// ALPS protocols (application_settings); empty: the extension is omitted.
    pub alps: Vec<Vec<u8>>,
    /// ALPS code point (0x44cd in Chromium 156, 0x4469 before).
    pub alps_codepoint: u16,
    /// trust_anchors extension: the trust anchor IDs, each as its binary OID-relative form.
    pub trust_anchor_ids: Vec<Vec<u8>>,
    /// Send an encrypted_client_hello GREASE extension (RFC 9849 §6.2).
    pub ech_grease: bool,
    /// Accept a profile that offers suites, groups, schemes or versions burrow cannot perform
    /// ([`Profile::unperformable`]); a server selecting one of them is then a named error.
    /// Off: such a profile is refused when a connection is created.
    pub allow_unperformable: bool,
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
            grease: GreasePlaces::NONE,
            permute_extensions: false,
            supported_versions: Vec::new(),
            ec_point_formats: vec![0],
            compress_certificate: Vec::new(),
            alps: Vec::new(),
            alps_codepoint: 0x44cd,
            trust_anchor_ids: Vec::new(),
            ech_grease: false,
            allow_unperformable: false,
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
            grease: GreasePlaces::NONE,
            permute_extensions: false,
            supported_versions: Vec::new(),
            ec_point_formats: vec![0],
            compress_certificate: Vec::new(),
            alps: Vec::new(),
            alps_codepoint: 0x44cd,
            trust_anchor_ids: Vec::new(),
            ech_grease: false,
            allow_unperformable: true,
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

    /// The names [`by_name`](Self::by_name) knows, the default first.
    pub const NAMES: &'static [&'static str] = &["curl", "curl_7_88", "chrome", "default_web"];

    /// A built-in profile by name: `curl` (curl 8.21.0 / OpenSSL 3.6, the default),
    /// `curl_7_88` (Debian curl 7.88.1 / OpenSSL 3.0), `chrome` (Chromium 156),
    /// `default_web` (burrow's original profile). `None` for anything else.
    pub fn by_name(name: &str) -> Option<Self> {
        Some(match name {
            "curl" => Self::curl(),
            "curl_7_88" => Self::curl_7_88(),
            "chrome" => Self::chrome(),
            "default_web" => Self::default_web(),
            _ => return None,
        })
    }

    /// curl 8.21.0 with OpenSSL 3.6.3 (`curl --http2`), as captured: 30 suites, X25519MLKEM768
    /// and x25519 shares, no GREASE, no padding (the hello is larger than 512 bytes).
    /// Resumption adds only pre_shared_key (last), as curl does; never early_data.
    ///
    /// It deliberately offers what burrow cannot perform (`allow_unperformable`): DHE, CBC
    /// and RSA key transport suites, x448, secp521r1 and finite-field groups, ML-DSA,
    /// Ed448, brainpool, ECDSA P-521, SHA-1 and SHA-224 schemes. A server selecting one of
    /// them gets [`Error::SelectedUnperformable`] (or `TLS12_LEGACY_CIPHER` for a TLS 1.2
    /// legacy suite) — never a silent downgrade.
    pub fn curl() -> Self {
        use ExtensionSlot as E;
        Self {
            cipher_suites: suites(CURL_SUITES),
            groups: groups(&[
                0x11ec, 0x001d, 0x0017, 0x001e, 0x0018, 0x0019, 0x0100, 0x0101,
            ]),
            key_shares: groups(&[0x11ec, 0x001d]),
            signature_schemes: schemes(&[
                0x0905, 0x0906, 0x0904, 0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x081a, 0x081b,
                0x081c, 0x0809, 0x080a, 0x080b, 0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601,
                0x0303, 0x0301, 0x0302, 0x0402, 0x0502, 0x0602,
            ]),
            signature_schemes_cert: Vec::new(),
            alpn: vec![b"h2".to_vec(), b"http/1.1".to_vec()],
            record_size_limit: None,
            compatibility_mode: true,
            grease: GreasePlaces::NONE,
            permute_extensions: false,
            supported_versions: vec![0x0304, 0x0303],
            ec_point_formats: vec![0],
            compress_certificate: Vec::new(),
            alps: Vec::new(),
            alps_codepoint: 0x44cd,
            trust_anchor_ids: Vec::new(),
            ech_grease: false,
            allow_unperformable: true,
            extension_order: vec![
                E::RenegotiationInfo,
                E::ServerName,
                E::EcPointFormats,
                E::SupportedGroups,
                E::Alpn,
                E::EncryptThenMac,
                E::ExtendedMasterSecret,
                E::PostHandshakeAuth,
                E::SignatureAlgorithms,
                E::SupportedVersions,
                E::PskKeyExchangeModes,
                E::KeyShare,
                E::Cookie,
                E::PreSharedKey,
            ],
        }
    }

    /// Debian curl 7.88.1 with OpenSSL 3.0 (also `--http2`; `--http1.1` only changes ALPN
    /// to `http/1.1`), as captured: 30 suites plus the renegotiation SCSV, an x25519 share,
    /// TLS 1.3 down to 1.0 in supported_versions, and padding to 512 bytes.
    ///
    /// Like [`curl`](Self::curl) it deliberately offers what burrow cannot perform
    /// (`allow_unperformable`): a server choosing TLS 1.0/1.1 gets `TLS_PROTOCOL_VERSION`,
    /// one choosing a legacy suite, group or scheme a named error.
    pub fn curl_7_88() -> Self {
        use ExtensionSlot as E;
        let mut cipher_suites = suites(CURL_SUITES);
        cipher_suites.push(RENEGOTIATION_SCSV);
        Self {
            cipher_suites,
            groups: groups(&[
                0x001d, 0x0017, 0x001e, 0x0019, 0x0018, 0x0100, 0x0101, 0x0102, 0x0103, 0x0104,
            ]),
            key_shares: groups(&[0x001d]),
            signature_schemes: schemes(&[
                0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x0809, 0x080a, 0x080b, 0x0804, 0x0805,
                0x0806, 0x0401, 0x0501, 0x0601, 0x0303, 0x0301, 0x0302, 0x0402, 0x0502, 0x0602,
            ]),
            signature_schemes_cert: Vec::new(),
            alpn: vec![b"h2".to_vec(), b"http/1.1".to_vec()],
            record_size_limit: None,
            compatibility_mode: true,
            grease: GreasePlaces::NONE,
            permute_extensions: false,
            supported_versions: vec![0x0304, 0x0303, 0x0302, 0x0301],
            ec_point_formats: vec![0, 1, 2],
            compress_certificate: Vec::new(),
            alps: Vec::new(),
            alps_codepoint: 0x44cd,
            trust_anchor_ids: Vec::new(),
            ech_grease: false,
            allow_unperformable: true,
            extension_order: vec![
                E::ServerName,
                E::EcPointFormats,
                E::SupportedGroups,
                E::Alpn,
                E::EncryptThenMac,
                E::ExtendedMasterSecret,
                E::PostHandshakeAuth,
                E::SignatureAlgorithms,
                E::SupportedVersions,
                E::PskKeyExchangeModes,
                E::KeyShare,
                E::Cookie,
                E::Padding,
                E::PreSharedKey,
            ],
        }
    }

    /// Chromium 156 (headless, Debian), as captured: GREASE in suites, groups, key shares,
    /// signature algorithms, versions and two extensions; X25519MLKEM768 first; ML-DSA
    /// schemes; ALPS (0x44cd) for h2; brotli certificate compression; ECH GREASE; the
    /// trust anchor IDs it sends; extension order shuffled per connection. Resumption adds
    /// only pre_shared_key (after the last GREASE extension), never early_data.
    ///
    /// `allow_unperformable` is set because Chromium offers CBC and RSA key transport suites
    /// and ML-DSA schemes; a server selecting one gets a named error.
    pub fn chrome() -> Self {
        use ExtensionSlot as E;
        Self {
            cipher_suites: suites(&[
                0x1301, 0x1302, 0x1303, 0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0xc013,
                0xc014, 0x009c, 0x009d, 0x002f, 0x0035,
            ]),
            groups: groups(&[0x11ec, 0x001d, 0x0017, 0x0018]),
            key_shares: groups(&[0x11ec, 0x001d]),
            signature_schemes: schemes(&[
                0x0904, 0x0905, 0x0906, 0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806,
                0x0601,
            ]),
            signature_schemes_cert: Vec::new(),
            alpn: vec![b"h2".to_vec(), b"http/1.1".to_vec()],
            record_size_limit: None,
            compatibility_mode: true,
            grease: GreasePlaces::ALL,
            permute_extensions: true,
            supported_versions: vec![0x0304, 0x0303],
            ec_point_formats: vec![0],
            compress_certificate: vec![2],
            alps: vec![b"h2".to_vec()],
            alps_codepoint: 0x44cd,
            trust_anchor_ids: CHROME_TRUST_ANCHOR_IDS.iter().map(|i| i.to_vec()).collect(),
            ech_grease: true,
            allow_unperformable: true,
            extension_order: vec![
                E::Grease,
                E::ServerName,
                E::ExtendedMasterSecret,
                E::RenegotiationInfo,
                E::SupportedGroups,
                E::EcPointFormats,
                E::SessionTicket,
                E::Alpn,
                E::StatusRequest,
                E::SignatureAlgorithms,
                E::Sct,
                E::KeyShare,
                E::PskKeyExchangeModes,
                E::SupportedVersions,
                E::Cookie,
                E::CompressCertificate,
                E::ApplicationSettings,
                E::TrustAnchors,
                E::EchGrease,
                E::Grease2,
                E::PreSharedKey,
            ],
        }
    }

    /// Whether the ClientHello carries a status_request (OCSP staple request).
    pub fn requests_staple(&self) -> bool {
        self.extension_order.contains(&ExtensionSlot::StatusRequest)
    }

    /// Adds a status_request slot if the profile has none, where OpenSSL puts it (after
    /// supported_groups, as `curl --cert-status` does; else before key_share, else before
    /// pre_shared_key). The fingerprint then differs from the captured client's by that
    /// extension.
    pub fn add_status_request(&mut self) {
        if self.requests_staple() {
            return;
        }
        let order = &mut self.extension_order;
        let at = order
            .iter()
            .position(|s| *s == ExtensionSlot::SupportedGroups)
            .map(|i| i.saturating_add(1))
            .or_else(|| order.iter().position(|s| *s == ExtensionSlot::KeyShare))
            .or_else(|| order.iter().position(|s| *s == ExtensionSlot::PreSharedKey))
            .unwrap_or(order.len());
        order.insert(at, ExtensionSlot::StatusRequest);
    }

    /// What this profile offers that burrow cannot perform, in the order offered.
    pub fn unperformable(&self) -> Vec<Unperformable> {
        let mut out = Vec::new();
        for s in &self.cipher_suites {
            if *s != RENEGOTIATION_SCSV
                && crate::suites::lookup(*s).is_none()
                && crate::suites::lookup12(*s).is_none()
            {
                out.push(Unperformable::CipherSuite(*s));
            }
        }
        for g in &self.groups {
            if Group::from_codepoint(g.0).is_none() {
                out.push(Unperformable::Group(*g));
            }
        }
        for s in self
            .signature_schemes
            .iter()
            .chain(&self.signature_schemes_cert)
        {
            if !scheme_performable(*s) {
                out.push(Unperformable::SignatureScheme(*s));
            }
        }
        for v in &self.supported_versions {
            if *v != 0x0304 && *v != 0x0303 {
                out.push(Unperformable::Version(*v));
            }
        }
        out
    }

    /// Refuses a profile that offers something burrow cannot perform (unless
    /// `allow_unperformable`), or whose key shares cannot be generated.
    pub fn validate(&self) -> Result<(), Error> {
        for g in &self.key_shares {
            if Group::from_codepoint(g.0).is_none() {
                return Err(Error::ProfileUnperformable(Unperformable::Group(*g)));
            }
        }
        if !self.allow_unperformable {
            if let Some(u) = self.unperformable().first() {
                return Err(Error::ProfileUnperformable(*u));
            }
        }
        Ok(())
    }
}

/// Whether burrow can check a signature made with `s` (TLS 1.3 CertificateVerify or TLS 1.2
/// ServerKeyExchange).
pub(crate) fn scheme_performable(s: SignatureScheme) -> bool {
    crate::signature::algorithm(s).is_some()
        || matches!(
            s,
            SignatureScheme::RSA_PKCS1_SHA256
                | SignatureScheme::RSA_PKCS1_SHA384
                | SignatureScheme::RSA_PKCS1_SHA512
        )
}

fn suites(v: &[u16]) -> Vec<CipherSuite> {
    v.iter().copied().map(CipherSuite).collect()
}

fn groups(v: &[u16]) -> Vec<NamedGroup> {
    v.iter().copied().map(NamedGroup).collect()
}

fn schemes(v: &[u16]) -> Vec<SignatureScheme> {
    v.iter().copied().map(SignatureScheme).collect()
}

/// The cipher suites of OpenSSL 3's default list, as curl 7.88 and 8.21 send them.
const CURL_SUITES: &[u16] = &[
    0x1302, 0x1303, 0x1301, 0xc02c, 0xc030, 0x009f, 0xcca9, 0xcca8, 0xccaa, 0xc02b, 0xc02f, 0x009e,
    0xc024, 0xc028, 0x006b, 0xc023, 0xc027, 0x0067, 0xc00a, 0xc014, 0x0039, 0xc009, 0xc013, 0x0033,
    0x009d, 0x009c, 0x003d, 0x003c, 0x0035, 0x002f,
];

/// The 28 trust anchor IDs Chromium 156 sends (binary relative-OID form), in its order.
const CHROME_TRUST_ANCHOR_IDS: &[&[u8]] = &[
    &[0x82, 0xdf, 0x13, 0x02, 0x01],
    &[0x82, 0xdf, 0x13, 0x02, 0x06],
    &[0x82, 0xdf, 0x13, 0x02, 0x0d],
    &[0x82, 0xdf, 0x13, 0x02, 0x0e],
    &[0x82, 0xdf, 0x13, 0x02, 0x0f],
    &[0x82, 0xdf, 0x13, 0x02, 0x12],
    &[0x82, 0xdf, 0x13, 0x02, 0x13],
    &[0x82, 0xdf, 0x13, 0x02, 0x14],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x07],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x08],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x09],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x0a],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x0b],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x0c],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x0d],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x12],
    &[0x83, 0x9a, 0x64, 0x8c, 0x9b, 0x2d, 0x01, 0x13],
    &[0xd6, 0x79, 0x09, 0x01],
    &[0xd6, 0x79, 0x09, 0x04],
    &[0xd6, 0x79, 0x09, 0x05],
    &[0xd6, 0x79, 0x09, 0x06],
    &[0xd6, 0x79, 0x09, 0x07],
    &[0xd6, 0x79, 0x09, 0x08],
    &[0xd6, 0x79, 0x09, 0x0a],
    &[0xd6, 0x79, 0x09, 0x0b],
    &[0xd6, 0x79, 0x09, 0x0c],
    &[0xd6, 0x79, 0x09, 0x0d],
    &[0xd6, 0x79, 0x09, 0x0f],
];
