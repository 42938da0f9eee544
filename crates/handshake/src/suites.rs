//! The TLS 1.3 cipher suites burrow implements.

use crate::CipherSuite;
use burrow_crypto::aead::AeadAlgorithm;
use burrow_crypto::hash::HashAlgorithm;

/// A cipher suite's AEAD and hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Suite {
    pub(crate) id: CipherSuite,
    pub(crate) aead: AeadAlgorithm,
    pub(crate) hash: HashAlgorithm,
}

pub(crate) fn lookup(id: CipherSuite) -> Option<Suite> {
    let (aead, hash) = match id {
        CipherSuite::TLS13_AES_128_GCM_SHA256 => (AeadAlgorithm::Aes128Gcm, HashAlgorithm::Sha256),
        CipherSuite::TLS13_AES_256_GCM_SHA384 => (AeadAlgorithm::Aes256Gcm, HashAlgorithm::Sha384),
        CipherSuite::TLS13_CHACHA20_POLY1305_SHA256 => {
            (AeadAlgorithm::ChaCha20Poly1305, HashAlgorithm::Sha256)
        }
        _ => return None,
    };
    Some(Suite { id, aead, hash })
}
