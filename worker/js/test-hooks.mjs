// What the e2e tests observe in the wasm built with the `test-hooks` feature (worker/build-test/,
// which worker/test/wrangler.toml aliases `../build/wasm.js` to, so these read the same instance
// as burrow.mjs). Not in the npm package.

import * as glue from "../build/wasm.js";

function instance() {
  glue.initSync({ module: glue.wasmModule });
  return glue;
}

/** Live heap of the instance: `{ bytes, blocks }` allocated and not yet freed. */
export function wasmHeap() {
  return instance().wasmHeap();
}

/** Linear memory size of the instance, bytes (a high-water mark: it never shrinks). */
export function wasmMemoryBytes() {
  return instance().wasmMemoryBytes();
}

/** Live tasks of burrow's executor and promises it awaits: `{ tasks, promises }`. */
export function wasmTasks() {
  return instance().wasmTasks();
}

/** burrow-crypto operation counts (AES-GCM and signatures stay 0 with WebCrypto offload on). */
export function wasmCryptoCounts() {
  return instance().wasmCryptoCounts();
}

/** A fetch to this host traps the instance inside `Client.fetch` (a deliberate panic). */
export const PANIC_HOST = "burrow-test-panic.invalid";
