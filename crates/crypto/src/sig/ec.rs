//! ECDSA verification on P-256, P-384 and P-521 with DER-encoded signatures.

use p256::ecdsa::signature::hazmat::PrehashVerifier;

use super::spki::PublicKey;
use super::VerifyAlgorithm;
use crate::hash::{digest, HashAlgorithm};
use crate::CryptoError;

pub(super) fn verify(
    alg: VerifyAlgorithm,
    key: &PublicKey<'_>,
    message: &[u8],
    signature: &[u8],
) -> Result<(), CryptoError> {
    let hash = match alg {
        VerifyAlgorithm::EcdsaP256Sha256
        | VerifyAlgorithm::EcdsaP384Sha256
        | VerifyAlgorithm::EcdsaP521Sha256 => HashAlgorithm::Sha256,
        VerifyAlgorithm::EcdsaP256Sha384
        | VerifyAlgorithm::EcdsaP384Sha384
        | VerifyAlgorithm::EcdsaP521Sha384 => HashAlgorithm::Sha384,
        VerifyAlgorithm::EcdsaP521Sha512 => HashAlgorithm::Sha512,
        _ => return Err(CryptoError::UnsupportedAlgorithm),
    };
    let prehash = digest(hash, message);
    match (alg, key) {
        (
            VerifyAlgorithm::EcdsaP256Sha256 | VerifyAlgorithm::EcdsaP256Sha384,
            PublicKey::P256(point),
        ) => {
            let vk = p256::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map_err(|_| CryptoError::InvalidPublicKey)?;
            let sig = p256::ecdsa::Signature::from_der(signature)
                .map_err(|_| CryptoError::BadSignature)?;
            vk.verify_prehash(prehash.as_ref(), &sig)
                .map_err(|_| CryptoError::BadSignature)
        }
        (
            VerifyAlgorithm::EcdsaP384Sha256 | VerifyAlgorithm::EcdsaP384Sha384,
            PublicKey::P384(point),
        ) => {
            let vk = p384::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map_err(|_| CryptoError::InvalidPublicKey)?;
            let sig = p384::ecdsa::Signature::from_der(signature)
                .map_err(|_| CryptoError::BadSignature)?;
            vk.verify_prehash(prehash.as_ref(), &sig)
                .map_err(|_| CryptoError::BadSignature)
        }
        (
            VerifyAlgorithm::EcdsaP521Sha256
            | VerifyAlgorithm::EcdsaP521Sha384
            | VerifyAlgorithm::EcdsaP521Sha512,
            PublicKey::P521(point),
        ) => {
            let vk = p521::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map_err(|_| CryptoError::InvalidPublicKey)?;
            let sig = p521::ecdsa::Signature::from_der(signature)
                .map_err(|_| CryptoError::BadSignature)?;
            // SEC1 §4.1.4: a hash shorter than the 521-bit order is used whole, as an integer.
            // The ecdsa crate refuses a prehash under half the field size (SHA-256 here), so
            // the hash is left-padded to the field size, which is the same integer.
            let h = prehash.as_ref();
            let mut field = [0u8; 66];
            let at = field.len().saturating_sub(h.len());
            field
                .get_mut(at..)
                .ok_or(CryptoError::UnsupportedAlgorithm)?
                .copy_from_slice(h);
            vk.verify_prehash(&field, &sig)
                .map_err(|_| CryptoError::BadSignature)
        }
        _ => Err(CryptoError::UnsupportedAlgorithm),
    }
}
