//! Randomness from the operating system (or `crypto.getRandomValues` on wasm32).
//!
//! The sans-IO crates never call this: the caller draws randomness here and passes it in.

use crate::CryptoError;

/// Fills `out` with cryptographically secure random bytes.
pub fn fill(out: &mut [u8]) -> Result<(), CryptoError> {
    getrandom::fill(out).map_err(|_| CryptoError::Rng)
}
