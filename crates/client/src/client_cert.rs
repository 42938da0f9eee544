//! Client certificates (mTLS): a PEM chain and its private key, checked against each other
//! when configured, so a wrong key fails here and not in some server's handshake.
//!
//! The key is read with burrow-crypto (burrow-der underneath), held in burrow-crypto's
//! `SigningKey` (wiped on drop); its PEM and DER pass through `Zeroizing` buffers, and its
//! PKCS#8 form (what a [`CryptoOffload`] imports: WebCrypto in a Worker) stays in one. Neither
//! `Debug` nor any error shows it.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use base64::Engine;
use burrow_crypto::sig::{KeyKind, PublicKeyInfo, SigningKey, VerifyAlgorithm};
use burrow_crypto::CryptoError;
use zeroize::Zeroizing;

use crate::offload::{CryptoOffload, ImportedSigningKey, Offload, PrivateKeyDer};

/// A certificate chain (leaf first) and the private key of its leaf, for
/// [`TlsSettings::client_cert`](crate::TlsSettings::client_cert).
/// Clones share the key and the handle a provider made of it.
#[derive(Clone)]
pub struct ClientCert {
    chain: Vec<Vec<u8>>,
    key: Rc<SigningKey>,
    /// The key as PKCS#8 (SEC1 and PKCS#1 keys wrapped), for a provider's import.
    pkcs8: Rc<Zeroizing<Vec<u8>>>,
    kind: KeyKind,
    /// The key as the last provider imported it: imported once per client, not per handshake.
    imported: Rc<RefCell<Option<Imported>>>,
}

struct Imported {
    /// Who imported it (a `Weak` keeps the allocation, so the address is never reused).
    provider: Weak<dyn CryptoOffload>,
    key: Rc<dyn ImportedSigningKey>,
}

impl core::fmt::Debug for ClientCert {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ClientCert")
            .field("certificates", &self.chain.len())
            .field("key", &self.key)
            .finish()
    }
}

/// Why a client certificate was refused at configuration. Carries no key material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientCertError {
    /// The chain has no `CERTIFICATE` block, or one is not valid base64.
    NoCertificate,
    /// The leaf's SubjectPublicKeyInfo is unreadable or of a kind burrow cannot sign with.
    UnusableCertificate,
    /// No `PRIVATE KEY`, `EC PRIVATE KEY` or `RSA PRIVATE KEY` block, or more than one.
    NoKey,
    /// The key block does not parse, or is of a kind or size burrow cannot sign with
    /// (P-256, P-384, RSA 2048..8192, Ed25519; encrypted PKCS#8 is not read).
    BadKey(CryptoError),
    /// The key is not the leaf certificate's.
    KeyMismatch,
}

impl ClientCertError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NoCertificate => "CLIENT_CERT_NO_CERTIFICATE",
            Self::UnusableCertificate => "CLIENT_CERT_UNUSABLE",
            Self::NoKey => "CLIENT_CERT_NO_KEY",
            Self::BadKey(_) => "CLIENT_CERT_BAD_KEY",
            Self::KeyMismatch => "CLIENT_CERT_KEY_MISMATCH",
        }
    }
}

impl core::fmt::Display for ClientCertError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let code = self.code();
        match self {
            Self::NoCertificate => write!(
                f,
                "{code}: client_cert.cert_chain holds no PEM CERTIFICATE block (leaf first)"
            ),
            Self::UnusableCertificate => write!(
                f,
                "{code}: the leaf of client_cert.cert_chain has a public key burrow cannot sign for (P-256, P-384, RSA, Ed25519)"
            ),
            Self::NoKey => write!(
                f,
                "{code}: client_cert.key must hold exactly one PEM PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY block (unencrypted)"
            ),
            Self::BadKey(e) => write!(
                f,
                "{code}: client_cert.key does not parse as a P-256, P-384, RSA (2048..8192 bits) or Ed25519 key ({})",
                e.code()
            ),
            Self::KeyMismatch => write!(
                f,
                "{code}: client_cert.key is not the private key of the first certificate of client_cert.cert_chain"
            ),
        }
    }
}

impl std::error::Error for ClientCertError {}

/// How a key block is encoded, by its PEM label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyEncoding {
    /// `PRIVATE KEY`: PKCS#8 PrivateKeyInfo.
    Pkcs8,
    /// `EC PRIVATE KEY`: SEC1 ECPrivateKey.
    Sec1,
    /// `RSA PRIVATE KEY`: PKCS#1 RSAPrivateKey.
    Pkcs1,
}

impl KeyEncoding {
    fn read(self, der: &[u8]) -> Result<SigningKey, CryptoError> {
        match self {
            KeyEncoding::Pkcs8 => SigningKey::from_pkcs8_der(der),
            KeyEncoding::Sec1 => SigningKey::from_sec1_der(der),
            KeyEncoding::Pkcs1 => SigningKey::from_pkcs1_der(der),
        }
    }
}

/// The PEM labels a key may carry.
const KEY_LABELS: [(&str, KeyEncoding); 3] = [
    ("PRIVATE KEY", KeyEncoding::Pkcs8),
    ("EC PRIVATE KEY", KeyEncoding::Sec1),
    ("RSA PRIVATE KEY", KeyEncoding::Pkcs1),
];

impl ClientCert {
    /// From PEM: `cert_chain` (CERTIFICATE blocks, leaf first) and `key` (PKCS#8
    /// `PRIVATE KEY`, SEC1 `EC PRIVATE KEY` or PKCS#1 `RSA PRIVATE KEY`). Refuses a key that
    /// is not the leaf's.
    pub fn from_pem(cert_chain: &[u8], key: &[u8]) -> Result<ClientCert, ClientCertError> {
        let chain = burrow_x509::certificates_from_pem(cert_chain)
            .map_err(|_| ClientCertError::NoCertificate)?;
        let key_der = key_block(key)?;
        Self::from_der(chain, &key_der.0, key_der.1)
    }

    fn from_der(
        chain: Vec<Vec<u8>>,
        der: &[u8],
        encoding: KeyEncoding,
    ) -> Result<ClientCert, ClientCertError> {
        let leaf = chain.first().ok_or(ClientCertError::NoCertificate)?;
        let key = encoding.read(der).map_err(ClientCertError::BadKey)?;
        let spki = burrow_x509::Certificate::from_der(leaf)
            .map(|c| c.spki().to_vec())
            .map_err(|_| ClientCertError::UnusableCertificate)?;
        let info = PublicKeyInfo::parse(&spki).map_err(|_| ClientCertError::UnusableCertificate)?;
        if !key.matches(&info) {
            return Err(ClientCertError::KeyMismatch);
        }
        let kind = info.kind();
        let pkcs8 = match encoding {
            KeyEncoding::Pkcs8 => Zeroizing::new(der.to_vec()),
            KeyEncoding::Sec1 | KeyEncoding::Pkcs1 => wrap_pkcs8(
                &algorithm_identifier(kind).ok_or(ClientCertError::UnusableCertificate)?,
                der,
            ),
        };
        Ok(ClientCert {
            chain,
            key: Rc::new(key),
            pkcs8: Rc::new(pkcs8),
            kind,
            imported: Rc::default(),
        })
    }

    /// The chain, DER, leaf first.
    pub fn chain(&self) -> &[Vec<u8>] {
        &self.chain
    }

    /// The kind of key (the leaf's public key's).
    pub fn kind(&self) -> KeyKind {
        self.kind
    }

    /// Signs a CertificateVerify message: through `offload` when it signs this kind of key
    /// (importing the key on first use), inline with burrow-crypto otherwise.
    pub(crate) async fn sign(
        &self,
        offload: Option<&Offload>,
        alg: VerifyAlgorithm,
        message: &[u8],
    ) -> Result<Vec<u8>, CryptoError> {
        match offload {
            Some(o) if o.0.offloads_signing(self.kind) => {
                let key = self.imported_by(o).await?;
                key.sign(alg, message).await
            }
            _ => self.key.sign(alg, message),
        }
    }

    /// The key as `o` imported it, importing it the first time. Two handshakes racing to the
    /// first import may both import; the later handle is kept.
    async fn imported_by(&self, o: &Offload) -> Result<Rc<dyn ImportedSigningKey>, CryptoError> {
        let provider = Rc::downgrade(&o.0);
        let cached = self
            .imported
            .borrow()
            .as_ref()
            .filter(|i| Weak::ptr_eq(&i.provider, &provider))
            .map(|i| Rc::clone(&i.key));
        if let Some(key) = cached {
            return Ok(key);
        }
        let key =
            o.0.import_signing_key(PrivateKeyDer::new(&self.pkcs8, self.kind))
                .await?;
        *self.imported.borrow_mut() = Some(Imported {
            provider,
            key: Rc::clone(&key),
        });
        Ok(key)
    }
}

/// id-ecPublicKey (1.2.840.10045.2.1).
const ID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// secp256r1 (1.2.840.10045.3.1.7).
const SECP256R1: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
/// secp384r1 (1.3.132.0.34).
const SECP384R1: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
/// rsaEncryption (1.2.840.113549.1.1.1).
const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/// The PKCS#8 AlgorithmIdentifier of a SEC1 (P-256, P-384) or PKCS#1 key (`None` for kinds
/// that have neither encoding, which `matches` has already refused). Public values, so built
/// with plain `Vec`s.
fn algorithm_identifier(kind: KeyKind) -> Option<Vec<u8>> {
    let (oid, params): (&[u8], Vec<u8>) = match kind {
        KeyKind::EcdsaP256 => (ID_EC_PUBLIC_KEY, tlv_public(0x06, SECP256R1)),
        KeyKind::EcdsaP384 => (ID_EC_PUBLIC_KEY, tlv_public(0x06, SECP384R1)),
        // A PKCS#1 key is an rsaEncryption key, even under an id-RSASSA-PSS certificate.
        KeyKind::Rsa { .. } => (RSA_ENCRYPTION, vec![0x05, 0x00]),
        _ => return None,
    };
    let mut body = tlv_public(0x06, oid);
    body.extend_from_slice(&params);
    Some(tlv_public(0x30, &body))
}

fn tlv_public(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    der_length(body.len(), &mut out);
    out.extend_from_slice(body);
    out
}

/// A DER length (definite, minimal).
fn der_length(n: usize, out: &mut Vec<u8>) {
    match u8::try_from(n) {
        Ok(b) if b < 0x80 => out.push(b),
        _ => {
            let bytes = n.to_be_bytes();
            let skip = bytes.iter().take_while(|b| **b == 0).count();
            let digits = bytes.get(skip..).unwrap_or(&[]);
            // At most 8 length octets: the count fits in the low 7 bits.
            out.push(0x80 | u8::try_from(digits.len()).unwrap_or(0x7f));
            out.extend_from_slice(digits);
        }
    }
}

/// PrivateKeyInfo { version 0, `alg_id`, OCTET STRING `key` } (RFC 5208), written into one
/// wiped buffer sized up front, so no reallocation leaves a copy of the key behind.
fn wrap_pkcs8(alg_id: &[u8], key: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut octet_head = vec![0x04];
    der_length(key.len(), &mut octet_head);
    let body_len = 3usize
        .saturating_add(alg_id.len())
        .saturating_add(octet_head.len())
        .saturating_add(key.len());
    let mut head = vec![0x30];
    der_length(body_len, &mut head);
    let mut out = Zeroizing::new(Vec::with_capacity(head.len().saturating_add(body_len)));
    out.extend_from_slice(&head);
    out.extend_from_slice(&[0x02, 0x01, 0x00]);
    out.extend_from_slice(alg_id);
    out.extend_from_slice(&octet_head);
    out.extend_from_slice(key);
    out
}

/// The one key block of `pem`, decoded into a wiped buffer, with its reader.
fn key_block(pem: &[u8]) -> Result<(Zeroizing<Vec<u8>>, KeyEncoding), ClientCertError> {
    let text = core::str::from_utf8(pem).map_err(|_| ClientCertError::NoKey)?;
    let mut found = None;
    for (label, encoding) in KEY_LABELS {
        let begin = format!("-----BEGIN {label}-----");
        let end = format!("-----END {label}-----");
        let mut rest = text;
        while let Some(start) = rest.find(&begin) {
            let after = rest.get(start.saturating_add(begin.len())..).unwrap_or("");
            let stop = after.find(&end).ok_or(ClientCertError::NoKey)?;
            let body: Zeroizing<String> = Zeroizing::new(
                after
                    .get(..stop)
                    .unwrap_or("")
                    .chars()
                    .filter(|c| !c.is_ascii_whitespace())
                    .collect(),
            );
            let der = base64::engine::general_purpose::STANDARD
                .decode(body.as_bytes())
                .map_err(|_| ClientCertError::NoKey)?;
            if found.is_some() {
                return Err(ClientCertError::NoKey);
            }
            found = Some((Zeroizing::new(der), encoding));
            rest = after.get(stop.saturating_add(end.len())..).unwrap_or("");
        }
    }
    found.ok_or(ClientCertError::NoKey)
}

#[cfg(test)]
mod tests {
    use super::*;
    use burrow_der::writer::{octet_string, oid, seq, tlv, unsigned_integer};

    #[test]
    fn der_lengths_are_minimal() {
        for (n, want) in [
            (0usize, vec![0u8]),
            (0x7f, vec![0x7f]),
            (0x80, vec![0x81, 0x80]),
            (0xff, vec![0x81, 0xff]),
            (0x100, vec![0x82, 0x01, 0x00]),
            (0x1_0000, vec![0x83, 0x01, 0x00, 0x00]),
        ] {
            let mut out = Vec::new();
            der_length(n, &mut out);
            assert_eq!(out, want, "{n}");
        }
    }

    #[test]
    fn a_sec1_key_wrapped_in_pkcs8_is_the_same_key() {
        // ECDSA here is deterministic (RFC 6979): the same key gives the same signature.
        let sec1 = seq(&[
            &unsigned_integer(&[1]),
            &octet_string(&[7u8; 32]),
            &tlv(0xa0, &oid(SECP256R1)),
        ]);
        let wrapped = wrap_pkcs8(&algorithm_identifier(KeyKind::EcdsaP256).unwrap(), &sec1);
        let direct = SigningKey::from_sec1_der(&sec1).unwrap();
        let via_pkcs8 = SigningKey::from_pkcs8_der(&wrapped).unwrap();
        let alg = VerifyAlgorithm::EcdsaP256Sha256;
        assert_eq!(
            direct.sign(alg, b"m").unwrap(),
            via_pkcs8.sign(alg, b"m").unwrap()
        );
        // Longer than 127 bytes, so the outer length takes the long form.
        let long = [sec1.clone(), vec![0; 200]].concat();
        let w = wrap_pkcs8(&algorithm_identifier(KeyKind::EcdsaP384).unwrap(), &long);
        assert_eq!(&w[..2], &[0x30, 0x82]);
        assert_eq!(usize::from(w[2]) * 256 + usize::from(w[3]), w.len() - 4);
        assert_eq!(algorithm_identifier(KeyKind::Ed25519), None);
    }
}
