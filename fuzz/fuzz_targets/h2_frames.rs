//! burrow-h2: arbitrary server bytes after the server preface, into the client connection
//! (frame reader, every frame handler, HPACK, flow control), plus a decode/encode round trip
//! of every frame.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    burrow_h2::fuzz::connection(data);
});
