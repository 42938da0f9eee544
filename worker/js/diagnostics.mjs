// The demo Worker's diagnostics (`/health`, `/selftest`, `/bench`): the `handle` export of the
// wasm built with the `demo` feature. Not in the npm package: the demo's wrangler.toml aliases
// `../build/wasm.js` to that variant (worker/build-demo/), so this module and burrow.mjs share
// one instance.

import * as glue from "../build/wasm.js";

/** Answers one diagnostics request: `{ status, contentType, body }`. */
export function diagnostics(method, pathname, search) {
  glue.initSync({ module: glue.wasmModule });
  const reply = glue.handle(method, pathname, search);
  try {
    return { status: reply.status, contentType: reply.contentType, body: reply.body };
  } finally {
    reply.free();
  }
}
