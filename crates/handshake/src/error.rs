//! The handshake's one error type, and the ONE place an error is mapped to the alert we send.

use crate::{CipherSuite, NamedGroup, SignatureScheme};
use burrow_crypto::CryptoError;
use burrow_record::{AlertDescription, RecordError};
use core::fmt;

/// Why the caller's verifier refused the server's certificate chain: a stable code (e.g.
/// `"CERT_EXPIRED"` from burrow-x509) and the alert to send (e.g. `certificate_expired`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CertRejection {
    /// Stable machine-readable code reported by [`Error::code`].
    pub code: &'static str,
    /// The alert sent to the server.
    pub alert: AlertDescription,
}

/// A value a profile offers that burrow cannot perform: refused when the profile is used unless
/// [`Profile::allow_unperformable`](crate::Profile::allow_unperformable) is set, and an error
/// naming it if a server selects it ([`Error::SelectedUnperformable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unperformable {
    /// A cipher suite (CBC, DHE, RSA key transport, …).
    CipherSuite(CipherSuite),
    /// A key exchange group (x448, finite-field DH, …).
    Group(NamedGroup),
    /// A signature scheme (ML-DSA, Ed448, brainpool, SHA-1, SHA-224, …).
    SignatureScheme(SignatureScheme),
    /// A protocol version in supported_versions (TLS 1.0/1.1).
    Version(u16),
}

impl core::fmt::Display for Unperformable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::CipherSuite(s) => write!(f, "cipher suite 0x{:04x}", s.0),
            Self::Group(g) => write!(f, "group 0x{:04x}", g.0),
            Self::SignatureScheme(s) => write!(f, "signature scheme 0x{:04x}", s.0),
            Self::Version(v) => write!(f, "protocol version 0x{v:04x}"),
        }
    }
}

/// Everything a TLS 1.3 / 1.2 client connection can fail with. `Copy`, no peer data inside.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A handshake message could not be parsed.
    Decode,
    /// A message arrived that is not allowed at this point.
    UnexpectedMessage,
    /// A field had a value that is syntactically fine but not allowed.
    IllegalParameter,
    /// The server chose a cipher suite we did not offer.
    UnofferedCipherSuite,
    /// The server chose (or asked for) a group we did not offer.
    UnofferedGroup,
    /// The server's HelloRetryRequest asked for a key share we had already sent, or changed nothing.
    HrrPointless,
    /// A second HelloRetryRequest.
    SecondHelloRetry,
    /// The server selected an ALPN protocol we did not offer.
    UnofferedAlpn,
    /// The server sent an extension we did not offer (or one not allowed in that message).
    UnsupportedExtension,
    /// A required extension is missing.
    MissingExtension,
    /// The server negotiated a TLS version we do not speak here (TLS 1.2 and below for now).
    ProtocolVersion,
    /// The server random carries a downgrade sentinel (RFC 8446 §4.1.3).
    Downgrade,
    /// The ServerHello did not echo our legacy_session_id.
    SessionIdMismatch,
    /// The CertificateVerify used a scheme we did not offer (or one TLS 1.3 forbids).
    UnofferedSignatureScheme,
    /// The CertificateVerify signature is wrong.
    BadCertificateVerify,
    /// The server's Finished is wrong.
    BadFinished,
    /// The server's certificate is unusable (empty chain, unparseable leaf key).
    BadCertificate,
    /// The caller's verifier rejected the chain.
    CertificateRejected(CertRejection),
    /// The server sent this fatal alert.
    PeerAlert(AlertDescription),
    /// The record layer failed.
    Record(RecordError),
    /// A key exchange failed (invalid server share).
    KeyExchange(CryptoError),
    /// More than [`MAX_KEY_UPDATES_IN_A_ROW`](crate::MAX_KEY_UPDATES_IN_A_ROW) KeyUpdates
    /// without application data in between.
    KeyUpdateStorm,
    /// More than [`MAX_TICKETS`](crate::MAX_TICKETS) NewSessionTickets on one connection.
    TooManyTickets,
    /// More than [`MAX_POST_HANDSHAKE_IN_A_ROW`](crate::MAX_POST_HANDSHAKE_IN_A_ROW)
    /// post-handshake messages without application data in between.
    TooManyPostHandshakeMessages,
    /// More than [`MAX_WARNING_ALERTS_IN_A_ROW`](crate::MAX_WARNING_ALERTS_IN_A_ROW) warning
    /// alerts without application data in between.
    TooManyWarningAlerts,
    /// The server asked for a client certificate after the handshake (we never offer that).
    PostHandshakeAuth,
    /// A handshake message is larger than the budget allows.
    MessageTooLarge,
    /// The connection is closed.
    Closed,
    /// The caller used the API out of order (e.g. answered a request that was not asked).
    Misuse,
    /// The profile names a key exchange group burrow does not implement (as a key share, or
    /// in supported_groups and then chosen by the server); remove it from the profile.
    UnsupportedGroup(NamedGroup),
    /// A bug or impossible condition inside burrow.
    Internal,
    /// TLS 1.2: the server did not negotiate extended master secret (RFC 7627) and the config
    /// requires it.
    ExtendedMasterSecretMissing,
    /// TLS 1.2: the server's renegotiation_info is missing or not empty (RFC 5746).
    InsecureRenegotiation,
    /// TLS 1.2: the server chose a suite burrow refuses (CBC, RSA key transport, static DH).
    LegacyCipherSuite,
    /// TLS 1.2: the ServerKeyExchange signature is wrong.
    BadKeyExchangeSignature,
    /// The profile offers something burrow cannot perform and does not set
    /// `Profile::allow_unperformable` (or a key share it cannot generate).
    ProfileUnperformable(Unperformable),
    /// The server selected something the profile offers but burrow cannot perform.
    SelectedUnperformable(Unperformable),
    /// A CompressedCertificate (RFC 8879) did not decompress to exactly its stated length.
    CertificateDecompression,
    /// The server refused the handshake for want of a client certificate (TLS 1.3
    /// certificate_required alert; in TLS 1.2, handshake_failure or bad_certificate in answer to
    /// the empty Certificate we sent when asked for one).
    ClientCertificateRequired,
    /// The caller could not sign the CertificateVerify ([`Event::NeedSign`](crate::Event)).
    ClientSigningFailed,
}

impl Error {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Decode => "TLS_DECODE",
            Self::UnexpectedMessage
            | Self::IllegalParameter
            | Self::HrrPointless
            | Self::SecondHelloRetry => "TLS_PROTOCOL",
            Self::UnofferedCipherSuite => "TLS_UNOFFERED_CIPHER",
            Self::UnofferedGroup => "TLS_UNOFFERED_GROUP",
            Self::UnofferedAlpn => "TLS_UNOFFERED_ALPN",
            Self::UnsupportedExtension => "TLS_UNSOLICITED_EXTENSION",
            Self::MissingExtension => "TLS_MISSING_EXTENSION",
            Self::ProtocolVersion => "TLS_PROTOCOL_VERSION",
            Self::Downgrade => "TLS_DOWNGRADE",
            Self::SessionIdMismatch => "TLS_PROTOCOL",
            Self::UnofferedSignatureScheme => "TLS_UNOFFERED_SIGNATURE_SCHEME",
            Self::BadCertificateVerify => "TLS_BAD_CERTIFICATE_VERIFY",
            Self::BadFinished => "TLS_BAD_FINISHED",
            Self::BadCertificate => "TLS_BAD_CERTIFICATE",
            Self::CertificateRejected(r) => r.code,
            Self::PeerAlert(_) => "TLS_ALERT",
            Self::Record(e) => e.code(),
            Self::KeyExchange(_) => "TLS_BAD_KEY_SHARE",
            Self::KeyUpdateStorm => "TLS_KEY_UPDATE_STORM",
            Self::TooManyTickets => "TLS_TOO_MANY_TICKETS",
            Self::TooManyPostHandshakeMessages => "TLS_TOO_MANY_POST_HANDSHAKE_MESSAGES",
            Self::TooManyWarningAlerts => "TLS_TOO_MANY_WARNING_ALERTS",
            Self::PostHandshakeAuth => "TLS_POST_HANDSHAKE_AUTH",
            Self::MessageTooLarge => "TLS_MESSAGE_TOO_LARGE",
            Self::Closed => "TLS_CLOSED",
            Self::Misuse => "TLS_API_MISUSE",
            Self::UnsupportedGroup(_) => "TLS_UNSUPPORTED_GROUP",
            Self::Internal => "TLS_INTERNAL",
            Self::ExtendedMasterSecretMissing => "TLS12_NO_EXTENDED_MASTER_SECRET",
            Self::InsecureRenegotiation => "TLS12_INSECURE_RENEGOTIATION",
            Self::LegacyCipherSuite => "TLS12_LEGACY_CIPHER",
            Self::BadKeyExchangeSignature => "TLS12_BAD_KEY_EXCHANGE_SIGNATURE",
            Self::ProfileUnperformable(_) => "TLS_PROFILE_UNPERFORMABLE",
            Self::SelectedUnperformable(_) => "TLS_SELECTED_UNPERFORMABLE",
            Self::CertificateDecompression => "TLS_CERT_DECOMPRESSION",
            Self::ClientCertificateRequired => "TLS_CLIENT_CERT_REQUIRED",
            Self::ClientSigningFailed => "TLS_CLIENT_SIGN_FAILED",
        }
    }

    /// The alert we send for this error (RFC 8446 §6.2); `None` when none is sent (the peer's
    /// own alert, a closed connection, caller misuse).
    pub fn alert(&self) -> Option<AlertDescription> {
        Some(match self {
            Self::Decode => AlertDescription::DECODE_ERROR,
            Self::UnexpectedMessage
            | Self::SecondHelloRetry
            | Self::PostHandshakeAuth
            | Self::KeyUpdateStorm
            | Self::TooManyTickets
            | Self::TooManyPostHandshakeMessages
            | Self::TooManyWarningAlerts => AlertDescription::UNEXPECTED_MESSAGE,
            Self::IllegalParameter
            | Self::UnofferedCipherSuite
            | Self::UnofferedGroup
            | Self::HrrPointless
            | Self::UnofferedAlpn
            | Self::Downgrade
            | Self::SessionIdMismatch
            | Self::UnofferedSignatureScheme
            | Self::KeyExchange(_) => AlertDescription::ILLEGAL_PARAMETER,
            Self::UnsupportedExtension => AlertDescription::UNSUPPORTED_EXTENSION,
            Self::MissingExtension => AlertDescription::MISSING_EXTENSION,
            Self::ProtocolVersion => AlertDescription::PROTOCOL_VERSION,
            Self::BadCertificateVerify | Self::BadFinished | Self::BadKeyExchangeSignature => {
                AlertDescription::DECRYPT_ERROR
            }
            Self::ExtendedMasterSecretMissing
            | Self::UnsupportedGroup(_)
            | Self::InsecureRenegotiation
            | Self::LegacyCipherSuite
            | Self::SelectedUnperformable(_) => AlertDescription::HANDSHAKE_FAILURE,
            Self::BadCertificate | Self::CertificateDecompression => {
                AlertDescription::BAD_CERTIFICATE
            }
            Self::CertificateRejected(r) => r.alert,
            Self::Record(e) => return e.alert(),
            Self::MessageTooLarge => AlertDescription::DECODE_ERROR,
            Self::Internal | Self::ClientSigningFailed => AlertDescription::INTERNAL_ERROR,
            Self::PeerAlert(_)
            | Self::ClientCertificateRequired
            | Self::Closed
            | Self::Misuse
            | Self::ProfileUnperformable(_) => return None,
        })
    }
}

impl From<RecordError> for Error {
    fn from(e: RecordError) -> Self {
        Self::Record(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Decode => f.write_str("the server sent a malformed handshake message"),
            Self::UnexpectedMessage => f.write_str("the server sent a message out of order"),
            Self::IllegalParameter => f.write_str("the server sent an illegal handshake parameter"),
            Self::UnofferedCipherSuite => f.write_str("the server chose a cipher suite the client did not offer"),
            Self::UnofferedGroup => f.write_str("the server chose a key exchange group the client did not offer"),
            Self::HrrPointless => {
                f.write_str("the server's HelloRetryRequest asked for a key share already sent or changed nothing")
            }
            Self::SecondHelloRetry => f.write_str("the server sent a second HelloRetryRequest"),
            Self::UnofferedAlpn => f.write_str("the server selected an ALPN protocol the client did not offer"),
            Self::UnsupportedExtension => f.write_str("the server sent an extension the client did not offer"),
            Self::MissingExtension => f.write_str("the server omitted a required extension"),
            Self::ProtocolVersion => f.write_str(
                "the server chose a TLS version the client did not offer; TLS 1.0/1.1 are refused (TLS 1.2 needs a profile listing 1.2 suites)",
            ),
            Self::Downgrade => f.write_str("downgrade attack detected: the server random carries the TLS 1.3 sentinel"),
            Self::SessionIdMismatch => f.write_str("the server did not echo the client's legacy_session_id"),
            Self::UnofferedSignatureScheme => {
                f.write_str("the server signed with a scheme the client did not offer or TLS 1.3 forbids")
            }
            Self::BadCertificateVerify => {
                f.write_str("the server's CertificateVerify signature is invalid (wrong key or tampering)")
            }
            Self::BadFinished => f.write_str("the server's Finished did not verify (tampering or a key mismatch)"),
            Self::BadCertificate => f.write_str("the server's certificate is unusable"),
            Self::CertificateRejected(r) => write!(f, "the server's certificate was rejected ({})", r.code),
            Self::PeerAlert(a) => write!(f, "the server sent fatal alert {}", a.0),
            Self::Record(e) => write!(f, "record layer: {e}"),
            Self::KeyExchange(e) => write!(f, "key exchange failed: {e}"),
            Self::KeyUpdateStorm => write!(
                f,
                "the server sent more than {} KeyUpdates without application data between them",
                crate::limits::MAX_KEY_UPDATES_IN_A_ROW
            ),
            Self::TooManyTickets => write!(
                f,
                "the server sent more than {} NewSessionTickets on one connection",
                crate::limits::MAX_TICKETS
            ),
            Self::TooManyPostHandshakeMessages => write!(
                f,
                "the server sent more than {} post-handshake messages without application data between them",
                crate::limits::MAX_POST_HANDSHAKE_IN_A_ROW
            ),
            Self::TooManyWarningAlerts => write!(
                f,
                "the server sent more than {} warning alerts without application data between them",
                crate::limits::MAX_WARNING_ALERTS_IN_A_ROW
            ),
            Self::PostHandshakeAuth => {
                f.write_str("the server requested client authentication after the handshake, which is not offered")
            }
            Self::MessageTooLarge => f.write_str("a handshake message exceeded the size budget"),
            Self::Closed => f.write_str("the connection is closed; open a new one"),
            Self::Misuse => f.write_str("API used out of order (a bug in the caller)"),
            Self::UnsupportedGroup(g) => write!(
                f,
                "key exchange group 0x{:04x} is not implemented by burrow (X25519, P-256, P-384, P-521 and X25519MLKEM768 are); remove it from the profile's groups / key_shares",
                g.0
            ),
            Self::Internal => f.write_str("internal error in burrow (please report)"),
            Self::ExtendedMasterSecretMissing => f.write_str(
                "the TLS 1.2 server does not support extended master secret (RFC 7627) and require_extended_master_secret is set; clear it to accept such servers (their sessions are then never resumed)",
            ),
            Self::InsecureRenegotiation => {
                f.write_str("the TLS 1.2 server does not support secure renegotiation (RFC 5746 renegotiation_info)")
            }
            Self::LegacyCipherSuite => f.write_str(
                "the server chose a legacy TLS 1.2 suite (CBC, RSA key transport or static DH), which burrow refuses; enable ECDHE with AES-GCM or ChaCha20-Poly1305 on the server",
            ),
            Self::BadKeyExchangeSignature => {
                f.write_str("the server's TLS 1.2 ServerKeyExchange signature is invalid (wrong key or tampering)")
            }
            Self::ProfileUnperformable(u) => write!(
                f,
                "the profile offers {u}, which burrow cannot perform; remove it or set the profile's allow_unperformable to offer it anyway"
            ),
            Self::CertificateDecompression => f.write_str(
                "the server's compressed certificate (RFC 8879) did not decompress to its stated length",
            ),
            Self::ClientCertificateRequired => f.write_str(
                "the server requires a client certificate (it asked for one and refused the handshake without it); configure one that the server's CA accepts (tls.clientCert in JS, TlsSettings::client_cert in Rust)",
            ),
            Self::ClientSigningFailed => {
                f.write_str("the client certificate's key could not sign the CertificateVerify")
            }
            Self::SelectedUnperformable(u) => write!(
                f,
                "the server selected {u}, which the profile offers (allow_unperformable) but burrow cannot perform"
            ),
        }
    }
}

impl std::error::Error for Error {}
