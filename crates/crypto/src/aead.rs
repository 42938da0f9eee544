//! AEAD ciphers for TLS: AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305 (12-byte nonce, 16-byte tag).
//!
//! Only the TLS shapes are offered: other nonce or tag sizes are not representable in this API.

use aes_gcm::aead::{AeadInPlace, KeyInit};
use aes_gcm::{Aes128Gcm, Aes256Gcm};
use chacha20poly1305::ChaCha20Poly1305;

use crate::CryptoError;

/// Authentication tag length in bytes.
pub const TAG_LEN: usize = 16;
/// Nonce length in bytes.
pub const NONCE_LEN: usize = 12;

/// The AEAD algorithms TLS 1.2/1.3 use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AeadAlgorithm {
    /// AES-128 in Galois/Counter Mode.
    Aes128Gcm,
    /// AES-256 in Galois/Counter Mode.
    Aes256Gcm,
    /// ChaCha20-Poly1305 (RFC 8439).
    ChaCha20Poly1305,
}

impl AeadAlgorithm {
    /// Key length in bytes (16 or 32).
    pub fn key_len(self) -> usize {
        match self {
            Self::Aes128Gcm => 16,
            Self::Aes256Gcm | Self::ChaCha20Poly1305 => 32,
        }
    }

    /// Nonce length in bytes (always 12).
    pub fn nonce_len(self) -> usize {
        NONCE_LEN
    }

    /// Tag length in bytes (always 16).
    pub fn tag_len(self) -> usize {
        TAG_LEN
    }
}

enum Inner {
    Aes128(Box<Aes128Gcm>),
    Aes256(Box<Aes256Gcm>),
    ChaCha(Box<ChaCha20Poly1305>),
}

/// An expanded AEAD key: build it once per traffic key and reuse it for every record.
pub struct AeadKey {
    alg: AeadAlgorithm,
    inner: Inner,
}

impl core::fmt::Debug for AeadKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AeadKey")
            .field("alg", &self.alg)
            .finish_non_exhaustive()
    }
}

impl AeadKey {
    /// Expands `key`, which must be exactly `alg.key_len()` bytes.
    pub fn new(alg: AeadAlgorithm, key: &[u8]) -> Result<Self, CryptoError> {
        if key.len() != alg.key_len() {
            return Err(CryptoError::BadKeyLength);
        }
        let bad = |_| CryptoError::BadKeyLength;
        let inner = match alg {
            AeadAlgorithm::Aes128Gcm => {
                Inner::Aes128(Box::new(Aes128Gcm::new_from_slice(key).map_err(bad)?))
            }
            AeadAlgorithm::Aes256Gcm => {
                Inner::Aes256(Box::new(Aes256Gcm::new_from_slice(key).map_err(bad)?))
            }
            AeadAlgorithm::ChaCha20Poly1305 => Inner::ChaCha(Box::new(
                ChaCha20Poly1305::new_from_slice(key).map_err(bad)?,
            )),
        };
        Ok(Self { alg, inner })
    }

    /// The algorithm of this key.
    pub fn algorithm(&self) -> AeadAlgorithm {
        self.alg
    }

    fn count(&self) {
        match self.inner {
            Inner::ChaCha(_) => crate::counters::chacha(),
            _ => crate::counters::aes_gcm(),
        }
    }

    /// Encrypts `in_out` in place and returns the tag.
    pub fn seal_in_place(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        in_out: &mut [u8],
    ) -> Result<[u8; TAG_LEN], CryptoError> {
        self.count();
        let n = (*nonce).into();
        let tag = match &self.inner {
            Inner::Aes128(c) => c.encrypt_in_place_detached(&n, aad, in_out),
            Inner::Aes256(c) => c.encrypt_in_place_detached(&n, aad, in_out),
            Inner::ChaCha(c) => c.encrypt_in_place_detached(&n, aad, in_out),
        }
        .map_err(|_| CryptoError::InputTooLong)?;
        Ok(tag.into())
    }

    /// Checks the tag, then decrypts `in_out` in place. On failure the content of `in_out` is
    /// unspecified and must not be used.
    pub fn open_in_place(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), CryptoError> {
        self.count();
        let n = (*nonce).into();
        let t = (*tag).into();
        match &self.inner {
            Inner::Aes128(c) => c.decrypt_in_place_detached(&n, aad, in_out, &t),
            Inner::Aes256(c) => c.decrypt_in_place_detached(&n, aad, in_out, &t),
            Inner::ChaCha(c) => c.decrypt_in_place_detached(&n, aad, in_out, &t),
        }
        .map_err(|_| CryptoError::DecryptFailed)
    }
}

/// Plain-data seal: returns `ciphertext || tag`.
pub fn seal(
    alg: AeadAlgorithm,
    key: &[u8],
    nonce: &[u8; NONCE_LEN],
    aad: &[u8],
    plaintext: &[u8],
) -> Result<Vec<u8>, CryptoError> {
    let k = AeadKey::new(alg, key)?;
    let mut buf = Vec::with_capacity(plaintext.len().saturating_add(TAG_LEN));
    buf.extend_from_slice(plaintext);
    let tag = k.seal_in_place(nonce, aad, &mut buf)?;
    buf.extend_from_slice(&tag);
    Ok(buf)
}

/// Plain-data open of `ciphertext || tag`: returns the plaintext.
pub fn open(
    alg: AeadAlgorithm,
    key: &[u8],
    nonce: &[u8; NONCE_LEN],
    aad: &[u8],
    ciphertext_and_tag: &[u8],
) -> Result<Vec<u8>, CryptoError> {
    let k = AeadKey::new(alg, key)?;
    let split = ciphertext_and_tag
        .len()
        .checked_sub(TAG_LEN)
        .ok_or(CryptoError::DecryptFailed)?;
    let (ct, tag) = ciphertext_and_tag
        .split_at_checked(split)
        .ok_or(CryptoError::DecryptFailed)?;
    let tag: [u8; TAG_LEN] = tag.try_into().map_err(|_| CryptoError::DecryptFailed)?;
    let mut buf = ct.to_vec();
    k.open_in_place(nonce, aad, &mut buf, &tag)?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    /// The expanded keys inside an [`AeadKey`](super::AeadKey) and the ML-KEM private key wipe
    /// themselves when dropped: this stops compiling if the `zeroize` features in Cargo.toml go away.
    #[test]
    fn key_schedules_are_wiped_on_drop() {
        fn wiped_on_drop<T: zeroize::ZeroizeOnDrop>() {}
        wiped_on_drop::<aes::Aes128>();
        wiped_on_drop::<aes::Aes256>();
        wiped_on_drop::<chacha20poly1305::ChaCha20Poly1305>();
        wiped_on_drop::<ml_kem::kem::DecapsulationKey<ml_kem::MlKem768Params>>();
        // x25519-dalek's `zeroize` feature derives `Zeroize` and, with `#[zeroize(drop)]`, a
        // wiping `Drop`, but not the `ZeroizeOnDrop` marker: `Zeroize` is what the feature shows.
        fn zeroize_feature_on<T: zeroize::Zeroize>() {}
        zeroize_feature_on::<x25519_dalek::StaticSecret>();
        wiped_on_drop::<zeroize::Zeroizing<p256::NonZeroScalar>>();
    }
}
