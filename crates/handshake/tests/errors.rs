//! The error contract: every `Error` variant's stable code, the alert it sends (RFC 8446 §6.2)
//! and the words its message gives. Codes and alerts are what callers and peers see: a change
//! to any of them must be deliberate and show up here.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use burrow_crypto::CryptoError;
use burrow_handshake::*;

const REJECTED: CertRejection = CertRejection {
    code: "CERT_EXPIRED",
    alert: AlertDescription::CERTIFICATE_EXPIRED,
};

/// (error, code, alert sent, words the message contains).
fn table() -> Vec<(Error, &'static str, Option<AlertDescription>, &'static str)> {
    use AlertDescription as A;
    use Error as E;
    vec![
        (
            E::Decode,
            "TLS_DECODE",
            Some(A::DECODE_ERROR),
            "malformed handshake message",
        ),
        (
            E::UnexpectedMessage,
            "TLS_PROTOCOL",
            Some(A::UNEXPECTED_MESSAGE),
            "out of order",
        ),
        (
            E::IllegalParameter,
            "TLS_PROTOCOL",
            Some(A::ILLEGAL_PARAMETER),
            "illegal handshake parameter",
        ),
        (
            E::UnofferedCipherSuite,
            "TLS_UNOFFERED_CIPHER",
            Some(A::ILLEGAL_PARAMETER),
            "cipher suite the client did not offer",
        ),
        (
            E::UnofferedGroup,
            "TLS_UNOFFERED_GROUP",
            Some(A::ILLEGAL_PARAMETER),
            "key exchange group the client did not offer",
        ),
        (
            E::HrrPointless,
            "TLS_PROTOCOL",
            Some(A::ILLEGAL_PARAMETER),
            "key share already sent or changed nothing",
        ),
        (
            E::SecondHelloRetry,
            "TLS_PROTOCOL",
            Some(A::UNEXPECTED_MESSAGE),
            "second HelloRetryRequest",
        ),
        (
            E::UnofferedAlpn,
            "TLS_UNOFFERED_ALPN",
            Some(A::ILLEGAL_PARAMETER),
            "ALPN protocol the client did not offer",
        ),
        (
            E::UnsupportedExtension,
            "TLS_UNSOLICITED_EXTENSION",
            Some(A::UNSUPPORTED_EXTENSION),
            "extension the client did not offer",
        ),
        (
            E::MissingExtension,
            "TLS_MISSING_EXTENSION",
            Some(A::MISSING_EXTENSION),
            "omitted a required extension",
        ),
        (
            E::ProtocolVersion,
            "TLS_PROTOCOL_VERSION",
            Some(A::PROTOCOL_VERSION),
            "TLS 1.0/1.1 are refused",
        ),
        (
            E::Downgrade,
            "TLS_DOWNGRADE",
            Some(A::ILLEGAL_PARAMETER),
            "downgrade attack detected",
        ),
        (
            E::SessionIdMismatch,
            "TLS_PROTOCOL",
            Some(A::ILLEGAL_PARAMETER),
            "legacy_session_id",
        ),
        (
            E::UnofferedSignatureScheme,
            "TLS_UNOFFERED_SIGNATURE_SCHEME",
            Some(A::ILLEGAL_PARAMETER),
            "scheme the client did not offer",
        ),
        (
            E::BadCertificateVerify,
            "TLS_BAD_CERTIFICATE_VERIFY",
            Some(A::DECRYPT_ERROR),
            "CertificateVerify signature is invalid",
        ),
        (
            E::BadFinished,
            "TLS_BAD_FINISHED",
            Some(A::DECRYPT_ERROR),
            "Finished did not verify",
        ),
        (
            E::BadCertificate,
            "TLS_BAD_CERTIFICATE",
            Some(A::BAD_CERTIFICATE),
            "certificate is unusable",
        ),
        (
            E::CertificateRejected(REJECTED),
            "CERT_EXPIRED",
            Some(A::CERTIFICATE_EXPIRED),
            "certificate was rejected (CERT_EXPIRED)",
        ),
        (
            E::PeerAlert(A::HANDSHAKE_FAILURE),
            "TLS_ALERT",
            None,
            "fatal alert 40",
        ),
        (
            E::Record(RecordError::RecordOverflow),
            "TLS_RECORD_OVERFLOW",
            Some(A::RECORD_OVERFLOW),
            "record layer: ",
        ),
        (
            E::KeyExchange(CryptoError::BadSignature),
            "TLS_BAD_KEY_SHARE",
            Some(A::ILLEGAL_PARAMETER),
            "key exchange failed: ",
        ),
        (
            E::KeyUpdateStorm,
            "TLS_KEY_UPDATE_STORM",
            Some(A::UNEXPECTED_MESSAGE),
            "more than 16 KeyUpdates",
        ),
        (
            E::TooManyTickets,
            "TLS_TOO_MANY_TICKETS",
            Some(A::UNEXPECTED_MESSAGE),
            "NewSessionTickets on one connection",
        ),
        (
            E::TooManyPostHandshakeMessages,
            "TLS_TOO_MANY_POST_HANDSHAKE_MESSAGES",
            Some(A::UNEXPECTED_MESSAGE),
            "post-handshake messages",
        ),
        (
            E::TooManyWarningAlerts,
            "TLS_TOO_MANY_WARNING_ALERTS",
            Some(A::UNEXPECTED_MESSAGE),
            "warning alerts",
        ),
        (
            E::PostHandshakeAuth,
            "TLS_POST_HANDSHAKE_AUTH",
            Some(A::UNEXPECTED_MESSAGE),
            "client authentication after the handshake",
        ),
        (
            E::MessageTooLarge,
            "TLS_MESSAGE_TOO_LARGE",
            Some(A::DECODE_ERROR),
            "exceeded the size budget",
        ),
        (E::Closed, "TLS_CLOSED", None, "the connection is closed"),
        (E::Misuse, "TLS_API_MISUSE", None, "a bug in the caller"),
        (
            E::UnsupportedGroup(NamedGroup(0x0100)),
            "TLS_UNSUPPORTED_GROUP",
            Some(A::HANDSHAKE_FAILURE),
            "group 0x0100 is not implemented",
        ),
        (
            E::Internal,
            "TLS_INTERNAL",
            Some(A::INTERNAL_ERROR),
            "internal error in burrow",
        ),
        (
            E::ExtendedMasterSecretMissing,
            "TLS12_NO_EXTENDED_MASTER_SECRET",
            Some(A::HANDSHAKE_FAILURE),
            "require_extended_master_secret",
        ),
        (
            E::InsecureRenegotiation,
            "TLS12_INSECURE_RENEGOTIATION",
            Some(A::HANDSHAKE_FAILURE),
            "secure renegotiation",
        ),
        (
            E::LegacyCipherSuite,
            "TLS12_LEGACY_CIPHER",
            Some(A::HANDSHAKE_FAILURE),
            "legacy TLS 1.2 suite",
        ),
        (
            E::BadKeyExchangeSignature,
            "TLS12_BAD_KEY_EXCHANGE_SIGNATURE",
            Some(A::DECRYPT_ERROR),
            "ServerKeyExchange signature is invalid",
        ),
        (
            E::ProfileUnperformable(Unperformable::Version(0x0302)),
            "TLS_PROFILE_UNPERFORMABLE",
            None,
            "the profile offers protocol version 0x0302",
        ),
        (
            E::SelectedUnperformable(Unperformable::SignatureScheme(SignatureScheme(0x0904))),
            "TLS_SELECTED_UNPERFORMABLE",
            Some(A::HANDSHAKE_FAILURE),
            "the server selected signature scheme 0x0904",
        ),
        (
            E::CertificateDecompression,
            "TLS_CERT_DECOMPRESSION",
            Some(A::BAD_CERTIFICATE),
            "did not decompress to its stated length",
        ),
    ]
}

#[test]
fn every_error_has_its_code_alert_and_message() {
    let rows = table();
    for (e, code, alert, words) in &rows {
        assert_eq!(e.code(), *code, "code of {e:?}");
        assert_eq!(e.alert(), *alert, "alert of {e:?}");
        let text = e.to_string();
        assert!(text.contains(words), "{e:?}: {text:?} lacks {words:?}");
    }
    // No two variants print the same message.
    let mut texts: Vec<String> = rows.iter().map(|r| r.0.to_string()).collect();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), rows.len(), "messages are distinct");
}

#[test]
fn record_errors_keep_their_own_code_and_alert() {
    let e: Error = RecordError::TooManyEmptyRecords.into();
    assert_eq!(e, Error::Record(RecordError::TooManyEmptyRecords));
    assert_eq!(e.code(), RecordError::TooManyEmptyRecords.code());
    assert_eq!(e.alert(), RecordError::TooManyEmptyRecords.alert());
    assert_eq!(
        e.to_string(),
        format!("record layer: {}", RecordError::TooManyEmptyRecords)
    );
    let e = Error::KeyExchange(CryptoError::BadSignature);
    assert_eq!(
        e.to_string(),
        format!("key exchange failed: {}", CryptoError::BadSignature)
    );
}

#[test]
fn unperformable_values_print_in_hex() {
    assert_eq!(
        Unperformable::CipherSuite(CipherSuite(0x009c)).to_string(),
        "cipher suite 0x009c"
    );
    assert_eq!(
        Unperformable::Group(NamedGroup(0x001e)).to_string(),
        "group 0x001e"
    );
    assert_eq!(
        Unperformable::SignatureScheme(SignatureScheme(0x0203)).to_string(),
        "signature scheme 0x0203"
    );
    assert_eq!(
        Unperformable::Version(0x0301).to_string(),
        "protocol version 0x0301"
    );
    let e: &dyn std::error::Error = &Error::Closed;
    assert!(e.source().is_none());
}
