//! HMAC (RFC 2104) over SHA-256/384/512.

use ::hmac::digest::KeyInit;
use ::hmac::{Hmac, Mac};
use sha2::{Sha256, Sha384, Sha512};
use subtle::ConstantTimeEq;

use crate::hash::{HashAlgorithm, Output};
use crate::CryptoError;

/// Incremental HMAC, used by HKDF and the TLS 1.2 PRF.
#[derive(Clone)]
pub(crate) enum Incremental {
    Sha256(Hmac<Sha256>),
    Sha384(Hmac<Sha384>),
    Sha512(Hmac<Sha512>),
}

impl Incremental {
    /// Keys a new HMAC. HMAC takes keys of any length, so this cannot fail.
    pub(crate) fn new(alg: HashAlgorithm, key: &[u8]) -> Self {
        // `new_from_slice` on HMAC never fails (long keys are hashed, short ones padded); the
        // fallback arm is therefore unreachable but keeps the code free of panics.
        match alg {
            HashAlgorithm::Sha256 => Self::Sha256(
                <Hmac<Sha256> as KeyInit>::new_from_slice(key)
                    .unwrap_or_else(|_| <Hmac<Sha256> as KeyInit>::new(&Default::default())),
            ),
            HashAlgorithm::Sha384 => Self::Sha384(
                <Hmac<Sha384> as KeyInit>::new_from_slice(key)
                    .unwrap_or_else(|_| <Hmac<Sha384> as KeyInit>::new(&Default::default())),
            ),
            HashAlgorithm::Sha512 => Self::Sha512(
                <Hmac<Sha512> as KeyInit>::new_from_slice(key)
                    .unwrap_or_else(|_| <Hmac<Sha512> as KeyInit>::new(&Default::default())),
            ),
        }
    }

    /// Feeds data.
    pub(crate) fn update(&mut self, data: &[u8]) {
        match self {
            Self::Sha256(m) => m.update(data),
            Self::Sha384(m) => m.update(data),
            Self::Sha512(m) => m.update(data),
        }
    }

    /// Returns the full-length tag.
    pub(crate) fn finish(self) -> Output {
        match self {
            Self::Sha256(m) => Output::from_slice(&m.finalize().into_bytes()),
            Self::Sha384(m) => Output::from_slice(&m.finalize().into_bytes()),
            Self::Sha512(m) => Output::from_slice(&m.finalize().into_bytes()),
        }
    }
}

/// HMAC of `data` under `key`; the tag is the hash's full length.
pub fn sign(alg: HashAlgorithm, key: &[u8], data: &[u8]) -> Output {
    let mut m = Incremental::new(alg, key);
    m.update(data);
    m.finish()
}

/// Checks a full-length HMAC tag in constant time. Truncated tags are refused.
pub fn verify(alg: HashAlgorithm, key: &[u8], data: &[u8], tag: &[u8]) -> Result<(), CryptoError> {
    let expected = sign(alg, key, data);
    if tag.len() != alg.output_len() || expected.len() != alg.output_len() {
        return Err(CryptoError::BadSignature);
    }
    if bool::from(expected.as_ref().ct_eq(tag)) {
        Ok(())
    } else {
        Err(CryptoError::BadSignature)
    }
}
