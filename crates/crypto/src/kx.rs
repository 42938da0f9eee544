//! Key exchange for the TLS `key_share` extension: X25519, P-256, P-384, P-521 and
//! X25519MLKEM768.

use p256::elliptic_curve::sec1::ToEncodedPoint;
use zeroize::Zeroizing;

use crate::mlkem;
use crate::CryptoError;

/// The named groups burrow offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// X25519 (RFC 7748).
    X25519,
    /// NIST P-256 (secp256r1).
    Secp256r1,
    /// NIST P-384 (secp384r1).
    Secp384r1,
    /// NIST P-521 (secp521r1).
    Secp521r1,
    /// Hybrid ML-KEM-768 + X25519 (codepoint 0x11ec).
    X25519MlKem768,
}

impl Group {
    /// The TLS NamedGroup codepoint.
    pub fn codepoint(self) -> u16 {
        match self {
            Self::X25519 => 0x001d,
            Self::Secp256r1 => 0x0017,
            Self::Secp384r1 => 0x0018,
            Self::Secp521r1 => 0x0019,
            Self::X25519MlKem768 => 0x11ec,
        }
    }

    /// The group for a TLS NamedGroup codepoint, if burrow implements it.
    pub fn from_codepoint(codepoint: u16) -> Option<Self> {
        match codepoint {
            0x001d => Some(Self::X25519),
            0x0017 => Some(Self::Secp256r1),
            0x0018 => Some(Self::Secp384r1),
            0x0019 => Some(Self::Secp521r1),
            0x11ec => Some(Self::X25519MlKem768),
            _ => None,
        }
    }

    /// Bytes of caller-supplied randomness [`KeyShare::from_seed`] takes.
    pub fn seed_len(self) -> usize {
        match self {
            Self::X25519 | Self::Secp256r1 => 32,
            Self::Secp384r1 => 48,
            Self::Secp521r1 => 66,
            Self::X25519MlKem768 => mlkem::SEED_LEN + 32,
        }
    }

    /// Length of the peer's (server's) key share in bytes.
    pub fn peer_share_len(self) -> usize {
        match self {
            Self::X25519 => 32,
            Self::Secp256r1 => 65,
            Self::Secp384r1 => 97,
            Self::Secp521r1 => 133,
            Self::X25519MlKem768 => mlkem::CIPHERTEXT_LEN + 32,
        }
    }
}

/// A private key share; every variant wipes itself when dropped (x25519-dalek and ml-kem with
/// their `zeroize` features, the NIST scalars through `Zeroizing`). Cloneable only in fuzzer
/// mode, for [`fuzz_memo`]: elsewhere a private key has exactly one owner.
#[cfg_attr(fuzzing, derive(Clone))]
enum Secret {
    X25519(x25519_dalek::StaticSecret),
    P256(Zeroizing<p256::NonZeroScalar>),
    P384(Zeroizing<p384::NonZeroScalar>),
    P521(Zeroizing<p521::NonZeroScalar>),
    Hybrid {
        kem: Box<mlkem::DecapsulationKey>,
        x25519: x25519_dalek::StaticSecret,
    },
}

/// A client's private key share for one group.
#[cfg_attr(fuzzing, derive(Clone))]
pub struct KeyShare {
    group: Group,
    secret: Secret,
    public: Vec<u8>,
    /// What the share was made from: the key of the fuzzer-mode agreement memo (the public key
    /// alone is not: two ML-KEM seeds differing only in `z` share it and differ on a bad
    /// ciphertext).
    #[cfg(fuzzing)]
    seed: Zeroizing<Vec<u8>>,
}

impl core::fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyShare")
            .field("group", &self.group)
            .finish_non_exhaustive()
    }
}

/// A shared secret from key exchange; wiped from memory when dropped.
pub struct SharedSecret(Zeroizing<Vec<u8>>);

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl core::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SharedSecret({} bytes)", self.0.len())
    }
}

fn x25519_secret(seed: &[u8]) -> Result<x25519_dalek::StaticSecret, CryptoError> {
    let bytes: [u8; 32] = seed.try_into().map_err(|_| CryptoError::BadKeyLength)?;
    Ok(x25519_dalek::StaticSecret::from(bytes))
}

fn x25519_dh(
    secret: &x25519_dalek::StaticSecret,
    peer: &[u8],
) -> Result<Zeroizing<[u8; 32]>, CryptoError> {
    let peer: [u8; 32] = peer.try_into().map_err(|_| CryptoError::InvalidPublicKey)?;
    let shared = secret.diffie_hellman(&x25519_dalek::PublicKey::from(peer));
    if !shared.was_contributory() {
        return Err(CryptoError::AllZeroSharedSecret);
    }
    Ok(Zeroizing::new(shared.to_bytes()))
}

/// Checks the TLS UncompressedPointRepresentation shape: 0x04 || X || Y of the exact length.
fn check_uncompressed(peer: &[u8], len: usize) -> Result<(), CryptoError> {
    if peer.len() != len || peer.first() != Some(&0x04) {
        return Err(CryptoError::InvalidPublicKey);
    }
    Ok(())
}

impl KeyShare {
    /// Builds the key share deterministically from caller-supplied randomness of exactly
    /// `group.seed_len()` bytes. X25519: the seed is the private key. P-256/P-384: the seed is the
    /// big-endian scalar (0 and values >= n are refused with `InvalidPrivateKey`; draw again).
    /// P-521: the same over 66 bytes whose top 7 bits are cleared first (a 521-bit scalar), so
    /// that a uniformly random seed is almost never refused.
    /// X25519MLKEM768: ML-KEM `d || z` (64 bytes) then the X25519 private key (32 bytes).
    pub fn from_seed(group: Group, seed: &[u8]) -> Result<Self, CryptoError> {
        #[cfg(fuzzing)]
        return fuzz_memo::from_seed(group, seed);
        #[cfg(not(fuzzing))]
        Self::derive(group, seed)
    }

    /// [`KeyShare::from_seed`]'s work: the private key from the seed, the public key from it.
    fn derive(group: Group, seed: &[u8]) -> Result<Self, CryptoError> {
        if seed.len() != group.seed_len() {
            return Err(CryptoError::BadKeyLength);
        }
        let (secret, public) = match group {
            Group::X25519 => {
                let s = x25519_secret(seed)?;
                let p = x25519_dalek::PublicKey::from(&s).as_bytes().to_vec();
                (Secret::X25519(s), p)
            }
            Group::Secp256r1 => {
                let s = p256::SecretKey::from_slice(seed)
                    .map_err(|_| CryptoError::InvalidPrivateKey)?;
                let p = s.public_key().to_encoded_point(false).as_bytes().to_vec();
                (Secret::P256(Zeroizing::new(s.to_nonzero_scalar())), p)
            }
            Group::Secp384r1 => {
                let s = p384::SecretKey::from_slice(seed)
                    .map_err(|_| CryptoError::InvalidPrivateKey)?;
                let p = s.public_key().to_encoded_point(false).as_bytes().to_vec();
                (Secret::P384(Zeroizing::new(s.to_nonzero_scalar())), p)
            }
            Group::Secp521r1 => {
                let mut bytes = Zeroizing::new(seed.to_vec());
                if let Some(top) = bytes.first_mut() {
                    *top &= 0x01;
                }
                let s = p521::SecretKey::from_slice(&bytes)
                    .map_err(|_| CryptoError::InvalidPrivateKey)?;
                let p = s.public_key().to_encoded_point(false).as_bytes().to_vec();
                (Secret::P521(Zeroizing::new(s.to_nonzero_scalar())), p)
            }
            Group::X25519MlKem768 => {
                let (kem_seed, x_seed) = seed
                    .split_at_checked(mlkem::SEED_LEN)
                    .ok_or(CryptoError::BadKeyLength)?;
                let kem = mlkem::DecapsulationKey::from_seed(kem_seed)?;
                let x = x25519_secret(x_seed)?;
                let mut p = Vec::with_capacity(mlkem::ENCAPSULATION_KEY_LEN.saturating_add(32));
                p.extend_from_slice(kem.encapsulation_key());
                p.extend_from_slice(x25519_dalek::PublicKey::from(&x).as_bytes());
                (
                    Secret::Hybrid {
                        kem: Box::new(kem),
                        x25519: x,
                    },
                    p,
                )
            }
        };
        Ok(Self {
            group,
            secret,
            public,
            #[cfg(fuzzing)]
            seed: Zeroizing::new(seed.to_vec()),
        })
    }

    /// The group of this share.
    pub fn group(&self) -> Group {
        self.group
    }

    /// The bytes for the ClientHello `key_share` entry.
    pub fn public_key(&self) -> &[u8] {
        &self.public
    }

    /// Combines with the server's share. Invalid points, wrong lengths, compressed points and
    /// all-zero X25519 results are refused.
    pub fn complete(&self, peer_share: &[u8]) -> Result<SharedSecret, CryptoError> {
        #[cfg(fuzzing)]
        return fuzz_memo::complete(self, peer_share);
        #[cfg(not(fuzzing))]
        self.agree(peer_share)
    }

    /// [`KeyShare::complete`]'s work.
    fn agree(&self, peer_share: &[u8]) -> Result<SharedSecret, CryptoError> {
        let out = match &self.secret {
            Secret::X25519(s) => x25519_dh(s, peer_share)?.to_vec(),
            Secret::P256(s) => {
                check_uncompressed(peer_share, 65)?;
                let pk = p256::PublicKey::from_sec1_bytes(peer_share)
                    .map_err(|_| CryptoError::InvalidPublicKey)?;
                let shared = p256::ecdh::diffie_hellman(&**s, pk.as_affine());
                shared.raw_secret_bytes().to_vec()
            }
            Secret::P384(s) => {
                check_uncompressed(peer_share, 97)?;
                let pk = p384::PublicKey::from_sec1_bytes(peer_share)
                    .map_err(|_| CryptoError::InvalidPublicKey)?;
                let shared = p384::ecdh::diffie_hellman(&**s, pk.as_affine());
                shared.raw_secret_bytes().to_vec()
            }
            Secret::P521(s) => {
                check_uncompressed(peer_share, 133)?;
                let pk = p521::PublicKey::from_sec1_bytes(peer_share)
                    .map_err(|_| CryptoError::InvalidPublicKey)?;
                let shared = p521::ecdh::diffie_hellman(&**s, pk.as_affine());
                shared.raw_secret_bytes().to_vec()
            }
            Secret::Hybrid { kem, x25519 } => {
                if peer_share.len() != self.group.peer_share_len() {
                    return Err(CryptoError::InvalidPublicKey);
                }
                let (ct, x_share) = peer_share
                    .split_at_checked(mlkem::CIPHERTEXT_LEN)
                    .ok_or(CryptoError::InvalidPublicKey)?;
                let x_ss = x25519_dh(x25519, x_share)?;
                let k_ss = kem.decapsulate(ct)?;
                let mut v = Vec::with_capacity(64);
                v.extend_from_slice(k_ss.as_ref());
                v.extend_from_slice(x_ss.as_ref());
                v
            }
        };
        Ok(SharedSecret(Zeroizing::new(out)))
    }
}

/// Raw X25519 (RFC 7748 §5) for tests and the server role: `scalar` and `u` are 32 bytes each.
/// Refuses the all-zero result.
pub fn x25519(scalar: &[u8], u: &[u8]) -> Result<SharedSecret, CryptoError> {
    let s = x25519_secret(scalar)?;
    Ok(SharedSecret(Zeroizing::new(x25519_dh(&s, u)?.to_vec())))
}

/// Fuzzer mode (`--cfg fuzzing`, set by cargo-fuzz only): the connection fuzz targets draw
/// their randomness from a fixed pool, so every input makes the same few key shares, and making
/// them was 27 % of `tls13_connection`'s time (perf, 2026-12-07); most inputs also keep the
/// seed's server share, and the agreement was most of what was left. The last few of each are
/// kept per thread; the result is the one [`KeyShare::derive`] and [`KeyShare::agree`] give for
/// the same inputs (an error is not kept: it is computed again).
#[cfg(fuzzing)]
mod fuzz_memo {
    use super::{CryptoError, Group, KeyShare, SharedSecret};
    use std::cell::RefCell;
    use zeroize::Zeroizing;

    /// Distinct (group, seed) pairs kept: the connection driver's profiles make at most a
    /// handful; a bound keeps a target that draws fresh seeds from growing the memo.
    const KEPT: usize = 8;

    type Entry = (Group, Zeroizing<Vec<u8>>, KeyShare);

    /// (our group and seed, the server's share, the shared secret).
    type Agreement = (Group, Zeroizing<Vec<u8>>, Vec<u8>, Zeroizing<Vec<u8>>);

    std::thread_local! {
        static MEMO: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
        static AGREED: RefCell<Vec<Agreement>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn complete(ours: &KeyShare, peer: &[u8]) -> Result<SharedSecret, CryptoError> {
        let hit = AGREED.with(|m| {
            m.borrow()
                .iter()
                .find(|(g, s, q, _)| *g == ours.group && *s == ours.seed && q.as_slice() == peer)
                .map(|(_, _, _, secret)| secret.clone())
        });
        if let Some(s) = hit {
            return Ok(SharedSecret(s));
        }
        let made = ours.agree(peer)?;
        AGREED.with(|m| {
            keep(
                &mut m.borrow_mut(),
                (
                    ours.group,
                    ours.seed.clone(),
                    peer.to_vec(),
                    Zeroizing::new(made.as_ref().to_vec()),
                ),
            )
        });
        Ok(made)
    }

    pub(super) fn from_seed(group: Group, seed: &[u8]) -> Result<KeyShare, CryptoError> {
        let hit = MEMO.with(|m| {
            m.borrow()
                .iter()
                .find(|(g, s, _)| *g == group && s.as_slice() == seed)
                .map(|(_, _, k)| k.clone())
        });
        if let Some(k) = hit {
            return Ok(k);
        }
        let made = KeyShare::derive(group, seed)?;
        MEMO.with(|m| {
            keep(
                &mut m.borrow_mut(),
                (group, Zeroizing::new(seed.to_vec()), made.clone()),
            )
        });
        Ok(made)
    }

    /// Appends `entry`, dropping the oldest past [`KEPT`].
    fn keep<T>(memo: &mut Vec<T>, entry: T) {
        if memo.len() >= KEPT {
            memo.remove(0);
        }
        memo.push(entry);
    }
}
