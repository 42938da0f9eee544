#![no_main]
//! burrow-handshake: every server message parser on arbitrary bytes, then a whole client
//! connection driven by arbitrary server bytes.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    burrow_handshake::fuzz::parse_handshake_messages(data);
    burrow_handshake::fuzz::drive_client(data);
});
