//! burrow-x509: stapled OCSP response parsing (RFC 6960), strict DER.
#![no_main]

use burrow_x509::OcspResponse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = OcspResponse::from_der(data);
});
