//! Signature and key algorithms, and the signature-check seam ([`SignatureVerifier`]).
//!
//! Every signature check the validator needs is expressed as a plain-data
//! [`SignatureRequest`] (algorithm, SubjectPublicKeyInfo DER, message, signature): exactly what
//! WebCrypto's `importKey("spki")` + `verify` take, so the Worker can answer it there, while
//! native builds answer it inline with `burrow-crypto` ([`CryptoVerifier`]).

use crate::der::{tag, DerError, DerResult, Reader};
use crate::oid;
use crate::Error;

/// A signature scheme bound to a key type (mirrors `burrow_crypto::sig::VerifyAlgorithm`).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignatureAlgorithm {
    /// ECDSA over P-256 with SHA-256.
    EcdsaP256Sha256,
    /// ECDSA over P-256 with SHA-384.
    EcdsaP256Sha384,
    /// ECDSA over P-384 with SHA-256.
    EcdsaP384Sha256,
    /// ECDSA over P-384 with SHA-384.
    EcdsaP384Sha384,
    /// ECDSA over P-521 with SHA-256.
    EcdsaP521Sha256,
    /// ECDSA over P-521 with SHA-384.
    EcdsaP521Sha384,
    /// ECDSA over P-521 with SHA-512.
    EcdsaP521Sha512,
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    RsaPkcs1Sha256,
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    RsaPkcs1Sha384,
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    RsaPkcs1Sha512,
    /// RSASSA-PSS, MGF1 with the same hash, salt = hash length, SHA-256.
    RsaPssSha256,
    /// RSASSA-PSS with SHA-384.
    RsaPssSha384,
    /// RSASSA-PSS with SHA-512.
    RsaPssSha512,
    /// Ed25519.
    Ed25519,
}

/// One signature to check: plain data, no references into the validator's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignatureRequest<'a> {
    /// The scheme (already matched against the key type).
    pub algorithm: SignatureAlgorithm,
    /// The signer's SubjectPublicKeyInfo, DER.
    pub spki: &'a [u8],
    /// The signed bytes (a TBSCertificate or an OCSP ResponseData, DER).
    pub message: &'a [u8],
    /// The signature (ECDSA: DER Ecdsa-Sig-Value; RSA: raw; Ed25519: 64 bytes).
    pub signature: &'a [u8],
}

/// Why a signature check failed.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureFailure {
    /// The signature does not verify under the key.
    Invalid,
    /// The algorithm, or the key (malformed, RSA outside 2048..=8192 bits), is unsupported.
    Unsupported,
}

/// Answers signature requests. The validator calls it synchronously; to answer asynchronously
/// (WebCrypto), use [`crate::AnswerBook`], which records what it cannot answer yet.
pub trait SignatureVerifier {
    /// Checks one signature.
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure>;
}

impl<T: SignatureVerifier + ?Sized> SignatureVerifier for Box<T> {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        (**self).verify(req)
    }
}

impl<T: SignatureVerifier + ?Sized> SignatureVerifier for &T {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        (**self).verify(req)
    }
}

/// The signature algorithm named by a certificate or OCSP response (before the key is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SigAlg {
    EcdsaSha256,
    EcdsaSha384,
    EcdsaSha512,
    RsaPkcs1Sha256,
    RsaPkcs1Sha384,
    RsaPkcs1Sha512,
    RsaPssSha256,
    RsaPssSha384,
    RsaPssSha512,
    Ed25519,
    /// Parsed but not supported (SHA-1, DSA, ...): fails only when used.
    Unsupported,
}

/// The key type of a SubjectPublicKeyInfo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyType {
    Rsa,
    EcP256,
    EcP384,
    EcP521,
    Ed25519,
    Unsupported,
}

impl SigAlg {
    /// Binds the scheme to the signer's key type.
    pub(crate) fn with_key(self, key: KeyType) -> Result<SignatureAlgorithm, Error> {
        use SignatureAlgorithm as S;
        Ok(match (self, key) {
            (SigAlg::EcdsaSha256, KeyType::EcP256) => S::EcdsaP256Sha256,
            (SigAlg::EcdsaSha384, KeyType::EcP256) => S::EcdsaP256Sha384,
            (SigAlg::EcdsaSha256, KeyType::EcP384) => S::EcdsaP384Sha256,
            (SigAlg::EcdsaSha384, KeyType::EcP384) => S::EcdsaP384Sha384,
            (SigAlg::EcdsaSha256, KeyType::EcP521) => S::EcdsaP521Sha256,
            (SigAlg::EcdsaSha384, KeyType::EcP521) => S::EcdsaP521Sha384,
            (SigAlg::EcdsaSha512, KeyType::EcP521) => S::EcdsaP521Sha512,
            (SigAlg::RsaPkcs1Sha256, KeyType::Rsa) => S::RsaPkcs1Sha256,
            (SigAlg::RsaPkcs1Sha384, KeyType::Rsa) => S::RsaPkcs1Sha384,
            (SigAlg::RsaPkcs1Sha512, KeyType::Rsa) => S::RsaPkcs1Sha512,
            (SigAlg::RsaPssSha256, KeyType::Rsa) => S::RsaPssSha256,
            (SigAlg::RsaPssSha384, KeyType::Rsa) => S::RsaPssSha384,
            (SigAlg::RsaPssSha512, KeyType::Rsa) => S::RsaPssSha512,
            (SigAlg::Ed25519, KeyType::Ed25519) => S::Ed25519,
            _ => return Err(Error::UnsupportedSignatureAlgorithm),
        })
    }
}

/// Parses a signature AlgorithmIdentifier (the whole SEQUENCE is consumed from `r`).
pub(crate) fn read_sig_alg(r: &mut Reader<'_>) -> DerResult<SigAlg> {
    r.nested(tag::SEQUENCE, |r| {
        let id = r.read(tag::OID)?;
        let alg = match id {
            x if x == oid::ECDSA_SHA256 => SigAlg::EcdsaSha256,
            x if x == oid::ECDSA_SHA384 => SigAlg::EcdsaSha384,
            x if x == oid::ECDSA_SHA512 => SigAlg::EcdsaSha512,
            x if x == oid::ED25519 => SigAlg::Ed25519,
            x if x == oid::RSA_SHA256 => SigAlg::RsaPkcs1Sha256,
            x if x == oid::RSA_SHA384 => SigAlg::RsaPkcs1Sha384,
            x if x == oid::RSA_SHA512 => SigAlg::RsaPkcs1Sha512,
            x if x == oid::RSA_PSS => return read_pss_params(r),
            _ => {
                // Unknown: skip parameters, fail only if used.
                while !r.is_empty() {
                    r.read_any()?;
                }
                return Ok(SigAlg::Unsupported);
            }
        };
        match alg {
            SigAlg::RsaPkcs1Sha256 | SigAlg::RsaPkcs1Sha384 | SigAlg::RsaPkcs1Sha512 => {
                // RFC 4055: parameters MUST be NULL (tolerate absent, as many stacks do).
                if !r.is_empty() {
                    let n = r.read(tag::NULL)?;
                    if !n.is_empty() {
                        return Err(DerError("bad NULL"));
                    }
                }
            }
            _ => {
                // ECDSA and Ed25519: parameters MUST be absent (RFC 5758 §3.2, RFC 8410 §3).
                if !r.is_empty() {
                    return Err(DerError("unexpected signature algorithm parameters"));
                }
            }
        }
        Ok(alg)
    })
}

/// RSASSA-PSS-params: hash, MGF1(same hash), salt length = hash length, trailer 1.
fn read_pss_params(r: &mut Reader<'_>) -> DerResult<SigAlg> {
    let params = r.nested(tag::SEQUENCE, |p| {
        let hash = p
            .read_optional(tag::ctx_cons(0))?
            .map(|v| Reader::new(v).exactly(read_hash_alg))
            .transpose()?;
        let mgf_hash = p
            .read_optional(tag::ctx_cons(1))?
            .map(|v| {
                Reader::new(v).exactly(|m| {
                    m.nested(tag::SEQUENCE, |m| {
                        if m.read(tag::OID)? != oid::MGF1 {
                            return Ok(None);
                        }
                        Ok(Some(read_hash_alg(m)?))
                    })
                })
            })
            .transpose()?;
        let salt = p
            .read_optional(tag::ctx_cons(2))?
            .map(|v| Reader::new(v).exactly(|s| s.read_small_uint()))
            .transpose()?;
        let trailer = p
            .read_optional(tag::ctx_cons(3))?
            .map(|v| Reader::new(v).exactly(|s| s.read_small_uint()))
            .transpose()?;
        Ok((hash, mgf_hash, salt, trailer))
    })?;
    let (hash, mgf, salt, trailer) = params;
    let Some(Some(h)) = hash else {
        return Ok(SigAlg::Unsupported);
    };
    let Some(Some(Some(m))) = mgf else {
        return Ok(SigAlg::Unsupported);
    };
    if h != m || trailer.unwrap_or(1) != 1 {
        return Ok(SigAlg::Unsupported);
    }
    let (alg, len) = match h {
        Hash::Sha256 => (SigAlg::RsaPssSha256, 32),
        Hash::Sha384 => (SigAlg::RsaPssSha384, 48),
        Hash::Sha512 => (SigAlg::RsaPssSha512, 64),
    };
    if salt != Some(len) {
        return Ok(SigAlg::Unsupported);
    }
    Ok(alg)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hash {
    Sha256,
    Sha384,
    Sha512,
}

/// A hash AlgorithmIdentifier; `None` for hashes PSS may not use here (SHA-1 etc.).
fn read_hash_alg(r: &mut Reader<'_>) -> DerResult<Option<Hash>> {
    r.nested(tag::SEQUENCE, |r| {
        let id = r.read(tag::OID)?;
        if !r.is_empty() {
            let n = r.read(tag::NULL)?;
            if !n.is_empty() {
                return Err(DerError("bad NULL"));
            }
        }
        Ok(match id {
            x if x == oid::SHA256 => Some(Hash::Sha256),
            x if x == oid::SHA384 => Some(Hash::Sha384),
            x if x == oid::SHA512 => Some(Hash::Sha512),
            _ => None,
        })
    })
}

/// Parses SubjectPublicKeyInfo contents and returns the key type.
pub(crate) fn read_spki_key_type(spki_contents: &[u8]) -> DerResult<KeyType> {
    Reader::new(spki_contents).exactly(|r| {
        let kt = r.nested(tag::SEQUENCE, |a| {
            let id = a.read(tag::OID)?;
            if id == oid::RSA_ENCRYPTION {
                let n = a.read(tag::NULL)?;
                if !n.is_empty() {
                    return Err(DerError("bad NULL"));
                }
                Ok(KeyType::Rsa)
            } else if id == oid::EC_PUBLIC_KEY {
                if a.peek_tag() != Some(tag::OID) {
                    // Explicit curve parameters (RFC 5480 forbids them in PKIX).
                    a.read_any()?;
                    return Ok(KeyType::Unsupported);
                }
                let curve = a.read(tag::OID)?;
                Ok(match curve {
                    c if c == oid::SECP256R1 => KeyType::EcP256,
                    c if c == oid::SECP384R1 => KeyType::EcP384,
                    c if c == oid::SECP521R1 => KeyType::EcP521,
                    _ => KeyType::Unsupported,
                })
            } else if id == oid::ED25519 {
                Ok(KeyType::Ed25519)
            } else {
                while !a.is_empty() {
                    a.read_any()?;
                }
                Ok(KeyType::Unsupported)
            }
        })?;
        // The key itself: a BIT STRING with no unused bits.
        let key = r.read_bit_string_bytes()?;
        if kt == KeyType::Rsa && !rsa_key_acceptable(key) {
            return Ok(KeyType::Unsupported);
        }
        Ok(kt)
    })
}

/// RSAPublicKey with a modulus of 2048..=8192 bits, a whole number of bytes (CABF), and an odd
/// exponent > 1.
fn rsa_key_acceptable(key: &[u8]) -> bool {
    let parsed = Reader::new(key).exactly(|r| {
        r.nested(tag::SEQUENCE, |k| {
            let n = k.read_unsigned_integer()?;
            let e = k.read_unsigned_integer()?;
            Ok((n, e))
        })
    });
    let Ok((n, e)) = parsed else { return false };
    let Some(first) = n.first() else { return false };
    let whole_bytes = first & 0x80 != 0;
    let bits = n.len().saturating_mul(8);
    let e_ok = e.last().is_some_and(|b| b & 1 == 1) && e != [1];
    whole_bytes && (2048..=8192).contains(&bits) && e_ok
}
