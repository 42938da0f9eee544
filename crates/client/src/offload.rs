//! The crypto seam beside [`crate::Net`]: who performs TLS record AEAD and signature checks.
//!
//! Natively everything runs inline with burrow-crypto and no provider is set. In a Worker,
//! WebCrypto is an order of magnitude faster than wasm for AES-GCM and signatures
//! (`../shared/ARCHITECTURE.md`, "The byte path in the Worker"), but it is asynchronous; the
//! sans-IO cores already hand that work out as requests (`Event::TrafficKey` / `NeedOpen` /
//! `NeedSeal` / `NeedVerify` / `NeedSign`, x509's `AnswerBook`), and [`crate::TlsStream`]
//! answers them through a [`CryptoOffload`].
//!
//! The futures are boxed (the trait is used as `dyn`, one provider for every connection of a
//! client) and not `Send` (single-threaded, like the rest of the client).

use std::cell::Cell;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::rc::Rc;

use burrow_crypto::aead::{AeadAlgorithm, AeadKey, TAG_LEN};
use burrow_crypto::sig::{KeyKind, SigningKey, VerifyAlgorithm};
use burrow_crypto::CryptoError;

/// A boxed, non-`Send` future.
pub type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// One imported traffic key (one direction of one TLS connection).
pub trait RecordKey {
    /// Opens a record in place: `data` is `ciphertext || tag`; on success the plaintext is in
    /// `data[..data.len() - 16]`. `Ok(false)`: the tag did not verify (`bad_record_mac`).
    fn open<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<bool>>;

    /// Seals a record in place: `data` is `plaintext || 16 zero bytes`; afterwards it is
    /// `ciphertext || tag`.
    fn seal<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<()>>;
}

/// A client certificate's private key, lent to [`CryptoOffload::import_signing_key`]: PKCS#8
/// PrivateKeyInfo DER (a SEC1 or PKCS#1 key arrives wrapped in PKCS#8, which is what WebCrypto
/// imports) and what kind of key it is. `Debug` shows only the kind.
#[derive(Clone, Copy)]
pub struct PrivateKeyDer<'a> {
    pkcs8: &'a [u8],
    kind: KeyKind,
}

impl<'a> PrivateKeyDer<'a> {
    pub(crate) fn new(pkcs8: &'a [u8], kind: KeyKind) -> PrivateKeyDer<'a> {
        PrivateKeyDer { pkcs8, kind }
    }

    /// The key as PKCS#8 PrivateKeyInfo DER (secret: copy it only into what wipes or owns it).
    pub fn pkcs8(&self) -> &'a [u8] {
        self.pkcs8
    }

    /// The kind of key (that of the certificate's public key).
    pub fn kind(&self) -> KeyKind {
        self.kind
    }
}

impl core::fmt::Debug for PrivateKeyDer<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PrivateKeyDer")
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// A client certificate's private key imported into a provider. [`crate::ClientCert`] keeps
/// the handle, so a key is imported once per client and provider, not once per handshake.
pub trait ImportedSigningKey {
    /// Signs `message` (a CertificateVerify's content) with `algorithm`, in the format
    /// `burrow_crypto::sig::verify` takes: ECDSA as DER, RSA raw, Ed25519 64 bytes.
    fn sign<'a>(
        &'a self,
        algorithm: VerifyAlgorithm,
        message: &'a [u8],
    ) -> LocalFuture<'a, Result<Vec<u8>, CryptoError>>;
}

/// Performs record AEAD, signature checks and client-certificate signatures for
/// [`crate::TlsStream`].
pub trait CryptoOffload {
    /// Whether record AEAD goes through [`import_key`](Self::import_key) (else inline). The
    /// provider still gets every suite's keys, ChaCha20-Poly1305 included, and decides per
    /// algorithm where to run it.
    fn offloads_records(&self) -> bool;

    /// Whether signature checks (CertificateVerify, ServerKeyExchange, every signature of the
    /// chain and of a stapled OCSP response) go through [`verify`](Self::verify).
    fn offloads_signatures(&self) -> bool;

    /// Imports one traffic key (once per key: after a KeyUpdate, again).
    fn import_key<'a>(
        &'a self,
        algorithm: AeadAlgorithm,
        key: &'a [u8],
    ) -> LocalFuture<'a, io::Result<Rc<dyn RecordKey>>>;

    /// Checks one signature: `Err(CryptoError::BadSignature)` when it does not verify, another
    /// error when the key or algorithm cannot be used.
    fn verify<'a>(
        &'a self,
        algorithm: VerifyAlgorithm,
        spki: &'a [u8],
        message: &'a [u8],
        signature: &'a [u8],
    ) -> LocalFuture<'a, Result<(), CryptoError>>;

    /// Whether a client certificate's key of `kind` signs through
    /// [`import_signing_key`](Self::import_signing_key) (else inline with burrow-crypto). The
    /// default, for providers that predate client certificates, is inline for every kind.
    fn offloads_signing(&self, kind: KeyKind) -> bool {
        let _ = kind;
        false
    }

    /// Imports a client certificate's key; called only for a kind
    /// [`offloads_signing`](Self::offloads_signing) accepts, once per client (the handle is
    /// kept). The default refuses, as its `offloads_signing` never asks.
    fn import_signing_key<'a>(
        &'a self,
        key: PrivateKeyDer<'a>,
    ) -> LocalFuture<'a, Result<Rc<dyn ImportedSigningKey>, CryptoError>> {
        let _ = key;
        Box::pin(async { Err(CryptoError::UnsupportedAlgorithm) })
    }
}

/// A shared [`CryptoOffload`], as held in [`crate::TlsSettings::offload`].
#[derive(Clone)]
pub struct Offload(pub Rc<dyn CryptoOffload>);

impl core::fmt::Debug for Offload {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Offload")
            .field("records", &self.0.offloads_records())
            .field("signatures", &self.0.offloads_signatures())
            .finish()
    }
}

/// How many operations an [`InlineOffload`] performed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OffloadCounts {
    /// Keys imported.
    pub keys: u64,
    /// Records opened.
    pub opens: u64,
    /// Records sealed.
    pub seals: u64,
    /// Signatures checked.
    pub verifies: u64,
    /// Client certificate keys imported.
    pub signing_keys: u64,
    /// Client certificate signatures made (CertificateVerify).
    pub signs: u64,
}

/// A provider that performs everything with burrow-crypto, through the asynchronous seam,
/// counting what it did. It exists to prove the offload path natively (the same request/answer
/// protocol the Worker's WebCrypto provider speaks, against real servers) and costs a little
/// more than plain inline mode.
#[derive(Debug, Default)]
pub struct InlineOffload {
    counts: Rc<Cell<OffloadCounts>>,
}

impl InlineOffload {
    /// A provider with zeroed counters.
    pub fn new() -> InlineOffload {
        InlineOffload::default()
    }

    /// What it has done so far.
    pub fn counts(&self) -> OffloadCounts {
        self.counts.get()
    }

    fn bump(&self, f: impl FnOnce(&mut OffloadCounts)) {
        bump(&self.counts, f);
    }
}

fn bump(counts: &Cell<OffloadCounts>, f: impl FnOnce(&mut OffloadCounts)) {
    let mut c = counts.get();
    f(&mut c);
    counts.set(c);
}

struct InlineKey {
    key: AeadKey,
    counts: Rc<Cell<OffloadCounts>>,
}

impl InlineKey {
    fn bump(&self, f: impl FnOnce(&mut OffloadCounts)) {
        bump(&self.counts, f);
    }
}

impl RecordKey for InlineKey {
    fn open<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<bool>> {
        self.bump(|c| c.opens = c.opens.saturating_add(1));
        let split = data.len().saturating_sub(TAG_LEN);
        let (text, tag) = data.split_at_mut(split);
        let ok = <&[u8; TAG_LEN]>::try_from(&*tag)
            .is_ok_and(|tag| self.key.open_in_place(nonce, aad, text, tag).is_ok());
        Box::pin(async move { Ok(ok) })
    }

    fn seal<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<()>> {
        self.bump(|c| c.seals = c.seals.saturating_add(1));
        let split = data.len().saturating_sub(TAG_LEN);
        let (text, tag_space) = data.split_at_mut(split);
        let r = match self.key.seal_in_place(nonce, aad, text) {
            Ok(tag) if tag_space.len() == TAG_LEN => {
                tag_space.copy_from_slice(&tag);
                Ok(())
            }
            Ok(_) => Err(io::Error::other("AEAD seal: no room for the tag")),
            Err(e) => Err(io::Error::other(format!("AEAD seal failed: {e:?}"))),
        };
        Box::pin(async move { r })
    }
}

impl CryptoOffload for InlineOffload {
    fn offloads_records(&self) -> bool {
        true
    }

    fn offloads_signatures(&self) -> bool {
        true
    }

    fn import_key<'a>(
        &'a self,
        algorithm: AeadAlgorithm,
        key: &'a [u8],
    ) -> LocalFuture<'a, io::Result<Rc<dyn RecordKey>>> {
        self.bump(|c| c.keys = c.keys.saturating_add(1));
        let r = AeadKey::new(algorithm, key)
            .map(|key| -> Rc<dyn RecordKey> {
                Rc::new(InlineKey {
                    key,
                    counts: Rc::clone(&self.counts),
                })
            })
            .map_err(|e| io::Error::other(format!("AEAD key import failed: {e:?}")));
        Box::pin(async move { r })
    }

    fn verify<'a>(
        &'a self,
        algorithm: VerifyAlgorithm,
        spki: &'a [u8],
        message: &'a [u8],
        signature: &'a [u8],
    ) -> LocalFuture<'a, Result<(), CryptoError>> {
        self.bump(|c| c.verifies = c.verifies.saturating_add(1));
        let r = burrow_crypto::sig::verify(algorithm, spki, message, signature);
        Box::pin(async move { r })
    }

    fn offloads_signing(&self, kind: KeyKind) -> bool {
        let _ = kind;
        true
    }

    fn import_signing_key<'a>(
        &'a self,
        key: PrivateKeyDer<'a>,
    ) -> LocalFuture<'a, Result<Rc<dyn ImportedSigningKey>, CryptoError>> {
        self.bump(|c| c.signing_keys = c.signing_keys.saturating_add(1));
        // Read back from the PKCS#8 a provider gets, so SEC1 and PKCS#1 keys prove their
        // wrapping natively too.
        let r = SigningKey::from_pkcs8_der(key.pkcs8()).map(|key| -> Rc<dyn ImportedSigningKey> {
            Rc::new(InlineSigningKey {
                key,
                counts: Rc::clone(&self.counts),
            })
        });
        Box::pin(async move { r })
    }
}

struct InlineSigningKey {
    key: SigningKey,
    counts: Rc<Cell<OffloadCounts>>,
}

impl ImportedSigningKey for InlineSigningKey {
    fn sign<'a>(
        &'a self,
        algorithm: VerifyAlgorithm,
        message: &'a [u8],
    ) -> LocalFuture<'a, Result<Vec<u8>, CryptoError>> {
        bump(&self.counts, |c| c.signs = c.signs.saturating_add(1));
        let r = self.key.sign(algorithm, message);
        Box::pin(async move { r })
    }
}
