//! Signature checks on the server's handshake: which algorithm a scheme means for the leaf's
//! key, and the check itself (TLS 1.3 CertificateVerify, TLS 1.2 ServerKeyExchange). Kept
//! apart so that the lenient SPKI lookup in `der.rs` and these functions can be replaced
//! together by burrow-crypto's owner of "key + scheme -> algorithm".

use crate::suites::Auth;
use crate::{Error, SignatureScheme};
use burrow_crypto::sig::{self, VerifyAlgorithm};
use burrow_crypto::CryptoError;

/// The TLS 1.3 CertificateVerify content.
pub(crate) fn signed_message(transcript_hash: &[u8]) -> Vec<u8> {
    let mut m = vec![0x20u8; 64];
    m.extend_from_slice(b"TLS 1.3, server CertificateVerify\0");
    m.extend_from_slice(transcript_hash);
    m
}

/// The verification algorithm for a scheme allowed in a TLS 1.3 CertificateVerify.
pub(crate) fn algorithm(s: SignatureScheme) -> Option<VerifyAlgorithm> {
    Some(match s {
        SignatureScheme::ECDSA_SECP256R1_SHA256 => VerifyAlgorithm::EcdsaP256Sha256,
        SignatureScheme::ECDSA_SECP384R1_SHA384 => VerifyAlgorithm::EcdsaP384Sha384,
        SignatureScheme::ECDSA_SECP521R1_SHA512 => VerifyAlgorithm::EcdsaP521Sha512,
        SignatureScheme::RSA_PSS_RSAE_SHA256 | SignatureScheme::RSA_PSS_PSS_SHA256 => {
            VerifyAlgorithm::RsaPssSha256
        }
        SignatureScheme::RSA_PSS_RSAE_SHA384 | SignatureScheme::RSA_PSS_PSS_SHA384 => {
            VerifyAlgorithm::RsaPssSha384
        }
        SignatureScheme::RSA_PSS_RSAE_SHA512 | SignatureScheme::RSA_PSS_PSS_SHA512 => {
            VerifyAlgorithm::RsaPssSha512
        }
        SignatureScheme::ED25519 => VerifyAlgorithm::Ed25519,
        _ => return None,
    })
}

/// Whether TLS 1.3 allows `s` in CertificateVerify at all (no PKCS#1 v1.5, no SHA-1).
pub(crate) fn allowed_in_tls13(s: SignatureScheme) -> bool {
    let [hi, lo] = s.0.to_be_bytes();
    !(lo == 0x01 || lo == 0x02 || hi == 0x02)
}

/// Checks the CertificateVerify signature against the leaf certificate's key.
pub(crate) fn check_inline(
    s: SignatureScheme,
    leaf: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    let alg = algorithm(s).ok_or(Error::UnofferedSignatureScheme)?;
    let spki = crate::der::spki_of(leaf)?;
    sig::verify(alg, spki, message, signature).map_err(|e| match e {
        CryptoError::BadSignature => Error::BadCertificateVerify,
        // A key we refuse (too small, wrong type for the scheme, unparseable) is a certificate problem.
        _ => Error::BadCertificate,
    })
}

/// Whether a scheme can sign for the suite's authentication (ECDHE_ECDSA also covers Ed25519,
/// RFC 8422 §5.1.1; no SHA-1).
pub(crate) fn scheme_fits(auth: Auth, s: SignatureScheme) -> bool {
    match auth {
        Auth::Ecdsa => matches!(
            s,
            SignatureScheme::ECDSA_SECP256R1_SHA256
                | SignatureScheme::ECDSA_SECP384R1_SHA384
                | SignatureScheme::ECDSA_SECP521R1_SHA512
                | SignatureScheme::ED25519
        ),
        Auth::Rsa => matches!(
            s,
            SignatureScheme::RSA_PKCS1_SHA256
                | SignatureScheme::RSA_PKCS1_SHA384
                | SignatureScheme::RSA_PKCS1_SHA512
                | SignatureScheme::RSA_PSS_RSAE_SHA256
                | SignatureScheme::RSA_PSS_RSAE_SHA384
                | SignatureScheme::RSA_PSS_RSAE_SHA512
        ),
    }
}

/// DER of the secp384r1 OID (1.3.132.0.34), to tell a P-384 key from a P-256 one.
const P384_OID: [u8; 7] = [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22];
/// DER of the secp521r1 OID (1.3.132.0.35).
const P521_OID: [u8; 7] = [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23];

/// In TLS 1.2 an ECDSA scheme names only the hash; the curve is the key's.
pub(crate) fn algorithm12(s: SignatureScheme, spki: &[u8]) -> Option<VerifyAlgorithm> {
    let p384 = spki.windows(P384_OID.len()).any(|w| w == P384_OID);
    if spki.windows(P521_OID.len()).any(|w| w == P521_OID) {
        return match s {
            SignatureScheme::ECDSA_SECP256R1_SHA256 => Some(VerifyAlgorithm::EcdsaP521Sha256),
            SignatureScheme::ECDSA_SECP384R1_SHA384 => Some(VerifyAlgorithm::EcdsaP521Sha384),
            SignatureScheme::ECDSA_SECP521R1_SHA512 => Some(VerifyAlgorithm::EcdsaP521Sha512),
            _ => None,
        };
    }
    Some(match (s, p384) {
        (SignatureScheme::ECDSA_SECP256R1_SHA256, false) => VerifyAlgorithm::EcdsaP256Sha256,
        (SignatureScheme::ECDSA_SECP256R1_SHA256, true) => VerifyAlgorithm::EcdsaP384Sha256,
        (SignatureScheme::ECDSA_SECP384R1_SHA384, false) => VerifyAlgorithm::EcdsaP256Sha384,
        (SignatureScheme::ECDSA_SECP384R1_SHA384, true) => VerifyAlgorithm::EcdsaP384Sha384,
        (SignatureScheme::ED25519, _) => VerifyAlgorithm::Ed25519,
        (SignatureScheme::RSA_PKCS1_SHA256, _) => VerifyAlgorithm::RsaPkcs1Sha256,
        (SignatureScheme::RSA_PKCS1_SHA384, _) => VerifyAlgorithm::RsaPkcs1Sha384,
        (SignatureScheme::RSA_PKCS1_SHA512, _) => VerifyAlgorithm::RsaPkcs1Sha512,
        (SignatureScheme::RSA_PSS_RSAE_SHA256, _) => VerifyAlgorithm::RsaPssSha256,
        (SignatureScheme::RSA_PSS_RSAE_SHA384, _) => VerifyAlgorithm::RsaPssSha384,
        (SignatureScheme::RSA_PSS_RSAE_SHA512, _) => VerifyAlgorithm::RsaPssSha512,
        _ => return None,
    })
}

pub(crate) fn check_signature(
    s: SignatureScheme,
    leaf: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    let spki = crate::der::spki_of(leaf)?;
    let alg = algorithm12(s, spki).ok_or(Error::UnofferedSignatureScheme)?;
    sig::verify(alg, spki, message, signature).map_err(|e| match e {
        CryptoError::BadSignature => Error::BadKeyExchangeSignature,
        _ => Error::BadCertificate,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls12_ecdsa_schemes_take_the_curve_from_the_key() {
        use SignatureScheme as S;
        use VerifyAlgorithm as V;
        let p256: &[u8] = &[0x30, 0x06, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03];
        let p384 = [&[0x30, 0x07][..], &P384_OID].concat();
        let p521 = [&[0x30, 0x07][..], &P521_OID].concat();
        let cases: [(S, &[u8], Option<V>); 17] = [
            (S::ECDSA_SECP256R1_SHA256, p256, Some(V::EcdsaP256Sha256)),
            (S::ECDSA_SECP256R1_SHA256, &p384, Some(V::EcdsaP384Sha256)),
            (S::ECDSA_SECP256R1_SHA256, &p521, Some(V::EcdsaP521Sha256)),
            (S::ECDSA_SECP384R1_SHA384, p256, Some(V::EcdsaP256Sha384)),
            (S::ECDSA_SECP384R1_SHA384, &p384, Some(V::EcdsaP384Sha384)),
            (S::ECDSA_SECP384R1_SHA384, &p521, Some(V::EcdsaP521Sha384)),
            (S::ECDSA_SECP521R1_SHA512, &p521, Some(V::EcdsaP521Sha512)),
            // A P-521 key signs with ECDSA only.
            (S::ED25519, &p521, None),
            (S::ED25519, p256, Some(V::Ed25519)),
            (S::RSA_PKCS1_SHA256, p256, Some(V::RsaPkcs1Sha256)),
            (S::RSA_PKCS1_SHA384, p256, Some(V::RsaPkcs1Sha384)),
            (S::RSA_PKCS1_SHA512, p256, Some(V::RsaPkcs1Sha512)),
            (S::RSA_PSS_RSAE_SHA256, p256, Some(V::RsaPssSha256)),
            (S::RSA_PSS_RSAE_SHA384, p256, Some(V::RsaPssSha384)),
            (S::RSA_PSS_RSAE_SHA512, p256, Some(V::RsaPssSha512)),
            // SHA-1 and PSS-with-PSS-keys are not TLS 1.2 ServerKeyExchange schemes here.
            (S(0x0201), p256, None),
            (S::RSA_PSS_PSS_SHA256, p256, None),
        ];
        for (s, spki, want) in cases {
            assert_eq!(algorithm12(s, spki), want, "{s:?}");
        }
    }

    #[test]
    fn only_rsa_schemes_sign_for_ecdhe_rsa() {
        use SignatureScheme as S;
        for s in [
            S::RSA_PKCS1_SHA256,
            S::RSA_PSS_RSAE_SHA384,
            S::RSA_PKCS1_SHA512,
        ] {
            assert!(
                scheme_fits(Auth::Rsa, s) && !scheme_fits(Auth::Ecdsa, s),
                "{s:?}"
            );
        }
        for s in [S::ECDSA_SECP256R1_SHA256, S::ED25519, S(0x0201)] {
            assert!(!scheme_fits(Auth::Rsa, s), "{s:?}");
        }
    }
}
