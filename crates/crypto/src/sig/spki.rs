//! SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) parsing into the key kinds burrow verifies with,
//! read once with burrow-der (strict DER), and the choice of [`VerifyAlgorithm`] from a key and
//! a TLS SignatureScheme: the one place that decides "which key, which algorithm".

use burrow_der::{tag, Reader};

use super::VerifyAlgorithm;
use crate::CryptoError;

/// id-ecPublicKey (1.2.840.10045.2.1), contents octets.
const ID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// secp256r1 (1.2.840.10045.3.1.7).
const SECP256R1: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
/// secp384r1 (1.3.132.0.34).
const SECP384R1: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
/// secp521r1 (1.3.132.0.35).
const SECP521R1: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x23];
/// rsaEncryption (1.2.840.113549.1.1.1).
const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
/// id-RSASSA-PSS (1.2.840.113549.1.1.10).
const ID_RSASSA_PSS: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a];
/// id-Ed25519 (1.3.101.112).
const ID_ED25519: &[u8] = &[0x2b, 0x65, 0x70];

/// A public key, by kind, borrowing its key bytes from the SPKI.
#[derive(Debug, Clone, Copy)]
pub(super) enum PublicKey<'a> {
    /// SEC1 point on P-256.
    P256(&'a [u8]),
    /// SEC1 point on P-384.
    P384(&'a [u8]),
    /// SEC1 point on P-521.
    P521(&'a [u8]),
    /// PKCS#1 RSAPublicKey: modulus and exponent magnitudes (no sign octet); `pss_only` when
    /// the SPKI algorithm is id-RSASSA-PSS.
    Rsa {
        modulus: &'a [u8],
        exponent: &'a [u8],
        pss_only: bool,
    },
    /// 32-byte Ed25519 key.
    Ed25519(&'a [u8]),
}

/// What kind of key a SubjectPublicKeyInfo holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// ECDSA on P-256.
    EcdsaP256,
    /// ECDSA on P-384.
    EcdsaP384,
    /// ECDSA on P-521.
    EcdsaP521,
    /// RSA with a modulus of `modulus_bits` bits; `pss_only` for an id-RSASSA-PSS key (which
    /// may sign only with RSASSA-PSS).
    Rsa {
        /// The modulus size.
        modulus_bits: usize,
        /// Whether the key is restricted to RSASSA-PSS.
        pss_only: bool,
    },
    /// Ed25519.
    Ed25519,
}

/// A signature algorithm as an X.509 AlgorithmIdentifier names it (the signatureAlgorithm of a
/// certificate or an OCSP response; RFC 5758, 4055, 8410): family and hash, while the curve of
/// an ECDSA signature comes from the signer's key. [`KeyKind::x509_algorithm`] binds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum X509Signature {
    /// ecdsa-with-SHA256.
    EcdsaSha256,
    /// ecdsa-with-SHA384.
    EcdsaSha384,
    /// ecdsa-with-SHA512.
    EcdsaSha512,
    /// sha256WithRSAEncryption.
    RsaPkcs1Sha256,
    /// sha384WithRSAEncryption.
    RsaPkcs1Sha384,
    /// sha512WithRSAEncryption.
    RsaPkcs1Sha512,
    /// RSASSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt.
    RsaPssSha256,
    /// RSASSA-PSS with SHA-384, MGF1-SHA-384 and a 48-byte salt.
    RsaPssSha384,
    /// RSASSA-PSS with SHA-512, MGF1-SHA-512 and a 64-byte salt.
    RsaPssSha512,
    /// id-Ed25519.
    Ed25519,
}

impl KeyKind {
    /// The algorithm a signature named `sig` means for a key of this kind: the ECDSA curve is
    /// the key's; `None` when the key cannot sign with it (an RSA scheme on an EC key, PKCS#1
    /// v1.5 on an id-RSASSA-PSS key, SHA-512 on a P-256 key, ...).
    pub fn x509_algorithm(self, sig: X509Signature) -> Option<VerifyAlgorithm> {
        use KeyKind as K;
        use VerifyAlgorithm as V;
        use X509Signature as S;
        Some(match (sig, self) {
            (S::EcdsaSha256, K::EcdsaP256) => V::EcdsaP256Sha256,
            (S::EcdsaSha384, K::EcdsaP256) => V::EcdsaP256Sha384,
            (S::EcdsaSha256, K::EcdsaP384) => V::EcdsaP384Sha256,
            (S::EcdsaSha384, K::EcdsaP384) => V::EcdsaP384Sha384,
            (S::EcdsaSha256, K::EcdsaP521) => V::EcdsaP521Sha256,
            (S::EcdsaSha384, K::EcdsaP521) => V::EcdsaP521Sha384,
            (S::EcdsaSha512, K::EcdsaP521) => V::EcdsaP521Sha512,
            (
                S::RsaPkcs1Sha256,
                K::Rsa {
                    pss_only: false, ..
                },
            ) => V::RsaPkcs1Sha256,
            (
                S::RsaPkcs1Sha384,
                K::Rsa {
                    pss_only: false, ..
                },
            ) => V::RsaPkcs1Sha384,
            (
                S::RsaPkcs1Sha512,
                K::Rsa {
                    pss_only: false, ..
                },
            ) => V::RsaPkcs1Sha512,
            (S::RsaPssSha256, K::Rsa { .. }) => V::RsaPssSha256,
            (S::RsaPssSha384, K::Rsa { .. }) => V::RsaPssSha384,
            (S::RsaPssSha512, K::Rsa { .. }) => V::RsaPssSha512,
            (S::Ed25519, K::Ed25519) => V::Ed25519,
            _ => return None,
        })
    }
}

/// A SubjectPublicKeyInfo parsed once: its [`KeyKind`], the key it borrows, and the algorithm a
/// TLS SignatureScheme means for it.
#[derive(Debug, Clone, Copy)]
pub struct PublicKeyInfo<'a> {
    pub(super) key: PublicKey<'a>,
}

/// An AlgorithmIdentifier (RFC 5280 §4.1.1.2): the OID's contents and the parameters, if any
/// (one element; their meaning is the algorithm's).
pub(super) fn read_algorithm<'a>(
    r: &mut Reader<'a>,
) -> burrow_der::Result<(&'a [u8], Option<burrow_der::Tlv<'a>>)> {
    r.nested(tag::SEQUENCE, |a| {
        let oid = a.read(tag::OID)?;
        let params = if a.is_empty() {
            None
        } else {
            Some(a.read_any()?)
        };
        Ok((oid, params))
    })
}

/// The AlgorithmIdentifier parameters are NULL (RFC 3279 §2.3.1: they MUST be, for
/// rsaEncryption; webpki matches the exact bytes too).
fn is_null(params: Option<burrow_der::Tlv<'_>>) -> bool {
    params.is_some_and(|p| p.tag == tag::NULL && p.value.is_empty())
}

/// Bit length of a minimal big-endian magnitude.
fn bit_len(magnitude: &[u8]) -> usize {
    match magnitude.split_first() {
        None | Some((0, [])) => 0,
        Some((&top, rest)) => {
            let top_bits = 8usize.saturating_sub(usize::try_from(top.leading_zeros()).unwrap_or(8));
            rest.len().saturating_mul(8).saturating_add(top_bits)
        }
    }
}

impl<'a> PublicKeyInfo<'a> {
    /// Parses `der` (exactly one SPKI, no trailing bytes). A malformed encoding is
    /// `BadEncoding`; a key type or curve burrow does not verify with, `UnsupportedAlgorithm`.
    pub fn parse(der: &'a [u8]) -> Result<PublicKeyInfo<'a>, CryptoError> {
        let (oid, params, key) = Reader::new(der)
            .exactly(|r| {
                r.nested(tag::SEQUENCE, |s| {
                    let (oid, params) = read_algorithm(s)?;
                    Ok((oid, params, s.read_bit_string_bytes()?))
                })
            })
            .map_err(|_| CryptoError::BadEncoding)?;
        let key = match oid {
            ID_EC_PUBLIC_KEY => {
                let p = params.ok_or(CryptoError::BadEncoding)?;
                if p.tag != tag::OID {
                    // specifiedCurve or implicitCurve (RFC 3279 §2.3.5): well-formed, and
                    // forbidden in PKIX (RFC 5480 §2.1.1), so unsupported rather than malformed.
                    return Err(CryptoError::UnsupportedAlgorithm);
                }
                match p.value {
                    SECP256R1 => PublicKey::P256(key),
                    SECP384R1 => PublicKey::P384(key),
                    SECP521R1 => PublicKey::P521(key),
                    _ => return Err(CryptoError::UnsupportedAlgorithm),
                }
            }
            RSA_ENCRYPTION | ID_RSASSA_PSS => {
                let pss_only = oid == ID_RSASSA_PSS;
                if pss_only {
                    // RSASSA-PSS-params would restrict hash/salt; burrow does not evaluate
                    // them, so only an unrestricted (parameter-less) id-RSASSA-PSS key is
                    // accepted.
                    if params.is_some() {
                        return Err(CryptoError::UnsupportedAlgorithm);
                    }
                } else if !is_null(params) {
                    return Err(CryptoError::BadEncoding);
                }
                let (modulus, exponent) = Reader::new(key)
                    .exactly(|r| {
                        r.nested(tag::SEQUENCE, |k| {
                            Ok((k.read_unsigned_integer()?, k.read_unsigned_integer()?))
                        })
                    })
                    .map_err(|_| CryptoError::BadEncoding)?;
                PublicKey::Rsa {
                    modulus,
                    exponent,
                    pss_only,
                }
            }
            ID_ED25519 => {
                if params.is_some() {
                    return Err(CryptoError::BadEncoding);
                }
                PublicKey::Ed25519(key)
            }
            _ => return Err(CryptoError::UnsupportedAlgorithm),
        };
        Ok(PublicKeyInfo { key })
    }

    /// The kind of key.
    pub fn kind(&self) -> KeyKind {
        match self.key {
            PublicKey::P256(_) => KeyKind::EcdsaP256,
            PublicKey::P384(_) => KeyKind::EcdsaP384,
            PublicKey::P521(_) => KeyKind::EcdsaP521,
            PublicKey::Rsa {
                modulus, pss_only, ..
            } => KeyKind::Rsa {
                modulus_bits: bit_len(modulus),
                pss_only,
            },
            PublicKey::Ed25519(_) => KeyKind::Ed25519,
        }
    }

    /// The algorithm a TLS 1.2 ServerKeyExchange signed with `scheme` (its IANA code point)
    /// means for this key: an ECDSA scheme names only the hash there, the curve is the key's
    /// (RFC 5246 §7.4.1.4.1). `None` when the scheme is not one burrow accepts in TLS 1.2
    /// (SHA-1, rsa_pss_pss_*) or the key cannot sign with it.
    pub fn tls12_algorithm(&self, scheme: u16) -> Option<VerifyAlgorithm> {
        use X509Signature as S;
        // X.509 lets either kind of RSA key carry a PSS signature; TLS does not.
        if !self.fits_rsa_pss_scheme(scheme) {
            return None;
        }
        let sig = match scheme {
            scheme::ECDSA_SHA256 => S::EcdsaSha256,
            scheme::ECDSA_SHA384 => S::EcdsaSha384,
            scheme::ECDSA_SHA512 => S::EcdsaSha512,
            scheme::ED25519 => S::Ed25519,
            scheme::RSA_PKCS1_SHA256 => S::RsaPkcs1Sha256,
            scheme::RSA_PKCS1_SHA384 => S::RsaPkcs1Sha384,
            scheme::RSA_PKCS1_SHA512 => S::RsaPkcs1Sha512,
            scheme::RSA_PSS_RSAE_SHA256 => S::RsaPssSha256,
            scheme::RSA_PSS_RSAE_SHA384 => S::RsaPssSha384,
            scheme::RSA_PSS_RSAE_SHA512 => S::RsaPssSha512,
            _ => return None,
        };
        self.kind().x509_algorithm(sig)
    }

    /// The public exponent of an RSA key (a minimal big-endian magnitude), `None` for other
    /// kinds: for a caller's policy on exponents (the validator wants an odd one above 1).
    pub fn rsa_public_exponent(&self) -> Option<&'a [u8]> {
        match self.key {
            PublicKey::Rsa { exponent, .. } => Some(exponent),
            _ => None,
        }
    }

    /// The algorithm a TLS 1.3 CertificateVerify signed with `scheme` means for this key
    /// ([`tls13_algorithm`]), `None` when the key cannot sign with it (a P-256 scheme on a
    /// P-384 key, PKCS#1 on an id-RSASSA-PSS key, ...) or the scheme is not for its kind of
    /// RSA key: RFC 8446 §4.2.3 ties rsa_pss_rsae_* to rsaEncryption keys and rsa_pss_pss_*
    /// to id-RSASSA-PSS keys, though both verify as PSS.
    pub fn tls13_algorithm(&self, scheme: u16) -> Option<VerifyAlgorithm> {
        let alg = tls13_algorithm(scheme)?;
        if !self.fits_rsa_pss_scheme(scheme) {
            return None;
        }
        self.can_sign(alg).then_some(alg)
    }

    /// RFC 8446 §4.2.3 (which governs TLS 1.2's signature_algorithms too): rsa_pss_rsae_*
    /// needs an rsaEncryption key, rsa_pss_pss_* an id-RSASSA-PSS one. True for every other
    /// scheme and key.
    fn fits_rsa_pss_scheme(&self, scheme: u16) -> bool {
        let PublicKey::Rsa { pss_only, .. } = self.key else {
            return true;
        };
        let pss_scheme = matches!(
            scheme,
            scheme::RSA_PSS_PSS_SHA256 | scheme::RSA_PSS_PSS_SHA384 | scheme::RSA_PSS_PSS_SHA512
        );
        let rsae_scheme = matches!(
            scheme,
            scheme::RSA_PSS_RSAE_SHA256 | scheme::RSA_PSS_RSAE_SHA384 | scheme::RSA_PSS_RSAE_SHA512
        );
        !((pss_scheme && !pss_only) || (rsae_scheme && pss_only))
    }

    /// Whether this key can sign with `alg` (its type and curve match).
    pub fn can_sign(&self, alg: VerifyAlgorithm) -> bool {
        use VerifyAlgorithm as V;
        match self.key {
            PublicKey::P256(_) => matches!(alg, V::EcdsaP256Sha256 | V::EcdsaP256Sha384),
            PublicKey::P384(_) => matches!(alg, V::EcdsaP384Sha256 | V::EcdsaP384Sha384),
            PublicKey::P521(_) => matches!(
                alg,
                V::EcdsaP521Sha256 | V::EcdsaP521Sha384 | V::EcdsaP521Sha512
            ),
            PublicKey::Rsa { pss_only, .. } => match alg {
                V::RsaPssSha256 | V::RsaPssSha384 | V::RsaPssSha512 => true,
                V::RsaPkcs1Sha256 | V::RsaPkcs1Sha384 | V::RsaPkcs1Sha512 => !pss_only,
                _ => false,
            },
            PublicKey::Ed25519(_) => alg == V::Ed25519,
        }
    }
}

/// The algorithm a TLS 1.3 CertificateVerify `scheme` (IANA code point) names; the scheme
/// fixes the curve. `None` for schemes TLS 1.3 forbids or burrow does not verify (PKCS#1 v1.5,
/// SHA-1).
pub fn tls13_algorithm(scheme: u16) -> Option<VerifyAlgorithm> {
    use VerifyAlgorithm as V;
    Some(match scheme {
        scheme::ECDSA_SHA256 => V::EcdsaP256Sha256,
        scheme::ECDSA_SHA384 => V::EcdsaP384Sha384,
        scheme::ECDSA_SHA512 => V::EcdsaP521Sha512,
        scheme::RSA_PSS_RSAE_SHA256 | scheme::RSA_PSS_PSS_SHA256 => V::RsaPssSha256,
        scheme::RSA_PSS_RSAE_SHA384 | scheme::RSA_PSS_PSS_SHA384 => V::RsaPssSha384,
        scheme::RSA_PSS_RSAE_SHA512 | scheme::RSA_PSS_PSS_SHA512 => V::RsaPssSha512,
        scheme::ED25519 => V::Ed25519,
        _ => return None,
    })
}

/// TLS SignatureScheme code points (RFC 8446 §4.2.3) this module maps.
mod scheme {
    pub(super) const RSA_PKCS1_SHA256: u16 = 0x0401;
    pub(super) const RSA_PKCS1_SHA384: u16 = 0x0501;
    pub(super) const RSA_PKCS1_SHA512: u16 = 0x0601;
    /// ecdsa_secp256r1_sha256 (in TLS 1.2: any curve, SHA-256).
    pub(super) const ECDSA_SHA256: u16 = 0x0403;
    /// ecdsa_secp384r1_sha384 (in TLS 1.2: any curve, SHA-384).
    pub(super) const ECDSA_SHA384: u16 = 0x0503;
    /// ecdsa_secp521r1_sha512 (in TLS 1.2: any curve, SHA-512).
    pub(super) const ECDSA_SHA512: u16 = 0x0603;
    pub(super) const RSA_PSS_RSAE_SHA256: u16 = 0x0804;
    pub(super) const RSA_PSS_RSAE_SHA384: u16 = 0x0805;
    pub(super) const RSA_PSS_RSAE_SHA512: u16 = 0x0806;
    pub(super) const ED25519: u16 = 0x0807;
    pub(super) const RSA_PSS_PSS_SHA256: u16 = 0x0809;
    pub(super) const RSA_PSS_PSS_SHA384: u16 = 0x080a;
    pub(super) const RSA_PSS_PSS_SHA512: u16 = 0x080b;
}

#[cfg(test)]
mod tests {
    use super::*;
    use burrow_der::writer::{bit_string, null, oid, seq, unsigned_integer};
    use VerifyAlgorithm as V;

    fn ec(curve: &[u8], point: &[u8]) -> Vec<u8> {
        seq(&[
            &seq(&[&oid(ID_EC_PUBLIC_KEY), &oid(curve)]),
            &bit_string(point),
        ])
    }

    fn rsa(alg: &[u8], params: &[u8], modulus: &[u8]) -> Vec<u8> {
        let key = seq(&[&unsigned_integer(modulus), &unsigned_integer(&[1, 0, 1])]);
        seq(&[&seq(&[&oid(alg), params]), &bit_string(&key)])
    }

    fn ed25519() -> Vec<u8> {
        seq(&[&seq(&[&oid(ID_ED25519)]), &bit_string(&[7; 32])])
    }

    #[test]
    fn tls12_ecdsa_schemes_take_the_curve_from_the_key() {
        let point = [4u8; 65];
        let p256 = ec(SECP256R1, &point);
        let p384 = ec(SECP384R1, &point);
        let p521 = ec(SECP521R1, &point);
        let mut n = vec![0x80];
        n.extend([1u8; 255]);
        let rsae = rsa(RSA_ENCRYPTION, &null(), &n);
        let pss = rsa(ID_RSASSA_PSS, &[], &n);
        let ed = ed25519();
        let cases: [(u16, &[u8], Option<V>); 20] = [
            (0x0403, &p256, Some(V::EcdsaP256Sha256)),
            (0x0403, &p384, Some(V::EcdsaP384Sha256)),
            (0x0403, &p521, Some(V::EcdsaP521Sha256)),
            (0x0503, &p256, Some(V::EcdsaP256Sha384)),
            (0x0503, &p384, Some(V::EcdsaP384Sha384)),
            (0x0503, &p521, Some(V::EcdsaP521Sha384)),
            (0x0603, &p521, Some(V::EcdsaP521Sha512)),
            (0x0603, &p256, None),
            // A scheme the key cannot sign with.
            (0x0807, &p521, None),
            (0x0403, &ed, None),
            (0x0401, &p256, None),
            (0x0807, &ed, Some(V::Ed25519)),
            (0x0401, &rsae, Some(V::RsaPkcs1Sha256)),
            (0x0501, &rsae, Some(V::RsaPkcs1Sha384)),
            (0x0601, &rsae, Some(V::RsaPkcs1Sha512)),
            (0x0804, &rsae, Some(V::RsaPssSha256)),
            // RFC 8446 §4.2.3 (for TLS 1.2 too): rsa_pss_rsae_* keys are rsaEncryption keys;
            // an id-RSASSA-PSS key signs with PSS only, and not under an rsae scheme.
            (0x0806, &pss, None),
            (0x0401, &pss, None),
            // SHA-1 and rsa_pss_pss_* are not TLS 1.2 ServerKeyExchange schemes here.
            (0x0201, &rsae, None),
            (0x0809, &pss, None),
        ];
        for (scheme, spki, want) in cases {
            let key = PublicKeyInfo::parse(spki).unwrap();
            assert_eq!(
                key.tls12_algorithm(scheme),
                want,
                "{scheme:04x} {:?}",
                key.kind()
            );
        }
    }

    #[test]
    fn the_curve_is_the_parsed_parameter_not_a_byte_search() {
        // A P-256 key whose point bytes contain the DER of the secp521r1 OID: a search of the
        // SPKI's bytes (what the handshake once did) would have taken it for a P-521 key.
        let mut point = vec![4u8];
        point.extend([0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23]);
        point.resize(65, 9);
        let spki = ec(SECP256R1, &point);
        let key = PublicKeyInfo::parse(&spki).unwrap();
        assert_eq!(key.kind(), KeyKind::EcdsaP256);
        assert_eq!(key.tls12_algorithm(0x0403), Some(V::EcdsaP256Sha256));
    }

    #[test]
    fn tls13_schemes_fix_the_curve_and_must_fit_the_key() {
        let spki = ec(SECP384R1, &[4; 97]);
        let p384 = PublicKeyInfo::parse(&spki).unwrap();
        assert_eq!(p384.tls13_algorithm(0x0503), Some(V::EcdsaP384Sha384));
        assert_eq!(p384.tls13_algorithm(0x0403), None);
        assert_eq!(tls13_algorithm(0x0403), Some(V::EcdsaP256Sha256));
        assert_eq!(tls13_algorithm(0x0401), None, "no PKCS#1 v1.5 in TLS 1.3");
        let spki = ed25519();
        let ed = PublicKeyInfo::parse(&spki).unwrap();
        assert_eq!(ed.tls13_algorithm(0x0807), Some(V::Ed25519));
        assert_eq!(ed.tls13_algorithm(0x0804), None);
    }

    #[test]
    fn tls13_rsa_pss_schemes_must_match_the_key_oid() {
        // RFC 8446 §4.2.3: rsa_pss_rsae_* require an rsaEncryption key, rsa_pss_pss_* an
        // id-RSASSA-PSS one; the algorithm (PSS with that hash) is the same, the key is not.
        let mut n = vec![0x80];
        n.extend([1u8; 255]);
        let rsae = rsa(RSA_ENCRYPTION, &null(), &n);
        let pss = rsa(ID_RSASSA_PSS, &[], &n);
        let rsae = PublicKeyInfo::parse(&rsae).unwrap();
        let pss = PublicKeyInfo::parse(&pss).unwrap();
        for (rsae_scheme, pss_scheme, alg) in [
            (0x0804, 0x0809, V::RsaPssSha256),
            (0x0805, 0x080a, V::RsaPssSha384),
            (0x0806, 0x080b, V::RsaPssSha512),
        ] {
            assert_eq!(rsae.tls13_algorithm(rsae_scheme), Some(alg));
            assert_eq!(pss.tls13_algorithm(pss_scheme), Some(alg));
            assert_eq!(
                rsae.tls13_algorithm(pss_scheme),
                None,
                "{pss_scheme:04x}, rsaEncryption key"
            );
            assert_eq!(
                pss.tls13_algorithm(rsae_scheme),
                None,
                "{rsae_scheme:04x}, id-RSASSA-PSS key"
            );
        }
    }

    #[test]
    fn kinds_and_modulus_bits() {
        let mut n = vec![0x01];
        n.extend([0u8; 256]);
        let spki = rsa(RSA_ENCRYPTION, &null(), &n);
        let key = PublicKeyInfo::parse(&spki).unwrap();
        assert_eq!(
            key.kind(),
            KeyKind::Rsa {
                modulus_bits: 2049,
                pss_only: false
            }
        );
        // rsaEncryption parameters must be NULL (absent is refused, as webpki does);
        // id-RSASSA-PSS with parameters is refused (burrow does not evaluate them); an unknown
        // curve is unsupported.
        assert_eq!(
            PublicKeyInfo::parse(&rsa(RSA_ENCRYPTION, &[], &n)).unwrap_err(),
            CryptoError::BadEncoding
        );
        assert_eq!(
            PublicKeyInfo::parse(&rsa(RSA_ENCRYPTION, &oid(&[1]), &n)).unwrap_err(),
            CryptoError::BadEncoding
        );
        assert_eq!(
            PublicKeyInfo::parse(&rsa(ID_RSASSA_PSS, &null(), &n)).unwrap_err(),
            CryptoError::UnsupportedAlgorithm
        );
        assert_eq!(
            PublicKeyInfo::parse(&ec(&[0x2b, 0x81, 0x04, 0x00, 0x0a], &[4; 65])).unwrap_err(),
            CryptoError::UnsupportedAlgorithm
        );
        // Trailing bytes, and a non-minimal length, are not one DER SPKI.
        let mut trailing = ed25519();
        trailing.push(0);
        assert_eq!(
            PublicKeyInfo::parse(&trailing).unwrap_err(),
            CryptoError::BadEncoding
        );
        let ed = ed25519();
        let long = [&[0x30, 0x81][..], &ed[1..]].concat();
        assert_eq!(
            PublicKeyInfo::parse(&long).unwrap_err(),
            CryptoError::BadEncoding
        );
    }
}
