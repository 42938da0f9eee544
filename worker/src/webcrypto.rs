//! [`CryptoOffload`] through WebCrypto (`crypto.subtle`): AES-GCM record open/seal with one
//! `CryptoKey` imported per traffic key, every signature check (ECDSA P-256/P-384, RSA
//! PKCS#1 v1.5 and PSS, Ed25519), and a client certificate's signatures (its key imported
//! from PKCS#8 once per client, as a non-extractable `CryptoKey`). ChaCha20-Poly1305 (not in
//! WebCrypto) stays in wasm, as do hashing, HKDF and key exchange
//! (`../shared/ARCHITECTURE.md` has the measurements).
//!
//! Small AES-GCM records stay in wasm too: a WebCrypto call and its awaited promise cost more
//! than wasm's AES-GCM over a few hundred bytes (a server-sent event, a handshake message, a
//! small response), so records up to [`WebCrypto::inline_record_bytes`] are opened and sealed
//! with burrow-crypto, and a traffic key goes into WebCrypto only when its first larger record
//! comes (a connection that never carries one imports none).
//!
//! workerd runs `crypto.subtle` operations synchronously inside the call and returns a settled
//! promise, and WebCrypto copies its inputs when called; so one reused JS buffer carries each
//! record in, and the answer (a fresh `ArrayBuffer`) is copied once back into the record in
//! place. The RSA size policy of burrow-crypto (2048..=8192 bits) is applied before a key
//! goes to WebCrypto, which would accept smaller ones; an algorithm or key WebCrypto refuses
//! falls back to burrow-crypto, counted.

use std::cell::{Cell, OnceCell, RefCell};

use crate::num::js_len;
use std::io;
use std::rc::Rc;

use burrow_client::{
    CryptoOffload, ImportedSigningKey, InlineOffload, LocalFuture, PrivateKeyDer, RecordKey,
};
use burrow_crypto::aead::{AeadAlgorithm, AeadKey, TAG_LEN};
use burrow_crypto::sig::{KeyKind, PublicKeyInfo, SigningKey, VerifyAlgorithm};
use burrow_crypto::CryptoError;
use burrow_der::{tag, Reader};
use js_sys::{Array, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use zeroize::Zeroizing;

use crate::exec::awaited;
use crate::net::js_message;
use crate::obj;

#[wasm_bindgen]
extern "C" {
    /// `crypto.subtle`.
    type Subtle;
    #[wasm_bindgen(method, catch, js_name = importKey)]
    fn import_key(
        this: &Subtle,
        format: &str,
        key: &Uint8Array,
        algorithm: &JsValue,
        extractable: bool,
        usages: &Array,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn decrypt(
        this: &Subtle,
        algorithm: &JsValue,
        key: &JsValue,
        data: &Uint8Array,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn encrypt(
        this: &Subtle,
        algorithm: &JsValue,
        key: &JsValue,
        data: &Uint8Array,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn verify(
        this: &Subtle,
        algorithm: &JsValue,
        key: &JsValue,
        signature: &Uint8Array,
        data: &Uint8Array,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn sign(
        this: &Subtle,
        algorithm: &JsValue,
        key: &JsValue,
        data: &Uint8Array,
    ) -> Result<Promise, JsValue>;
}

/// What the provider did, and where.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WebCryptoCounts {
    /// AES-GCM keys imported into WebCrypto (a key is imported on its first record larger than
    /// [`WebCrypto::inline_record_bytes`]).
    pub keys: u64,
    /// Records opened by WebCrypto.
    pub opens: u64,
    /// Records sealed by WebCrypto.
    pub seals: u64,
    /// AES-GCM records opened in wasm because they were small.
    pub inline_opens: u64,
    /// AES-GCM records sealed in wasm because they were small.
    pub inline_seals: u64,
    /// Signatures checked by WebCrypto.
    pub verifies: u64,
    /// ChaCha20-Poly1305 keys kept in wasm (not offered by WebCrypto).
    pub inline_keys: u64,
    /// Signatures checked in wasm because WebCrypto refused the key or algorithm.
    pub inline_verifies: u64,
    /// Client certificate keys imported into WebCrypto (one `CryptoKey` per key and, for RSA,
    /// per padding and hash: WebCrypto binds those at import).
    pub signing_keys: u64,
    /// Client certificate signatures made by WebCrypto.
    pub signs: u64,
    /// Client certificate signatures made in wasm because WebCrypto refused the key or
    /// algorithm.
    pub inline_signs: u64,
}

/// The WebCrypto provider.
pub struct WebCrypto {
    subtle: Subtle,
    counts: Rc<Cell<WebCryptoCounts>>,
    /// Records go in through this buffer (grown as needed, reused).
    scratch: Rc<RefCell<Scratch>>,
    inline: InlineOffload,
    records: bool,
    signatures: bool,
    inline_record_bytes: usize,
}

/// Records (ciphertext and tag) up to this many bytes are opened and sealed in wasm by
/// default: measured in workerd (`bench/RESULTS.md`, "Small records in wasm").
pub const DEFAULT_INLINE_RECORD_BYTES: usize = 1024;

fn js_err(what: &str, e: &JsValue) -> io::Error {
    io::Error::other(format!("WebCrypto {what} failed: {}", js_message(e)))
}

impl WebCrypto {
    /// The provider over this global's `crypto.subtle`; `records` and `signatures` say which
    /// work it takes (both, normally).
    pub fn new(records: bool, signatures: bool) -> Result<WebCrypto, JsValue> {
        let crypto = Reflect::get(&js_sys::global(), &JsValue::from_str("crypto"))?;
        let subtle = Reflect::get(&crypto, &JsValue::from_str("subtle"))?;
        if subtle.is_undefined() {
            return Err(JsValue::from_str("crypto.subtle is not available here"));
        }
        Ok(WebCrypto {
            subtle: subtle.unchecked_into(),
            counts: Rc::default(),
            scratch: Rc::new(RefCell::new({
                let buffer = Uint8Array::new_with_length(17 * 1024);
                Scratch {
                    view: buffer.subarray(0, 0),
                    buffer,
                }
            })),
            inline: InlineOffload::new(),
            records,
            signatures,
            inline_record_bytes: DEFAULT_INLINE_RECORD_BYTES,
        })
    }

    /// Records (ciphertext and tag) up to `bytes` long are opened and sealed in wasm, longer
    /// ones by WebCrypto; 0 sends every AES-GCM record to WebCrypto. Applies to keys imported
    /// after the call.
    pub fn with_inline_record_bytes(mut self, bytes: usize) -> WebCrypto {
        self.inline_record_bytes = bytes;
        self
    }

    /// The size up to which AES-GCM records stay in wasm.
    pub fn inline_record_bytes(&self) -> usize {
        self.inline_record_bytes
    }

    /// What it has done so far.
    pub fn counts(&self) -> WebCryptoCounts {
        self.counts.get()
    }

    fn bump(&self, f: impl FnOnce(&mut WebCryptoCounts)) {
        bump(&self.counts, f);
    }
}

fn bump(c: &Cell<WebCryptoCounts>, f: impl FnOnce(&mut WebCryptoCounts)) {
    let mut v = c.get();
    f(&mut v);
    c.set(v);
}

/// The reused JS buffer records go in through, and a view of it of the last length asked for
/// (records are mostly full-size, so the view is mostly reused too).
struct Scratch {
    buffer: Uint8Array,
    view: Uint8Array,
}

/// Copies `data` into the reused scratch buffer and returns a view of exactly its length.
fn stage(scratch: &RefCell<Scratch>, data: &[u8]) -> Uint8Array {
    let mut s = scratch.borrow_mut();
    let len = u32::try_from(data.len()).unwrap_or(u32::MAX);
    if s.buffer.length() < len {
        s.buffer = Uint8Array::new_with_length(len.saturating_add(1024));
        s.view = s.buffer.subarray(0, 0);
    }
    if s.view.length() != len {
        s.view = s.buffer.subarray(0, len);
    }
    s.view.copy_from(data);
    s.view.clone()
}

/// One AES-GCM traffic key: in wasm from the start (for small records), in WebCrypto from its
/// first large record on.
struct AesKey {
    subtle: Subtle,
    counts: Rc<Cell<WebCryptoCounts>>,
    scratch: Rc<RefCell<Scratch>>,
    /// burrow-crypto's key, for records up to `inline_max` bytes.
    wasm: AeadKey,
    inline_max: usize,
    /// The raw key, kept (wiped on drop) for the import on the first large record.
    raw: Zeroizing<Vec<u8>>,
    /// The `CryptoKey` and its parameters object, once imported.
    web: OnceCell<WebKey>,
}

struct WebKey {
    key: JsValue,
    params: GcmParams,
}

impl AesKey {
    /// The key in WebCrypto, imported on first use. Two records racing here both import; the
    /// first to finish is kept (it cannot happen with one record in flight per direction).
    async fn web(&self) -> io::Result<&WebKey> {
        if let Some(k) = self.web.get() {
            return Ok(k);
        }
        bump(&self.counts, |c| c.keys = c.keys.saturating_add(1));
        let alg =
            obj(&[("name", JsValue::from_str("AES-GCM"))]).map_err(|e| js_err("importKey", &e))?;
        let usages = Array::of2(&JsValue::from_str("encrypt"), &JsValue::from_str("decrypt"));
        let raw = Uint8Array::from(&self.raw[..]);
        let p = self.subtle.import_key("raw", &raw, &alg, false, &usages);
        // importKey copies the bytes before it returns (WebCrypto: "a copy of the bytes held
        // by keyData"), so the JS copy of the traffic key is wiped rather than left to the GC.
        raw.fill(0, 0, raw.length());
        let p = p.map_err(|e| js_err("importKey", &e))?;
        let key = awaited(&p).await.map_err(|e| js_err("importKey", &e))?;
        let params = GcmParams::new().map_err(|e| js_err("importKey", &e))?;
        Ok(self.web.get_or_init(|| WebKey { key, params }))
    }

    fn open_in_wasm(&self, nonce: &[u8; 12], aad: &[u8], data: &mut [u8]) -> bool {
        bump(&self.counts, |c| {
            c.inline_opens = c.inline_opens.saturating_add(1)
        });
        let split = data.len().saturating_sub(TAG_LEN);
        let (text, tag) = data.split_at_mut(split);
        <&[u8; TAG_LEN]>::try_from(&*tag)
            .is_ok_and(|tag| self.wasm.open_in_place(nonce, aad, text, tag).is_ok())
    }

    fn seal_in_wasm(&self, nonce: &[u8; 12], aad: &[u8], data: &mut [u8]) -> io::Result<()> {
        bump(&self.counts, |c| {
            c.inline_seals = c.inline_seals.saturating_add(1)
        });
        let split = data.len().saturating_sub(TAG_LEN);
        let (text, tag_space) = data.split_at_mut(split);
        let tag = self
            .wasm
            .seal_in_place(nonce, aad, text)
            .map_err(|e| io::Error::other(format!("AES-GCM seal failed: {e:?}")))?;
        match <&mut [u8; TAG_LEN]>::try_from(tag_space) {
            Ok(space) => {
                *space = tag;
                Ok(())
            }
            Err(_) => Err(io::Error::other("AES-GCM seal: no room for the tag")),
        }
    }
}

/// One `AesGcmParams` object per key, refilled for each record: WebCrypto copies `iv` and
/// `additionalData` when called, so the same arrays serve every call. Building the object per
/// record (two arrays, four properties, their names decoded from wasm) was in 5 % of the
/// samples of a profile of workerd fetching a large body (`bench/README.md`).
struct GcmParams {
    object: JsValue,
    iv: Uint8Array,
    /// Sized to the last record's additional data (5 bytes in TLS 1.3, 13 in TLS 1.2).
    aad: RefCell<Uint8Array>,
}

impl GcmParams {
    fn new() -> Result<GcmParams, JsValue> {
        let iv = Uint8Array::new_with_length(12);
        let aad = Uint8Array::new_with_length(0);
        let object = obj(&[
            ("name", JsValue::from_str("AES-GCM")),
            ("iv", iv.clone().into()),
            ("additionalData", aad.clone().into()),
            ("tagLength", JsValue::from(128)),
        ])?;
        Ok(GcmParams {
            object,
            iv,
            aad: RefCell::new(aad),
        })
    }

    /// The parameters for one record. Valid until the next call: use them at once.
    fn fill(&self, nonce: &[u8; 12], aad: &[u8]) -> Result<&JsValue, JsValue> {
        self.iv.copy_from(nonce);
        let mut a = self.aad.borrow_mut();
        let len = u32::try_from(aad.len()).map_err(|_| JsValue::from_str("aad too long"))?;
        if a.length() != len {
            *a = Uint8Array::new_with_length(len);
            Reflect::set(&self.object, &JsValue::from_str("additionalData"), &a)?;
        }
        a.copy_from(aad);
        Ok(&self.object)
    }
}

impl RecordKey for AesKey {
    fn open<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<bool>> {
        Box::pin(async move {
            if data.len() <= self.inline_max {
                return Ok(self.open_in_wasm(nonce, aad, data));
            }
            let web = self.web().await?;
            bump(&self.counts, |c| c.opens = c.opens.saturating_add(1));
            let params = web
                .params
                .fill(nonce, aad)
                .map_err(|e| js_err("decrypt", &e))?;
            let input = stage(&self.scratch, data);
            let p = self
                .subtle
                .decrypt(params, &web.key, &input)
                .map_err(|e| js_err("decrypt", &e))?;
            // A rejection is the tag failing (OperationError): bad_record_mac.
            let Ok(plain) = awaited(&p).await else {
                return Ok(false);
            };
            let plain = Uint8Array::new(&plain);
            let n = js_len(plain.length());
            if n.saturating_add(16) != data.len() {
                return Err(io::Error::other(
                    "WebCrypto decrypt returned a wrong length",
                ));
            }
            match data.get_mut(..n) {
                Some(dst) => {
                    plain.copy_to(dst);
                    Ok(true)
                }
                None => Err(io::Error::other(
                    "WebCrypto decrypt returned a wrong length",
                )),
            }
        })
    }

    fn seal<'a>(
        &'a self,
        nonce: &'a [u8; 12],
        aad: &'a [u8],
        data: &'a mut [u8],
    ) -> LocalFuture<'a, io::Result<()>> {
        Box::pin(async move {
            if data.len() <= self.inline_max {
                return self.seal_in_wasm(nonce, aad, data);
            }
            let web = self.web().await?;
            bump(&self.counts, |c| c.seals = c.seals.saturating_add(1));
            let params = web
                .params
                .fill(nonce, aad)
                .map_err(|e| js_err("encrypt", &e))?;
            let text = data.len().saturating_sub(16);
            let input = stage(&self.scratch, data.get(..text).unwrap_or(&[]));
            let p = self
                .subtle
                .encrypt(params, &web.key, &input)
                .map_err(|e| js_err("encrypt", &e))?;
            let sealed = awaited(&p).await.map_err(|e| js_err("encrypt", &e))?;
            let sealed = Uint8Array::new(&sealed);
            if js_len(sealed.length()) != data.len() {
                return Err(io::Error::other(
                    "WebCrypto encrypt returned a wrong length",
                ));
            }
            sealed.copy_to(data);
            Ok(())
        })
    }
}

/// Import and verify parameters for a signature algorithm, and the hash length for PSS.
fn sig_params(alg: VerifyAlgorithm) -> Result<(JsValue, JsValue), JsValue> {
    let s = JsValue::from_str;
    let ecdsa = |curve: &str, hash: &str| -> Result<(JsValue, JsValue), JsValue> {
        Ok((
            obj(&[("name", s("ECDSA")), ("namedCurve", s(curve))])?,
            obj(&[("name", s("ECDSA")), ("hash", s(hash))])?,
        ))
    };
    let pkcs1 = |hash: &str| -> Result<(JsValue, JsValue), JsValue> {
        Ok((
            obj(&[("name", s("RSASSA-PKCS1-v1_5")), ("hash", s(hash))])?,
            obj(&[("name", s("RSASSA-PKCS1-v1_5"))])?,
        ))
    };
    let pss = |hash: &str, salt: u32| -> Result<(JsValue, JsValue), JsValue> {
        Ok((
            obj(&[("name", s("RSA-PSS")), ("hash", s(hash))])?,
            obj(&[("name", s("RSA-PSS")), ("saltLength", JsValue::from(salt))])?,
        ))
    };
    match alg {
        VerifyAlgorithm::EcdsaP256Sha256 => ecdsa("P-256", "SHA-256"),
        VerifyAlgorithm::EcdsaP256Sha384 => ecdsa("P-256", "SHA-384"),
        VerifyAlgorithm::EcdsaP384Sha256 => ecdsa("P-384", "SHA-256"),
        VerifyAlgorithm::EcdsaP384Sha384 => ecdsa("P-384", "SHA-384"),
        VerifyAlgorithm::RsaPkcs1Sha256 => pkcs1("SHA-256"),
        VerifyAlgorithm::RsaPkcs1Sha384 => pkcs1("SHA-384"),
        VerifyAlgorithm::RsaPkcs1Sha512 => pkcs1("SHA-512"),
        VerifyAlgorithm::RsaPssSha256 => pss("SHA-256", 32),
        VerifyAlgorithm::RsaPssSha384 => pss("SHA-384", 48),
        VerifyAlgorithm::RsaPssSha512 => pss("SHA-512", 64),
        VerifyAlgorithm::Ed25519 => Ok((
            obj(&[("name", s("Ed25519"))])?,
            obj(&[("name", s("Ed25519"))])?,
        )),
        #[allow(unreachable_patterns)] // algorithms added later stay in wasm until mapped here
        _ => Err(JsValue::from_str("no WebCrypto mapping")),
    }
}

/// ECDSA field size in bytes, for the DER → IEEE P1363 (`r || s`) conversion WebCrypto needs.
fn ecdsa_len(alg: VerifyAlgorithm) -> Option<usize> {
    match alg {
        VerifyAlgorithm::EcdsaP256Sha256 | VerifyAlgorithm::EcdsaP256Sha384 => Some(32),
        VerifyAlgorithm::EcdsaP384Sha256 | VerifyAlgorithm::EcdsaP384Sha384 => Some(48),
        _ => None,
    }
}

impl CryptoOffload for WebCrypto {
    fn offloads_records(&self) -> bool {
        self.records
    }

    fn offloads_signatures(&self) -> bool {
        self.signatures
    }

    fn import_key<'a>(
        &'a self,
        algorithm: AeadAlgorithm,
        key: &'a [u8],
    ) -> LocalFuture<'a, io::Result<Rc<dyn RecordKey>>> {
        Box::pin(async move {
            if algorithm == AeadAlgorithm::ChaCha20Poly1305 {
                self.bump(|c| c.inline_keys = c.inline_keys.saturating_add(1));
                return self.inline.import_key(algorithm, key).await;
            }
            let wasm = AeadKey::new(algorithm, key)
                .map_err(|e| io::Error::other(format!("AES-GCM key import failed: {e:?}")))?;
            let key: Rc<dyn RecordKey> = Rc::new(AesKey {
                subtle: self.subtle.clone().unchecked_into(),
                counts: Rc::clone(&self.counts),
                scratch: Rc::clone(&self.scratch),
                wasm,
                inline_max: self.inline_record_bytes,
                raw: Zeroizing::new(key.to_vec()),
                web: OnceCell::new(),
            });
            Ok(key)
        })
    }

    fn verify<'a>(
        &'a self,
        algorithm: VerifyAlgorithm,
        spki: &'a [u8],
        message: &'a [u8],
        signature: &'a [u8],
    ) -> LocalFuture<'a, Result<(), CryptoError>> {
        Box::pin(async move {
            // The key is parsed once, by burrow-crypto (the owner of "key + algorithm"): its
            // type and curve must fit `algorithm`, and an RSA key burrow-crypto's size policy.
            let key = PublicKeyInfo::parse(spki)?;
            if !key.can_sign(algorithm) {
                return Err(CryptoError::UnsupportedAlgorithm);
            }
            rsa_size_ok(&key)?;
            let sig = match ecdsa_len(algorithm) {
                Some(n) => der_to_p1363(signature, n).ok_or(CryptoError::BadSignature)?,
                None => signature.to_vec(),
            };
            match self.webcrypto_verify(algorithm, spki, message, &sig).await {
                Some(true) => {
                    self.bump(|c| c.verifies = c.verifies.saturating_add(1));
                    Ok(())
                }
                Some(false) => {
                    self.bump(|c| c.verifies = c.verifies.saturating_add(1));
                    Err(CryptoError::BadSignature)
                }
                None => {
                    self.bump(|c| c.inline_verifies = c.inline_verifies.saturating_add(1));
                    key.verify(algorithm, message, signature)
                }
            }
        })
    }

    fn offloads_signing(&self, kind: KeyKind) -> bool {
        // Every kind burrow-crypto signs with: P-521 has no `SigningKey` to fall back to.
        self.signatures
            && matches!(
                kind,
                KeyKind::EcdsaP256 | KeyKind::EcdsaP384 | KeyKind::Rsa { .. } | KeyKind::Ed25519
            )
    }

    fn import_signing_key<'a>(
        &'a self,
        key: PrivateKeyDer<'a>,
    ) -> LocalFuture<'a, Result<Rc<dyn ImportedSigningKey>, CryptoError>> {
        Box::pin(async move {
            let handle: Rc<dyn ImportedSigningKey> = Rc::new(WebCryptoSigningKey {
                subtle: self.subtle.clone().unchecked_into(),
                pkcs8: Zeroizing::new(key.pkcs8().to_vec()),
                imported: RefCell::default(),
                fallback: RefCell::default(),
                counts: Rc::clone(&self.counts),
            });
            Ok(handle)
        })
    }
}

/// A client certificate's key for WebCrypto. ECDSA and Ed25519 need one `CryptoKey` each;
/// RSA one per padding and hash (WebCrypto binds them at import), so each is imported on its
/// first use and kept. The PKCS#8 stays in wasm (wiped on drop) for those imports, and for
/// burrow-crypto should WebCrypto refuse one (counted as `inline_signs`).
struct WebCryptoSigningKey {
    subtle: Subtle,
    pkcs8: Zeroizing<Vec<u8>>,
    /// `(import class, CryptoKey)`, see [`import_class`].
    imported: RefCell<Vec<(VerifyAlgorithm, JsValue)>>,
    fallback: RefCell<Option<Rc<SigningKey>>>,
    counts: Rc<Cell<WebCryptoCounts>>,
}

/// The algorithm whose import parameters `alg` shares: ECDSA's `CryptoKey` serves every hash
/// (the hash is a sign parameter), so both hashes of a curve map to one; RSA's and Ed25519's
/// map to themselves.
fn import_class(alg: VerifyAlgorithm) -> VerifyAlgorithm {
    match alg {
        VerifyAlgorithm::EcdsaP256Sha384 => VerifyAlgorithm::EcdsaP256Sha256,
        VerifyAlgorithm::EcdsaP384Sha256 => VerifyAlgorithm::EcdsaP384Sha384,
        other => other,
    }
}

impl WebCryptoSigningKey {
    /// The `CryptoKey` for `alg`, imported on first use (`None`: WebCrypto refused it).
    async fn crypto_key(&self, alg: VerifyAlgorithm, import: &JsValue) -> Option<JsValue> {
        let class = import_class(alg);
        if let Some((_, k)) = self.imported.borrow().iter().find(|(c, _)| *c == class) {
            return Some(k.clone());
        }
        let usages = Array::of1(&JsValue::from_str("sign"));
        let der = Uint8Array::from(self.pkcs8.as_slice());
        let p = self
            .subtle
            .import_key("pkcs8", &der, import, false, &usages);
        // importKey has copied the bytes when it returns: the JS copy is wiped at once.
        der.fill(0, 0, der.length());
        let k = awaited(&p.ok()?).await.ok()?;
        bump(&self.counts, |c| {
            c.signing_keys = c.signing_keys.saturating_add(1)
        });
        self.imported.borrow_mut().push((class, k.clone()));
        Some(k)
    }

    /// The signature from WebCrypto, in TLS's format (`None`: WebCrypto refused).
    async fn webcrypto_sign(&self, alg: VerifyAlgorithm, message: &[u8]) -> Option<Vec<u8>> {
        let (import, params) = sig_params(alg).ok()?;
        let key = self.crypto_key(alg, &import).await?;
        let p = self
            .subtle
            .sign(&params, &key, &Uint8Array::from(message))
            .ok()?;
        let sig = Uint8Array::new(&awaited(&p).await.ok()?).to_vec();
        match ecdsa_len(alg) {
            // WebCrypto's ECDSA is IEEE P1363 (r || s); TLS's is DER.
            Some(n) => p1363_to_der(&sig, n),
            None => Some(sig),
        }
    }

    fn inline_sign(&self, alg: VerifyAlgorithm, message: &[u8]) -> Result<Vec<u8>, CryptoError> {
        let cached = self.fallback.borrow().clone();
        let key = match cached {
            Some(k) => k,
            None => {
                let k = Rc::new(SigningKey::from_pkcs8_der(&self.pkcs8)?);
                *self.fallback.borrow_mut() = Some(Rc::clone(&k));
                k
            }
        };
        key.sign(alg, message)
    }
}

impl ImportedSigningKey for WebCryptoSigningKey {
    fn sign<'a>(
        &'a self,
        algorithm: VerifyAlgorithm,
        message: &'a [u8],
    ) -> LocalFuture<'a, Result<Vec<u8>, CryptoError>> {
        Box::pin(async move {
            if let Some(sig) = self.webcrypto_sign(algorithm, message).await {
                bump(&self.counts, |c| c.signs = c.signs.saturating_add(1));
                return Ok(sig);
            }
            bump(&self.counts, |c| {
                c.inline_signs = c.inline_signs.saturating_add(1)
            });
            self.inline_sign(algorithm, message)
        })
    }
}

impl WebCrypto {
    /// `None`: WebCrypto could not take the key or algorithm (then burrow-crypto decides).
    async fn webcrypto_verify(
        &self,
        algorithm: VerifyAlgorithm,
        spki: &[u8],
        message: &[u8],
        sig: &[u8],
    ) -> Option<bool> {
        let (import, params) = sig_params(algorithm).ok()?;
        let usages = Array::of1(&JsValue::from_str("verify"));
        let p = self
            .subtle
            .import_key("spki", &Uint8Array::from(spki), &import, false, &usages)
            .ok()?;
        let key = awaited(&p).await.ok()?;
        let p = self
            .subtle
            .verify(
                &params,
                &key,
                &Uint8Array::from(sig),
                &Uint8Array::from(message),
            )
            .ok()?;
        awaited(&p).await.ok()?.as_bool()
    }
}

/// DER `Ecdsa-Sig-Value` → fixed-size `r || s`. Strict (burrow-der): minimal lengths and
/// INTEGERs, positive and nonzero, each at most `n` bytes, nothing trailing (`None` otherwise:
/// the signature is refused).
pub fn der_to_p1363(der: &[u8], n: usize) -> Option<Vec<u8>> {
    let (r, s) = Reader::new(der)
        .exactly(|d| {
            d.nested(tag::SEQUENCE, |v| {
                Ok((v.read_unsigned_integer()?, v.read_unsigned_integer()?))
            })
        })
        .ok()?;
    if r.len() > n || s.len() > n || r == [0] || s == [0] {
        return None;
    }
    let mut out = vec![0u8; n.checked_mul(2)?];
    out.get_mut(n.checked_sub(r.len())?..n)?.copy_from_slice(r);
    out.get_mut(n.checked_mul(2)?.checked_sub(s.len())?..)?
        .copy_from_slice(s);
    Some(out)
}

/// Fixed-size IEEE P1363 `r || s` (what WebCrypto's ECDSA signs) → DER `Ecdsa-Sig-Value`
/// (what TLS sends): each half a minimal positive INTEGER. `None` when `sig` is not `2 * n`
/// bytes or a half is zero (no valid signature has one).
pub fn p1363_to_der(sig: &[u8], n: usize) -> Option<Vec<u8>> {
    if sig.len() != n.checked_mul(2)? {
        return None;
    }
    let (r, s) = sig.split_at(n);
    let mut body = Vec::with_capacity(sig.len().saturating_add(6));
    for half in [r, s] {
        let skip = half.iter().take_while(|b| **b == 0).count();
        let magnitude = half.get(skip..)?;
        let top = *magnitude.first()?;
        // A set top bit would read as negative: a zero octet goes first.
        let pad = usize::from(top >= 0x80);
        body.push(tag::INTEGER);
        der_length(magnitude.len().checked_add(pad)?, &mut body);
        if pad == 1 {
            body.push(0);
        }
        body.extend_from_slice(magnitude);
    }
    let mut out = vec![tag::SEQUENCE];
    der_length(body.len(), &mut out);
    out.extend_from_slice(&body);
    Some(out)
}

/// A DER length (definite, minimal); a signature's lengths fit in two octets.
fn der_length(n: usize, out: &mut Vec<u8>) {
    match u8::try_from(n) {
        Ok(b) if b < 0x80 => out.push(b),
        Ok(b) => out.extend([0x81, b]),
        Err(_) => {
            let [hi, lo] = u16::try_from(n).unwrap_or(u16::MAX).to_be_bytes();
            out.extend([0x82, hi, lo]);
        }
    }
}

/// burrow-crypto's RSA policy (2048..=8192-bit moduli), applied before WebCrypto sees the key
/// (which would accept smaller ones). Other keys pass.
fn rsa_size_ok(key: &PublicKeyInfo<'_>) -> Result<(), CryptoError> {
    let KeyKind::Rsa { modulus_bits, .. } = key.kind() else {
        return Ok(());
    };
    if modulus_bits < burrow_crypto::sig::MIN_RSA_BITS {
        return Err(CryptoError::KeyTooSmall);
    }
    if modulus_bits > burrow_crypto::sig::MAX_RSA_BITS {
        return Err(CryptoError::KeyTooLarge);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One DER element (test input only; lengths below 64 KiB). burrow-der's writer is not a
    /// dependency of this crate's tests.
    fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
        let [hi, lo] = u16::try_from(body.len()).unwrap().to_be_bytes();
        let mut v = vec![tag];
        match (hi, lo) {
            (0, 0..=0x7f) => v.push(lo),
            (0, _) => v.extend([0x81, lo]),
            _ => v.extend([0x82, hi, lo]),
        }
        v.extend_from_slice(body);
        v
    }

    fn ecdsa_sig(r: &[u8], s: &[u8]) -> Vec<u8> {
        tlv(0x30, &[tlv(0x02, r), tlv(0x02, s)].concat())
    }

    #[test]
    fn p1363_pads_and_strips_the_sign_octet() {
        let sig = ecdsa_sig(&[0x00, 0x80, 0x01], &[0x05]);
        let out = der_to_p1363(&sig, 4).unwrap();
        assert_eq!(out, [0, 0, 0x80, 0x01, 0, 0, 0, 0x05]);
    }

    #[test]
    fn p1363_refuses_what_is_not_strict_der() {
        let ok = ecdsa_sig(&[0x01], &[0x02]);
        assert!(der_to_p1363(&ok, 32).is_some());
        // Non-minimal INTEGER, negative, zero, too long for the curve, trailing data, and a
        // non-minimal length on the SEQUENCE.
        for bad in [
            ecdsa_sig(&[0x00, 0x01], &[0x02]),
            ecdsa_sig(&[0x81], &[0x02]),
            ecdsa_sig(&[0x00], &[0x02]),
            ecdsa_sig(&[0x01; 33], &[0x02]),
            [ok.clone(), vec![0]].concat(),
            [&[0x30, 0x81, 0x06][..], &ok[2..]].concat(),
        ] {
            assert_eq!(der_to_p1363(&bad, 32), None, "{bad:02x?}");
        }
    }

    #[test]
    fn p1363_to_der_is_strict_der_and_round_trips() {
        // Leading zeros stripped, a top bit padded, both at once.
        let sig = [[0, 0, 0x80, 0x01], [0x7f, 0, 0, 5]].concat();
        let der = p1363_to_der(&sig, 4).unwrap();
        assert_eq!(
            der,
            ecdsa_sig(&[0x00, 0x80, 0x01], &[0x7f, 0, 0, 5]),
            "{der:02x?}"
        );
        assert_eq!(der_to_p1363(&der, 4).unwrap(), sig);
        // P-256 and P-384 sizes with every half's top bit set (the longest encodings).
        for n in [32, 48] {
            let full = vec![0xff; 2 * n];
            let der = p1363_to_der(&full, n).unwrap();
            assert_eq!(der.len(), 2 + 2 * (2 + 1 + n));
            assert_eq!(der_to_p1363(&der, n).unwrap(), full);
            let small = [vec![0; n - 1], vec![1], vec![0; n - 1], vec![2]].concat();
            assert_eq!(p1363_to_der(&small, n).unwrap(), ecdsa_sig(&[1], &[2]));
        }
        // A P-521-sized signature needs the long form of the SEQUENCE's length.
        let long = vec![0x80; 132];
        let der = p1363_to_der(&long, 66).unwrap();
        assert_eq!(&der[..2], &[0x30, 0x81]);
        assert_eq!(der_to_p1363(&der, 66).unwrap(), long);
        // Wrong length, or a zero half: refused.
        assert_eq!(p1363_to_der(&[1; 63], 32), None);
        assert_eq!(p1363_to_der(&[[0; 32], [1; 32]].concat(), 32), None);
        assert_eq!(p1363_to_der(&[[1; 32], [0; 32]].concat(), 32), None);
    }

    fn rsa_spki(modulus: &[u8]) -> Vec<u8> {
        // rsaEncryption with NULL parameters.
        let alg = tlv(
            0x30,
            &[
                tlv(
                    0x06,
                    &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01],
                ),
                vec![0x05, 0x00],
            ]
            .concat(),
        );
        let key = tlv(
            0x30,
            &[tlv(0x02, modulus), tlv(0x02, &[0x01, 0x00, 0x01])].concat(),
        );
        tlv(
            0x30,
            &[alg, tlv(0x03, &[&[0x00][..], &key].concat())].concat(),
        )
    }

    #[test]
    fn rsa_size_policy_before_webcrypto() {
        let size = |n: &[u8]| rsa_size_ok(&PublicKeyInfo::parse(&rsa_spki(n))?);
        let mut n2048 = vec![0x00, 0x80];
        n2048.extend([0x11; 255]);
        assert_eq!(size(&n2048), Ok(()));
        let mut n2047 = vec![0x7f];
        n2047.extend([0x11; 255]);
        assert_eq!(size(&n2047), Err(CryptoError::KeyTooSmall));
        let mut n8193 = vec![0x01];
        n8193.extend([0x11; 1024]);
        assert_eq!(size(&n8193), Err(CryptoError::KeyTooLarge));
        // A non-minimal modulus (redundant zero octet) is not DER.
        let mut padded = vec![0x00, 0x00, 0x80];
        padded.extend([0x11; 255]);
        assert_eq!(size(&padded), Err(CryptoError::BadEncoding));
    }
}
