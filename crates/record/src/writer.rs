//! Records out: fragmentation, TLS 1.3 inner plaintext, sealing (inline or as jobs).

use crate::{
    Aad, ContentType, Header, ProtocolVersion, RecordError, Tls12Nonce, TrafficKeys, MAX_PLAINTEXT,
    TAG_LEN,
};

/// An AEAD seal the caller must perform in `out`: encrypt `out[start..start + len]` in place
/// and write the 16-byte tag at `out[start + len..start + len + 16]` (zeros until then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SealJob {
    /// Which traffic key.
    pub key_id: u32,
    /// The per-record nonce.
    pub nonce: [u8; 12],
    /// The additional data (TLS 1.3: the record header; TLS 1.2: 13 bytes).
    pub aad: Aad,
    /// Where the inner plaintext starts in the output buffer.
    pub start: usize,
    /// Inner plaintext length (TLS 1.3: content + type byte + padding; TLS 1.2: content).
    pub len: usize,
}

/// Writes TLS records.
#[derive(Debug)]
pub struct RecordWriter {
    keys: Option<TrafficKeys>,
    offload: bool,
    plain_version: ProtocolVersion,
    max_inner: usize,
}

impl Default for RecordWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl RecordWriter {
    /// A writer with no keys, inline AEAD, `legacy_record_version` 0x0303.
    pub fn new() -> Self {
        Self {
            keys: None,
            offload: false,
            plain_version: ProtocolVersion::TLS12,
            max_inner: MAX_PLAINTEXT + 1,
        }
    }

    /// Installs (or removes) our traffic keys.
    pub fn set_keys(&mut self, keys: Option<TrafficKeys>) {
        self.keys = keys;
    }

    /// The current keys, if any.
    pub fn keys(&self) -> Option<&TrafficKeys> {
        self.keys.as_ref()
    }

    /// In offload mode sealing is left to the caller as [`SealJob`]s.
    pub fn set_offload(&mut self, offload: bool) {
        self.offload = offload;
    }

    /// `legacy_record_version` of unprotected records (0x0301 is allowed for the first
    /// ClientHello, RFC 8446 §5.1).
    pub fn set_plain_version(&mut self, v: ProtocolVersion) {
        self.plain_version = v;
    }

    /// Applies the peer's record_size_limit (RFC 8449): the largest TLSInnerPlaintext we send.
    /// Values below 64 are clamped to 64 (the RFC's minimum), above 2^14 + 1 to that.
    pub fn set_peer_record_size_limit(&mut self, limit: u16) {
        self.max_inner = usize::from(limit).clamp(64, MAX_PLAINTEXT + 1);
    }

    /// Writes `data` as one or more records of type `ct` into `out`. Returns the seal jobs to
    /// perform (offload mode; empty otherwise). Empty application data writes nothing.
    pub fn write(
        &mut self,
        ct: ContentType,
        data: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<Vec<SealJob>, RecordError> {
        self.write_parts(ct, &[data], out)
    }

    /// [`write`](Self::write) of the concatenation of `parts`, without making it: records are
    /// filled from the parts in order, so the records (boundaries, contents, nonces) are those
    /// `write` makes of the concatenation, and each byte is copied once, into `out`, where it is
    /// sealed in place. Parts may be empty.
    pub fn write_parts(
        &mut self,
        ct: ContentType,
        parts: &[&[u8]],
        out: &mut Vec<u8>,
    ) -> Result<Vec<SealJob>, RecordError> {
        let mut jobs = Vec::new();
        let total = parts
            .iter()
            .try_fold(0usize, |a, p| a.checked_add(p.len()))
            .ok_or(RecordError::BadSend)?;
        if total == 0 {
            if ct == ContentType::APPLICATION_DATA {
                return Ok(jobs);
            }
            return Err(RecordError::BadSend);
        }
        let protected = self.keys.is_some();
        let max_content = if protected {
            self.max_inner.saturating_sub(1)
        } else {
            self.max_inner.min(MAX_PLAINTEXT)
        }
        .max(1);
        let mut src = Gather::new(parts);
        let mut left = total;
        while left > 0 {
            let n = left.min(max_content);
            left = left.saturating_sub(n);
            if protected {
                if let Some(job) = self.seal_one(ct, n, &mut src, out)? {
                    jobs.push(job);
                }
            } else {
                let h = Header {
                    content_type: ct,
                    version: self.plain_version,
                    len: u16::try_from(n).map_err(|_| RecordError::BadSend)?,
                };
                out.extend_from_slice(&h.encode());
                src.copy_into(n, out)?;
            }
        }
        Ok(jobs)
    }

    /// Seals the next `n` bytes of `src` as one record.
    fn seal_one(
        &mut self,
        ct: ContentType,
        n: usize,
        src: &mut Gather<'_, '_>,
        out: &mut Vec<u8>,
    ) -> Result<Option<SealJob>, RecordError> {
        let keys = self.keys.as_mut().ok_or(RecordError::BadSend)?;
        if let Some(mode) = keys.tls12_mode() {
            return seal_tls12(keys, mode, ct, n, src, out, self.offload);
        }
        let inner_len = n.checked_add(1).ok_or(RecordError::BadSend)?;
        let rec_len = inner_len.checked_add(TAG_LEN).ok_or(RecordError::BadSend)?;
        let h = Header {
            content_type: ContentType::APPLICATION_DATA,
            version: ProtocolVersion::TLS12,
            len: u16::try_from(rec_len).map_err(|_| RecordError::BadSend)?,
        };
        let aad = h.encode();
        let nonce = keys.next_nonce()?;
        out.extend_from_slice(&aad);
        let start = out.len();
        src.copy_into(n, out)?;
        out.push(ct.0);
        if self.offload {
            out.extend_from_slice(&[0u8; TAG_LEN]);
            return Ok(Some(SealJob {
                key_id: keys.key_id(),
                nonce,
                aad: Aad::header(aad),
                start,
                len: inner_len,
            }));
        }
        let body = out.get_mut(start..).ok_or(RecordError::BadSend)?;
        let tag = keys
            .aead()
            .seal_in_place(&nonce, &aad, body)
            .map_err(|_| RecordError::BadSend)?;
        out.extend_from_slice(&tag);
        Ok(None)
    }
}

/// A cursor over the parts of a gather write.
struct Gather<'p, 'a> {
    parts: &'p [&'a [u8]],
    /// Bytes of `parts[0]` already taken.
    off: usize,
}

impl<'p, 'a> Gather<'p, 'a> {
    fn new(parts: &'p [&'a [u8]]) -> Self {
        Self { parts, off: 0 }
    }

    /// Appends the next `n` bytes to `out` (an error if the parts hold fewer).
    fn copy_into(&mut self, mut n: usize, out: &mut Vec<u8>) -> Result<(), RecordError> {
        while n > 0 {
            let (first, rest) = self.parts.split_first().ok_or(RecordError::BadSend)?;
            let avail = first.get(self.off..).unwrap_or_default();
            let k = avail.len().min(n);
            out.extend_from_slice(avail.get(..k).unwrap_or_default());
            n = n.saturating_sub(k);
            self.off = self.off.saturating_add(k);
            if self.off >= first.len() {
                self.parts = rest;
                self.off = 0;
            }
        }
        Ok(())
    }
}

/// TLS 1.2 AEAD record (RFC 5246 §6.2.3.3): `type || 0303 || len || [explicit nonce] ||
/// ciphertext || tag`, AAD = `seq || type || 0303 || plaintext length`.
fn seal_tls12(
    keys: &mut TrafficKeys,
    mode: Tls12Nonce,
    ct: ContentType,
    n: usize,
    src: &mut Gather<'_, '_>,
    out: &mut Vec<u8>,
    offload: bool,
) -> Result<Option<SealJob>, RecordError> {
    let (seq, nonce) = keys.next_tls12(None)?;
    let explicit: &[u8] = match mode {
        Tls12Nonce::ExplicitGcm => nonce.get(4..).ok_or(RecordError::BadSend)?,
        Tls12Nonce::ChaCha => &[],
    };
    let plen = u16::try_from(n).map_err(|_| RecordError::BadSend)?;
    let rec_len = n
        .checked_add(explicit.len())
        .and_then(|n| n.checked_add(TAG_LEN))
        .ok_or(RecordError::BadSend)?;
    let h = Header {
        content_type: ct,
        version: ProtocolVersion::TLS12,
        len: u16::try_from(rec_len).map_err(|_| RecordError::BadSend)?,
    };
    let aad = tls12_aad(seq, ct, plen);
    out.extend_from_slice(&h.encode());
    out.extend_from_slice(explicit);
    let start = out.len();
    src.copy_into(n, out)?;
    if offload {
        out.extend_from_slice(&[0u8; TAG_LEN]);
        return Ok(Some(SealJob {
            key_id: keys.key_id(),
            nonce,
            aad: Aad::tls12(aad),
            start,
            len: n,
        }));
    }
    let body = out.get_mut(start..).ok_or(RecordError::BadSend)?;
    let tag = keys
        .aead()
        .seal_in_place(&nonce, &aad, body)
        .map_err(|_| RecordError::BadSend)?;
    out.extend_from_slice(&tag);
    Ok(None)
}

/// The 13-byte TLS 1.2 AEAD additional data.
pub(crate) fn tls12_aad(seq: u64, ct: ContentType, plen: u16) -> [u8; 13] {
    let mut a = [0u8; 13];
    let parts = seq
        .to_be_bytes()
        .into_iter()
        .chain([ct.0, 3, 3])
        .chain(plen.to_be_bytes());
    for (d, b) in a.iter_mut().zip(parts) {
        *d = b;
    }
    a
}
