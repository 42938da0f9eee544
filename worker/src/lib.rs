//! The Cloudflare Workers shim for burrow, and the demo Worker.
//!
//! Today the demo Worker answers three routes (see [`routes`]):
//!
//! - `GET /health` → `{"ok":true,"version":"…"}`
//! - `GET /selftest` → runs `burrow_crypto::selftest::run()` inside workerd and returns
//!   `{"ok":…,"checks":[{"name":…,"ok":…}],"ms":…}` (status 500 if any check failed)
//! - `GET /bench?op=…&mb=…` → times a crypto loop inside workerd (used to pick the release
//!   profile; see `bench/WASM-PROFILE.md`)
//!
//! The JavaScript entry module (`worker/js/entry.mjs`) instantiates the wasm built from this crate
//! and hands every request to [`handle`]. The routing itself is plain Rust, so it is unit-tested
//! natively.

mod clock;
mod json;
pub mod routes;

use wasm_bindgen::prelude::wasm_bindgen;

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
