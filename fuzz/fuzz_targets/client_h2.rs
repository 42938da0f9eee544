//! burrow-client's HTTP/2 (h2c) exchanges over an in-memory `Net`, the server's bytes scripted
//! by the input (`burrow_testkit::exchange::h2`: responses, resets, GOAWAY, windows, trailers,
//! 1xx, content codings, redirects, proxies). Each input must end in `Ok` or a typed error,
//! without a hang, within turns proportional to its size, and with the live heap under
//! `exchange::MAX_LIVE_HEAP` (the capped allocator aborts past it).
#![no_main]

use burrow_fuzz::CappedAlloc;
use burrow_testkit::exchange;
use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: CappedAlloc = CappedAlloc::new(exchange::MAX_LIVE_HEAP);

fuzz_target!(|data: &[u8]| {
    exchange::h2(data);
});
