//! The crypto seam beside [`crate::Net`]: who performs TLS record AEAD and signature checks.
//!
//! Natively everything runs inline with burrow-crypto and no provider is set. In a Worker,
//! WebCrypto is an order of magnitude faster than wasm for AES-GCM and signatures
//! (`../shared/ARCHITECTURE.md`, "The byte path in the Worker"), but it is asynchronous; the
//! sans-IO cores already hand that work out as requests (`Event::TrafficKey` / `NeedOpen` /
//! `NeedSeal` / `NeedVerify`, x509's `AnswerBook`), and [`crate::TlsStream`] answers them
//! through a [`CryptoOffload`].
//!
//! The futures are boxed (the trait is used as `dyn`, one provider for every connection of a
//! client) and not `Send` (single-threaded, like the rest of the client).

use std::cell::Cell;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::rc::Rc;

use burrow_crypto::aead::{AeadAlgorithm, AeadKey, TAG_LEN};
use burrow_crypto::sig::VerifyAlgorithm;
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

/// Performs record AEAD and signature checks for [`crate::TlsStream`].
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
}
