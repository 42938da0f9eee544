//! Shared test bodies: written once, run natively and under wasm-bindgen-test.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

pub(crate) mod rfc8448;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod server;

/// The RFC 8448 JSON: from the vectors folder natively, compiled in on wasm32.
pub(crate) fn rfc8448_json() -> Option<String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        burrow_testkit::vectors::read_string("rfc8448/rfc8448.json")
    }
    #[cfg(target_arch = "wasm32")]
    {
        burrow_testkit::embedded::require(burrow_testkit::embedded::RFC8448, "rfc8448/rfc8448.json")
            .map(str::to_string)
    }
}

/// Declares a test that runs natively and under wasm-bindgen-test.
#[macro_export]
macro_rules! both {
    ($name:ident, $body:expr) => {
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        fn $name() {
            if let Some(j) = $crate::common::rfc8448_json() {
                ($body)(&j)
            }
        }
    };
}
