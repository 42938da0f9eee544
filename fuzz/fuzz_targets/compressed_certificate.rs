#![no_main]
//! burrow-handshake: CompressedCertificate (RFC 8879) parsing and bounded brotli / zlib /
//! zstd decompression on arbitrary bytes.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    burrow_handshake::fuzz::compressed_certificate(data);
});
