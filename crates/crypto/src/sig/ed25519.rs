//! Ed25519 verification (RFC 8032, pure).

use super::spki::PublicKey;
use crate::CryptoError;

pub(super) fn verify(
    key: &PublicKey<'_>,
    message: &[u8],
    signature: &[u8],
) -> Result<(), CryptoError> {
    let PublicKey::Ed25519(bytes) = key else {
        return Err(CryptoError::UnsupportedAlgorithm);
    };
    let bytes: &[u8; 32] = (*bytes)
        .try_into()
        .map_err(|_| CryptoError::InvalidPublicKey)?;
    let vk = ed25519_dalek::VerifyingKey::from_bytes(bytes)
        .map_err(|_| CryptoError::InvalidPublicKey)?;
    let sig =
        ed25519_dalek::Signature::from_slice(signature).map_err(|_| CryptoError::BadSignature)?;
    vk.verify_strict(message, &sig)
        .map_err(|_| CryptoError::BadSignature)
}
