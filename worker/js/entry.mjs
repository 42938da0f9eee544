// Entry module of the burrow demo Worker (wrangler.toml `main`).
//
// `script/build-worker` compiles the burrow-worker crate to wasm32 and runs
// `wasm-bindgen --target web --out-dir worker/build`. Wrangler bundles `.wasm` imports as a
// compiled WebAssembly.Module, so the instance is created synchronously once per isolate and every
// request is routed in Rust.
import wasmModule from "../build/burrow_worker_bg.wasm";
import { initSync, handle } from "../build/burrow_worker.js";

initSync({ module: wasmModule });

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const reply = handle(request.method, url.pathname, url.search);
    try {
      const body = request.method === "HEAD" ? null : reply.body;
      return new Response(body, {
        status: reply.status,
        headers: { "content-type": reply.contentType, "cache-control": "no-store" },
      });
    } finally {
      reply.free();
    }
  },
};
