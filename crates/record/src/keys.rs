//! One direction's traffic protection state: key, IV, sequence number (RFC 8446 §5.3).

use crate::RecordError;
use burrow_crypto::aead::{AeadAlgorithm, AeadKey};

/// AEAD tag length in bytes.
pub const TAG_LEN: usize = 16;

/// Key, static IV and next sequence number for one direction.
pub struct TrafficKeys {
    key: AeadKey,
    iv: [u8; 12],
    seq: u64,
    key_id: u32,
    tls12: Option<Tls12Nonce>,
}

/// How a TLS 1.2 record's nonce is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tls12Nonce {
    /// AES-GCM (RFC 5288): 4-byte implicit salt || 8-byte explicit nonce carried in the record
    /// (we send the sequence number).
    ExplicitGcm,
    /// ChaCha20-Poly1305 (RFC 7905): the 12-byte IV XOR the padded sequence number, nothing sent.
    ChaCha,
}

impl core::fmt::Debug for TrafficKeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TrafficKeys")
            .field("alg", &self.key.algorithm())
            .field("seq", &self.seq)
            .field("key_id", &self.key_id)
            .finish_non_exhaustive()
    }
}

impl TrafficKeys {
    /// Builds keys from raw key bytes and the 12-byte IV. `key_id` names the key in offloaded
    /// AEAD jobs (the caller imports the key once under that id).
    pub fn new(
        alg: AeadAlgorithm,
        key: &[u8],
        iv: &[u8],
        key_id: u32,
    ) -> Result<Self, RecordError> {
        let key = AeadKey::new(alg, key).map_err(|_| RecordError::BadKey)?;
        let iv: [u8; 12] = iv.try_into().map_err(|_| RecordError::BadKey)?;
        Ok(Self {
            key,
            iv,
            seq: 0,
            key_id,
            tls12: None,
        })
    }

    /// TLS 1.2 keys (RFC 5246 §6.3 key block): AES-GCM takes the 4-byte implicit salt
    /// (`client/server_write_IV`), ChaCha20-Poly1305 the 12-byte IV. Records protected with these
    /// keys carry their real content type outside, no inner type, and a 13-byte AAD
    /// (`seq || type || version || length`).
    pub fn new_tls12(
        alg: AeadAlgorithm,
        key: &[u8],
        iv: &[u8],
        key_id: u32,
    ) -> Result<Self, RecordError> {
        let key = AeadKey::new(alg, key).map_err(|_| RecordError::BadKey)?;
        let (iv, mode) = match alg {
            AeadAlgorithm::ChaCha20Poly1305 => (
                <[u8; 12]>::try_from(iv).map_err(|_| RecordError::BadKey)?,
                Tls12Nonce::ChaCha,
            ),
            _ => {
                let salt: [u8; 4] = iv.try_into().map_err(|_| RecordError::BadKey)?;
                let mut full = [0u8; 12];
                for (d, b) in full.iter_mut().zip(salt) {
                    *d = b;
                }
                (full, Tls12Nonce::ExplicitGcm)
            }
        };
        Ok(Self {
            key,
            iv,
            seq: 0,
            key_id,
            tls12: Some(mode),
        })
    }

    /// Whether these are TLS 1.2 keys.
    pub fn is_tls12(&self) -> bool {
        self.tls12.is_some()
    }

    pub(crate) fn tls12_mode(&self) -> Option<Tls12Nonce> {
        self.tls12
    }

    /// TLS 1.2: the current sequence number (advanced) and the nonce for it; GCM takes the
    /// explicit part from `explicit` (reading) or uses the sequence number (writing, `None`).
    pub(crate) fn next_tls12(
        &mut self,
        explicit: Option<[u8; 8]>,
    ) -> Result<(u64, [u8; 12]), RecordError> {
        let seq = self.seq;
        let nonce = match self.tls12 {
            Some(Tls12Nonce::ExplicitGcm) => {
                let mut n = self.iv;
                let e = explicit.unwrap_or(seq.to_be_bytes());
                for (d, b) in n.iter_mut().skip(4).zip(e.iter()) {
                    *d = *b;
                }
                n
            }
            _ => self.nonce_for(seq),
        };
        self.seq = self
            .seq
            .checked_add(1)
            .ok_or(RecordError::SequenceExhausted)?;
        Ok((seq, nonce))
    }

    /// The cipher.
    pub fn algorithm(&self) -> AeadAlgorithm {
        self.key.algorithm()
    }

    /// The id given at construction.
    pub fn key_id(&self) -> u32 {
        self.key_id
    }

    /// The sequence number the next record will use.
    pub fn sequence(&self) -> u64 {
        self.seq
    }

    /// The per-record nonce for the current sequence number, and advances it.
    pub(crate) fn next_nonce(&mut self) -> Result<[u8; 12], RecordError> {
        let nonce = self.nonce_for(self.seq);
        self.seq = self
            .seq
            .checked_add(1)
            .ok_or(RecordError::SequenceExhausted)?;
        Ok(nonce)
    }

    fn nonce_for(&self, seq: u64) -> [u8; 12] {
        // The sequence number, big-endian, XORed into the IV's last 8 bytes: one 64-bit XOR.
        let [a, b, c, d, tail @ ..] = self.iv;
        let low = (u64::from_be_bytes(tail) ^ seq).to_be_bytes();
        let [e, f, g, h, i, j, k, l] = low;
        [a, b, c, d, e, f, g, h, i, j, k, l]
    }

    pub(crate) fn aead(&self) -> &AeadKey {
        &self.key
    }
}
