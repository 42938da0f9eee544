//! ECDSA verification on P-256 and P-384 with DER-encoded signatures.

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
        VerifyAlgorithm::EcdsaP256Sha256 | VerifyAlgorithm::EcdsaP384Sha256 => {
            HashAlgorithm::Sha256
        }
        VerifyAlgorithm::EcdsaP256Sha384 | VerifyAlgorithm::EcdsaP384Sha384 => {
            HashAlgorithm::Sha384
        }
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
        _ => Err(CryptoError::UnsupportedAlgorithm),
    }
}
