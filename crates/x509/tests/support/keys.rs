//! Test-only signing keys (ring; RSA keys from the openssl CLI) and signed certificates built
//! with the DER writer in `der.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, Ed25519KeyPair, KeyPair, RsaKeyPair};

use super::der::{bit_string, oid, oids, seq, tlv, validity};

/// A key that signs certificates (and OCSP responses).
pub enum Key {
    Rsa(RsaKeyPair),
    Ec256(EcdsaKeyPair),
    Ec384(EcdsaKeyPair),
    Ed25519(Ed25519KeyPair),
}

impl Key {
    /// Its SubjectPublicKeyInfo, DER.
    pub fn spki(&self) -> Vec<u8> {
        match self {
            Key::Rsa(k) => seq(&[
                &seq(&[&oid(oids::RSA_ENCRYPTION), &[0x05, 0x00]]),
                &bit_string(k.public().as_ref()),
            ]),
            Key::Ec256(k) => seq(&[
                &seq(&[&oid(oids::EC_PUBLIC_KEY), &oid(oids::PRIME256V1)]),
                &bit_string(k.public_key().as_ref()),
            ]),
            Key::Ec384(k) => seq(&[
                &seq(&[&oid(oids::EC_PUBLIC_KEY), &oid(oids::SECP384R1)]),
                &bit_string(k.public_key().as_ref()),
            ]),
            Key::Ed25519(k) => seq(&[
                &seq(&[&oid(oids::ED25519)]),
                &bit_string(k.public_key().as_ref()),
            ]),
        }
    }

    /// The subjectPublicKey BIT STRING contents (what OCSP's issuerKeyHash hashes).
    pub fn public_key_bits(&self) -> Vec<u8> {
        match self {
            Key::Rsa(k) => k.public().as_ref().to_vec(),
            Key::Ec256(k) | Key::Ec384(k) => k.public_key().as_ref().to_vec(),
            Key::Ed25519(k) => k.public_key().as_ref().to_vec(),
        }
    }

    /// The signature AlgorithmIdentifier this key signs with.
    pub fn alg(&self) -> Vec<u8> {
        match self {
            Key::Rsa(_) => seq(&[&oid(oids::SHA256_WITH_RSA), &[0x05, 0x00]]),
            Key::Ec256(_) => seq(&[&oid(oids::ECDSA_SHA256)]),
            Key::Ec384(_) => seq(&[&oid(oids::ECDSA_SHA384)]),
            Key::Ed25519(_) => seq(&[&oid(oids::ED25519)]),
        }
    }

    /// Signs `msg`.
    pub fn sign(&self, msg: &[u8]) -> Vec<u8> {
        let rng = SystemRandom::new();
        match self {
            Key::Rsa(k) => {
                let mut sig = vec![0u8; k.public().modulus_len()];
                k.sign(&signature::RSA_PKCS1_SHA256, &rng, msg, &mut sig)
                    .unwrap();
                sig
            }
            Key::Ec256(k) | Key::Ec384(k) => k.sign(&rng, msg).unwrap().as_ref().to_vec(),
            Key::Ed25519(k) => k.sign(msg).as_ref().to_vec(),
        }
    }
}

/// A 2048-bit RSA key (ring cannot generate RSA keys: the openssl CLI does, PKCS#8 DER).
pub fn rsa_key() -> Key {
    let out = std::process::Command::new("openssl")
        .args([
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-outform",
            "DER",
        ])
        .output()
        .expect("the openssl CLI generates the RSA test key");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key = RsaKeyPair::from_pkcs8(&out.stdout)
        .or_else(|_| RsaKeyPair::from_der(&out.stdout))
        .unwrap();
    Key::Rsa(key)
}

fn ecdsa(alg: &'static signature::EcdsaSigningAlgorithm) -> EcdsaKeyPair {
    let rng = SystemRandom::new();
    let pk = EcdsaKeyPair::generate_pkcs8(alg, &rng).unwrap();
    EcdsaKeyPair::from_pkcs8(alg, pk.as_ref(), &rng).unwrap()
}

/// A fresh ECDSA P-256 key.
pub fn ec256_key() -> Key {
    Key::Ec256(ecdsa(&signature::ECDSA_P256_SHA256_ASN1_SIGNING))
}

/// A fresh ECDSA P-384 key.
pub fn ec384_key() -> Key {
    Key::Ec384(ecdsa(&signature::ECDSA_P384_SHA384_ASN1_SIGNING))
}

/// A fresh Ed25519 key.
pub fn ed25519_key() -> Key {
    let rng = SystemRandom::new();
    let pk = Ed25519KeyPair::generate_pkcs8(&rng).unwrap();
    Key::Ed25519(Ed25519KeyPair::from_pkcs8(pk.as_ref()).unwrap())
}

/// A v3 certificate (validity 2020..2040) signed by `key`.
pub fn cert(
    serial: &[u8],
    issuer: &[u8],
    subject: &[u8],
    spki: &[u8],
    exts: &[Vec<u8>],
    key: &Key,
) -> Vec<u8> {
    cert_valid(serial, issuer, subject, spki, exts, key, &validity())
}

/// [`cert`] with this Validity (`der::validity_utc`).
pub fn cert_valid(
    serial: &[u8],
    issuer: &[u8],
    subject: &[u8],
    spki: &[u8],
    exts: &[Vec<u8>],
    key: &Key,
    validity: &[u8],
) -> Vec<u8> {
    let alg = key.alg();
    let tbs = seq(&[
        &tlv(0xa0, &tlv(0x02, &[2])),
        &tlv(0x02, serial),
        &alg,
        issuer,
        validity,
        subject,
        spki,
        &tlv(
            0xa3,
            &seq(&exts.iter().map(Vec::as_slice).collect::<Vec<_>>()),
        ),
    ]);
    signed(&tbs, key)
}

/// A Certificate around these TBSCertificate bytes, signed by `key`.
pub fn signed(tbs: &[u8], key: &Key) -> Vec<u8> {
    let alg = key.alg();
    let sig = key.sign(tbs);
    seq(&[tbs, &alg, &bit_string(&sig)])
}
