//! Certificate checks handed to the caller: the request and the answer.

use crate::error::CertRejection;
use crate::SignatureScheme;
use burrow_crypto::sig::VerifyAlgorithm;

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
    /// How to check it: the scheme resolved against the leaf's key by burrow-crypto
    /// (`PublicKeyInfo::tls13_algorithm` / `tls12_algorithm`; in TLS 1.2 an ECDSA scheme names
    /// only the hash, the curve is the key's). The key is known to fit it.
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
