//! burrow-h2: arbitrary HPACK header blocks (a 2-byte big-endian length before each) into one decoder
//! sharing its dynamic table, with the header-list and string caps on.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    burrow_h2::fuzz::hpack_decoder(data);
});
