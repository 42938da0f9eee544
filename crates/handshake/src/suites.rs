//! The TLS 1.3 and TLS 1.2 cipher suites burrow implements.

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

/// Who signs a TLS 1.2 ECDHE ServerKeyExchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Auth {
    Ecdsa,
    Rsa,
}

/// A TLS 1.2 suite: always ECDHE with an AEAD; `hash` is the PRF and transcript hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Suite12 {
    pub(crate) id: CipherSuite,
    pub(crate) aead: AeadAlgorithm,
    pub(crate) hash: HashAlgorithm,
    pub(crate) auth: Auth,
}

/// The TLS 1.2 suites burrow implements (ECDHE + AES-GCM / ChaCha20-Poly1305 only: no CBC,
/// no RSA key transport, no static DH).
pub(crate) fn lookup12(id: CipherSuite) -> Option<Suite12> {
    use AeadAlgorithm as A;
    use HashAlgorithm as H;
    let (aead, hash, auth) = match id {
        CipherSuite::ECDHE_ECDSA_AES_128_GCM_SHA256 => (A::Aes128Gcm, H::Sha256, Auth::Ecdsa),
        CipherSuite::ECDHE_ECDSA_AES_256_GCM_SHA384 => (A::Aes256Gcm, H::Sha384, Auth::Ecdsa),
        CipherSuite::ECDHE_ECDSA_CHACHA20_POLY1305_SHA256 => {
            (A::ChaCha20Poly1305, H::Sha256, Auth::Ecdsa)
        }
        CipherSuite::ECDHE_RSA_AES_128_GCM_SHA256 => (A::Aes128Gcm, H::Sha256, Auth::Rsa),
        CipherSuite::ECDHE_RSA_AES_256_GCM_SHA384 => (A::Aes256Gcm, H::Sha384, Auth::Rsa),
        CipherSuite::ECDHE_RSA_CHACHA20_POLY1305_SHA256 => {
            (A::ChaCha20Poly1305, H::Sha256, Auth::Rsa)
        }
        _ => return None,
    };
    Some(Suite12 {
        id,
        aead,
        hash,
        auth,
    })
}

/// Whether a profile offers TLS 1.2 (lists at least one suite burrow implements for 1.2).
pub(crate) fn offers_tls12(suites: &[CipherSuite]) -> bool {
    suites.iter().any(|s| lookup12(*s).is_some())
}

/// Whether a profile offers TLS 1.3.
pub(crate) fn offers_tls13(suites: &[CipherSuite]) -> bool {
    suites.iter().any(|s| lookup(*s).is_some())
}
