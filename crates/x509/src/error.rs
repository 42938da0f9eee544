//! The one error type of burrow-x509, with stable codes and a specificity rank.

use core::fmt;

use crate::pins::SeenPins;

/// Which part of a certificate or response failed to parse (no peer bytes are kept).
pub type ParseContext = &'static str;

/// Why a certificate chain, host name or OCSP staple was rejected.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Error {
    /// A certificate in the chosen path is past its notAfter.
    Expired,
    /// A certificate in the chosen path is before its notBefore.
    NotYetValid,
    /// The leaf does not name the host (SAN dNSName / iPAddress; the CN is never used).
    NameMismatch,
    /// The host name is not an A-label name (non-ASCII: convert it with IDNA/punycode first).
    NonAsciiHostName,
    /// The reference host name is not a syntactically valid DNS name or IP address.
    InvalidHostName,
    /// No path leads from the leaf to a trusted anchor.
    Untrusted,
    /// The chain validated, but none of its SPKIs matches a configured pin.
    PinMismatch(SeenPins),
    /// A signature in the path does not verify.
    BadSignature,
    /// The signature or key algorithm is not supported (or the key is malformed / too small).
    UnsupportedSignatureAlgorithm,
    /// A certificate could not be parsed (strict DER / RFC 5280 structure).
    Invalid(ParseContext),
    /// A certificate carries a critical extension this validator does not understand.
    UnsupportedCriticalExtension,
    /// An issuer in the path is not a CA (basicConstraints missing or cA false).
    IssuerNotCa,
    /// The leaf is a CA certificate (basicConstraints cA true) used as an end entity.
    CaUsedAsEndEntity,
    /// A CA's pathLenConstraint is exceeded.
    PathLenExceeded,
    /// keyUsage forbids the use (keyCertSign on a CA, digitalSignature on the leaf).
    KeyUsageForbidden,
    /// extendedKeyUsage lacks serverAuth.
    ExtendedKeyUsageForbidden,
    /// A name in the path violates a CA's name constraints.
    NameConstraintViolation,
    /// A name constraint uses a form this validator cannot check.
    UnsupportedNameConstraint,
    /// The path would be longer than the depth limit.
    PathTooLong,
    /// The path-building budget (signature checks or steps) ran out: the chain is hostile or
    /// pathological.
    BudgetExceeded,
    /// The stapled OCSP response says the leaf is revoked.
    OcspRevoked,
    /// The stapled OCSP response says the leaf's status is unknown.
    OcspUnknown,
    /// The stapled OCSP response is malformed, unsigned, badly signed or not successful.
    OcspInvalid(ParseContext),
    /// The stapled OCSP response is about another certificate or issuer.
    OcspMismatch,
    /// The stapled OCSP response is outside its thisUpdate/nextUpdate window.
    OcspStale,
    /// A staple is required (`Revocation::RequireStaple`) but the server sent none.
    OcspStapleRequired,
    /// The trust configuration is unusable (e.g. an anchor that does not parse).
    BadTrustAnchor(ParseContext),
    /// `Trust::Custom` needs the caller's decision: use `Verifier::verify_custom`'s request.
    CustomDecisionRequired,
    /// The custom verifier (the caller) rejected the chain.
    CustomRejected,
}

impl Error {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Expired => "CERT_EXPIRED",
            Error::NotYetValid => "CERT_NOT_YET_VALID",
            Error::NameMismatch => "CERT_NAME_MISMATCH",
            Error::NonAsciiHostName => "CERT_HOSTNAME_IDNA",
            Error::InvalidHostName => "CERT_HOSTNAME_INVALID",
            Error::Untrusted => "CERT_UNTRUSTED",
            Error::PinMismatch(_) => "CERT_PIN_MISMATCH",
            Error::BadSignature => "CERT_BAD_SIGNATURE",
            Error::UnsupportedSignatureAlgorithm => "CERT_UNSUPPORTED_ALGORITHM",
            Error::Invalid(_) => "CERT_INVALID",
            Error::UnsupportedCriticalExtension => "CERT_UNSUPPORTED_CRITICAL_EXTENSION",
            Error::IssuerNotCa => "CERT_ISSUER_NOT_CA",
            Error::CaUsedAsEndEntity => "CERT_CA_AS_LEAF",
            Error::PathLenExceeded => "CERT_PATH_LEN",
            Error::KeyUsageForbidden => "CERT_KEY_USAGE",
            Error::ExtendedKeyUsageForbidden => "CERT_EXTENDED_KEY_USAGE",
            Error::NameConstraintViolation => "CERT_NAME_CONSTRAINTS",
            Error::UnsupportedNameConstraint => "CERT_NAME_CONSTRAINTS_UNSUPPORTED",
            Error::PathTooLong => "CERT_PATH_TOO_LONG",
            Error::BudgetExceeded => "CERT_BUDGET_EXCEEDED",
            Error::OcspRevoked => "OCSP_REVOKED",
            Error::OcspUnknown => "OCSP_UNKNOWN",
            Error::OcspInvalid(_) => "OCSP_INVALID",
            Error::OcspMismatch => "OCSP_MISMATCH",
            Error::OcspStale => "OCSP_STALE",
            Error::OcspStapleRequired => "OCSP_STAPLE_REQUIRED",
            Error::BadTrustAnchor(_) => "CERT_BAD_TRUST_ANCHOR",
            Error::CustomDecisionRequired => "CERT_CUSTOM_PENDING",
            Error::CustomRejected => "CERT_CUSTOM_REJECTED",
        }
    }

    /// Budget exhaustion stops path building at once; every other failure only rejects one
    /// candidate issuer.
    pub(crate) fn is_fatal(&self) -> bool {
        matches!(self, Error::BudgetExceeded)
    }

    /// Higher = more specific = more useful to report when every candidate path failed.
    pub(crate) fn rank(&self) -> u8 {
        match self {
            Error::Untrusted => 0,
            Error::PathTooLong => 1,
            Error::UnsupportedSignatureAlgorithm => 2,
            Error::BadSignature => 3,
            Error::IssuerNotCa | Error::PathLenExceeded => 4,
            Error::KeyUsageForbidden | Error::ExtendedKeyUsageForbidden => 5,
            Error::UnsupportedCriticalExtension | Error::Invalid(_) => 6,
            Error::NameConstraintViolation | Error::UnsupportedNameConstraint => 7,
            Error::Expired | Error::NotYetValid => 8,
            _ => 9,
        }
    }

    /// The more specific of two errors (the first wins ties).
    pub(crate) fn most_specific(self, other: Error) -> Error {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Expired => f.write_str(
                "certificate expired: a certificate in the chain is past its notAfter; the server must renew it (or check the client clock)",
            ),
            Error::NotYetValid => f.write_str(
                "certificate not yet valid: a certificate in the chain is before its notBefore; check the client clock or the server's new certificate",
            ),
            Error::NameMismatch => f.write_str(
                "certificate does not match the host name: none of its subjectAltName entries names this host (the Common Name is never used)",
            ),
            Error::NonAsciiHostName => f.write_str(
                "host name is not ASCII: convert it to A-labels (IDNA/punycode, xn--...) before connecting",
            ),
            Error::InvalidHostName => {
                f.write_str("host name is neither a valid DNS name nor an IP address literal")
            }
            Error::Untrusted => f.write_str(
                "certificate untrusted: no chain leads from the server certificate to a trusted root; add the issuing CA to the trust anchors or have the server send its intermediates",
            ),
            Error::PinMismatch(seen) => write!(
                f,
                "certificate pin mismatch: the chain validated but no SPKI matches a configured pin; the server presented {seen}"
            ),
            Error::BadSignature => f.write_str(
                "certificate signature invalid: a certificate in the chain was not signed by its issuer's key",
            ),
            Error::UnsupportedSignatureAlgorithm => f.write_str(
                "unsupported signature or key algorithm in the chain (supported: ECDSA P-256/P-384, RSA 2048-8192 PKCS#1/PSS, Ed25519)",
            ),
            Error::Invalid(what) => write!(f, "certificate is malformed ({what})"),
            Error::UnsupportedCriticalExtension => f.write_str(
                "certificate has a critical extension this client does not understand; it must be rejected (RFC 5280 §4.2)",
            ),
            Error::IssuerNotCa => f.write_str(
                "an issuer in the chain is not a CA (basicConstraints cA is not set)",
            ),
            Error::CaUsedAsEndEntity => f.write_str(
                "the server certificate is a CA certificate; servers must present an end-entity certificate",
            ),
            Error::PathLenExceeded => f.write_str("a CA's pathLenConstraint is exceeded by this chain"),
            Error::KeyUsageForbidden => f.write_str(
                "keyUsage forbids this use (CAs need keyCertSign; the server key needs digitalSignature)",
            ),
            Error::ExtendedKeyUsageForbidden => f.write_str(
                "extendedKeyUsage does not allow TLS server authentication (serverAuth)",
            ),
            Error::NameConstraintViolation => {
                f.write_str("a name in the chain is outside a CA's name constraints")
            }
            Error::UnsupportedNameConstraint => f.write_str(
                "a CA's name constraints use a form this client cannot check, so the chain is rejected",
            ),
            Error::PathTooLong => f.write_str("the certificate chain is longer than the depth limit"),
            Error::BudgetExceeded => f.write_str(
                "path building budget exhausted: the chain offers too many candidate paths (hostile or broken server configuration)",
            ),
            Error::OcspRevoked => f.write_str(
                "the server's certificate is revoked (stapled OCSP response); do not connect",
            ),
            Error::OcspUnknown => f.write_str(
                "the stapled OCSP response says the certificate status is unknown",
            ),
            Error::OcspInvalid(what) => write!(f, "stapled OCSP response is invalid ({what})"),
            Error::OcspMismatch => f.write_str(
                "stapled OCSP response is for a different certificate or issuer (CertID mismatch)",
            ),
            Error::OcspStale => f.write_str(
                "stapled OCSP response is outside its thisUpdate/nextUpdate window (stale or from the future); check the client clock",
            ),
            Error::OcspStapleRequired => f.write_str(
                "an OCSP staple is required but the server sent none; enable stapling on the server or relax `revocation`",
            ),
            Error::BadTrustAnchor(what) => write!(f, "a configured trust anchor is unusable ({what})"),
            Error::CustomDecisionRequired => f.write_str(
                "custom trust: the caller must decide; use the CustomRequest returned by the verifier",
            ),
            Error::CustomRejected => f.write_str("the custom certificate verifier rejected the chain"),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant with its stable code (codes are an API: logs and callers match on them).
    fn all() -> Vec<(Error, &'static str)> {
        vec![
            (Error::Expired, "CERT_EXPIRED"),
            (Error::NotYetValid, "CERT_NOT_YET_VALID"),
            (Error::NameMismatch, "CERT_NAME_MISMATCH"),
            (Error::NonAsciiHostName, "CERT_HOSTNAME_IDNA"),
            (Error::InvalidHostName, "CERT_HOSTNAME_INVALID"),
            (Error::Untrusted, "CERT_UNTRUSTED"),
            (Error::PinMismatch(SeenPins::new()), "CERT_PIN_MISMATCH"),
            (Error::BadSignature, "CERT_BAD_SIGNATURE"),
            (
                Error::UnsupportedSignatureAlgorithm,
                "CERT_UNSUPPORTED_ALGORITHM",
            ),
            (Error::Invalid("x"), "CERT_INVALID"),
            (
                Error::UnsupportedCriticalExtension,
                "CERT_UNSUPPORTED_CRITICAL_EXTENSION",
            ),
            (Error::IssuerNotCa, "CERT_ISSUER_NOT_CA"),
            (Error::CaUsedAsEndEntity, "CERT_CA_AS_LEAF"),
            (Error::PathLenExceeded, "CERT_PATH_LEN"),
            (Error::KeyUsageForbidden, "CERT_KEY_USAGE"),
            (Error::ExtendedKeyUsageForbidden, "CERT_EXTENDED_KEY_USAGE"),
            (Error::NameConstraintViolation, "CERT_NAME_CONSTRAINTS"),
            (
                Error::UnsupportedNameConstraint,
                "CERT_NAME_CONSTRAINTS_UNSUPPORTED",
            ),
            (Error::PathTooLong, "CERT_PATH_TOO_LONG"),
            (Error::BudgetExceeded, "CERT_BUDGET_EXCEEDED"),
            (Error::OcspRevoked, "OCSP_REVOKED"),
            (Error::OcspUnknown, "OCSP_UNKNOWN"),
            (Error::OcspInvalid("y"), "OCSP_INVALID"),
            (Error::OcspMismatch, "OCSP_MISMATCH"),
            (Error::OcspStale, "OCSP_STALE"),
            (Error::OcspStapleRequired, "OCSP_STAPLE_REQUIRED"),
            (Error::BadTrustAnchor("z"), "CERT_BAD_TRUST_ANCHOR"),
            (Error::CustomDecisionRequired, "CERT_CUSTOM_PENDING"),
            (Error::CustomRejected, "CERT_CUSTOM_REJECTED"),
        ]
    }

    #[test]
    fn codes_are_stable_and_messages_distinct() {
        let all = all();
        let mut messages = std::collections::HashSet::new();
        for (e, code) in &all {
            assert_eq!(e.code(), *code);
            let msg = e.to_string();
            assert!(msg.len() > 20, "{code}: {msg:?}");
            assert!(messages.insert(msg), "{code}: message shared");
        }
        assert_eq!(
            Error::Invalid("bad tag").to_string(),
            "certificate is malformed (bad tag)"
        );
        assert_eq!(
            Error::OcspInvalid("bad tag").to_string(),
            "stapled OCSP response is invalid (bad tag)"
        );
        assert_eq!(
            Error::BadTrustAnchor("no pins").to_string(),
            "a configured trust anchor is unusable (no pins)"
        );
        let fatal: Vec<_> = all.iter().filter(|(e, _)| e.is_fatal()).collect();
        assert_eq!(
            fatal,
            vec![&(Error::BudgetExceeded, "CERT_BUDGET_EXCEEDED")]
        );
    }

    #[test]
    fn the_most_specific_error_is_reported() {
        // Ascending specificity: each later one beats each earlier one, in either order.
        let ladder = [
            Error::Untrusted,
            Error::PathTooLong,
            Error::UnsupportedSignatureAlgorithm,
            Error::BadSignature,
            Error::PathLenExceeded,
            Error::ExtendedKeyUsageForbidden,
            Error::Invalid("x"),
            Error::UnsupportedNameConstraint,
            Error::NotYetValid,
            Error::OcspStale,
        ];
        for (i, lo) in ladder.iter().enumerate() {
            for hi in ladder.iter().skip(i.saturating_add(1)) {
                assert_eq!(lo.most_specific(*hi), *hi, "{lo:?} vs {hi:?}");
                assert_eq!(hi.most_specific(*lo), *hi, "{hi:?} vs {lo:?}");
            }
        }
        // Same rank: the first one wins.
        assert_eq!(
            Error::IssuerNotCa.most_specific(Error::PathLenExceeded),
            Error::IssuerNotCa
        );
        assert_eq!(
            Error::Expired.most_specific(Error::NotYetValid),
            Error::Expired
        );
        assert_eq!(
            Error::KeyUsageForbidden.most_specific(Error::ExtendedKeyUsageForbidden),
            Error::KeyUsageForbidden
        );
        assert_eq!(
            Error::UnsupportedCriticalExtension.most_specific(Error::Invalid("x")),
            Error::UnsupportedCriticalExtension
        );
    }
}
