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
        })
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
        let mut n = self.iv;
        let s = seq.to_be_bytes();
        for (d, b) in n.iter_mut().skip(4).zip(s.iter()) {
            *d ^= b;
        }
        n
    }

    pub(crate) fn aead(&self) -> &AeadKey {
        &self.key
    }
}
