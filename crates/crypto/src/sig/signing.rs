//! Private keys that sign (TLS client certificates): parsed from DER with burrow-der, held in
//! types that wipe themselves on drop, never shown by `Debug`.
//!
//! Accepted encodings: PKCS#8 PrivateKeyInfo (RFC 5208/5958) for P-256, P-384, RSA and Ed25519;
//! SEC1 ECPrivateKey (RFC 5915) for P-256/P-384; PKCS#1 RSAPrivateKey (RFC 8017 §A.1.2).
//! Signature formats are those [`super::verify`] takes: ECDSA as DER, RSA raw, Ed25519 64 bytes.

use burrow_der::{tag, Reader};
use zeroize::Zeroizing;

use super::spki::{read_algorithm, PublicKey, PublicKeyInfo};
use super::VerifyAlgorithm;
use crate::hash::{digest, HashAlgorithm};
use crate::CryptoError;

/// id-ecPublicKey (1.2.840.10045.2.1).
const ID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// secp256r1 (1.2.840.10045.3.1.7).
const SECP256R1: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
/// secp384r1 (1.3.132.0.34).
const SECP384R1: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
/// rsaEncryption (1.2.840.113549.1.1.1).
const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
/// id-Ed25519 (1.3.101.112).
const ID_ED25519: &[u8] = &[0x2b, 0x65, 0x70];

/// A private key burrow can sign with. Every variant wipes its secret on drop (the
/// curve crates' and `rsa`'s own `ZeroizeOnDrop`); `Debug` names only the kind.
pub struct SigningKey {
    inner: Inner,
}

enum Inner {
    P256(p256::ecdsa::SigningKey),
    P384(p384::ecdsa::SigningKey),
    Rsa(Box<::rsa::RsaPrivateKey>),
    Ed25519(ed25519_dalek::SigningKey),
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let kind = match self.inner {
            Inner::P256(_) => "P-256",
            Inner::P384(_) => "P-384",
            Inner::Rsa(_) => "RSA",
            Inner::Ed25519(_) => "Ed25519",
        };
        f.debug_struct("SigningKey")
            .field("kind", &kind)
            .finish_non_exhaustive()
    }
}

fn bad<E>(_: E) -> CryptoError {
    CryptoError::InvalidPrivateKey
}

impl SigningKey {
    /// A PKCS#8 PrivateKeyInfo ("PRIVATE KEY" in PEM). Encrypted PKCS#8 is not read.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, CryptoError> {
        let (oid, params, key) = Reader::new(der)
            .exactly(|r| {
                r.nested(tag::SEQUENCE, |s| {
                    // v1 (0) or v2 (1, with an optional public key after the key).
                    if s.read_small_uint()? > 1 {
                        return Err(burrow_der::Error::IntegerTooLarge);
                    }
                    let (oid, params) = read_algorithm(s)?;
                    let key = s.read(tag::OCTET_STRING)?;
                    // attributes [0] and publicKey [1] are not needed: skip whatever follows.
                    while !s.is_empty() {
                        s.read_any()?;
                    }
                    Ok((oid, params, key))
                })
            })
            .map_err(bad)?;
        match oid {
            ID_EC_PUBLIC_KEY => {
                let curve = params
                    .filter(|p| p.tag == tag::OID)
                    .ok_or(CryptoError::InvalidPrivateKey)?;
                Self::ec(key, Some(curve.value))
            }
            RSA_ENCRYPTION => Self::from_pkcs1_der(key),
            ID_ED25519 => {
                if params.is_some() {
                    return Err(CryptoError::InvalidPrivateKey);
                }
                // CurvePrivateKey ::= OCTET STRING (RFC 8410 §7).
                let seed = Reader::new(key)
                    .exactly(|r| r.read(tag::OCTET_STRING))
                    .map_err(bad)?;
                let seed: Zeroizing<[u8; 32]> =
                    Zeroizing::new(seed.try_into().map_err(|_| CryptoError::BadKeyLength)?);
                Ok(Self {
                    inner: Inner::Ed25519(ed25519_dalek::SigningKey::from_bytes(&seed)),
                })
            }
            _ => Err(CryptoError::UnsupportedAlgorithm),
        }
    }

    /// A SEC1 ECPrivateKey ("EC PRIVATE KEY" in PEM) on P-256 or P-384; the curve comes from
    /// its parameters.
    pub fn from_sec1_der(der: &[u8]) -> Result<Self, CryptoError> {
        Self::ec(der, None)
    }

    /// ECPrivateKey, its curve named by PKCS#8 (`outer`) or by its own `[0]` parameters.
    fn ec(der: &[u8], outer: Option<&[u8]>) -> Result<Self, CryptoError> {
        let (scalar, inner) = Reader::new(der)
            .exactly(|r| {
                r.nested(tag::SEQUENCE, |s| {
                    if s.read_small_uint()? != 1 {
                        return Err(burrow_der::Error::IntegerTooLarge);
                    }
                    let scalar = s.read(tag::OCTET_STRING)?;
                    let mut curve = None;
                    while !s.is_empty() {
                        let t = s.read_any()?;
                        // [0] ECParameters: a namedCurve OID.
                        if t.tag == 0xa0 {
                            curve = Some(Reader::new(t.value).exactly(|p| p.read(tag::OID))?);
                        }
                    }
                    Ok((scalar, curve))
                })
            })
            .map_err(bad)?;
        if let (Some(a), Some(b)) = (outer, inner) {
            if a != b {
                return Err(CryptoError::InvalidPrivateKey);
            }
        }
        let inner = match outer.or(inner) {
            Some(SECP256R1) => {
                Inner::P256(p256::ecdsa::SigningKey::from_slice(scalar).map_err(bad)?)
            }
            Some(SECP384R1) => {
                Inner::P384(p384::ecdsa::SigningKey::from_slice(scalar).map_err(bad)?)
            }
            Some(_) => return Err(CryptoError::UnsupportedAlgorithm),
            None => return Err(CryptoError::InvalidPrivateKey),
        };
        Ok(Self { inner })
    }

    /// A PKCS#1 RSAPrivateKey ("RSA PRIVATE KEY" in PEM), two primes, 2048..=8192 bits.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self, CryptoError> {
        use ::rsa::traits::PublicKeyParts;
        use ::rsa::BigUint;
        let key = Reader::new(der)
            .exactly(|r| {
                r.nested(tag::SEQUENCE, |s| {
                    // version 0: two-prime (multi-prime keys are refused).
                    if s.read_small_uint()? != 0 {
                        return Err(burrow_der::Error::IntegerTooLarge);
                    }
                    let n = s.read_unsigned_integer()?;
                    let e = s.read_unsigned_integer()?;
                    let d = s.read_unsigned_integer()?;
                    let p = s.read_unsigned_integer()?;
                    let q = s.read_unsigned_integer()?;
                    // dP, dQ, qInv: recomputed by `rsa`.
                    for _ in 0..3 {
                        s.read_unsigned_integer()?;
                    }
                    Ok([n, e, d, p, q].map(BigUint::from_bytes_be))
                })
            })
            .map_err(bad)?;
        let [n, e, d, p, q] = key;
        let bits = n.bits();
        if bits < super::MIN_RSA_BITS {
            return Err(CryptoError::KeyTooSmall);
        }
        if bits > super::MAX_RSA_BITS {
            return Err(CryptoError::KeyTooLarge);
        }
        let mut k = ::rsa::RsaPrivateKey::from_components(n, e, d, vec![p, q]).map_err(bad)?;
        k.validate().map_err(bad)?;
        k.precompute().map_err(bad)?;
        debug_assert!(k.size() > 0);
        Ok(Self {
            inner: Inner::Rsa(Box::new(k)),
        })
    }

    /// Whether `spki` (a certificate's SubjectPublicKeyInfo) holds this key's public half.
    pub fn matches(&self, spki: &PublicKeyInfo<'_>) -> bool {
        use ::rsa::traits::PublicKeyParts;
        match (&self.inner, spki.key) {
            (Inner::P256(k), PublicKey::P256(point)) => {
                p256::ecdsa::VerifyingKey::from_sec1_bytes(point)
                    .is_ok_and(|v| v == *k.verifying_key())
            }
            (Inner::P384(k), PublicKey::P384(point)) => {
                p384::ecdsa::VerifyingKey::from_sec1_bytes(point)
                    .is_ok_and(|v| v == *k.verifying_key())
            }
            (
                Inner::Rsa(k),
                PublicKey::Rsa {
                    modulus, exponent, ..
                },
            ) => {
                k.n() == &::rsa::BigUint::from_bytes_be(modulus)
                    && k.e() == &::rsa::BigUint::from_bytes_be(exponent)
            }
            (Inner::Ed25519(k), PublicKey::Ed25519(b)) => k.verifying_key().as_bytes() == b,
            _ => false,
        }
    }

    /// Signs `message` with `alg` (which must fit the key: `UnsupportedAlgorithm` otherwise).
    /// ECDSA is deterministic (RFC 6979); RSA draws blinding and the PSS salt from the system
    /// generator.
    pub fn sign(&self, alg: VerifyAlgorithm, message: &[u8]) -> Result<Vec<u8>, CryptoError> {
        use p256::ecdsa::signature::hazmat::PrehashSigner;
        use VerifyAlgorithm as V;
        crate::counters::signature();
        let hash = match alg {
            V::EcdsaP256Sha256 | V::EcdsaP384Sha256 => HashAlgorithm::Sha256,
            V::EcdsaP256Sha384 | V::EcdsaP384Sha384 => HashAlgorithm::Sha384,
            _ => HashAlgorithm::Sha256,
        };
        match (&self.inner, alg) {
            (Inner::P256(k), V::EcdsaP256Sha256 | V::EcdsaP256Sha384) => {
                let s: p256::ecdsa::Signature = k
                    .sign_prehash(digest(hash, message).as_ref())
                    .map_err(bad)?;
                Ok(s.to_der().as_bytes().to_vec())
            }
            (Inner::P384(k), V::EcdsaP384Sha256 | V::EcdsaP384Sha384) => {
                let s: p384::ecdsa::Signature = k
                    .sign_prehash(digest(hash, message).as_ref())
                    .map_err(bad)?;
                Ok(s.to_der().as_bytes().to_vec())
            }
            (Inner::Ed25519(k), V::Ed25519) => {
                use ed25519_dalek::Signer;
                Ok(k.sign(message).to_bytes().to_vec())
            }
            (Inner::Rsa(k), _) => rsa_sign(k, alg, message),
            _ => Err(CryptoError::UnsupportedAlgorithm),
        }
    }
}

fn rsa_sign(
    k: &::rsa::RsaPrivateKey,
    alg: VerifyAlgorithm,
    message: &[u8],
) -> Result<Vec<u8>, CryptoError> {
    rsa_sign_with(k, alg, message, crate::rand::fill)
}

/// [`rsa_sign`] with randomness from `fill`: a draw that fails anywhere fails the signature,
/// since `rsa` would otherwise blind and salt with whatever the buffer held.
fn rsa_sign_with(
    k: &::rsa::RsaPrivateKey,
    alg: VerifyAlgorithm,
    message: &[u8],
    fill: fn(&mut [u8]) -> Result<(), CryptoError>,
) -> Result<Vec<u8>, CryptoError> {
    use ::rsa::signature::{RandomizedSigner, SignatureEncoding};
    use sha2::{Sha256, Sha384, Sha512};
    use VerifyAlgorithm as V;
    let mut rng = FillRng {
        fill,
        failed: false,
    };
    let k = k.clone();
    let sig = match alg {
        V::RsaPkcs1Sha256 => ::rsa::pkcs1v15::SigningKey::<Sha256>::new(k)
            .try_sign_with_rng(&mut rng, message)
            .map(|s| s.to_vec()),
        V::RsaPkcs1Sha384 => ::rsa::pkcs1v15::SigningKey::<Sha384>::new(k)
            .try_sign_with_rng(&mut rng, message)
            .map(|s| s.to_vec()),
        V::RsaPkcs1Sha512 => ::rsa::pkcs1v15::SigningKey::<Sha512>::new(k)
            .try_sign_with_rng(&mut rng, message)
            .map(|s| s.to_vec()),
        // Salt length = hash length (RFC 8446 §4.2.3), the `pss` default.
        V::RsaPssSha256 => ::rsa::pss::BlindedSigningKey::<Sha256>::new(k)
            .try_sign_with_rng(&mut rng, message)
            .map(|s| s.to_vec()),
        V::RsaPssSha384 => ::rsa::pss::BlindedSigningKey::<Sha384>::new(k)
            .try_sign_with_rng(&mut rng, message)
            .map(|s| s.to_vec()),
        V::RsaPssSha512 => ::rsa::pss::BlindedSigningKey::<Sha512>::new(k)
            .try_sign_with_rng(&mut rng, message)
            .map(|s| s.to_vec()),
        _ => return Err(CryptoError::UnsupportedAlgorithm),
    };
    if rng.failed {
        return Err(CryptoError::Rng);
    }
    sig.map_err(|_| CryptoError::Rng)
}

/// `rsa`'s randomness, from a fill function (the platform's, [`crate::rand::fill`]). A failed
/// draw is remembered in `failed`: `fill_bytes` cannot report it, and `rsa` calls both.
struct FillRng {
    fill: fn(&mut [u8]) -> Result<(), CryptoError>,
    failed: bool,
}

impl ::rsa::rand_core::RngCore for FillRng {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        // The zeros are never used: `rsa_sign_with` sees `failed` and drops the signature.
        if (self.fill)(dest).is_err() {
            self.failed = true;
            dest.fill(0);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), ::rsa::rand_core::Error> {
        // Never `Err`: `rand`'s `Rng::fill`, which `rsa`'s big-integer sampling calls, panics
        // on one. The failure is kept in `failed` instead.
        self.fill_bytes(dest);
        Ok(())
    }
}

impl ::rsa::rand_core::CryptoRng for FillRng {}

#[cfg(test)]
mod tests {
    use super::*;
    use burrow_der::writer::{octet_string, oid, seq, tlv, unsigned_integer};

    fn p256_sec1(scalar: &[u8]) -> Vec<u8> {
        seq(&[
            &unsigned_integer(&[1]),
            &octet_string(scalar),
            &tlv(0xa0, &oid(SECP256R1)),
        ])
    }

    #[test]
    fn p256_key_signs_what_its_spki_verifies() {
        let scalar = [7u8; 32];
        let k = SigningKey::from_sec1_der(&p256_sec1(&scalar)).unwrap();
        let Inner::P256(sk) = &k.inner else { panic!() };
        let point = sk.verifying_key().to_encoded_point(false);
        let spki = seq(&[
            &seq(&[&oid(ID_EC_PUBLIC_KEY), &oid(SECP256R1)]),
            &burrow_der::writer::bit_string(point.as_bytes()),
        ]);
        let info = PublicKeyInfo::parse(&spki).unwrap();
        assert!(k.matches(&info));
        let sig = k.sign(VerifyAlgorithm::EcdsaP256Sha256, b"hello").unwrap();
        info.verify(VerifyAlgorithm::EcdsaP256Sha256, b"hello", &sig)
            .unwrap();
        assert_eq!(
            k.sign(VerifyAlgorithm::Ed25519, b"x"),
            Err(CryptoError::UnsupportedAlgorithm)
        );
        assert!(!format!("{k:?}").contains("07"));
        let other = SigningKey::from_sec1_der(&p256_sec1(&[8u8; 32])).unwrap();
        assert!(!other.matches(&info));
    }

    #[test]
    fn rsa_signature_fails_when_the_random_source_fails() {
        let mut rng = FillRng {
            fill: crate::rand::fill,
            failed: false,
        };
        let k = ::rsa::RsaPrivateKey::new(&mut rng, 512).unwrap();
        let alg = VerifyAlgorithm::RsaPkcs1Sha256;
        assert!(rsa_sign_with(&k, alg, b"m", crate::rand::fill).is_ok());
        // Blinding samples through `rand::Rng::fill`, which panics on an `Err` from the source.
        assert_eq!(
            rsa_sign_with(&k, alg, b"m", |_| Err(CryptoError::Rng)),
            Err(CryptoError::Rng)
        );
    }

    #[test]
    fn pkcs8_ed25519_and_garbage() {
        let pk8 = seq(&[
            &unsigned_integer(&[0]),
            &seq(&[&oid(ID_ED25519)]),
            &octet_string(&octet_string(&[9u8; 32])),
        ]);
        let k = SigningKey::from_pkcs8_der(&pk8).unwrap();
        let sig = k.sign(VerifyAlgorithm::Ed25519, b"m").unwrap();
        assert_eq!(sig.len(), 64);
        for n in 0..pk8.len() {
            assert!(SigningKey::from_pkcs8_der(&pk8[..n]).is_err());
        }
        assert!(SigningKey::from_pkcs1_der(&pk8).is_err());
    }
}
