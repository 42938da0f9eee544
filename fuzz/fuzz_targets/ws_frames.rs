//! burrow-ws: arbitrary server bytes into a client connection (frame heads, fragmentation,
//! control frames, close payloads, permessage-deflate with and without context takeover, UTF-8,
//! the size bound and the abuse budgets), whole and split: each input must end in `Ok` or a
//! typed error, the same under every split, with the live heap under
//! `burrow_ws::fuzz::MAX_LIVE_HEAP` (the capped allocator aborts past it); every message is
//! echoed back through the encoder and compressor; frame heads round-trip.
#![no_main]

use burrow_fuzz::CappedAlloc;
use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: CappedAlloc = CappedAlloc::new(burrow_ws::fuzz::MAX_LIVE_HEAP);

fuzz_target!(|data: &[u8]| {
    burrow_ws::fuzz::frames(data);
});
