//! Process-wide counts of the operations an offloading caller wants to prove it moved
//! elsewhere: AES-GCM seals/opens and signature verifications done here. One relaxed atomic
//! increment each (nanoseconds against microseconds of work); read them, never rely on them
//! for anything but accounting.

use core::sync::atomic::{AtomicU64, Ordering};

static AES_GCM: AtomicU64 = AtomicU64::new(0);
static CHACHA20_POLY1305: AtomicU64 = AtomicU64::new(0);
static SIGNATURES: AtomicU64 = AtomicU64::new(0);

/// What has run in this process (or wasm instance) so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// AES-128/256-GCM seals and opens.
    pub aes_gcm: u64,
    /// ChaCha20-Poly1305 seals and opens.
    pub chacha20_poly1305: u64,
    /// Signature verifications ([`crate::sig::verify`]).
    pub signatures: u64,
}

/// The counts so far.
pub fn get() -> OpCounts {
    OpCounts {
        aes_gcm: AES_GCM.load(Ordering::Relaxed),
        chacha20_poly1305: CHACHA20_POLY1305.load(Ordering::Relaxed),
        signatures: SIGNATURES.load(Ordering::Relaxed),
    }
}

pub(crate) fn aes_gcm() {
    AES_GCM.fetch_add(1, Ordering::Relaxed);
}

pub(crate) fn chacha() {
    CHACHA20_POLY1305.fetch_add(1, Ordering::Relaxed);
}

pub(crate) fn signature() {
    SIGNATURES.fetch_add(1, Ordering::Relaxed);
}
