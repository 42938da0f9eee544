// Runs one rung-e item of the wasm32 ladder for an instruction counter (script/bench-machinery
// --wasm runs it under callgrind): every operation once per round, with each phase mark (see
// burrow_bench::Phase) recorded here and then passed to a call into Node's C++
// (`process.memoryUsage.rss()`, i.e. `node::Rss`), before which callgrind dumps its counts.
// So dump k holds what ran between marks k-1 and k; MARKS_FILE gets the marks in order.
// Usage: node bench/wasm/count.mjs PKG_DIR INDEX ROUNDS MARKS_FILE
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const [dir, index, rounds, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node bench/wasm/count.mjs PKG_DIR INDEX ROUNDS MARKS_FILE");
  process.exit(2);
}
const marks = [];
globalThis.burrowBenchMark = (phase) => {
  marks.push(phase);
  process.memoryUsage.rss();
};
const require = createRequire(import.meta.url);
const glue = require(path.resolve(dir, "burrow_bench_wasm.js"));
const outcome = glue.count_item(Number(index), Number(rounds));
const lines = outcome.split("\n").filter((l) => l.startsWith("L\t")).map((l) => l.split("\t")[1]);
// "AEAD open alone, same 257 records": the records each operation opens.
const records = Number(/same (\d+) records/.exec(lines.join("\n"))?.[1] ?? NaN);
fs.writeFileSync(out, JSON.stringify({ name: lines[0] ?? "", records, marks }));
