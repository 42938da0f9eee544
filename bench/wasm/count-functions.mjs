// node bench/wasm/count-functions.mjs DIR [TOP]: where the wasm32 receive path's work beyond
// the AEAD goes, by function: per record, the whole path's self cost minus the AEAD-alone
// operation's, from the callgrind run that count-report.mjs reads (script/bench-machinery
// --wasm makes DIR: cg.out.N dumped with --dump-instr=yes, marks.json, and perf.map, the map
// of V8's code that Node writes with --perf-basic-prof).
//
// Callgrind cannot name code V8 compiled, so each instruction's address is looked up in
// perf.map (the wasm functions by their Rust names, from the module's name section); what is
// outside it (V8's jump table: a wasm call to another wasm function goes through a slot
// there, one instruction) is "jit?". Code with symbols (glibc's memmove behind memory.copy,
// V8's runtime) keeps callgrind's name. Which dumps count is segments.mjs's.
import fs from "node:fs";
import path from "node:path";
import { OPS, segments } from "./segments.mjs";

const [dir, topArg] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node bench/wasm/count-functions.mjs DIR [TOP]");
  process.exit(2);
}
const TOP = Number(topArg ?? 30);

const map = fs
  .readFileSync(path.join(dir, "perf.map"), "utf8")
  .split("\n")
  .map((l) => /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(l))
  .filter(Boolean)
  .map((m) => [parseInt(m[1], 16), parseInt(m[2], 16), m[3]])
  .sort((a, b) => a[0] - b[0]);

function lookup(addr) {
  let lo = 0;
  let hi = map.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (map[mid][0] <= addr) lo = mid + 1;
    else hi = mid - 1;
  }
  const e = map[hi];
  if (!e || addr >= e[0] + e[1]) return null;
  return e[2]
    .replace(/^JS:/, "")
    .replace(/::h[0-9a-f]{16}/, "")
    .replace(/-\d+-turbofan$/, "");
}

let events = [];
// Positions are "instr line"; a relative one ("+n", "-n", "*") is relative to the last cost
// line's, and the target of a `calls=` line is not a cost line. The line after `calls=` is the
// call's inclusive cost, which is not the caller's own.
function addFile(file, into) {
  const names = new Map();
  let fnName = "?";
  let last = 0;
  let callCost = false;
  const at = (t) => {
    if (t === "*") return last;
    if (t[0] === "+") return last + Number(t.slice(1));
    if (t[0] === "-") return last - Number(t.slice(1));
    return t.startsWith("0x") ? parseInt(t, 16) : Number(t);
  };
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    const c = line.charCodeAt(0);
    if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42)) {
      if (line.startsWith("events:")) events = line.slice(7).trim().split(/\s+/);
      const m = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line);
      if (m && m[2] !== undefined) names.set(m[1], m[2]);
      if (m && line.startsWith("fn=")) fnName = names.get(m[1]) ?? "?";
      if (line.startsWith("calls=")) callCost = true;
      continue;
    }
    const parts = line.split(" ");
    const addr = at(parts[0]);
    last = addr;
    if (callCost) {
      callCost = false;
      continue;
    }
    const name = lookup(addr) ?? (fnName.startsWith("0x") ? "jit?" : fnName);
    let a = into.get(name);
    if (!a) into.set(name, (a = []));
    parts.slice(2).forEach((v, i) => (a[i] = (a[i] ?? 0) + Number(v)));
  }
}

const { name, records, marks } = JSON.parse(fs.readFileSync(path.join(dir, "marks.json"), "utf8"));
const acc = Object.fromEntries(OPS.map((o) => [o, new Map()]));
const ops = Object.fromEntries(OPS.map((o) => [o, 0]));
for (const { dump, op, opens } of segments(marks)) {
  if (opens) ops[op]++;
  addFile(path.join(dir, `cg.out.${dump}`), acc[op]);
}
const ev = (e) => events.indexOf(e);
const per = (which, fn, e) => (ev(e) < 0 ? 0 : (acc[which].get(fn)?.[ev(e)] ?? 0) / ops[which] / records);
const beyond = (fn, ...es) => es.reduce((s, e) => s + per("path", fn, e) - per("aead", fn, e), 0);
const rows = [...new Set([...acc.path.keys(), ...acc.aead.keys()])].map((fn) => ({
  fn,
  ir: beyond(fn, "Ir"),
  i1: beyond(fn, "I1mr"),
  d1: beyond(fn, "D1mr", "D1mw"),
  bm: beyond(fn, "Bcm", "Bim"),
}));
const total = (k) => rows.reduce((s, r) => s + r[k], 0);
console.log(`${name}: per record beyond the AEAD alone, by function (self cost)`);
console.log(
  `  total: ${total("ir").toFixed(0)} instructions, L1i misses ${total("i1").toFixed(0)}, ` +
    `L1d misses ${total("d1").toFixed(0)}, branches mispredicted ${total("bm").toFixed(0)}`,
);
console.log("  instructions  L1i  L1d  mispredicted  function");
rows.sort((a, b) => b.ir + 20 * b.i1 - (a.ir + 20 * a.i1));
for (const r of rows.slice(0, TOP)) {
  const f = (x, w, d = 0) => x.toFixed(d).padStart(w);
  console.log(`  ${f(r.ir, 12)} ${f(r.i1, 4)} ${f(r.d1, 4)} ${f(r.bm, 13)}  ${r.fn.slice(0, 100)}`);
}
