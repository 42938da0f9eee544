//! SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) parsing into the key kinds burrow verifies with.

use ::spki::der::asn1::{AnyRef, ObjectIdentifier};
use ::spki::der::{Decode, Tag, Tagged};
use ::spki::SubjectPublicKeyInfoRef;

use crate::CryptoError;

const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const SECP256R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const SECP384R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");
const SECP521R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.35");
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const ID_RSASSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");
const ID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");

/// A public key, by kind, borrowing its key bytes from the SPKI.
#[derive(Debug)]
pub(super) enum PublicKey<'a> {
    /// SEC1 point on P-256.
    P256(&'a [u8]),
    /// SEC1 point on P-384.
    P384(&'a [u8]),
    /// SEC1 point on P-521.
    P521(&'a [u8]),
    /// PKCS#1 RSAPublicKey DER; `pss_only` when the SPKI algorithm is id-RSASSA-PSS.
    Rsa { der: &'a [u8], pss_only: bool },
    /// 32-byte Ed25519 key.
    Ed25519(&'a [u8]),
}

fn params_absent_or_null(params: Option<AnyRef<'_>>) -> bool {
    match params {
        None => true,
        Some(p) => p.tag() == Tag::Null && p.value().is_empty(),
    }
}

/// Parses `der` (exactly one SPKI, no trailing bytes).
pub(super) fn parse(der: &[u8]) -> Result<PublicKey<'_>, CryptoError> {
    let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(|_| CryptoError::BadEncoding)?;
    let key = spki
        .subject_public_key
        .as_bytes()
        .ok_or(CryptoError::BadEncoding)?;
    let oid = spki.algorithm.oid;
    if oid == ID_EC_PUBLIC_KEY {
        let curve: ObjectIdentifier = spki
            .algorithm
            .parameters
            .ok_or(CryptoError::BadEncoding)?
            .decode_as()
            .map_err(|_| CryptoError::BadEncoding)?;
        if curve == SECP256R1 {
            Ok(PublicKey::P256(key))
        } else if curve == SECP384R1 {
            Ok(PublicKey::P384(key))
        } else if curve == SECP521R1 {
            Ok(PublicKey::P521(key))
        } else {
            Err(CryptoError::UnsupportedAlgorithm)
        }
    } else if oid == RSA_ENCRYPTION {
        if !params_absent_or_null(spki.algorithm.parameters) {
            return Err(CryptoError::BadEncoding);
        }
        Ok(PublicKey::Rsa {
            der: key,
            pss_only: false,
        })
    } else if oid == ID_RSASSA_PSS {
        // RSASSA-PSS-params would restrict hash/salt; burrow does not evaluate them, so only
        // an unrestricted (parameter-less) id-RSASSA-PSS key is accepted.
        if spki.algorithm.parameters.is_some() {
            return Err(CryptoError::UnsupportedAlgorithm);
        }
        Ok(PublicKey::Rsa {
            der: key,
            pss_only: true,
        })
    } else if oid == ID_ED25519 {
        if spki.algorithm.parameters.is_some() {
            return Err(CryptoError::BadEncoding);
        }
        Ok(PublicKey::Ed25519(key))
    } else {
        Err(CryptoError::UnsupportedAlgorithm)
    }
}
