//! RFC 8448 traces byte for byte, natively and (same bodies) under wasm-bindgen-test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

mod common;

both!(rfc8448_simple_1rtt, |j: &str| {
    common::rfc8448::simple_1rtt(j);
});
both!(rfc8448_hello_retry_request, common::rfc8448::hello_retry);
both!(rfc8448_resumed, common::rfc8448::resumed);
both!(rfc8448_middlebox_compatibility, common::rfc8448::middlebox);
both!(
    rfc8448_simple_1rtt_aead_offloaded,
    common::rfc8448::simple_1rtt_offload
);
both!(
    rfc8448_simple_1rtt_key_log,
    common::rfc8448::simple_1rtt_key_log
);
