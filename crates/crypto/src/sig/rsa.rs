//! RSA signature verification: PKCS#1 v1.5 and PSS, keys of 2048..=8192 bits.

use ::rsa::signature::Verifier;
use ::rsa::{BigUint, RsaPublicKey};
use pkcs1::der::Decode;
use sha2::{Sha256, Sha384, Sha512};

use super::spki::PublicKey;
use super::VerifyAlgorithm;
use crate::CryptoError;

/// Smallest RSA modulus accepted, in bits.
pub const MIN_RSA_BITS: usize = 2048;
/// Largest RSA modulus accepted, in bits.
pub const MAX_RSA_BITS: usize = 8192;

/// Bit length of a big-endian unsigned integer.
fn bit_len(be: &[u8]) -> usize {
    let mut rest = be;
    while let Some((&0, tail)) = rest.split_first() {
        rest = tail;
    }
    match rest.first() {
        None => 0,
        Some(&top) => {
            let top_bits = 8usize.saturating_sub(usize::try_from(top.leading_zeros()).unwrap_or(8));
            rest.len()
                .saturating_sub(1)
                .saturating_mul(8)
                .saturating_add(top_bits)
        }
    }
}

/// Parses a PKCS#1 RSAPublicKey and checks the size bounds before any big-number work.
fn public_key(der: &[u8]) -> Result<RsaPublicKey, CryptoError> {
    let parsed = pkcs1::RsaPublicKey::from_der(der).map_err(|_| CryptoError::BadEncoding)?;
    let n = parsed.modulus.as_bytes();
    let bits = bit_len(n);
    if bits < MIN_RSA_BITS {
        return Err(CryptoError::KeyTooSmall);
    }
    if bits > MAX_RSA_BITS {
        return Err(CryptoError::KeyTooLarge);
    }
    let e = parsed.public_exponent.as_bytes();
    if e.len() > 8 {
        return Err(CryptoError::InvalidPublicKey);
    }
    RsaPublicKey::new_with_max_size(
        BigUint::from_bytes_be(n),
        BigUint::from_bytes_be(e),
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
    key: &PublicKey<'_>,
    message: &[u8],
    signature: &[u8],
) -> Result<(), CryptoError> {
    let PublicKey::Rsa { der, pss_only } = key else {
        return Err(CryptoError::UnsupportedAlgorithm);
    };
    let is_pss = matches!(
        alg,
        VerifyAlgorithm::RsaPssSha256
            | VerifyAlgorithm::RsaPssSha384
            | VerifyAlgorithm::RsaPssSha512
    );
    if *pss_only && !is_pss {
        return Err(CryptoError::UnsupportedAlgorithm);
    }
    let key = public_key(der)?;
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
