//! Open newtypes for the TLS registries the handshake uses, declared with
//! [`burrow_record::registry!`]: any value round-trips, and each listed value has its IANA name
//! (`name()`, `Display`).

use burrow_record::registry;

registry! {
    /// TLS cipher suite (RFC 8446 §B.4).
    pub struct CipherSuite(u16) {
        /// TLS_AES_128_GCM_SHA256.
        TLS13_AES_128_GCM_SHA256 = 0x1301 => "TLS_AES_128_GCM_SHA256",
        /// TLS_AES_256_GCM_SHA384.
        TLS13_AES_256_GCM_SHA384 = 0x1302 => "TLS_AES_256_GCM_SHA384",
        /// TLS_CHACHA20_POLY1305_SHA256.
        TLS13_CHACHA20_POLY1305_SHA256 = 0x1303 => "TLS_CHACHA20_POLY1305_SHA256",
        /// TLS 1.2 ECDHE_ECDSA_WITH_AES_128_GCM_SHA256.
        ECDHE_ECDSA_AES_128_GCM_SHA256 = 0xc02b => "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        /// TLS 1.2 ECDHE_ECDSA_WITH_AES_256_GCM_SHA384.
        ECDHE_ECDSA_AES_256_GCM_SHA384 = 0xc02c => "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        /// TLS 1.2 ECDHE_RSA_WITH_AES_128_GCM_SHA256.
        ECDHE_RSA_AES_128_GCM_SHA256 = 0xc02f => "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        /// TLS 1.2 ECDHE_RSA_WITH_AES_256_GCM_SHA384.
        ECDHE_RSA_AES_256_GCM_SHA384 = 0xc030 => "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        /// TLS 1.2 ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 (RFC 7905).
        ECDHE_RSA_CHACHA20_POLY1305_SHA256 = 0xcca8 => "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        /// TLS 1.2 ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 (RFC 7905).
        ECDHE_ECDSA_CHACHA20_POLY1305_SHA256 = 0xcca9 => "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
    }
}

registry! {
    /// Supported group (RFC 8446 §4.2.7).
    pub struct NamedGroup(u16) {
        /// secp256r1.
        SECP256R1 = 0x0017 => "secp256r1",
        /// secp384r1.
        SECP384R1 = 0x0018 => "secp384r1",
        /// secp521r1.
        SECP521R1 = 0x0019 => "secp521r1",
        /// x25519.
        X25519 = 0x001d => "x25519",
        /// x448 (offered by OpenSSL-based profiles; burrow cannot perform it).
        X448 = 0x001e => "x448",
        /// ffdhe2048.
        FFDHE2048 = 0x0100 => "ffdhe2048",
        /// ffdhe3072.
        FFDHE3072 = 0x0101 => "ffdhe3072",
        /// X25519MLKEM768.
        X25519MLKEM768 = 0x11ec => "X25519MLKEM768",
    }
}

registry! {
    /// Signature scheme (RFC 8446 §4.2.3).
    pub struct SignatureScheme(u16) {
        /// rsa_pkcs1_sha256 (certificates only in TLS 1.3).
        RSA_PKCS1_SHA256 = 0x0401 => "rsa_pkcs1_sha256",
        /// rsa_pkcs1_sha384.
        RSA_PKCS1_SHA384 = 0x0501 => "rsa_pkcs1_sha384",
        /// rsa_pkcs1_sha512.
        RSA_PKCS1_SHA512 = 0x0601 => "rsa_pkcs1_sha512",
        /// ecdsa_secp256r1_sha256.
        ECDSA_SECP256R1_SHA256 = 0x0403 => "ecdsa_secp256r1_sha256",
        /// ecdsa_secp384r1_sha384.
        ECDSA_SECP384R1_SHA384 = 0x0503 => "ecdsa_secp384r1_sha384",
        /// ecdsa_secp521r1_sha512.
        ECDSA_SECP521R1_SHA512 = 0x0603 => "ecdsa_secp521r1_sha512",
        /// rsa_pss_rsae_sha256.
        RSA_PSS_RSAE_SHA256 = 0x0804 => "rsa_pss_rsae_sha256",
        /// rsa_pss_rsae_sha384.
        RSA_PSS_RSAE_SHA384 = 0x0805 => "rsa_pss_rsae_sha384",
        /// rsa_pss_rsae_sha512.
        RSA_PSS_RSAE_SHA512 = 0x0806 => "rsa_pss_rsae_sha512",
        /// ed25519.
        ED25519 = 0x0807 => "ed25519",
        /// rsa_pss_pss_sha256.
        RSA_PSS_PSS_SHA256 = 0x0809 => "rsa_pss_pss_sha256",
        /// rsa_pss_pss_sha384.
        RSA_PSS_PSS_SHA384 = 0x080a => "rsa_pss_pss_sha384",
        /// rsa_pss_pss_sha512.
        RSA_PSS_PSS_SHA512 = 0x080b => "rsa_pss_pss_sha512",
        /// ed448 (offered by OpenSSL-based profiles; burrow cannot verify it).
        ED448 = 0x0808 => "ed448",
        /// ML-DSA-44 (offered by Chromium; burrow cannot verify it).
        MLDSA44 = 0x0904 => "mldsa44",
        /// ML-DSA-65.
        MLDSA65 = 0x0905 => "mldsa65",
        /// ML-DSA-87.
        MLDSA87 = 0x0906 => "mldsa87",
    }
}

registry! {
    /// Extension type (RFC 8446 §4.2 and others).
    pub struct ExtensionType(u16) {
        /// server_name.
        SERVER_NAME = 0 => "server_name",
        /// status_request.
        STATUS_REQUEST = 5 => "status_request",
        /// supported_groups.
        SUPPORTED_GROUPS = 10 => "supported_groups",
        /// ec_point_formats (TLS 1.2, RFC 8422).
        EC_POINT_FORMATS = 11 => "ec_point_formats",
        /// signature_algorithms.
        SIGNATURE_ALGORITHMS = 13 => "signature_algorithms",
        /// application_layer_protocol_negotiation.
        ALPN = 16 => "application_layer_protocol_negotiation",
        /// signed_certificate_timestamp.
        SCT = 18 => "signed_certificate_timestamp",
        /// padding.
        PADDING = 21 => "padding",
        /// encrypt_then_mac (RFC 7366; only meaningful with CBC suites, which burrow never
        /// performs).
        ENCRYPT_THEN_MAC = 22 => "encrypt_then_mac",
        /// extended_master_secret.
        EXTENDED_MASTER_SECRET = 23 => "extended_master_secret",
        /// compress_certificate (RFC 8879).
        COMPRESS_CERTIFICATE = 27 => "compress_certificate",
        /// record_size_limit.
        RECORD_SIZE_LIMIT = 28 => "record_size_limit",
        /// session_ticket (TLS 1.2).
        SESSION_TICKET = 35 => "session_ticket",
        /// pre_shared_key.
        PRE_SHARED_KEY = 41 => "pre_shared_key",
        /// certificate_authorities (RFC 8446 §4.2.4).
        CERTIFICATE_AUTHORITIES = 47 => "certificate_authorities",
        /// early_data.
        EARLY_DATA = 42 => "early_data",
        /// supported_versions.
        SUPPORTED_VERSIONS = 43 => "supported_versions",
        /// cookie.
        COOKIE = 44 => "cookie",
        /// psk_key_exchange_modes.
        PSK_KEY_EXCHANGE_MODES = 45 => "psk_key_exchange_modes",
        /// post_handshake_auth (RFC 8446 §4.2.6).
        POST_HANDSHAKE_AUTH = 49 => "post_handshake_auth",
        /// signature_algorithms_cert.
        SIGNATURE_ALGORITHMS_CERT = 50 => "signature_algorithms_cert",
        /// key_share.
        KEY_SHARE = 51 => "key_share",
        /// application_settings (ALPS), the code point Chromium 156 sends.
        APPLICATION_SETTINGS = 0x44cd => "application_settings",
        /// application_settings (ALPS), the older code point.
        APPLICATION_SETTINGS_OLD = 0x4469 => "application_settings_old",
        /// trust_anchors (draft-ietf-tls-trust-anchor-ids), the code point Chromium 156 sends.
        TRUST_ANCHORS = 0xca34 => "trust_anchors",
        /// encrypted_client_hello (RFC 9849).
        ENCRYPTED_CLIENT_HELLO = 0xfe0d => "encrypted_client_hello",
        /// renegotiation_info.
        RENEGOTIATION_INFO = 0xff01 => "renegotiation_info",
    }
}

registry! {
    /// Handshake message type (RFC 8446 §4).
    pub struct HandshakeType(u8) {
        /// hello_request (TLS 1.2; refused after the handshake, ignored during it).
        HELLO_REQUEST = 0 => "hello_request",
        /// client_hello.
        CLIENT_HELLO = 1 => "client_hello",
        /// server_hello (also HelloRetryRequest).
        SERVER_HELLO = 2 => "server_hello",
        /// new_session_ticket.
        NEW_SESSION_TICKET = 4 => "new_session_ticket",
        /// end_of_early_data.
        END_OF_EARLY_DATA = 5 => "end_of_early_data",
        /// encrypted_extensions.
        ENCRYPTED_EXTENSIONS = 8 => "encrypted_extensions",
        /// certificate.
        CERTIFICATE = 11 => "certificate",
        /// server_key_exchange (TLS 1.2).
        SERVER_KEY_EXCHANGE = 12 => "server_key_exchange",
        /// certificate_request.
        CERTIFICATE_REQUEST = 13 => "certificate_request",
        /// server_hello_done (TLS 1.2).
        SERVER_HELLO_DONE = 14 => "server_hello_done",
        /// certificate_verify.
        CERTIFICATE_VERIFY = 15 => "certificate_verify",
        /// client_key_exchange (TLS 1.2).
        CLIENT_KEY_EXCHANGE = 16 => "client_key_exchange",
        /// finished.
        FINISHED = 20 => "finished",
        /// certificate_status (TLS 1.2 OCSP stapling, RFC 6066).
        CERTIFICATE_STATUS = 22 => "certificate_status",
        /// key_update.
        KEY_UPDATE = 24 => "key_update",
        /// compressed_certificate (RFC 8879).
        COMPRESSED_CERTIFICATE = 25 => "compressed_certificate",
        /// message_hash (synthetic, for HelloRetryRequest transcripts).
        MESSAGE_HASH = 254 => "message_hash",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_iana_ones_and_unlisted_values_print_in_hex() {
        assert_eq!(
            CipherSuite::ECDHE_RSA_CHACHA20_POLY1305_SHA256.name(),
            Some("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256")
        );
        assert_eq!(NamedGroup::X25519MLKEM768.to_string(), "X25519MLKEM768");
        assert_eq!(format!("{:?}", SignatureScheme(0x0401)), "rsa_pkcs1_sha256");
        assert_eq!(ExtensionType(0xabcd).to_string(), "0xabcd");
        assert_eq!(ExtensionType(0xabcd).name(), None);
        assert_eq!(HandshakeType(3).to_string(), "0x03");
        assert_eq!(format!("{:?}", HandshakeType::KEY_UPDATE), "key_update");
    }
}
