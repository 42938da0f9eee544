// Where a new connection's CPU goes: a V8 CPU profile of workerd over a loop of new
// connections (1 KB via CONNECT, HTTP/2; script/bench workerd --profile). Peers running.
//
//   node bench/workerd/profile.mjs [--calls N] [--interval US] [--row ID] [--out FILE.cpuprofile]
//                                  [--save FILE.md]
//
// workerd runs the bench Worker with its inspector on (--inspector-addr); this script drives
// V8's Profiler over the Chrome DevTools protocol: warm-up calls first (so the code is tiered
// up as in the measured rows), then Profiler.start, N calls of 12 new clients each, one
// request each, Profiler.stop (--row: another measurement of bench/workerd/rows.mjs). The profile is written to FILE (open it in Chrome DevTools'
// Performance panel or speedscope) and broken down by phase (bench/workerd/phases.mjs).
// The process CPU over the profiled calls is read too, so the breakdown's milliseconds per
// connection can be set beside the unprofiled figure of `script/bench workerd` (profiling
// costs some).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execSync } from "node:child_process";
import { call, loadPeers, measured, query, state } from "./calls.mjs";
import { startOrigin } from "./origin.mjs";
import { startWsEcho } from "./wsecho.mjs";
import { breakdown, renderBreakdown } from "./phases.mjs";
import { measurements, scenarios } from "./rows.mjs";
import { snapshotModules, startWorkerd, workerdBinary } from "./workerd.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function parseArgs(argv) {
  const o = { calls: 40, interval: 100, out: path.join(root, "target", "bench-workerd", "new-connection.cpuprofile"), row: "new-1k / CONNECT h2", save: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--calls") o.calls = Number(value());
    else if (a === "--interval") o.interval = Number(value());
    else if (a === "--out") o.out = path.resolve(value());
    else if (a === "--row") o.row = value();
    else if (a === "--save") o.save = path.resolve(value());
    else throw new Error(`unknown argument ${a} (see the top of bench/workerd/profile.mjs)`);
  }
  return o;
}

/** Puts the package's wasm with its function names (script/build-worker leaves a copy in
 * target/worker-named/) in place of the stripped one in the run's modules, so the profile names
 * wasm frames. Refused unless its glue is byte for byte the package's (the same build). */
function namedWasm(runDir, wasm) {
  const named = path.join(process.env.CARGO_TARGET_DIR ?? path.join(root, "target"), "worker-named");
  const glue = (dir) => fs.readFileSync(path.join(dir, "burrow_worker.js"));
  if (!fs.existsSync(path.join(named, "burrow_worker_bg.wasm")) || !glue(named).equals(glue(path.join(root, "worker", "build")))) {
    throw new Error(`no named copy of worker/build's wasm in ${named} from the same build: run script/build-worker`);
  }
  const rel = "worker/build/burrow_worker_bg.wasm";
  if (!wasm.some((w) => w.rel === rel)) throw new Error(`the bench Worker does not import ${rel}`);
  fs.copyFileSync(path.join(named, "burrow_worker_bg.wasm"), path.join(runDir, "modules", rel));
}

/** A Chrome DevTools protocol session over the inspector's WebSocket. */
async function devtools(inspector) {
  const targets = await (await fetch(`http://${inspector}/json/list`)).json();
  if (targets.length === 0) throw new Error(`no inspector target at ${inspector}`);
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`cannot open ${targets[0].webSocketDebuggerUrl}`));
  });
  let next = 1;
  const waiting = new Map();
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(`${w.method}: ${JSON.stringify(msg.error)}`));
    else w.resolve(msg.result);
  };
  return {
    send(method, params = {}) {
      const id = next++;
      ws.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject, method }));
    },
    close: () => ws.close(),
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const row = measurements().find((m) => m.id === opts.row);
  if (!row) throw new Error(`no measurement ${opts.row} (bench/workerd/rows.mjs)`);
  const { peers, sums } = loadPeers();
  const origin = row.op === "events" ? await startOrigin(state) : null;
  const wsEcho = row.op === "ws" ? await startWsEcho(state) : null;
  const ctx = { peers, sums, origin: origin ? `https://localhost:${origin.port}` : null, wsOrigin: wsEcho ? `wss://localhost:${wsEcho.port}` : null, wsPlainOrigin: wsEcho ? `wss://localhost:${wsEcho.plainPort}` : null };
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-bench-profile-"));
  let session = null;
  let cdp = null;
  try {
    const snap = snapshotModules(root, runDir, peers.ca);
    namedWasm(runDir, snap.wasm);
    session = await startWorkerd({ root, runDir, modules: snap.modules, inspect: true });
    cdp = await devtools(session.inspector);
    const q = query(row, row.n, ctx);
    process.stderr.write(`workerd pid ${session.pid}: warm-up`);
    for (let i = 0; i < 10; i++) await call(session, q);
    const unit = scenarios.find((s) => s.key === row.scenario).per;
    let counted = "";
    if (row.op === "fetch" && row.impl === "burrow") {
      const census = (await call(session, query(row, row.n, ctx, { census: "1" }))).census;
      const per = (x) => (x / row.n).toFixed(1);
      const wc = census.webcrypto;
      counted = `per ${unit}: ${per(census.sockets)} sockets, ${per(census.writes)} socket writes (${per(census.writeBytes)} bytes), ${per(census.reads)} socket reads; WebCrypto: ${per(wc.verifies ?? 0)} verify, ${per(wc.keys ?? 0)} key imports, ${per(wc.seals ?? 0)} encrypt, ${per(wc.opens ?? 0)} decrypt; the first socket's writes, bytes: ${census.firstSocketWrites.slice(0, 12).join(", ")}${census.firstSocketWrites.length > 12 ? ", …" : ""} (counted by the bench Worker on one call)  `;
    }
    // The same calls without the profiler, measured as script/bench workerd does, give the
    // milliseconds the shares are taken of.
    process.stderr.write(", measuring");
    const plain = [];
    for (let i = 0; i < 6; i++) {
      const base = await measured(session, query(row, 0, ctx));
      const full = await measured(session, q);
      plain.push((full.ms - base.ms) / row.n);
    }
    plain.sort((a, b) => a - b);
    const msPerUnit = (plain[2] + plain[3]) / 2;
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: opts.interval });
    process.stderr.write(`, profiling ${opts.calls} calls × ${row.n} ${unit}s`);
    const started = Date.now();
    await cdp.send("Profiler.start");
    for (let i = 0; i < opts.calls; i++) await call(session, q);
    const { profile } = await cdp.send("Profiler.stop");
    const wallMs = Date.now() - started;
    process.stderr.write("\n");
    fs.mkdirSync(path.dirname(opts.out), { recursive: true });
    fs.writeFileSync(opts.out, JSON.stringify(profile));
    const units = opts.calls * row.n;
    const b = breakdown(profile);
    let commit = "unknown";
    try {
      commit = execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
      if (execSync("git status --porcelain --untracked-files=no", { cwd: root }).toString().trim() !== "") commit += " + uncommitted changes";
    } catch {}
    const text = [
      `Where the CPU goes (${row.id}): ${units} ${unit}s profiled; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit}, workerd ${workerdBinary(root).version}  `,
      `CPU per ${unit} without the profiler ${msPerUnit.toFixed(2)} ms (workerd process, median of 6 baseline-subtracted calls; p0–p100 ${plain[0].toFixed(2)}–${plain[5].toFixed(2)}); the ms column is each share of that  `,
      `${b.samples} samples (${(b.samples / units).toFixed(1)} per ${unit}; ${b.idle} idle left out), ${opts.interval} µs asked, one per ${((wallMs * 1000) / (b.samples + b.idle)).toFixed(0)} µs of wall time got; load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}  `,
      ...(counted ? [counted] : []),
      `profile: ${path.relative(root, opts.out)}`,
      "",
      renderBreakdown(b, { unit, msPerUnit }),
      "",
    ].join("\n");
    process.stdout.write(text);
    if (opts.save) fs.writeFileSync(opts.save, text);
  } finally {
    cdp?.close();
    if (session) await session.stop();
    await origin?.close();
    await wsEcho?.close();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
