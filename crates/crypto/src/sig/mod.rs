//! Signature verification (and, for client certificates, signing) with plain data in: SubjectPublicKeyInfo DER, message, signature.
//!
//! These are the same inputs WebCrypto's `importKey("spki")` + `verify` take, so a caller can run
//! a verification here or hand it elsewhere.

mod ec;
mod ed25519;
mod rsa;
mod signing;
mod spki;

use crate::CryptoError;

pub use self::rsa::{MAX_RSA_BITS, MIN_RSA_BITS};
pub use self::signing::SigningKey;
pub use self::spki::{tls13_algorithm, KeyKind, PublicKeyInfo, X509Signature};

/// The signature algorithms TLS 1.2/1.3 certificate and handshake verification needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VerifyAlgorithm {
    /// ECDSA on P-256 with SHA-256 (`ecdsa_secp256r1_sha256`).
    EcdsaP256Sha256,
    /// ECDSA on P-256 with SHA-384 (certificates only).
    EcdsaP256Sha384,
    /// ECDSA on P-384 with SHA-256 (certificates only).
    EcdsaP384Sha256,
    /// ECDSA on P-384 with SHA-384 (`ecdsa_secp384r1_sha384`).
    EcdsaP384Sha384,
    /// ECDSA on P-521 with SHA-256 (certificates, and TLS 1.2 where the scheme names only
    /// the hash).
    EcdsaP521Sha256,
    /// ECDSA on P-521 with SHA-384 (certificates, TLS 1.2).
    EcdsaP521Sha384,
    /// ECDSA on P-521 with SHA-512 (`ecdsa_secp521r1_sha512`).
    EcdsaP521Sha512,
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    RsaPkcs1Sha256,
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    RsaPkcs1Sha384,
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    RsaPkcs1Sha512,
    /// RSASSA-PSS with SHA-256, MGF1-SHA-256, 32-byte salt.
    RsaPssSha256,
    /// RSASSA-PSS with SHA-384, MGF1-SHA-384, 48-byte salt.
    RsaPssSha384,
    /// RSASSA-PSS with SHA-512, MGF1-SHA-512, 64-byte salt.
    RsaPssSha512,
    /// Ed25519 (RFC 8032), pure mode.
    Ed25519,
}

/// Verifies `signature` over `message` with the key in `spki_der`.
///
/// Signature formats: ECDSA — DER `Ecdsa-Sig-Value`; RSA — the raw big-endian signature of the
/// modulus length; Ed25519 — 64 bytes. RSA keys must be 2048..=8192 bits (checked before any
/// arithmetic: `KeyTooSmall` / `KeyTooLarge`). RSA-PSS uses MGF1 with the same hash and a salt
/// of the hash length (the TLS 1.3 rule). A key whose type does not match `alg` is
/// `UnsupportedAlgorithm`; a malformed key `InvalidPublicKey` or `BadEncoding`; any signature
/// failure `BadSignature`.
pub fn verify(
    alg: VerifyAlgorithm,
    spki_der: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), CryptoError> {
    PublicKeyInfo::parse(spki_der)?.verify(alg, message, signature)
}

impl PublicKeyInfo<'_> {
    /// Verifies `signature` over `message` with this key: [`verify`] without parsing the SPKI
    /// again.
    pub fn verify(
        &self,
        alg: VerifyAlgorithm,
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), CryptoError> {
        crate::counters::signature();
        let key = &self.key;
        match alg {
            VerifyAlgorithm::EcdsaP256Sha256
            | VerifyAlgorithm::EcdsaP256Sha384
            | VerifyAlgorithm::EcdsaP384Sha256
            | VerifyAlgorithm::EcdsaP384Sha384
            | VerifyAlgorithm::EcdsaP521Sha256
            | VerifyAlgorithm::EcdsaP521Sha384
            | VerifyAlgorithm::EcdsaP521Sha512 => ec::verify(alg, key, message, signature),
            VerifyAlgorithm::RsaPkcs1Sha256
            | VerifyAlgorithm::RsaPkcs1Sha384
            | VerifyAlgorithm::RsaPkcs1Sha512
            | VerifyAlgorithm::RsaPssSha256
            | VerifyAlgorithm::RsaPssSha384
            | VerifyAlgorithm::RsaPssSha512 => rsa::verify(alg, self, message, signature),
            VerifyAlgorithm::Ed25519 => ed25519::verify(key, message, signature),
        }
    }
}
