//! Open newtypes for the IANA registries the record layer touches, and [`registry!`], the one
//! macro that declares such a type (burrow-handshake declares its registries with it too).

/// Declares an open newtype over a protocol registry: any value round-trips (`pub` field),
/// named values are associated consts, `name()` is the registry's name for a value the table
/// lists, and `Display` and `Debug` print that name, or the value in hex (`0x1301`) when the
/// table does not list it.
///
/// ```
/// burrow_record::registry! {
///     /// A made-up registry.
///     pub struct Colour(u8) {
///         /// red(1).
///         RED = 1 => "red",
///     }
/// }
/// assert_eq!(Colour::RED.name(), Some("red"));
/// assert_eq!(Colour(1).to_string(), "red");
/// assert_eq!(format!("{:?}", Colour(7)), "0x07");
/// assert_eq!(Colour(7).name(), None);
/// ```
#[macro_export]
macro_rules! registry {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident($int:ty) {
            $( $(#[$cmeta:meta])* $konst:ident = $value:expr => $text:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $name(pub $int);

        impl $name {
            $( $(#[$cmeta])* pub const $konst: Self = Self($value); )*

            /// The registry's name for this value; `None` for a value this table does not list.
            pub const fn name(self) -> Option<&'static str> {
                $( if self.0 == $value { return Some($text); } )*
                None
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(
                        f,
                        "0x{:0w$x}",
                        self.0,
                        w = core::mem::size_of::<$int>().saturating_mul(2)
                    ),
                }
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(self, f)
            }
        }
    };
}

registry! {
    /// TLS `ContentType` (RFC 8446 §5.1).
    pub struct ContentType(u8) {
        /// change_cipher_spec(20).
        CHANGE_CIPHER_SPEC = 20 => "change_cipher_spec",
        /// alert(21).
        ALERT = 21 => "alert",
        /// handshake(22).
        HANDSHAKE = 22 => "handshake",
        /// application_data(23).
        APPLICATION_DATA = 23 => "application_data",
    }
}

registry! {
    /// Alert level (RFC 8446 §6). TLS 1.3 treats every alert but close_notify and
    /// user_canceled as fatal whatever its level.
    pub struct AlertLevel(u8) {
        /// warning(1).
        WARNING = 1 => "warning",
        /// fatal(2).
        FATAL = 2 => "fatal",
    }
}

registry! {
    /// Alert description (RFC 8446 §6).
    pub struct AlertDescription(u8) {
        /// close_notify(0).
        CLOSE_NOTIFY = 0 => "close_notify",
        /// unexpected_message(10).
        UNEXPECTED_MESSAGE = 10 => "unexpected_message",
        /// bad_record_mac(20).
        BAD_RECORD_MAC = 20 => "bad_record_mac",
        /// record_overflow(22).
        RECORD_OVERFLOW = 22 => "record_overflow",
        /// handshake_failure(40).
        HANDSHAKE_FAILURE = 40 => "handshake_failure",
        /// bad_certificate(42).
        BAD_CERTIFICATE = 42 => "bad_certificate",
        /// unsupported_certificate(43).
        UNSUPPORTED_CERTIFICATE = 43 => "unsupported_certificate",
        /// certificate_revoked(44).
        CERTIFICATE_REVOKED = 44 => "certificate_revoked",
        /// certificate_expired(45).
        CERTIFICATE_EXPIRED = 45 => "certificate_expired",
        /// certificate_unknown(46).
        CERTIFICATE_UNKNOWN = 46 => "certificate_unknown",
        /// illegal_parameter(47).
        ILLEGAL_PARAMETER = 47 => "illegal_parameter",
        /// unknown_ca(48).
        UNKNOWN_CA = 48 => "unknown_ca",
        /// decode_error(50).
        DECODE_ERROR = 50 => "decode_error",
        /// decrypt_error(51).
        DECRYPT_ERROR = 51 => "decrypt_error",
        /// protocol_version(70).
        PROTOCOL_VERSION = 70 => "protocol_version",
        /// insufficient_security(71).
        INSUFFICIENT_SECURITY = 71 => "insufficient_security",
        /// internal_error(80).
        INTERNAL_ERROR = 80 => "internal_error",
        /// user_canceled(90).
        USER_CANCELED = 90 => "user_canceled",
        /// no_renegotiation(100), TLS 1.2 (RFC 5246 §7.2.2).
        NO_RENEGOTIATION = 100 => "no_renegotiation",
        /// missing_extension(109).
        MISSING_EXTENSION = 109 => "missing_extension",
        /// unsupported_extension(110).
        UNSUPPORTED_EXTENSION = 110 => "unsupported_extension",
        /// unrecognized_name(112).
        UNRECOGNIZED_NAME = 112 => "unrecognized_name",
        /// bad_certificate_status_response(113).
        BAD_CERTIFICATE_STATUS_RESPONSE = 113 => "bad_certificate_status_response",
        /// certificate_required(116), TLS 1.3: the server wanted a client certificate.
        CERTIFICATE_REQUIRED = 116 => "certificate_required",
        /// no_application_protocol(120).
        NO_APPLICATION_PROTOCOL = 120 => "no_application_protocol",
    }
}

registry! {
    /// `ProtocolVersion` as it appears on the wire. No IANA registry names versions: the names
    /// are the ones OpenSSL and curl print (`TLSv1.3`).
    pub struct ProtocolVersion(u16) {
        /// TLS 1.0 (0x0301): the `legacy_record_version` of an initial ClientHello.
        TLS10 = 0x0301 => "TLSv1.0",
        /// TLS 1.1 (0x0302), never negotiated.
        TLS11 = 0x0302 => "TLSv1.1",
        /// TLS 1.2 (0x0303): `legacy_record_version` of every other record.
        TLS12 = 0x0303 => "TLSv1.2",
        /// TLS 1.3 (0x0304), only ever inside `supported_versions`.
        TLS13 = 0x0304 => "TLSv1.3",
    }
}
