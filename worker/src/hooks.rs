//! What the e2e tests observe inside workerd (the `test-hooks` feature; never in the npm
//! package's wasm): live heap, executor tasks, crypto counts, and a trap on demand.
//!
//! Leak checks count *live* heap (bytes and blocks allocated and not yet freed), not the size
//! of linear memory: memory only grows, and a reader that falls behind moves its high-water
//! mark once without leaking anything.

use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::num::{u64_to_js, usize_to_js};
use crate::obj;

#[global_allocator]
static HEAP: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The host whose `connect` traps the instance: a fetch to it proves that the next request
/// works after a trap, through the same path a real panic takes.
pub const PANIC_HOST: &str = "burrow-test-panic.invalid";

/// Panics when `host` is [`PANIC_HOST`] (called where `WorkerNet` connects).
#[allow(clippy::panic)]
pub(crate) fn trap_if_asked(host: &str) {
    if host == PANIC_HOST {
        crate::install_panic_hook();
        panic!("deliberate panic: connect to {PANIC_HOST} (test hook)");
    }
}

/// Live heap: `{ bytes, blocks }` allocated and not yet freed in this instance.
#[wasm_bindgen(js_name = wasmHeap)]
pub fn wasm_heap() -> JsValue {
    let s = HEAP.stats();
    // Allocated minus freed (a reallocation adds its growth to one or its shrinking to the
    // other).
    let bytes = usize_to_js(s.bytes_allocated) - usize_to_js(s.bytes_deallocated);
    let blocks = usize_to_js(s.allocations) - usize_to_js(s.deallocations);
    obj(&[("bytes", bytes.into()), ("blocks", blocks.into())]).unwrap_or_default()
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
        ("aesGcm", u64_to_js(c.aes_gcm).into()),
        ("chacha20Poly1305", u64_to_js(c.chacha20_poly1305).into()),
        ("signatures", u64_to_js(c.signatures).into()),
    ])
    .unwrap_or_default()
}

/// The executor's live tasks and awaited promises: `{ tasks, promises }` (tests check that
/// neither grows from request to request).
#[wasm_bindgen(js_name = wasmTasks)]
pub fn wasm_tasks() -> JsValue {
    let (tasks, promises) = crate::exec::live();
    obj(&[
        ("tasks", usize_to_js(tasks).into()),
        ("promises", usize_to_js(promises).into()),
    ])
    .unwrap_or_default()
}
