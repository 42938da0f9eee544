//! TLS 1.2 key derivation through the PRF (RFC 5246 §5, §6.3, §7.4.9; RFC 7627 §4).

use crate::secret::Secret;
use crate::suites::Suite12;
use crate::Error;
use burrow_crypto::prf;

/// The 48-byte master secret: extended (RFC 7627) when `session_hash` is given, else the
/// RFC 5246 form over the two randoms.
pub(crate) fn master_secret(
    suite: Suite12,
    pre_master: &[u8],
    session_hash: Option<&[u8]>,
    client_random: &[u8; 32],
    server_random: &[u8; 32],
) -> Result<Secret, Error> {
    let mut out = Secret::zeroed(48);
    match session_hash {
        Some(h) => prf::tls12(
            suite.hash,
            pre_master,
            b"extended master secret",
            h,
            out.as_mut_slice(),
        ),
        None => {
            let mut seed = client_random.to_vec();
            seed.extend_from_slice(server_random);
            prf::tls12(
                suite.hash,
                pre_master,
                b"master secret",
                &seed,
                out.as_mut_slice(),
            )
        }
    }
    .map_err(|_| Error::Internal)?;
    Ok(out)
}

/// The AEAD key block: (client key, server key, client IV, server IV). The IV is the 4-byte
/// implicit salt for AES-GCM (RFC 5288) and 12 bytes for ChaCha20-Poly1305 (RFC 7905).
pub(crate) struct KeyBlock {
    pub(crate) client_key: Secret,
    pub(crate) server_key: Secret,
    pub(crate) client_iv: Secret,
    pub(crate) server_iv: Secret,
}

pub(crate) fn key_block(
    suite: Suite12,
    master: &[u8],
    client_random: &[u8; 32],
    server_random: &[u8; 32],
) -> Result<KeyBlock, Error> {
    let k = suite.aead.key_len();
    let iv: usize = match suite.aead {
        burrow_crypto::aead::AeadAlgorithm::ChaCha20Poly1305 => 12,
        _ => 4,
    };
    let total = k
        .checked_mul(2)
        .and_then(|a| a.checked_add(iv.checked_mul(2)?))
        .ok_or(Error::Internal)?;
    let mut seed = server_random.to_vec();
    seed.extend_from_slice(client_random);
    let mut block = Secret::zeroed(total);
    prf::tls12(
        suite.hash,
        master,
        b"key expansion",
        &seed,
        block.as_mut_slice(),
    )
    .map_err(|_| Error::Internal)?;
    let (client_key, rest) = block.split_at_checked(k).ok_or(Error::Internal)?;
    let (server_key, rest) = rest.split_at_checked(k).ok_or(Error::Internal)?;
    let (client_iv, server_iv) = rest.split_at_checked(iv).ok_or(Error::Internal)?;
    Ok(KeyBlock {
        client_key: Secret::copy_of(client_key),
        server_key: Secret::copy_of(server_key),
        client_iv: Secret::copy_of(client_iv),
        server_iv: Secret::copy_of(server_iv),
    })
}

/// Finished.verify_data = PRF(master, label, Hash(handshake_messages))[0..12].
pub(crate) fn verify_data(
    suite: Suite12,
    master: &[u8],
    label: &[u8],
    transcript_hash: &[u8],
) -> Result<[u8; 12], Error> {
    let mut out = [0u8; 12];
    prf::tls12(suite.hash, master, label, transcript_hash, &mut out)
        .map_err(|_| Error::Internal)?;
    Ok(out)
}

/// Constant-time equality for Finished.
pub(crate) fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
