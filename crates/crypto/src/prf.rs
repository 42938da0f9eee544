//! The TLS 1.2 pseudorandom function (RFC 5246 §5).

use crate::hash::HashAlgorithm;
use crate::hmac::Incremental;
use crate::CryptoError;

/// PRF(secret, label, seed) = P_<hash>(secret, label || seed), filling `out`.
///
/// TLS 1.2 uses SHA-256 (and SHA-384 for `*_SHA384` suites); SHA-512 is accepted as well.
pub fn tls12(
    alg: HashAlgorithm,
    secret: &[u8],
    label: &[u8],
    seed: &[u8],
    out: &mut [u8],
) -> Result<(), CryptoError> {
    let keyed = Incremental::new(alg, secret);
    // A(1) = HMAC(secret, label || seed)
    let mut a = {
        let mut m = keyed.clone();
        m.update(label);
        m.update(seed);
        m.finish()
    };
    for chunk in out.chunks_mut(alg.output_len()) {
        let mut m = keyed.clone();
        m.update(a.as_ref());
        m.update(label);
        m.update(seed);
        let block = m.finish();
        for (dst, src) in chunk.iter_mut().zip(block.as_ref()) {
            *dst = *src;
        }
        let mut next = keyed.clone();
        next.update(a.as_ref());
        a = next.finish();
    }
    Ok(())
}
