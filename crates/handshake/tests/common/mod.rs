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

use std::cell::RefCell;

thread_local! {
    static RECEIVED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// For a driver that got `Event::Plaintext(n)`: checks the lent bytes, consumes them and keeps
/// a copy for [`received`]; returns the event to record.
pub(crate) fn take_lent(c: &mut burrow_handshake::Connection, n: usize) -> burrow_handshake::Event {
    let data = c.plaintext().to_vec();
    assert_eq!(data.len(), n, "the event names the lent length");
    c.consume_plaintext(n);
    assert!(c.plaintext().is_empty());
    RECEIVED.with(|r| r.borrow_mut().extend_from_slice(&data));
    burrow_handshake::Event::Plaintext(n)
}

/// The application data the drivers consumed since the last call.
pub(crate) fn received() -> Vec<u8> {
    RECEIVED.with(|r| std::mem::take(&mut *r.borrow_mut()))
}
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
