//! The TLS 1.3 key schedule (RFC 8446 §7). Every secret it returns is a [`Secret`].

use crate::secret::Secret;
use crate::suites::Suite;
use crate::Error;
use burrow_crypto::hash::{self, HashAlgorithm, Output};
use burrow_crypto::{hkdf, hmac};

const ZEROS: [u8; 64] = [0u8; 64];

fn zeros(h: HashAlgorithm) -> &'static [u8] {
    ZEROS.get(..h.output_len()).unwrap_or(&[])
}

/// Early Secret = HKDF-Extract(0, PSK or 0).
pub(crate) fn early_secret(h: HashAlgorithm, psk: Option<&[u8]>) -> Secret {
    Secret::from(hkdf::extract(h, zeros(h), psk.unwrap_or(zeros(h))))
}

/// Derive-Secret.
pub(crate) fn derive(
    h: HashAlgorithm,
    secret: &[u8],
    label: &[u8],
    transcript_hash: &[u8],
) -> Result<Secret, Error> {
    hkdf::try_derive_secret(h, secret, label, transcript_hash)
        .map(Secret::from)
        .map_err(|_| Error::Internal)
}

/// The next stage: HKDF-Extract(Derive-Secret(prev, "derived", ""), ikm or 0).
pub(crate) fn next_stage(
    h: HashAlgorithm,
    prev: &[u8],
    ikm: Option<&[u8]>,
) -> Result<Secret, Error> {
    let empty = hash::digest(h, &[]);
    let salt = derive(h, prev, b"derived", empty.as_ref())?;
    Ok(Secret::from(hkdf::extract(
        h,
        &salt,
        ikm.unwrap_or(zeros(h)),
    )))
}

/// The record key and IV of one traffic secret (RFC 8446 §7.3).
pub(crate) fn traffic_key_iv(suite: Suite, secret: &[u8]) -> Result<(Secret, [u8; 12]), Error> {
    let mut key = Secret::zeroed(suite.aead.key_len());
    let mut iv = [0u8; 12];
    hkdf::expand_label(suite.hash, secret, b"key", &[], key.as_mut_slice())
        .map_err(|_| Error::Internal)?;
    hkdf::expand_label(suite.hash, secret, b"iv", &[], &mut iv).map_err(|_| Error::Internal)?;
    Ok((key, iv))
}

/// HKDF-Expand-Label(secret, label, context, Hash.length).
pub(crate) fn expand_hash_len(
    h: HashAlgorithm,
    secret: &[u8],
    label: &[u8],
    context: &[u8],
) -> Result<Secret, Error> {
    let mut out = Secret::zeroed(h.output_len());
    hkdf::expand_label(h, secret, label, context, out.as_mut_slice())
        .map_err(|_| Error::Internal)?;
    Ok(out)
}

/// Finished verify_data = HMAC(finished_key(base), transcript_hash).
pub(crate) fn finished_mac(
    h: HashAlgorithm,
    base: &[u8],
    transcript_hash: &[u8],
) -> Result<Output, Error> {
    let key = expand_hash_len(h, base, b"finished", &[])?;
    Ok(hmac::sign(h, &key, transcript_hash))
}

/// Constant-time check of a peer's Finished.
pub(crate) fn check_finished(
    h: HashAlgorithm,
    base: &[u8],
    transcript_hash: &[u8],
    got: &[u8],
) -> Result<(), Error> {
    if let Some(ok) = crate::fuzz_mode::server_finished(got) {
        return if ok { Ok(()) } else { Err(Error::BadFinished) };
    }
    let key = expand_hash_len(h, base, b"finished", &[])?;
    hmac::verify(h, &key, transcript_hash, got).map_err(|_| Error::BadFinished)
}

/// application_traffic_secret_N+1 (RFC 8446 §7.2).
pub(crate) fn next_traffic_secret(h: HashAlgorithm, secret: &[u8]) -> Result<Secret, Error> {
    expand_hash_len(h, secret, b"traffic upd", &[])
}
