//! ML-KEM-768 (FIPS 203), the post-quantum half of X25519MLKEM768.
//!
//! The client side (key generation from a seed, decapsulation) is what TLS needs; deterministic
//! encapsulation is offered for tests and for playing the server side.

use ml_kem::kem::Decapsulate;
use ml_kem::{EncapsulateDeterministic, EncodedSizeUser, KemCore, MlKem768, MlKem768Params, B32};
use zeroize::Zeroizing;

use crate::CryptoError;

/// Encapsulation (public) key length in bytes.
pub const ENCAPSULATION_KEY_LEN: usize = 1184;
/// Ciphertext length in bytes.
pub const CIPHERTEXT_LEN: usize = 1088;
/// Shared secret length in bytes.
pub const SHARED_SECRET_LEN: usize = 32;
/// Key generation seed length in bytes: `d || z` (FIPS 203 §7.1).
pub const SEED_LEN: usize = 64;

/// The ML-KEM modulus q.
const Q: u16 = 3329;

type Dk = ml_kem::kem::DecapsulationKey<MlKem768Params>;
type Ek = ml_kem::kem::EncapsulationKey<MlKem768Params>;

/// An ML-KEM-768 decapsulation (private) key (cloneable only in fuzzer mode, for the key share
/// memo in `kx`).
#[cfg_attr(fuzzing, derive(Clone))]
pub struct DecapsulationKey {
    dk: Box<Dk>,
    ek: Vec<u8>,
}

impl core::fmt::Debug for DecapsulationKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecapsulationKey").finish_non_exhaustive()
    }
}

fn b32(bytes: &[u8]) -> Result<B32, CryptoError> {
    B32::try_from(bytes).map_err(|_| CryptoError::BadKeyLength)
}

impl DecapsulationKey {
    /// Deterministic key generation from the 64-byte seed `d || z` (ML-KEM.KeyGen_internal).
    pub fn from_seed(seed: &[u8]) -> Result<Self, CryptoError> {
        if seed.len() != SEED_LEN {
            return Err(CryptoError::BadKeyLength);
        }
        let (d, z) = seed.split_at_checked(32).ok_or(CryptoError::BadKeyLength)?;
        let (dk, ek) = MlKem768::generate_deterministic(&b32(d)?, &b32(z)?);
        Ok(Self {
            dk: Box::new(dk),
            ek: ek.as_bytes().to_vec(),
        })
    }

    /// The encapsulation key to send to the peer (1184 bytes).
    pub fn encapsulation_key(&self) -> &[u8] {
        &self.ek
    }

    /// Decapsulates a 1088-byte ciphertext. A wrong-length ciphertext is refused; a tampered one
    /// yields the implicit-rejection secret (FIPS 203), which then fails the handshake.
    pub fn decapsulate(&self, ciphertext: &[u8]) -> Result<Zeroizing<[u8; 32]>, CryptoError> {
        let ct = ml_kem::Ciphertext::<MlKem768>::try_from(ciphertext)
            .map_err(|_| CryptoError::InvalidPublicKey)?;
        let ss = self
            .dk
            .decapsulate(&ct)
            .map_err(|()| CryptoError::InvalidPublicKey)?;
        let mut out = Zeroizing::new([0u8; 32]);
        out.copy_from_slice(ss.as_slice());
        Ok(out)
    }
}

/// FIPS 203 §7.2 encapsulation key check: every 12-bit coefficient must be below q.
pub fn check_encapsulation_key(ek: &[u8]) -> Result<(), CryptoError> {
    if ek.len() != ENCAPSULATION_KEY_LEN {
        return Err(CryptoError::InvalidPublicKey);
    }
    let (polys, _rho) = ek
        .split_at_checked(ENCAPSULATION_KEY_LEN.saturating_sub(32))
        .ok_or(CryptoError::InvalidPublicKey)?;
    for triple in polys.chunks_exact(3) {
        let [b0, b1, b2] = [triple.first(), triple.get(1), triple.get(2)]
            .map(|b| b.copied().map(u16::from).unwrap_or(0));
        let c0 = b0 | ((b1 & 0x0f) << 8);
        let c1 = (b1 >> 4) | (b2 << 4);
        if c0 >= Q || c1 >= Q {
            return Err(CryptoError::InvalidPublicKey);
        }
    }
    Ok(())
}

/// Deterministic encapsulation to `ek` with the 32-byte message `m` (the server's role).
/// Returns `(ciphertext, shared_secret)`. `m` must be fresh randomness in real use.
pub fn encapsulate(ek: &[u8], m: &[u8]) -> Result<(Vec<u8>, Zeroizing<[u8; 32]>), CryptoError> {
    check_encapsulation_key(ek)?;
    let enc = ml_kem::Encoded::<Ek>::try_from(ek).map_err(|_| CryptoError::InvalidPublicKey)?;
    let key = Ek::from_bytes(&enc);
    let (ct, ss) = key
        .encapsulate_deterministic(&b32(m)?)
        .map_err(|()| CryptoError::InvalidPublicKey)?;
    let mut out = Zeroizing::new([0u8; 32]);
    out.copy_from_slice(ss.as_slice());
    Ok((ct.as_slice().to_vec(), out))
}
