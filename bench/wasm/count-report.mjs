// node bench/wasm/count-report.mjs DIR [DIR...]: per record, what the wasm32 receive path
// executes beyond the AEAD, from a callgrind run of bench/wasm/count.mjs that dumped its
// counts at every phase mark (script/bench-machinery --wasm makes DIR: cg.out.N, marks.json).
//
// Which dumps count is segments.mjs's. The instructions are those of x86-64 code that V8's
// TurboFan compiled from the wasm (--no-liftoff), so they follow the wasm's own work; misses
// are callgrind's simulated L1 instruction and data caches (32 KiB each) and last level
// (1 MiB, instructions and data).
import fs from "node:fs";
import path from "node:path";
import { segments } from "./segments.mjs";

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error("usage: node bench/wasm/count-report.mjs DIR [DIR...]");
  process.exit(2);
}
function totals(file) {
  const text = fs.readFileSync(file, "utf8");
  const events = /^events: (.*)$/m.exec(text)?.[1].trim().split(/\s+/);
  const tot = /^totals: (.*)$/m.exec(text)?.[1].trim().split(/\s+/).map(Number);
  if (!events || !tot) throw new Error(`${file}: no events or totals line`);
  return Object.fromEntries(events.map((e, i) => [e, tot[i] ?? 0]));
}

for (const dir of dirs) {
  const { name, records, marks } = JSON.parse(fs.readFileSync(path.join(dir, "marks.json"), "utf8"));
  const sum = new Map();
  const add = (key, t) => {
    const a = sum.get(key) ?? { n: 0 };
    for (const [e, v] of Object.entries(t)) a[e] = (a[e] ?? 0) + v;
    sum.set(key, a);
  };
  for (const { dump, op, opens } of segments(marks)) {
    add(op, totals(path.join(dir, `cg.out.${dump}`)));
    if (opens) sum.get(op).n++;
  }
  const per = (key, e) => {
    const a = sum.get(key);
    return a && a.n ? a[e] / a.n / records : NaN;
  };
  const has = (e) => Number.isFinite(per("aead", e));
  const f = (x) => (Number.isFinite(x) ? (Math.round(x) || 0).toLocaleString("en-US") : "-");
  const misses = (key, lvl) => per(key, `${lvl}mr`) + per(key, `${lvl}mw`);
  // The simulated cache misses and branch mispredictions, when the run has them.
  const details = (key, count, missCount) => {
    let out = "";
    if (has("D1mr")) {
      out += `, L1i misses ${f(count(key, "I1mr"))}, L1d misses ${f(missCount(key, "D1"))}`;
      out += `, LL misses ${f(missCount(key, "DL"))}`;
    }
    if (has("Bcm")) out += `, branches mispredicted ${f(count(key, "Bcm") + count(key, "Bim"))}`;
    return out;
  };
  const beyond = (key, e) => per(key, e) - per("aead", e);
  const missBeyond = (key, lvl) => misses(key, lvl) - misses("aead", lvl);
  console.log(`${name} (${path.basename(dir)}): per record (${records} per op, ${sum.get("path")?.n ?? 0} ops each)`);
  for (const key of ["path", "aead", "floor"]) {
    console.log(`  ${key.padEnd(6)} ${f(per(key, "Ir"))} instructions${details(key, per, misses)}`);
  }
  for (const key of ["path", "floor"]) {
    console.log(
      `  ${key} beyond the AEAD: ${f(beyond(key, "Ir"))} instructions${details(key, beyond, missBeyond)}`,
    );
  }
}
