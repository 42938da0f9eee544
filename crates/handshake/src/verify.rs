//! Certificate checks handed to the caller, and the CertificateVerify signature check.

use crate::error::CertRejection;
use crate::{Error, SignatureScheme};
use burrow_crypto::sig::{self, VerifyAlgorithm};
use burrow_crypto::CryptoError;

/// Who checks the CertificateVerify signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SignatureCheck {
    /// The connection checks it with burrow-crypto before asking for chain validation.
    #[default]
    Inline,
    /// The caller checks it (e.g. with WebCrypto): [`VerifyRequest::signed`] carries the input.
    Caller,
}

/// The CertificateVerify input: what was signed, by which scheme, with what signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedContent {
    /// The scheme the server used (already checked to be one we offered).
    pub scheme: SignatureScheme,
    /// 64 spaces, the context string, a zero byte and the transcript hash (RFC 8446 §4.4.3).
    pub message: Vec<u8>,
    /// The signature as sent.
    pub signature: Vec<u8>,
    /// How to check it: the scheme resolved against the leaf's key (in TLS 1.2 an ECDSA scheme
    /// names only the hash; the curve is the key's).
    pub algorithm: VerifyAlgorithm,
    /// The leaf certificate's SubjectPublicKeyInfo, DER: the key to check it with.
    pub spki: Vec<u8>,
}

/// Validate this server certificate chain for this name at this time, then answer with
/// [`Connection::complete`](crate::Connection::complete).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyRequest {
    /// The name the client connected to (SNI), if any.
    pub server_name: Option<String>,
    /// DER certificates, leaf first, as sent.
    pub chain: Vec<Vec<u8>>,
    /// The stapled OCSP response for the leaf, if any.
    pub ocsp_response: Option<Vec<u8>>,
    /// The leaf's signed_certificate_timestamp extension body (SCT list), if any.
    pub scts: Option<Vec<u8>>,
    /// The time passed to `poll_event`, Unix milliseconds.
    pub now_ms: u64,
    /// In [`SignatureCheck::Caller`] mode: the CertificateVerify to check against the leaf key.
    pub signed: Option<SignedContent>,
}

/// The caller's answer to a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Answer {
    /// The chain is trusted for the name (and, in caller mode, the signature is good).
    Verified,
    /// The chain was refused.
    Rejected(CertRejection),
    /// Caller mode: the CertificateVerify signature did not verify.
    BadSignature,
}

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
