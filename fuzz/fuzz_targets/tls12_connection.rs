//! A whole burrow-handshake client connection driven from fuzzed server bytes, TLS 1.2 first
//! (`burrow_handshake::fuzz::connection` with `Family::Tls12`): fuzzer mode (`--cfg fuzzing`,
//! set by cargo-fuzz) makes the server's Finished a fixed value, the driver answers record
//! protection with a null cipher and every certificate and signature check as valid, so mutated
//! flights reach application data, tickets, KeyUpdate and alerts. Each input must end in `Ok`
//! or a typed error, without a hang (the driver bounds the events per input byte), with the live
//! heap under `burrow_handshake::fuzz::MAX_LIVE_HEAP` (the capped allocator aborts past it).
//! With `BURROW_FUZZ_OUTCOME` set, each input's outcome is printed (`script/fuzz` checks the
//! seeds reach what their names say).
#![no_main]

use burrow_fuzz::CappedAlloc;
use burrow_handshake::fuzz::{connection, Family, MAX_LIVE_HEAP};
use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: CappedAlloc = CappedAlloc::new(MAX_LIVE_HEAP);

fuzz_target!(|data: &[u8]| {
    let outcome = connection(data, Family::Tls12);
    if burrow_fuzz::report_outcomes() {
        eprintln!("burrow-fuzz-outcome: {outcome}");
    }
});
