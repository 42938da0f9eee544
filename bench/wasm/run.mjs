// Runs the wasm32 receive-path ladder under Node and prints its table (progress on stderr).
// Usage: node bench/wasm/run.mjs PKG_DIR [--quick] [--only LETTERS]
// PKG_DIR holds the output of `wasm-bindgen --target nodejs --experimental-reset-state-function`
// for burrow_bench_wasm.wasm. Each item runs in a fresh instance (same compiled module, new
// linear memory), so no figure depends on the heap an earlier item left behind.
import { createRequire } from "node:module";
import path from "node:path";

const [dir, ...flags] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node bench/wasm/run.mjs PKG_DIR [--quick] [--only LETTERS]");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const glue = require(path.resolve(dir, "burrow_bench_wasm.js"));
if (typeof glue.__wbg_reset_state !== "function") {
  console.error("the glue has no __wbg_reset_state: bind with --experimental-reset-state-function");
  process.exit(2);
}
const quick = flags.includes("--quick");
const at = flags.indexOf("--only");
const only = at >= 0 ? (flags[at + 1] ?? "") : "";
const results = [];
const n = glue.item_count(quick, only);
for (let i = 0; i < n; i++) {
  glue.__wbg_reset_state();
  results.push(glue.run_item(quick, only, i));
}
glue.__wbg_reset_state();
const tunables = process.env.GLIBC_TUNABLES ? `, GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES}` : "";
const platform = `Node ${process.versions.node} (V8 ${process.versions.v8}${tunables})`;
process.stdout.write(glue.table(quick, only, results, platform));
