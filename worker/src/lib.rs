//! The Cloudflare Workers shim for burrow: everything here translates between workerd and
//! burrow-client, one concern per file.
//!
//! - [`net`]: `Net` over `cloudflare:sockets` (BYOB reads into one reused buffer, writes cut
//!   at 64 KiB, close and error mapping, a farewell that waits for nothing).
//! - `exec`: the executor tasks run on, and the bridge that awaits JS promises without a
//!   closure per promise or a microtask per wake; `timer`: deadlines on one JS timer per
//!   client.
//! - [`webcrypto`]: the `CryptoOffload` provider over `crypto.subtle` (AES-GCM records,
//!   signatures).
//! - [`context`]: sockets belong to one request; a client used from another fails clearly.
//! - `setup`: what every client is, whichever API made it ([`Config`]: WebCrypto offload for
//!   both TLS hops, six connections awaiting headers, the session cache).
//! - `api` and `options` (feature `js`, on by default): the JS API's Rust half (`RawClient`,
//!   `RawResponse`, `AbortToken`), wrapped by `worker/js/burrow.mjs` into the WHATWG-shaped
//!   `Client.fetch`.
//! - `websocket` (feature `js`): the JS API's WebSockets, a driver task per socket that
//!   sends what JS queued and hands each event to a JS callback as it arrives.
//! - `workers_rs` (feature `workers-rs`): the Rust API for Workers written with workers-rs,
//!   `Client::fetch` of a `worker::Request` or an `http::Request` to a streaming
//!   `Response`, with typed `Error`s. A Rust Worker builds this crate with
//!   `default-features = false, features = ["workers-rs"]`, so its module carries none of the
//!   JS API's exports.
//!
//! Two features add to the wasm what only the repository's own Workers use; the npm package
//! is built without them (`script/build-worker` prints each variant's size):
//! - `demo`: `routes`, the demo Worker's diagnostics inside workerd (`/health`, `/selftest`,
//!   `/bench`) through the `handle` export;
//! - `test-hooks`: `hooks`, what the e2e tests observe (live heap, executor tasks, crypto
//!   counts) and a trap on demand.
//!
//! Rust Workers on plain wasm-bindgen may also use [`WorkerNet`] and [`WebCrypto`] with
//! `burrow_client::Client` directly.

#[cfg(feature = "js")]
pub mod api;
#[cfg(any(test, feature = "demo"))]
mod clock;
pub mod context;
mod exec;
#[cfg(feature = "test-hooks")]
pub mod hooks;
#[cfg(any(feature = "js", feature = "workers-rs"))]
mod js_body;
#[cfg(any(test, feature = "js"))]
mod json;
#[cfg(any(test, feature = "js"))]
mod meta;
pub mod net;
mod num;
#[cfg(feature = "js")]
mod options;
#[cfg(any(test, feature = "demo"))]
pub mod routes;
#[cfg(any(feature = "js", feature = "workers-rs"))]
mod setup;
mod timer;
pub mod webcrypto;
#[cfg(feature = "js")]
mod websocket;
#[cfg(feature = "workers-rs")]
mod workers_rs;

/// burrow-client, whose types ([`burrow_client::ClientConfig`], `Proxy`, `Trust`,
/// `TlsInfo`, ...) the Rust API takes and gives.
pub use burrow_client;
pub use context::RequestContext;
pub use net::{WorkerNet, WorkerSocket, MAX_WRITE};
#[cfg(any(feature = "js", feature = "workers-rs"))]
pub use setup::{Chains, Config, Sessions, MAX_PENDING_HEADS};
pub use webcrypto::{WebCrypto, WebCryptoCounts, DEFAULT_INLINE_RECORD_BYTES};
#[cfg(feature = "workers-rs")]
pub use workers_rs::{Body, Client, Error, IntoRequest, RequestBody, Response};

use wasm_bindgen::JsValue;

#[cfg(feature = "js")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);
}

/// Logs a panic's message before the instance traps (the JS side then re-instantiates the
/// module for the next request). The JS API's: a Rust Worker keeps its own panic hook.
#[cfg(feature = "js")]
pub(crate) fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            console_error(&format!(
                "burrow: panic (the wasm instance is lost): {info}"
            ));
        }));
    });
}

/// A plain JS object with these properties.
pub(crate) fn obj(pairs: &[(&str, JsValue)]) -> Result<JsValue, JsValue> {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        js_sys::Reflect::set(&o, &JsValue::from_str(k), v)?;
    }
    Ok(o.into())
}
