// Runs the wasm32 receive-path ladder under Node and prints its table (progress on stderr).
// Usage: node bench/wasm/run.mjs PKG_DIR [--quick] [--only LETTERS]
// PKG_DIR holds the output of `wasm-bindgen --target nodejs` for burrow_bench_wasm.wasm.
import { createRequire } from "node:module";
import path from "node:path";

const [dir, ...flags] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node bench/wasm/run.mjs PKG_DIR [--quick] [--only LETTERS]");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const { run_ladder } = require(path.resolve(dir, "burrow_bench_wasm.js"));
const at = flags.indexOf("--only");
const only = at >= 0 ? flags[at + 1] ?? "" : "";
const platform = `Node ${process.versions.node} (V8 ${process.versions.v8})`;
process.stdout.write(run_ladder(flags.includes("--quick"), only, platform));
