//! Test-only: a SignatureVerifier on `ring`, to cross-check burrow-crypto and to run before it.

use burrow_x509::{SignatureAlgorithm, SignatureFailure, SignatureRequest, SignatureVerifier};

/// Verifies with ring.
pub(crate) struct RingVerifier;

/// The subjectPublicKey BIT STRING contents of a DER SPKI.
fn spki_key_bits(spki: &[u8]) -> Option<&[u8]> {
    use burrow_der::{tag, Reader};
    Reader::new(spki)
        .exactly(|r| {
            r.nested(tag::SEQUENCE, |s| {
                s.read(tag::SEQUENCE)?;
                s.read_bit_string_bytes()
            })
        })
        .ok()
}

impl SignatureVerifier for RingVerifier {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        use ring::signature as s;
        let alg: &dyn s::VerificationAlgorithm = match req.algorithm {
            SignatureAlgorithm::EcdsaP256Sha256 => &s::ECDSA_P256_SHA256_ASN1,
            SignatureAlgorithm::EcdsaP256Sha384 => &s::ECDSA_P256_SHA384_ASN1,
            SignatureAlgorithm::EcdsaP384Sha256 => &s::ECDSA_P384_SHA256_ASN1,
            SignatureAlgorithm::EcdsaP384Sha384 => &s::ECDSA_P384_SHA384_ASN1,
            SignatureAlgorithm::RsaPkcs1Sha256 => &s::RSA_PKCS1_2048_8192_SHA256,
            SignatureAlgorithm::RsaPkcs1Sha384 => &s::RSA_PKCS1_2048_8192_SHA384,
            SignatureAlgorithm::RsaPkcs1Sha512 => &s::RSA_PKCS1_2048_8192_SHA512,
            SignatureAlgorithm::RsaPssSha256 => &s::RSA_PSS_2048_8192_SHA256,
            SignatureAlgorithm::RsaPssSha384 => &s::RSA_PSS_2048_8192_SHA384,
            SignatureAlgorithm::RsaPssSha512 => &s::RSA_PSS_2048_8192_SHA512,
            SignatureAlgorithm::Ed25519 => &s::ED25519,
            _ => return Err(SignatureFailure::Unsupported),
        };
        let key = spki_key_bits(req.spki).ok_or(SignatureFailure::Unsupported)?;
        s::UnparsedPublicKey::new(alg, key)
            .verify(req.message, req.signature)
            .map_err(|_| SignatureFailure::Invalid)
    }
}
