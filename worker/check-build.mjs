// `npm pack`'s prepack for burrow-worker: refuses to pack unless worker/build/ holds the
// package's wasm (the variant without features), built after the last change to any Rust
// source or manifest that goes into it. The build is not run from here: it needs the Rust
// toolchain and minutes of LTO; script/build-worker does it.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const how = "run script/build-worker (or `script/build-worker package`) from the repository root, then npm pack again";

function refuse(why) {
  console.error(`burrow-worker: not packing: ${why}; ${how}`);
  process.exit(1);
}

const built = ["wasm.js", "burrow_worker.js", "burrow_worker_bg.wasm", "features"].map((f) => path.join(here, "build", f));
for (const f of built) {
  if (!fs.existsSync(f)) refuse(`${path.relative(root, f)} is missing`);
}
const features = fs.readFileSync(path.join(here, "build", "features"), "utf8").trim();
if (features !== "none") refuse(`worker/build/ holds a wasm built with features ${features}, not the package's`);

// The newest input: every .rs and Cargo.toml under crates/ and worker/, and the workspace's
// manifest and lock.
function newest(dir, best = { file: null, mtime: 0 }) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "target" && e.name !== "node_modules" && !e.name.startsWith("build")) newest(p, best);
    } else if (e.name.endsWith(".rs") || e.name === "Cargo.toml") {
      const m = fs.statSync(p).mtimeMs;
      if (m > best.mtime) Object.assign(best, { file: p, mtime: m });
    }
  }
  return best;
}
const input = newest(path.join(root, "crates"), newest(here));
for (const f of ["Cargo.toml", "Cargo.lock"]) {
  const m = fs.statSync(path.join(root, f)).mtimeMs;
  if (m > input.mtime) Object.assign(input, { file: path.join(root, f), mtime: m });
}
const wasm = fs.statSync(path.join(here, "build", "burrow_worker_bg.wasm")).mtimeMs;
if (input.mtime > wasm) refuse(`${path.relative(root, input.file)} changed after worker/build/ was built`);
