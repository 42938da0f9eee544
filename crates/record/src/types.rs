//! Open newtypes for the IANA registries the record layer touches.

macro_rules! open_u8 {
    ($(#[$m:meta])* $name:ident { $($(#[$cm:meta])* $c:ident = $v:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u8);
        impl $name {
            $($(#[$cm])* pub const $c: Self = Self($v);)*
        }
    };
}

open_u8!(
    /// TLS `ContentType` (RFC 8446 §5.1). Any value round-trips.
    ContentType {
        /// change_cipher_spec(20).
        CHANGE_CIPHER_SPEC = 20,
        /// alert(21).
        ALERT = 21,
        /// handshake(22).
        HANDSHAKE = 22,
        /// application_data(23).
        APPLICATION_DATA = 23,
    }
);

open_u8!(
    /// Alert level (RFC 8446 §6). TLS 1.3 treats every alert but close_notify and
    /// user_canceled as fatal whatever its level.
    AlertLevel {
        /// warning(1).
        WARNING = 1,
        /// fatal(2).
        FATAL = 2,
    }
);

open_u8!(
    /// Alert description (RFC 8446 §6).
    AlertDescription {
        /// close_notify(0).
        CLOSE_NOTIFY = 0,
        /// unexpected_message(10).
        UNEXPECTED_MESSAGE = 10,
        /// bad_record_mac(20).
        BAD_RECORD_MAC = 20,
        /// record_overflow(22).
        RECORD_OVERFLOW = 22,
        /// handshake_failure(40).
        HANDSHAKE_FAILURE = 40,
        /// bad_certificate(42).
        BAD_CERTIFICATE = 42,
        /// unsupported_certificate(43).
        UNSUPPORTED_CERTIFICATE = 43,
        /// certificate_revoked(44).
        CERTIFICATE_REVOKED = 44,
        /// certificate_expired(45).
        CERTIFICATE_EXPIRED = 45,
        /// certificate_unknown(46).
        CERTIFICATE_UNKNOWN = 46,
        /// illegal_parameter(47).
        ILLEGAL_PARAMETER = 47,
        /// unknown_ca(48).
        UNKNOWN_CA = 48,
        /// decode_error(50).
        DECODE_ERROR = 50,
        /// decrypt_error(51).
        DECRYPT_ERROR = 51,
        /// protocol_version(70).
        PROTOCOL_VERSION = 70,
        /// insufficient_security(71).
        INSUFFICIENT_SECURITY = 71,
        /// internal_error(80).
        INTERNAL_ERROR = 80,
        /// user_canceled(90).
        USER_CANCELED = 90,
        /// no_renegotiation(100), TLS 1.2 (RFC 5246 §7.2.2).
        NO_RENEGOTIATION = 100,
        /// missing_extension(109).
        MISSING_EXTENSION = 109,
        /// unsupported_extension(110).
        UNSUPPORTED_EXTENSION = 110,
        /// unrecognized_name(112).
        UNRECOGNIZED_NAME = 112,
        /// bad_certificate_status_response(113).
        BAD_CERTIFICATE_STATUS_RESPONSE = 113,
        /// no_application_protocol(120).
        NO_APPLICATION_PROTOCOL = 120,
    }
);

/// `ProtocolVersion` as it appears on the wire. Any value round-trips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProtocolVersion(pub u16);

impl ProtocolVersion {
    /// TLS 1.0 (0x0301): the `legacy_record_version` of an initial ClientHello.
    pub const TLS10: Self = Self(0x0301);
    /// TLS 1.2 (0x0303): `legacy_record_version` of every other record.
    pub const TLS12: Self = Self(0x0303);
    /// TLS 1.3 (0x0304), only ever inside `supported_versions`.
    pub const TLS13: Self = Self(0x0304);
}
