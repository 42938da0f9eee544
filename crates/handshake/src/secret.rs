//! Secret bytes, wiped when dropped and never printed.
//!
//! Every secret of the key schedule lives in a [`Secret`] from the moment it is derived: the
//! TLS 1.3 early, handshake, master, traffic, exporter and resumption secrets, PSKs and binder
//! and finished keys, the TLS 1.2 pre-master and master secrets and key block, and the seed of
//! a key share made after a HelloRetryRequest. The bytes are on the heap, so moving a step
//! (they move from step to step) copies a pointer, not the secret; they are written in place
//! once and never grown, so no reallocation leaves a copy behind.
//!
//! Not covered here: what the caller asked for (key log entries, offloaded traffic keys), the
//! record keys inside burrow-record's `TrafficKeys` and burrow-crypto's intermediate values
//! (their crates own them). On wasm32 the wipe clears linear memory, but a Worker's memory is
//! never handed to another tenant in any case.

use core::fmt;
use core::ops::Deref;
use zeroize::Zeroizing;

/// Secret bytes: wiped on drop; `Debug` shows only the length.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Secret(Zeroizing<Vec<u8>>);

impl Secret {
    /// `len` zero bytes, to be written in place.
    pub(crate) fn zeroed(len: usize) -> Self {
        Self(Zeroizing::new(vec![0u8; len]))
    }

    /// A copy of `bytes` (the source is the caller's to wipe).
    pub(crate) fn copy_of(bytes: &[u8]) -> Self {
        Self(Zeroizing::new(bytes.to_vec()))
    }

    /// The bytes, to write in place.
    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        self.0.as_mut_slice()
    }
}

impl Deref for Secret {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Secret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({} bytes)", self.0.len())
    }
}

impl From<burrow_crypto::hash::Output> for Secret {
    /// A hash-sized secret from burrow-crypto (an HKDF or HMAC output).
    fn from(o: burrow_crypto::hash::Output) -> Self {
        Self::copy_of(o.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_shows_the_length_only() {
        let s = Secret::copy_of(&[0x5e; 32]);
        assert_eq!(format!("{s:?}"), "Secret(32 bytes)");
    }
}
