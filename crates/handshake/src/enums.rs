//! Open newtypes for the TLS registries the handshake uses. Any value round-trips.

macro_rules! open_u16 {
    ($(#[$m:meta])* $name:ident { $($(#[$cm:meta])* $c:ident = $v:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u16);
        impl $name {
            $($(#[$cm])* pub const $c: Self = Self($v);)*
        }
    };
}

open_u16!(
    /// TLS cipher suite (RFC 8446 §B.4).
    CipherSuite {
        /// TLS_AES_128_GCM_SHA256.
        TLS13_AES_128_GCM_SHA256 = 0x1301,
        /// TLS_AES_256_GCM_SHA384.
        TLS13_AES_256_GCM_SHA384 = 0x1302,
        /// TLS_CHACHA20_POLY1305_SHA256.
        TLS13_CHACHA20_POLY1305_SHA256 = 0x1303,
        /// TLS 1.2 ECDHE_ECDSA_WITH_AES_128_GCM_SHA256.
        ECDHE_ECDSA_AES_128_GCM_SHA256 = 0xc02b,
        /// TLS 1.2 ECDHE_ECDSA_WITH_AES_256_GCM_SHA384.
        ECDHE_ECDSA_AES_256_GCM_SHA384 = 0xc02c,
        /// TLS 1.2 ECDHE_RSA_WITH_AES_128_GCM_SHA256.
        ECDHE_RSA_AES_128_GCM_SHA256 = 0xc02f,
        /// TLS 1.2 ECDHE_RSA_WITH_AES_256_GCM_SHA384.
        ECDHE_RSA_AES_256_GCM_SHA384 = 0xc030,
        /// TLS 1.2 ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 (RFC 7905).
        ECDHE_RSA_CHACHA20_POLY1305_SHA256 = 0xcca8,
        /// TLS 1.2 ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 (RFC 7905).
        ECDHE_ECDSA_CHACHA20_POLY1305_SHA256 = 0xcca9,
    }
);

open_u16!(
    /// Supported group (RFC 8446 §4.2.7).
    NamedGroup {
        /// secp256r1.
        SECP256R1 = 0x0017,
        /// secp384r1.
        SECP384R1 = 0x0018,
        /// secp521r1.
        SECP521R1 = 0x0019,
        /// x25519.
        X25519 = 0x001d,
        /// x448 (offered by OpenSSL-based profiles; burrow cannot perform it).
        X448 = 0x001e,
        /// ffdhe2048.
        FFDHE2048 = 0x0100,
        /// ffdhe3072.
        FFDHE3072 = 0x0101,
        /// X25519MLKEM768.
        X25519MLKEM768 = 0x11ec,
    }
);

open_u16!(
    /// Signature scheme (RFC 8446 §4.2.3).
    SignatureScheme {
        /// rsa_pkcs1_sha256 (certificates only in TLS 1.3).
        RSA_PKCS1_SHA256 = 0x0401,
        /// rsa_pkcs1_sha384.
        RSA_PKCS1_SHA384 = 0x0501,
        /// rsa_pkcs1_sha512.
        RSA_PKCS1_SHA512 = 0x0601,
        /// ecdsa_secp256r1_sha256.
        ECDSA_SECP256R1_SHA256 = 0x0403,
        /// ecdsa_secp384r1_sha384.
        ECDSA_SECP384R1_SHA384 = 0x0503,
        /// ecdsa_secp521r1_sha512.
        ECDSA_SECP521R1_SHA512 = 0x0603,
        /// rsa_pss_rsae_sha256.
        RSA_PSS_RSAE_SHA256 = 0x0804,
        /// rsa_pss_rsae_sha384.
        RSA_PSS_RSAE_SHA384 = 0x0805,
        /// rsa_pss_rsae_sha512.
        RSA_PSS_RSAE_SHA512 = 0x0806,
        /// ed25519.
        ED25519 = 0x0807,
        /// rsa_pss_pss_sha256.
        RSA_PSS_PSS_SHA256 = 0x0809,
        /// rsa_pss_pss_sha384.
        RSA_PSS_PSS_SHA384 = 0x080a,
        /// rsa_pss_pss_sha512.
        RSA_PSS_PSS_SHA512 = 0x080b,
        /// ed448 (offered by OpenSSL-based profiles; burrow cannot verify it).
        ED448 = 0x0808,
        /// ML-DSA-44 (offered by Chromium; burrow cannot verify it).
        MLDSA44 = 0x0904,
        /// ML-DSA-65.
        MLDSA65 = 0x0905,
        /// ML-DSA-87.
        MLDSA87 = 0x0906,
    }
);

open_u16!(
    /// Extension type (RFC 8446 §4.2 and others).
    ExtensionType {
        /// server_name.
        SERVER_NAME = 0,
        /// status_request.
        STATUS_REQUEST = 5,
        /// supported_groups.
        SUPPORTED_GROUPS = 10,
        /// ec_point_formats (TLS 1.2, RFC 8422).
        EC_POINT_FORMATS = 11,
        /// signature_algorithms.
        SIGNATURE_ALGORITHMS = 13,
        /// application_layer_protocol_negotiation.
        ALPN = 16,
        /// signed_certificate_timestamp.
        SCT = 18,
        /// padding.
        PADDING = 21,
        /// encrypt_then_mac (RFC 7366; only meaningful with CBC suites, which burrow never
        /// performs).
        ENCRYPT_THEN_MAC = 22,
        /// extended_master_secret.
        EXTENDED_MASTER_SECRET = 23,
        /// compress_certificate (RFC 8879).
        COMPRESS_CERTIFICATE = 27,
        /// record_size_limit.
        RECORD_SIZE_LIMIT = 28,
        /// session_ticket (TLS 1.2).
        SESSION_TICKET = 35,
        /// pre_shared_key.
        PRE_SHARED_KEY = 41,
        /// early_data.
        EARLY_DATA = 42,
        /// supported_versions.
        SUPPORTED_VERSIONS = 43,
        /// cookie.
        COOKIE = 44,
        /// psk_key_exchange_modes.
        PSK_KEY_EXCHANGE_MODES = 45,
        /// post_handshake_auth (RFC 8446 §4.2.6).
        POST_HANDSHAKE_AUTH = 49,
        /// signature_algorithms_cert.
        SIGNATURE_ALGORITHMS_CERT = 50,
        /// key_share.
        KEY_SHARE = 51,
        /// application_settings (ALPS), the code point Chromium 156 sends.
        APPLICATION_SETTINGS = 0x44cd,
        /// application_settings (ALPS), the older code point.
        APPLICATION_SETTINGS_OLD = 0x4469,
        /// trust_anchors (draft-ietf-tls-trust-anchor-ids), the code point Chromium 156 sends.
        TRUST_ANCHORS = 0xca34,
        /// encrypted_client_hello (RFC 9849).
        ENCRYPTED_CLIENT_HELLO = 0xfe0d,
        /// renegotiation_info.
        RENEGOTIATION_INFO = 0xff01,
    }
);

/// Handshake message type (RFC 8446 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HandshakeType(pub u8);

impl HandshakeType {
    /// client_hello.
    pub const CLIENT_HELLO: Self = Self(1);
    /// hello_request (TLS 1.2; refused after the handshake, ignored during it).
    pub const HELLO_REQUEST: Self = Self(0);
    /// server_key_exchange (TLS 1.2).
    pub const SERVER_KEY_EXCHANGE: Self = Self(12);
    /// server_hello_done (TLS 1.2).
    pub const SERVER_HELLO_DONE: Self = Self(14);
    /// client_key_exchange (TLS 1.2).
    pub const CLIENT_KEY_EXCHANGE: Self = Self(16);
    /// certificate_status (TLS 1.2 OCSP stapling, RFC 6066).
    pub const CERTIFICATE_STATUS: Self = Self(22);
    /// server_hello (also HelloRetryRequest).
    pub const SERVER_HELLO: Self = Self(2);
    /// new_session_ticket.
    pub const NEW_SESSION_TICKET: Self = Self(4);
    /// end_of_early_data.
    pub const END_OF_EARLY_DATA: Self = Self(5);
    /// encrypted_extensions.
    pub const ENCRYPTED_EXTENSIONS: Self = Self(8);
    /// certificate.
    pub const CERTIFICATE: Self = Self(11);
    /// certificate_request.
    pub const CERTIFICATE_REQUEST: Self = Self(13);
    /// certificate_verify.
    pub const CERTIFICATE_VERIFY: Self = Self(15);
    /// finished.
    pub const FINISHED: Self = Self(20);
    /// key_update.
    pub const KEY_UPDATE: Self = Self(24);
    /// compressed_certificate (RFC 8879).
    pub const COMPRESSED_CERTIFICATE: Self = Self(25);
    /// message_hash (synthetic, for HelloRetryRequest transcripts).
    pub const MESSAGE_HASH: Self = Self(254);
}
