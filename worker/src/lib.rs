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
//! - [`api`] and `options`: the JS API's Rust half (`RawClient`, `RawResponse`,
//!   `AbortToken`), wrapped by `worker/js/burrow.mjs` into the WHATWG-shaped `Client.fetch`.
//! - [`routes`]: diagnostics run inside workerd (`/health`, `/selftest`, `/bench`) through
//!   [`handle`].
//!
//! Rust Workers (workers-rs or plain wasm-bindgen) use [`WorkerNet`] and [`WebCrypto`] with
//! `burrow_client::Client` directly. The demo Worker (`worker/js/entry.mjs`) is a user of the
//! JS API and ships nothing of its own in the package.

pub mod api;
mod clock;
pub mod context;
mod exec;
mod json;
pub mod net;
mod options;
pub mod routes;
mod timer;
pub mod webcrypto;

pub use context::RequestContext;
pub use net::{WorkerNet, WorkerSocket, MAX_WRITE};
pub use webcrypto::{WebCrypto, WebCryptoCounts};

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);
}

/// Logs a panic's message before the instance traps (the JS side then re-instantiates the
/// module for the next request).
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

/// The size of this instance's linear memory in bytes (it only ever grows: a high-water mark).
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    let mem: js_sys::WebAssembly::Memory = wasm_bindgen::memory().into();
    let buf: js_sys::ArrayBuffer = mem.buffer().into();
    f64::from(buf.byte_length())
}

/// AES-GCM, ChaCha20-Poly1305 and signature operations burrow-crypto has run in this
/// instance: `{ aesGcm, chacha20Poly1305, signatures }` (with WebCrypto offload on, the first
/// and last stay 0).
#[wasm_bindgen(js_name = wasmCryptoCounts)]
pub fn wasm_crypto_counts() -> JsValue {
    let c = burrow_crypto::counters::get();
    obj(&[
        ("aesGcm", (c.aes_gcm as f64).into()),
        ("chacha20Poly1305", (c.chacha20_poly1305 as f64).into()),
        ("signatures", (c.signatures as f64).into()),
    ])
    .unwrap_or_default()
}

/// The executor's live tasks and awaited promises: `{ tasks, promises }` (tests check that
/// neither grows from request to request).
#[wasm_bindgen(js_name = wasmTasks)]
pub fn wasm_tasks() -> JsValue {
    let (tasks, promises) = exec::live();
    obj(&[
        ("tasks", (tasks as f64).into()),
        ("promises", (promises as f64).into()),
    ])
    .unwrap_or_default()
}

/// A plain JS object with these properties.
pub(crate) fn obj(pairs: &[(&str, JsValue)]) -> Result<JsValue, JsValue> {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        js_sys::Reflect::set(&o, &JsValue::from_str(k), v)?;
    }
    Ok(o.into())
}

/// Test hook: panics, so tests can prove the next request still works after a trap. Nothing
/// calls it unless a test does (the demo Worker only when `BURROW_TEST_HOOKS` is set).
#[doc(hidden)]
#[wasm_bindgen(js_name = __burrowDebugPanic)]
#[allow(clippy::panic)]
pub fn debug_panic() {
    install_panic_hook();
    panic!("deliberate panic from the test hook");
}

/// A finished HTTP response, handed back to the JavaScript entry module.
#[wasm_bindgen]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    status: u16,
    content_type: &'static str,
    body: String,
}

impl Reply {
    /// A JSON reply with the given status.
    pub fn json(status: u16, body: String) -> Self {
        Self {
            status,
            content_type: "application/json; charset=utf-8",
            body,
        }
    }
}

#[wasm_bindgen]
impl Reply {
    /// HTTP status code.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Value for the `content-type` header.
    #[wasm_bindgen(getter, js_name = contentType)]
    pub fn content_type(&self) -> String {
        self.content_type.to_owned()
    }

    /// Response body.
    #[wasm_bindgen(getter)]
    pub fn body(&self) -> String {
        self.body.clone()
    }
}

/// The demo Worker's request handler: `method` is the HTTP method, `path` the URL path and
/// `query` the URL's search string (with or without the leading `?`).
#[wasm_bindgen]
pub fn handle(method: &str, path: &str, query: &str) -> Reply {
    routes::route(method, path, query)
}
