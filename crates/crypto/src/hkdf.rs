//! HKDF (RFC 5869) and the TLS 1.3 helpers built on it (RFC 8446 §7.1).

use crate::hash::{HashAlgorithm, Output};
use crate::hmac::Incremental;
use crate::CryptoError;

/// HKDF-Extract: returns the pseudorandom key. An empty salt means a hash-length string of zeros.
pub fn extract(alg: HashAlgorithm, salt: &[u8], ikm: &[u8]) -> Output {
    // An HMAC key shorter than the block is zero-padded, so an empty salt and a hash-length zero
    // salt give the same PRK, as RFC 5869 §2.2 requires.
    crate::hmac::sign(alg, salt, ikm)
}

/// HKDF-Expand: fills `out` (at most 255 hash lengths, else `BadOutputLength`).
pub fn expand(
    alg: HashAlgorithm,
    prk: &[u8],
    info: &[u8],
    out: &mut [u8],
) -> Result<(), CryptoError> {
    let hash_len = alg.output_len();
    let max = hash_len.saturating_mul(255);
    if out.len() > max {
        return Err(CryptoError::BadOutputLength);
    }
    let keyed = Incremental::new(alg, prk);
    let mut previous: Option<Output> = None;
    for (counter, chunk) in (1u8..=255).zip(out.chunks_mut(hash_len)) {
        let mut m = keyed.clone();
        if let Some(prev) = &previous {
            m.update(prev.as_ref());
        }
        m.update(info);
        m.update(&[counter]);
        let block = m.finish();
        for (dst, src) in chunk.iter_mut().zip(block.as_ref()) {
            *dst = *src;
        }
        previous = Some(block);
    }
    Ok(())
}

/// Longest label accepted by [`expand_label`] (255 minus the `"tls13 "` prefix).
pub const MAX_LABEL_LEN: usize = 249;

/// TLS 1.3 HKDF-Expand-Label (RFC 8446 §7.1). `label` is given WITHOUT the `"tls13 "` prefix.
///
/// Fails with `InputTooLong` if the label exceeds [`MAX_LABEL_LEN`] or the context 255 bytes,
/// and `BadOutputLength` if `out` is longer than 65,535 bytes or 255 hash lengths.
pub fn expand_label(
    alg: HashAlgorithm,
    secret: &[u8],
    label: &[u8],
    context: &[u8],
    out: &mut [u8],
) -> Result<(), CryptoError> {
    const PREFIX: &[u8] = b"tls13 ";
    let out_len = u16::try_from(out.len()).map_err(|_| CryptoError::BadOutputLength)?;
    let full_label_len = label
        .len()
        .checked_add(PREFIX.len())
        .and_then(|n| u8::try_from(n).ok())
        .ok_or(CryptoError::InputTooLong)?;
    let context_len = u8::try_from(context.len()).map_err(|_| CryptoError::InputTooLong)?;
    // HkdfLabel: uint16 length, opaque label<7..255>, opaque context<0..255>.
    let mut info = Vec::with_capacity(4usize.saturating_add(255).saturating_add(255));
    info.extend_from_slice(&out_len.to_be_bytes());
    info.push(full_label_len);
    info.extend_from_slice(PREFIX);
    info.extend_from_slice(label);
    info.push(context_len);
    info.extend_from_slice(context);
    expand(alg, secret, &info, out)
}

/// Derive-Secret(secret, label, transcript_hash) with the output checked: `expand_label` to the
/// hash length.
pub fn try_derive_secret(
    alg: HashAlgorithm,
    secret: &[u8],
    label: &[u8],
    transcript_hash: &[u8],
) -> Result<Output, CryptoError> {
    let mut buf = [0u8; 64];
    let out = buf
        .get_mut(..alg.output_len())
        .ok_or(CryptoError::BadOutputLength)?;
    expand_label(alg, secret, label, transcript_hash, out)?;
    Ok(Output::from_slice(out))
}

/// Derive-Secret(secret, label, transcript_hash) (RFC 8446 §7.1): `expand_label` to the hash
/// length.
///
/// Meant for the fixed TLS 1.3 labels and a transcript hash, which can never be too long. If the
/// label is longer than [`MAX_LABEL_LEN`] or `transcript_hash` longer than 255 bytes (a caller
/// bug), the result is all zeros of the hash length; use [`try_derive_secret`] to get an error.
pub fn derive_secret(
    alg: HashAlgorithm,
    secret: &[u8],
    label: &[u8],
    transcript_hash: &[u8],
) -> Output {
    try_derive_secret(alg, secret, label, transcript_hash)
        .unwrap_or_else(|_| Output::zero(alg.output_len()))
}
