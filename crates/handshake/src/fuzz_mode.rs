//! Fuzzer mode: the one place where this crate trusts what it would otherwise check, so that a
//! fuzzer's mutated server flights get past the server's Finished MAC and reach the states
//! after it (application data, KeyUpdate, NewSessionTicket, alerts under traffic keys).
//!
//! Compiled in only under `--cfg fuzzing`, which cargo-fuzz passes to every crate it builds and
//! nothing else does (it is a `rustc` cfg, not a cargo feature, so no dependent crate can turn
//! it on by accident through feature unification). In every other build
//! [`server_finished`] is a constant `None` and the real check runs.
//!
//! The rest of fuzzer mode needs no code here: record protection is offloaded to the fuzz
//! driver (`Config::aead_offload`), which answers open and seal jobs with a null cipher; the
//! signatures and the chain go out as `Event::NeedVerify` and the driver answers them; the
//! randomness is the caller's `Entropy` already.

// cargo-fuzz never builds for wasm32; a fuzzer-mode build for the Worker is a mistake.
#[cfg(all(fuzzing, target_arch = "wasm32"))]
compile_error!("--cfg fuzzing weakens the server Finished check: never build it for wasm32");

/// The byte a fuzzer-mode server Finished's verify_data is made of (TLS 1.3 and 1.2).
pub const FINISHED_BYTE: u8 = 0xF1;

/// Fuzzer mode's verdict on the server's verify_data (its length already checked): `Some(ok)`
/// replaces the MAC check, `None` (every normal build) keeps it.
#[cfg(fuzzing)]
pub(crate) fn server_finished(got: &[u8]) -> Option<bool> {
    // A fixed value rather than "anything": a wrong Finished still fails, so the fuzzer keeps
    // reaching the BadFinished path too.
    Some(got.iter().all(|&b| b == FINISHED_BYTE))
}

/// Fuzzer mode's verdict on the server's verify_data: none outside fuzzer mode.
#[cfg(not(fuzzing))]
#[inline(always)]
pub(crate) fn server_finished(_got: &[u8]) -> Option<bool> {
    None
}
