//! Signature and key algorithms, and the signature-check seam ([`SignatureVerifier`]).
//!
//! Every signature check the validator needs is expressed as a plain-data
//! [`SignatureRequest`] (algorithm, SubjectPublicKeyInfo DER, message, signature): exactly what
//! WebCrypto's `importKey("spki")` + `verify` take, so the Worker can answer it there, while
//! native builds answer it inline with `burrow-crypto` ([`CryptoVerifier`]).

use crate::oid;
use crate::Error;
use burrow_crypto::sig::{KeyKind, PublicKeyInfo, X509Signature};
use burrow_crypto::CryptoError;
use burrow_der::{tag, Error as DerError, Reader, Result as DerResult};

/// A signature scheme bound to a key type: burrow-crypto's own [`VerifyAlgorithm`] (one enum
/// for the handshake, the validator and the Worker, so no mapping between them can drift).
pub use burrow_crypto::sig::VerifyAlgorithm as SignatureAlgorithm;

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

    /// Whether an answer given so far was a guess still to be confirmed ([`crate::AnswerBook`]
    /// accepts what it has not been told yet). A verifier that guesses must say so: a
    /// [`crate::ChainCache`] remembers only validations whose every answer was final.
    fn provisional(&self) -> bool {
        false
    }
}

impl<T: SignatureVerifier + ?Sized> SignatureVerifier for Box<T> {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        (**self).verify(req)
    }

    fn provisional(&self) -> bool {
        (**self).provisional()
    }
}

impl<T: SignatureVerifier + ?Sized> SignatureVerifier for &T {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        (**self).verify(req)
    }

    fn provisional(&self) -> bool {
        (**self).provisional()
    }
}

/// The signature algorithm named by a certificate or OCSP response (before the key is known);
/// `None`: parsed but not supported (SHA-1, DSA, unusual PSS parameters), which fails only when
/// used.
pub(crate) type SigAlg = Option<X509Signature>;

/// The key of a SubjectPublicKeyInfo as the validator sees it; `None`: a key it cannot verify
/// with (an unknown type or curve, RSA outside policy), which fails only when used.
pub(crate) type SignerKey = Option<KeyKind>;

/// Binds a signature algorithm to the signer's key (burrow-crypto owns the table).
pub(crate) fn bind(sig: SigAlg, key: SignerKey) -> Result<SignatureAlgorithm, Error> {
    sig.zip(key)
        .and_then(|(sig, key)| key.x509_algorithm(sig))
        .ok_or(Error::UnsupportedSignatureAlgorithm)
}

/// Parses a signature AlgorithmIdentifier (the whole SEQUENCE is consumed from `r`).
pub(crate) fn read_sig_alg(r: &mut Reader<'_>) -> DerResult<SigAlg> {
    r.nested(tag::SEQUENCE, |r| {
        let id = r.read(tag::OID)?;
        let alg = match id {
            x if x == oid::ECDSA_SHA256 => X509Signature::EcdsaSha256,
            x if x == oid::ECDSA_SHA384 => X509Signature::EcdsaSha384,
            x if x == oid::ECDSA_SHA512 => X509Signature::EcdsaSha512,
            x if x == oid::ED25519 => X509Signature::Ed25519,
            x if x == oid::RSA_SHA256 => X509Signature::RsaPkcs1Sha256,
            x if x == oid::RSA_SHA384 => X509Signature::RsaPkcs1Sha384,
            x if x == oid::RSA_SHA512 => X509Signature::RsaPkcs1Sha512,
            x if x == oid::RSA_PSS => return read_pss_params(r),
            _ => {
                // Unknown: skip parameters, fail only if used.
                while !r.is_empty() {
                    r.read_any()?;
                }
                return Ok(None);
            }
        };
        match alg {
            X509Signature::RsaPkcs1Sha256
            | X509Signature::RsaPkcs1Sha384
            | X509Signature::RsaPkcs1Sha512 => {
                // RFC 4055: parameters MUST be NULL (tolerate absent, as many stacks do).
                if !r.is_empty() {
                    let n = r.read(tag::NULL)?;
                    if !n.is_empty() {
                        return Err(DerError::Invalid("bad NULL"));
                    }
                }
            }
            _ => {
                // ECDSA and Ed25519: parameters MUST be absent (RFC 5758 §3.2, RFC 8410 §3).
                if !r.is_empty() {
                    return Err(DerError::Invalid(
                        "unexpected signature algorithm parameters",
                    ));
                }
            }
        }
        Ok(Some(alg))
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
        return Ok(None);
    };
    let Some(Some(Some(m))) = mgf else {
        return Ok(None);
    };
    if h != m || trailer.unwrap_or(1) != 1 {
        return Ok(None);
    }
    let (alg, len) = match h {
        Hash::Sha256 => (X509Signature::RsaPssSha256, 32),
        Hash::Sha384 => (X509Signature::RsaPssSha384, 48),
        Hash::Sha512 => (X509Signature::RsaPssSha512, 64),
    };
    if salt != Some(len) {
        return Ok(None);
    }
    Ok(Some(alg))
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
                return Err(DerError::Invalid("bad NULL"));
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

/// Reads a whole SubjectPublicKeyInfo (DER, tag included) with burrow-crypto's parser, the one
/// the signature checks use, and applies the validator's key policy: RSA of 2048..=8192 bits,
/// a whole number of bytes (CABF), an odd exponent above 1, rsaEncryption only (as webpki: an
/// id-RSASSA-PSS key is not used). A malformed SPKI is an error; a key burrow does not verify
/// with is `Ok(None)`, which fails only when used.
pub(crate) fn read_signer_key(spki: &[u8]) -> DerResult<SignerKey> {
    let info = match PublicKeyInfo::parse(spki) {
        Ok(info) => info,
        Err(CryptoError::UnsupportedAlgorithm) => return Ok(None),
        Err(_) => return Err(DerError::Invalid("malformed SubjectPublicKeyInfo")),
    };
    let kind = info.kind();
    if let KeyKind::Rsa {
        modulus_bits,
        pss_only,
    } = kind
    {
        let exponent_ok = info
            .rsa_public_exponent()
            .is_some_and(|e| e.last().is_some_and(|b| b & 1 == 1) && e != [1]);
        let size_ok = modulus_bits % 8 == 0 && (2048..=8192).contains(&modulus_bits);
        if pss_only || !exponent_ok || !size_ok {
            return Ok(None);
        }
    }
    Ok(Some(kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_der::{bit_string, oid, oids, seq, tlv};

    fn sig_alg(der: &[u8]) -> DerResult<SigAlg> {
        Reader::new(der).exactly(read_sig_alg)
    }

    fn hash_alg(id: &[u8], null: bool) -> Vec<u8> {
        if null {
            seq(&[&oid(id), &[0x05, 0x00]])
        } else {
            seq(&[&oid(id)])
        }
    }

    /// RSASSA-PSS AlgorithmIdentifier with the given optional parameter fields.
    fn pss(
        hash: Option<&[u8]>,
        mgf: Option<&[u8]>,
        salt: Option<u8>,
        trailer: Option<u8>,
    ) -> Vec<u8> {
        let mut params = Vec::new();
        if let Some(h) = hash {
            params.extend(tlv(0xa0, h));
        }
        if let Some(m) = mgf {
            params.extend(tlv(0xa1, m));
        }
        if let Some(s) = salt {
            params.extend(tlv(0xa2, &tlv(0x02, &[s])));
        }
        if let Some(t) = trailer {
            params.extend(tlv(0xa3, &tlv(0x02, &[t])));
        }
        seq(&[&oid(oids::RSA_PSS), &tlv(0x30, &params)])
    }

    fn mgf1(hash: &[u8]) -> Vec<u8> {
        seq(&[&oid(oids::MGF1), hash])
    }

    #[test]
    fn pss_parameters_must_be_the_one_supported_shape() {
        for (h, want, salt) in [
            (oids::SHA256, Some(X509Signature::RsaPssSha256), 32),
            (oids::SHA384, Some(X509Signature::RsaPssSha384), 48),
            (oids::SHA512, Some(X509Signature::RsaPssSha512), 64),
        ] {
            for null in [true, false] {
                let ha = hash_alg(h, null);
                let m = mgf1(&ha);
                assert_eq!(
                    sig_alg(&pss(Some(&ha), Some(&m), Some(salt), None)),
                    Ok(want)
                );
                assert_eq!(
                    sig_alg(&pss(Some(&ha), Some(&m), Some(salt), Some(1))),
                    Ok(want)
                );
                // Salt of another length, a trailer other than 1, or salt left to its default.
                for other in [
                    pss(Some(&ha), Some(&m), Some(salt.wrapping_sub(1)), None),
                    pss(Some(&ha), Some(&m), Some(salt), Some(2)),
                    pss(Some(&ha), Some(&m), None, None),
                ] {
                    assert_eq!(sig_alg(&other), Ok(None));
                }
            }
        }
        let sha256 = hash_alg(oids::SHA256, true);
        let sha384 = hash_alg(oids::SHA384, true);
        let sha1 = hash_alg(oids::SHA1, true);
        let unsupported = [
            // Defaults (SHA-1 everywhere) and a missing MGF.
            pss(None, None, None, None),
            pss(Some(&sha256), None, Some(32), None),
            pss(None, Some(&mgf1(&sha256)), Some(32), None),
            // SHA-1, as hash or as MGF1 hash.
            pss(Some(&sha1), Some(&mgf1(&sha1)), Some(20), None),
            pss(Some(&sha256), Some(&mgf1(&sha1)), Some(32), None),
            // Hash and MGF1 hash differ.
            pss(Some(&sha256), Some(&mgf1(&sha384)), Some(32), None),
            // A mask generation function other than MGF1 (its parameters are not looked at).
            pss(
                Some(&sha256),
                Some(&seq(&[&oid(oids::SHA256)])),
                Some(32),
                None,
            ),
        ];
        for alg in unsupported {
            assert_eq!(sig_alg(&alg), Ok(None), "{alg:02x?}");
        }
        // Malformed: a hash AlgorithmIdentifier whose NULL has contents, a non-NULL parameter.
        let bad_null = seq(&[&oid(oids::SHA256), &[0x05, 0x01, 0x00]]);
        assert_eq!(
            sig_alg(&pss(Some(&bad_null), Some(&mgf1(&sha256)), Some(32), None)),
            Err(DerError::Invalid("bad NULL"))
        );
        let not_null = seq(&[&oid(oids::SHA256), &[0x02, 0x01, 0x00]]);
        assert_eq!(
            sig_alg(&pss(Some(&not_null), Some(&mgf1(&sha256)), Some(32), None)),
            Err(DerError::UnexpectedTag)
        );
        // PSS without its parameters SEQUENCE.
        assert_eq!(
            sig_alg(&seq(&[&oid(oids::RSA_PSS)])),
            Err(DerError::UnexpectedTag)
        );
    }

    #[test]
    fn algorithm_parameters() {
        // PKCS#1: NULL or absent; anything else is malformed.
        let rsa = |params: &[u8]| seq(&[&oid(oids::SHA256_WITH_RSA), params]);
        assert_eq!(
            sig_alg(&rsa(&[0x05, 0x00])),
            Ok(Some(X509Signature::RsaPkcs1Sha256))
        );
        assert_eq!(sig_alg(&rsa(&[])), Ok(Some(X509Signature::RsaPkcs1Sha256)));
        assert_eq!(
            sig_alg(&rsa(&[0x05, 0x01, 0x00])),
            Err(DerError::Invalid("bad NULL"))
        );
        assert_eq!(
            sig_alg(&rsa(&[0x02, 0x01, 0x00])),
            Err(DerError::UnexpectedTag)
        );
        // ECDSA and Ed25519: parameters must be absent.
        for id in [oids::ECDSA_SHA256, oids::ECDSA_SHA384, oids::ED25519] {
            assert!(sig_alg(&seq(&[&oid(id)])).is_ok());
            assert_eq!(
                sig_alg(&seq(&[&oid(id), &[0x05, 0x00]])),
                Err(DerError::Invalid(
                    "unexpected signature algorithm parameters"
                ))
            );
        }
        // Unknown algorithms parse (parameters skipped) and fail only when used.
        let dsa = [0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x03];
        assert_eq!(
            sig_alg(&seq(&[&oid(&dsa), &[0x05, 0x00], &[0x02, 0x01, 0x07]])),
            Ok(None)
        );
    }

    #[test]
    fn schemes_bind_to_matching_keys_only() {
        use SignatureAlgorithm as S;
        use X509Signature as X;
        let rsa = KeyKind::Rsa {
            modulus_bits: 2048,
            pss_only: false,
        };
        let table = [
            (X::EcdsaSha256, KeyKind::EcdsaP256, S::EcdsaP256Sha256),
            (X::EcdsaSha384, KeyKind::EcdsaP256, S::EcdsaP256Sha384),
            (X::EcdsaSha256, KeyKind::EcdsaP384, S::EcdsaP384Sha256),
            (X::EcdsaSha384, KeyKind::EcdsaP384, S::EcdsaP384Sha384),
            (X::EcdsaSha256, KeyKind::EcdsaP521, S::EcdsaP521Sha256),
            (X::EcdsaSha384, KeyKind::EcdsaP521, S::EcdsaP521Sha384),
            (X::EcdsaSha512, KeyKind::EcdsaP521, S::EcdsaP521Sha512),
            (X::RsaPkcs1Sha256, rsa, S::RsaPkcs1Sha256),
            (X::RsaPkcs1Sha384, rsa, S::RsaPkcs1Sha384),
            (X::RsaPkcs1Sha512, rsa, S::RsaPkcs1Sha512),
            (X::RsaPssSha256, rsa, S::RsaPssSha256),
            (X::RsaPssSha384, rsa, S::RsaPssSha384),
            (X::RsaPssSha512, rsa, S::RsaPssSha512),
            (X::Ed25519, KeyKind::Ed25519, S::Ed25519),
        ];
        let algs = [
            Some(X::EcdsaSha256),
            Some(X::EcdsaSha384),
            Some(X::EcdsaSha512),
            Some(X::RsaPkcs1Sha256),
            Some(X::RsaPkcs1Sha384),
            Some(X::RsaPkcs1Sha512),
            Some(X::RsaPssSha256),
            Some(X::RsaPssSha384),
            Some(X::RsaPssSha512),
            Some(X::Ed25519),
            None,
        ];
        let keys = [
            Some(rsa),
            Some(KeyKind::EcdsaP256),
            Some(KeyKind::EcdsaP384),
            Some(KeyKind::EcdsaP521),
            Some(KeyKind::Ed25519),
            None,
        ];
        for alg in algs {
            for key in keys {
                let want = table
                    .iter()
                    .find(|(a, k, _)| Some(*a) == alg && Some(*k) == key)
                    .map(|(_, _, s)| *s)
                    .ok_or(Error::UnsupportedSignatureAlgorithm);
                assert_eq!(bind(alg, key), want, "{alg:?} with {key:?}");
            }
        }
    }

    fn key_type(alg: &[u8], key: &[u8]) -> DerResult<SignerKey> {
        read_signer_key(&seq(&[alg, &bit_string(key)]))
    }

    /// RSAPublicKey { modulus of `bytes` bytes, top bit `top`, exponent `e` }.
    fn rsa_public(bytes: usize, top: u8, e: &[u8]) -> Vec<u8> {
        let mut n = vec![0u8; bytes];
        if let Some(first) = n.first_mut() {
            *first = top;
        }
        if top & 0x80 != 0 {
            n.insert(0, 0);
        }
        seq(&[&tlv(0x02, &n), &tlv(0x02, e)])
    }

    #[test]
    fn key_types() {
        let ec = |curve: &[u8]| seq(&[&oid(oids::EC_PUBLIC_KEY), &oid(curve)]);
        let point = [4u8; 65];
        assert_eq!(
            key_type(&ec(oids::PRIME256V1), &point),
            Ok(Some(KeyKind::EcdsaP256))
        );
        assert_eq!(
            key_type(&ec(oids::SECP384R1), &point),
            Ok(Some(KeyKind::EcdsaP384))
        );
        assert_eq!(
            key_type(&ec(oids::SECP521R1), &point),
            Ok(Some(KeyKind::EcdsaP521))
        );
        // secp256k1: a curve we do not verify.
        assert_eq!(
            key_type(&ec(&[0x2b, 0x81, 0x04, 0x00, 0x0a]), &point),
            Ok(None)
        );
        // Explicit curve parameters (a SEQUENCE instead of a named curve).
        let explicit = seq(&[&oid(oids::EC_PUBLIC_KEY), &seq(&[&[0x02, 0x01, 0x01]])]);
        assert_eq!(key_type(&explicit, &point), Ok(None));
        assert_eq!(
            key_type(&seq(&[&oid(oids::ED25519)]), &[1u8; 32]),
            Ok(Some(KeyKind::Ed25519))
        );
        // DSA, with parameters: skipped.
        let dsa = seq(&[&oid(&[0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01]), &seq(&[])]);
        assert_eq!(key_type(&dsa, &[0x02, 0x01, 0x05]), Ok(None));

        let rsa = seq(&[&oid(oids::RSA_ENCRYPTION), &[0x05, 0x00]]);
        let e = [0x01, 0x00, 0x01];
        let rsa_bits = |modulus_bits| {
            Ok(Some(KeyKind::Rsa {
                modulus_bits,
                pss_only: false,
            }))
        };
        assert_eq!(key_type(&rsa, &rsa_public(256, 0xc1, &e)), rsa_bits(2048));
        assert_eq!(key_type(&rsa, &rsa_public(1024, 0x80, &e)), rsa_bits(8192));
        // An id-RSASSA-PSS key is not used (as webpki), whatever its size.
        let pss = seq(&[&oid(oids::RSA_PSS)]);
        assert_eq!(key_type(&pss, &rsa_public(256, 0xc1, &e)), Ok(None));
        for (what, key) in [
            ("1024 bits", rsa_public(128, 0xc1, &e)),
            ("8200 bits", rsa_public(1025, 0x80, &e)),
            ("2047 bits", rsa_public(256, 0x41, &e)),
            ("even exponent", rsa_public(256, 0xc1, &[0x01, 0x00, 0x00])),
            ("exponent 1", rsa_public(256, 0xc1, &[0x01])),
        ] {
            assert_eq!(key_type(&rsa, &key), Ok(None), "{what}");
        }
        // Malformed: the key is not an RSAPublicKey, the NULL has contents or is missing.
        let malformed = Err(DerError::Invalid("malformed SubjectPublicKeyInfo"));
        let key = rsa_public(256, 0xc1, &e);
        for (what, alg, key) in [
            ("not an RSAPublicKey", rsa.clone(), vec![0x05, 0x00]),
            (
                "NULL with contents",
                seq(&[&oid(oids::RSA_ENCRYPTION), &[0x05, 0x01, 0x00]]),
                key.clone(),
            ),
            ("no NULL", seq(&[&oid(oids::RSA_ENCRYPTION)]), key),
        ] {
            assert_eq!(key_type(&alg, &key), malformed, "{what}");
        }
    }

    /// The blanket impls for references and boxes answer like the verifier they wrap.
    #[test]
    fn verifier_blanket_impls_delegate() {
        struct Refuse;
        impl SignatureVerifier for Refuse {
            fn verify(&self, _: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
                Err(SignatureFailure::Unsupported)
            }
        }
        let req = SignatureRequest {
            algorithm: SignatureAlgorithm::Ed25519,
            spki: &[],
            message: b"m",
            signature: &[],
        };
        let by_ref: &dyn SignatureVerifier = &Refuse;
        assert_eq!((&by_ref).verify(&req), Err(SignatureFailure::Unsupported));
        let boxed: Box<dyn SignatureVerifier> = Box::new(Refuse);
        assert_eq!(boxed.verify(&req), Err(SignatureFailure::Unsupported));
    }
}
