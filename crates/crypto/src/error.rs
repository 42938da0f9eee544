//! The crate's one error type.

use core::fmt;

/// Everything a burrow-crypto operation can fail with.
///
/// Copy-able, carries no peer data, and maps to a stable machine-readable [`CryptoError::code`].
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CryptoError {
    /// A key has the wrong length for the algorithm.
    BadKeyLength,
    /// A nonce has the wrong length or form.
    BadNonce,
    /// AEAD authentication failed: the ciphertext, tag, nonce, key or associated data is wrong.
    DecryptFailed,
    /// A signature did not verify or is malformed.
    BadSignature,
    /// The algorithm, curve or key type is not one this crate implements.
    UnsupportedAlgorithm,
    /// A public key (or key share) is malformed or not a valid point/element.
    InvalidPublicKey,
    /// A private key or seed is out of range (zero, or not below the group order).
    InvalidPrivateKey,
    /// X25519 produced the all-zero secret: the peer sent a low-order point.
    AllZeroSharedSecret,
    /// An RSA key is smaller than 2048 bits.
    KeyTooSmall,
    /// An RSA key is larger than 8192 bits.
    KeyTooLarge,
    /// A requested output length is not possible for this function (e.g. HKDF > 255 blocks).
    BadOutputLength,
    /// An input (label, context, message) is longer than the algorithm allows.
    InputTooLong,
    /// A DER structure (SubjectPublicKeyInfo, signature) could not be parsed.
    BadEncoding,
    /// The system random number generator failed.
    Rng,
}

impl CryptoError {
    /// Stable, machine-readable code for this error.
    pub fn code(self) -> &'static str {
        match self {
            Self::BadKeyLength => "CRYPTO_BAD_KEY_LENGTH",
            Self::BadNonce => "CRYPTO_BAD_NONCE",
            Self::DecryptFailed => "CRYPTO_DECRYPT_FAILED",
            Self::BadSignature => "CRYPTO_BAD_SIGNATURE",
            Self::UnsupportedAlgorithm => "CRYPTO_UNSUPPORTED_ALGORITHM",
            Self::InvalidPublicKey => "CRYPTO_INVALID_PUBLIC_KEY",
            Self::InvalidPrivateKey => "CRYPTO_INVALID_PRIVATE_KEY",
            Self::AllZeroSharedSecret => "CRYPTO_ALL_ZERO_SHARED_SECRET",
            Self::KeyTooSmall => "CRYPTO_KEY_TOO_SMALL",
            Self::KeyTooLarge => "CRYPTO_KEY_TOO_LARGE",
            Self::BadOutputLength => "CRYPTO_BAD_OUTPUT_LENGTH",
            Self::InputTooLong => "CRYPTO_INPUT_TOO_LONG",
            Self::BadEncoding => "CRYPTO_BAD_ENCODING",
            Self::Rng => "CRYPTO_RNG",
        }
    }
}

impl fmt::Display for CryptoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = match self {
            Self::BadKeyLength => "key has the wrong length for the algorithm; pass a key of the algorithm's exact size",
            Self::BadNonce => "nonce has the wrong length; AEAD nonces must be 12 bytes",
            Self::DecryptFailed => "authenticated decryption failed: the data was corrupted or tampered with, or the key/nonce is wrong",
            Self::BadSignature => "signature verification failed: the peer's signature does not match the key and message",
            Self::UnsupportedAlgorithm => "the algorithm or key type is not supported by burrow-crypto; choose a supported one",
            Self::InvalidPublicKey => "the peer's public key or key share is malformed or not a valid point",
            Self::InvalidPrivateKey => "the private key seed is out of range; draw fresh randomness and retry",
            Self::AllZeroSharedSecret => "key exchange produced an all-zero secret: the peer sent a low-order point; abort the handshake",
            Self::KeyTooSmall => "RSA key is smaller than 2048 bits; such keys are refused",
            Self::KeyTooLarge => "RSA key is larger than 8192 bits; such keys are refused",
            Self::BadOutputLength => "requested output length is not possible for this function",
            Self::InputTooLong => "an input is longer than the algorithm allows",
            Self::BadEncoding => "a DER structure (public key or signature) is malformed",
            Self::Rng => "the system random number generator failed; check the runtime provides crypto.getRandomValues",
        };
        write!(f, "{msg} [{}]", self.code())
    }
}

impl std::error::Error for CryptoError {}
