//! The default [`SignatureVerifier`]: burrow-crypto, inline (native builds, or a Worker that
//! prefers not to offload).

use burrow_crypto::sig::{self, VerifyAlgorithm};
use burrow_crypto::CryptoError;

use crate::alg::{SignatureAlgorithm, SignatureFailure, SignatureRequest, SignatureVerifier};

/// Verifies signatures with `burrow_crypto::sig::verify`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CryptoVerifier;

/// The burrow-crypto algorithm that checks `alg` (for a caller answering requests itself).
pub fn verify_algorithm(alg: SignatureAlgorithm) -> VerifyAlgorithm {
    match alg {
        SignatureAlgorithm::EcdsaP256Sha256 => VerifyAlgorithm::EcdsaP256Sha256,
        SignatureAlgorithm::EcdsaP256Sha384 => VerifyAlgorithm::EcdsaP256Sha384,
        SignatureAlgorithm::EcdsaP384Sha256 => VerifyAlgorithm::EcdsaP384Sha256,
        SignatureAlgorithm::EcdsaP384Sha384 => VerifyAlgorithm::EcdsaP384Sha384,
        SignatureAlgorithm::EcdsaP521Sha256 => VerifyAlgorithm::EcdsaP521Sha256,
        SignatureAlgorithm::EcdsaP521Sha384 => VerifyAlgorithm::EcdsaP521Sha384,
        SignatureAlgorithm::EcdsaP521Sha512 => VerifyAlgorithm::EcdsaP521Sha512,
        SignatureAlgorithm::RsaPkcs1Sha256 => VerifyAlgorithm::RsaPkcs1Sha256,
        SignatureAlgorithm::RsaPkcs1Sha384 => VerifyAlgorithm::RsaPkcs1Sha384,
        SignatureAlgorithm::RsaPkcs1Sha512 => VerifyAlgorithm::RsaPkcs1Sha512,
        SignatureAlgorithm::RsaPssSha256 => VerifyAlgorithm::RsaPssSha256,
        SignatureAlgorithm::RsaPssSha384 => VerifyAlgorithm::RsaPssSha384,
        SignatureAlgorithm::RsaPssSha512 => VerifyAlgorithm::RsaPssSha512,
        SignatureAlgorithm::Ed25519 => VerifyAlgorithm::Ed25519,
    }
}

impl SignatureVerifier for CryptoVerifier {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        sig::verify(
            verify_algorithm(req.algorithm),
            req.spki,
            req.message,
            req.signature,
        )
        .map_err(|e| match e {
            CryptoError::BadSignature => SignatureFailure::Invalid,
            _ => SignatureFailure::Unsupported,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each scheme maps to the burrow-crypto algorithm of the same curve/padding and hash.
    #[test]
    fn every_scheme_maps_to_its_namesake() {
        use SignatureAlgorithm as S;
        use VerifyAlgorithm as V;
        let table = [
            (S::EcdsaP256Sha256, V::EcdsaP256Sha256),
            (S::EcdsaP256Sha384, V::EcdsaP256Sha384),
            (S::EcdsaP384Sha256, V::EcdsaP384Sha256),
            (S::EcdsaP384Sha384, V::EcdsaP384Sha384),
            (S::EcdsaP521Sha256, V::EcdsaP521Sha256),
            (S::EcdsaP521Sha384, V::EcdsaP521Sha384),
            (S::EcdsaP521Sha512, V::EcdsaP521Sha512),
            (S::RsaPkcs1Sha256, V::RsaPkcs1Sha256),
            (S::RsaPkcs1Sha384, V::RsaPkcs1Sha384),
            (S::RsaPkcs1Sha512, V::RsaPkcs1Sha512),
            (S::RsaPssSha256, V::RsaPssSha256),
            (S::RsaPssSha384, V::RsaPssSha384),
            (S::RsaPssSha512, V::RsaPssSha512),
            (S::Ed25519, V::Ed25519),
        ];
        for (s, v) in table {
            assert_eq!(verify_algorithm(s), v, "{s:?}");
        }
    }

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
