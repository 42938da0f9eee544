//! RSA signature verification: PKCS#1 v1.5 and PSS, keys of 2048..=8192 bits.

use ::rsa::signature::Verifier;
use ::rsa::{BigUint, RsaPublicKey};
use sha2::{Sha256, Sha384, Sha512};

use super::spki::{KeyKind, PublicKey, PublicKeyInfo};
use super::VerifyAlgorithm;
use crate::CryptoError;

/// Smallest RSA modulus accepted, in bits.
pub const MIN_RSA_BITS: usize = 2048;
/// Largest RSA modulus accepted, in bits.
pub const MAX_RSA_BITS: usize = 8192;

/// Builds the key from the SPKI's modulus and exponent, checking the size bounds before any
/// big-number work.
fn public_key(key: &PublicKeyInfo<'_>) -> Result<RsaPublicKey, CryptoError> {
    let (
        PublicKey::Rsa {
            modulus, exponent, ..
        },
        KeyKind::Rsa { modulus_bits, .. },
    ) = (key.key, key.kind())
    else {
        return Err(CryptoError::UnsupportedAlgorithm);
    };
    if modulus_bits < MIN_RSA_BITS {
        return Err(CryptoError::KeyTooSmall);
    }
    if modulus_bits > MAX_RSA_BITS {
        return Err(CryptoError::KeyTooLarge);
    }
    if exponent.len() > 8 {
        return Err(CryptoError::InvalidPublicKey);
    }
    RsaPublicKey::new_with_max_size(
        BigUint::from_bytes_be(modulus),
        BigUint::from_bytes_be(exponent),
        MAX_RSA_BITS,
    )
    .map_err(|_| CryptoError::InvalidPublicKey)
}

fn pkcs1<D>(key: RsaPublicKey, message: &[u8], signature: &[u8]) -> Result<(), CryptoError>
where
    D: sha2::Digest + pkcs1::der::oid::AssociatedOid,
{
    let vk = ::rsa::pkcs1v15::VerifyingKey::<D>::new(key);
    let sig =
        ::rsa::pkcs1v15::Signature::try_from(signature).map_err(|_| CryptoError::BadSignature)?;
    vk.verify(message, &sig)
        .map_err(|_| CryptoError::BadSignature)
}

fn pss<D>(key: RsaPublicKey, message: &[u8], signature: &[u8]) -> Result<(), CryptoError>
where
    D: sha2::Digest + sha2::digest::FixedOutputReset,
{
    // Salt length = hash length (RFC 8446 §4.2.3).
    let vk = ::rsa::pss::VerifyingKey::<D>::new(key);
    let sig = ::rsa::pss::Signature::try_from(signature).map_err(|_| CryptoError::BadSignature)?;
    vk.verify(message, &sig)
        .map_err(|_| CryptoError::BadSignature)
}

pub(super) fn verify(
    alg: VerifyAlgorithm,
    key: &PublicKeyInfo<'_>,
    message: &[u8],
    signature: &[u8],
) -> Result<(), CryptoError> {
    let PublicKey::Rsa { pss_only, .. } = key.key else {
        return Err(CryptoError::UnsupportedAlgorithm);
    };
    let is_pss = matches!(
        alg,
        VerifyAlgorithm::RsaPssSha256
            | VerifyAlgorithm::RsaPssSha384
            | VerifyAlgorithm::RsaPssSha512
    );
    if pss_only && !is_pss {
        return Err(CryptoError::UnsupportedAlgorithm);
    }
    let key = public_key(key)?;
    match alg {
        VerifyAlgorithm::RsaPkcs1Sha256 => pkcs1::<Sha256>(key, message, signature),
        VerifyAlgorithm::RsaPkcs1Sha384 => pkcs1::<Sha384>(key, message, signature),
        VerifyAlgorithm::RsaPkcs1Sha512 => pkcs1::<Sha512>(key, message, signature),
        VerifyAlgorithm::RsaPssSha256 => pss::<Sha256>(key, message, signature),
        VerifyAlgorithm::RsaPssSha384 => pss::<Sha384>(key, message, signature),
        VerifyAlgorithm::RsaPssSha512 => pss::<Sha512>(key, message, signature),
        _ => Err(CryptoError::UnsupportedAlgorithm),
    }
}
