//! The default [`SignatureVerifier`]: burrow-crypto, inline (native builds, or a Worker that
//! prefers not to offload).

use burrow_crypto::sig::{self, VerifyAlgorithm};
use burrow_crypto::CryptoError;

use crate::alg::{SignatureAlgorithm, SignatureFailure, SignatureRequest, SignatureVerifier};

/// Verifies signatures with `burrow_crypto::sig::verify`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CryptoVerifier;

/// The burrow-crypto algorithm that checks `alg` (for a caller answering requests itself):
/// `alg` itself, since [`SignatureAlgorithm`] is burrow-crypto's [`VerifyAlgorithm`]; kept so
/// callers need not know that.
pub fn verify_algorithm(alg: SignatureAlgorithm) -> VerifyAlgorithm {
    alg
}

impl SignatureVerifier for CryptoVerifier {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        sig::verify(req.algorithm, req.spki, req.message, req.signature).map_err(|e| match e {
            CryptoError::BadSignature => SignatureFailure::Invalid,
            _ => SignatureFailure::Unsupported,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_keys_are_unsupported_not_invalid() {
        for algorithm in [
            SignatureAlgorithm::EcdsaP521Sha512,
            SignatureAlgorithm::RsaPssSha384,
            SignatureAlgorithm::Ed25519,
        ] {
            let req = SignatureRequest {
                algorithm,
                spki: b"not a key",
                message: b"m",
                signature: b"s",
            };
            assert_eq!(
                CryptoVerifier.verify(&req),
                Err(SignatureFailure::Unsupported),
                "{algorithm:?}"
            );
        }
    }
}
