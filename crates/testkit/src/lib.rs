//! Test-only helpers shared by every burrow crate.
//!
//! * [`vectors`]: the public suites in `$BURROW_VECTORS` (default `../shared/vectors` next to the
//!   repository). A missing folder is a test failure naming it; only `BURROW_VECTORS=none` skips,
//!   and it says so on stderr.
//! * [`fingerprint`]: ClientHello JA4 / JA3 computed from the FoxIO definition, for the
//!   profile tests.
//! * [`corpus`]: generated bodies (JSON-like text, incompressible bytes), the same on every run
//!   and platform, for the decode tests and the benchmarks.
//! * [`embedded`]: the small vector files compiled in, for `wasm32` tests that have no file system.
//! * [`h2`]: HTTP/2 frames by hand, for tests that play the server.
//! * [`pem`]: a DER certificate as PEM, for tests that trust one.
//! * [`peers`]: the local third-party servers started by `../shared/peers/up.sh`, read from
//!   `$PEERS_STATE/peers.env`. Missing peers are a failure; `BURROW_PEERS=none` skips loudly.
//! * [`node`]: test servers run by Node 22 (OpenSSL 3.5), killed when dropped; an older or
//!   missing Node is a failure naming `script/bootstrap`.
//! * [`script_net`] and [`exchange`] (feature `client-exchange`): a burrow-client `Net` whose
//!   connections play scripted server bytes, and whole exchanges decoded from arbitrary bytes
//!   (the fuzz targets `client_h1` and `client_h2`).
//! * [`tls13_server`] (feature `tls13-server`): a scripted, sans-IO TLS 1.3 server (X25519,
//!   Ed25519 certificate, or a leaf under its own CA; KeyUpdate injection) for in-memory client
//!   tests and the benchmarks,
//!   native and wasm32.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation,
    reason = "test support, never shipped: a broken expectation panics the test that asked"
)]

pub mod corpus;
pub mod embedded;
#[cfg(feature = "client-exchange")]
pub mod exchange;
pub mod fingerprint;
pub mod h2;
pub mod hex;
#[cfg(not(target_arch = "wasm32"))]
pub mod node;
#[cfg(not(target_arch = "wasm32"))]
pub mod peers;
pub mod pem;
#[cfg(feature = "client-exchange")]
pub mod script_net;
#[cfg(feature = "tls13-server")]
pub mod tls13_server;
#[cfg(not(target_arch = "wasm32"))]
pub mod vectors;

/// Prints a skip notice that cannot be mistaken for a pass.
pub fn skip_loudly(what: &str, why: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("SKIPPED (not passed): {what}: {why}");
    #[cfg(target_arch = "wasm32")]
    let _ = (what, why);
}
