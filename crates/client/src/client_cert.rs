//! Client certificates (mTLS): a PEM chain and its private key, checked against each other
//! when configured, so a wrong key fails here and not in some server's handshake.
//!
//! The key is read with burrow-crypto (burrow-der underneath), held in burrow-crypto's
//! `SigningKey` (wiped on drop); its PEM and DER pass through `Zeroizing` buffers. Neither
//! `Debug` nor any error shows it.

use std::rc::Rc;

use base64::Engine;
use burrow_crypto::sig::{PublicKeyInfo, SigningKey, VerifyAlgorithm};
use burrow_crypto::CryptoError;
use zeroize::Zeroizing;

/// A certificate chain (leaf first) and the private key of its leaf, for
/// [`TlsSettings::client_cert`](crate::TlsSettings::client_cert).
#[derive(Clone)]
pub struct ClientCert {
    chain: Vec<Vec<u8>>,
    key: Rc<SigningKey>,
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

/// How one PEM key label is read.
type ReadKey = fn(&[u8]) -> Result<SigningKey, CryptoError>;

/// The PEM labels a key may carry and how each is read.
const KEY_LABELS: [(&str, ReadKey); 3] = [
    ("PRIVATE KEY", SigningKey::from_pkcs8_der),
    ("EC PRIVATE KEY", SigningKey::from_sec1_der),
    ("RSA PRIVATE KEY", SigningKey::from_pkcs1_der),
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
        key: &[u8],
        read: ReadKey,
    ) -> Result<ClientCert, ClientCertError> {
        let leaf = chain.first().ok_or(ClientCertError::NoCertificate)?;
        let key = read(key).map_err(ClientCertError::BadKey)?;
        let spki = burrow_x509::Certificate::from_der(leaf)
            .map(|c| c.spki().to_vec())
            .map_err(|_| ClientCertError::UnusableCertificate)?;
        let info = PublicKeyInfo::parse(&spki).map_err(|_| ClientCertError::UnusableCertificate)?;
        if !key.matches(&info) {
            return Err(ClientCertError::KeyMismatch);
        }
        Ok(ClientCert {
            chain,
            key: Rc::new(key),
        })
    }

    /// The chain, DER, leaf first.
    pub fn chain(&self) -> &[Vec<u8>] {
        &self.chain
    }

    /// Signs a CertificateVerify message.
    pub(crate) fn sign(
        &self,
        alg: VerifyAlgorithm,
        message: &[u8],
    ) -> Result<Vec<u8>, CryptoError> {
        self.key.sign(alg, message)
    }
}

/// The one key block of `pem`, decoded into a wiped buffer, with its reader.
fn key_block(pem: &[u8]) -> Result<(Zeroizing<Vec<u8>>, ReadKey), ClientCertError> {
    let text = core::str::from_utf8(pem).map_err(|_| ClientCertError::NoKey)?;
    let mut found = None;
    for (label, read) in KEY_LABELS {
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
            found = Some((Zeroizing::new(der), read));
            rest = after.get(stop.saturating_add(end.len())..).unwrap_or("");
        }
    }
    found.ok_or(ClientCertError::NoKey)
}
