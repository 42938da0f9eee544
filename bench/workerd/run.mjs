// CPU per request of burrow inside workerd, beside the platform's own fetch (script/bench
// workerd; bench/RESULTS.md has the method and the latest table). Peers running.
//
//   node bench/workerd/run.mjs [--quick] [--sessions N] [--rounds N] [--only REGEX] [--save FILE]
//                              [--json FILE]   (every sample, by measurement, for pooling runs)
//
// Method: the npm workerd binary runs bench/workerd/worker.mjs (bench/workerd/workerd.mjs);
// each measurement (bench/workerd/rows.mjs) is one call of the bench Worker doing n units
// (requests, clients, events). The CPU workerd's process spent (all threads, from
// /proc/PID/task/*/schedstat) is read before the call and after it has settled (no CPU for
// two 10 ms windows, so teardown finishing after the answer counts; a call during which a
// workerd thread exited is made again); the same call with n = 0 is the baseline, and (call - baseline) / n is one sample. Per session: a checking pass
// (every body's size and SHA-256 against the peers' sha256sums; the route, HTTP version and
// encoding are what the row says; socket reads and writes per request counted; the event
// stream acknowledged event by event), a warm-up
// round, then ROUNDS rounds with the measurements shuffled (burrow's and the platform's
// interleaved) and the baseline and the call in random order. Several fresh workerd sessions;
// the table gives the median of all samples and their p10–p90.

import { execSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { call, loadPeers, measured, query, state } from "./calls.mjs";
import { startOrigin } from "./origin.mjs";
import { startWsEcho } from "./wsecho.mjs";
import { measurements, scenarios } from "./rows.mjs";
import { snapshotModules, startWorkerd, workerdBinary } from "./workerd.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function parseArgs(argv) {
  const o = { quick: false, sessions: 3, rounds: 5, only: null, save: null, json: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--quick") o.quick = true;
    else if (a === "--sessions") o.sessions = Number(value());
    else if (a === "--rounds") o.rounds = Number(value());
    else if (a === "--only") o.only = new RegExp(value());
    else if (a === "--save") o.save = value();
    else if (a === "--json") o.json = value();
    else throw new Error(`unknown argument ${a} (see the top of bench/workerd/run.mjs)`);
  }
  if (o.quick) {
    o.sessions = Math.min(o.sessions, 2);
    o.rounds = Math.min(o.rounds, 3);
  }
  return o;
}

/** Quantile q of sorted xs, linear between neighbours. */
function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

function shuffle(xs) {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function fmt(ms) {
  if (!Number.isFinite(ms)) return "—";
  if (Math.abs(ms) < 0.1) return ms.toFixed(3);
  if (Math.abs(ms) < 10) return ms.toFixed(2);
  return ms.toFixed(1);
}

/** What a measurement's label promises, checked on a call's answer. */
function checkRoute(m, body) {
  if (m.impl === "platform" || m.op !== "fetch") return;
  const want = m.http2 ? "HTTP/2" : "HTTP/1.1";
  if (body.httpVersion !== want) throw new Error(`${m.id}: ${body.httpVersion}, expected ${want}`);
  const proxied = { HTTP_PROXY: "http", SOCKS: "socks5h" }[m.proxy] ?? null;
  if (body.proxied !== proxied) throw new Error(`${m.id}: proxied ${body.proxied}, expected ${proxied}`);
}

/** The checking pass of a session: every body hashed, routes as labelled, events delivered
 * one by one. Returns notes for the table (wire encoding, TLS, HTTP version). */
async function checkSession(session, rows, ctx) {
  const notes = new Map();
  for (const m of rows) {
    if (m.op === "fetch") {
      const body = await call(session, query(m, Math.min(m.n, 3), ctx, { check: "sha256" }));
      checkRoute(m, body);
      if (m.gzip && body.encoding !== "gzip" && m.file !== "4m.bin") throw new Error(`${m.id}: the platform's fetch got ${body.encoding}, not gzip`);
      let counted = "";
      if (m.impl === "burrow") {
        // Socket operations per unit, beyond the baseline's (the census wraps the socket: never measured).
        // Warm rows over 16 requests: a call with requests makes one connection-level write
        // more than the n = 0 call (measured 2026-12-07: +1 over 4 requests and over 16), which
        // over 4 read as a quarter write per request.
        const k = Math.min(m.n, m.reuse === 0 ? 16 : 4);
        const [c0, c1] = [await call(session, query(m, 0, ctx, { census: "1" })), await call(session, query(m, k, ctx, { census: "1" }))];
        const per = (f) => ((f(c1.census ?? {}) ?? 0) - (f(c0.census ?? {}) ?? 0)) / k;
        const verifies = per((c) => c.webcrypto?.verifies);
        counted = `; per request ${fmt(per((c) => c.writes))} socket writes, ${fmt(per((c) => c.reads))} reads${m.reuse === 1 ? `, ${fmt(verifies)} WebCrypto verifies` : ""}`;
      }
      const tls = body.tls ? `, ${body.tls.version} ${body.tls.cipher} ${body.tls.group ?? ""}`.trimEnd() + (body.tls.resumed ? ", resumed" : "") : "";
      notes.set(m.id, `${body.encoding ?? "identity"} on the wire${body.httpVersion ? `, ${body.httpVersion}` : ""}${tls}${counted}`);
    } else if (m.op === "ws") {
      const body = await call(session, query(m, 5, ctx, { check: "full" }));
      let counted = "";
      if (m.impl === "burrow") {
        const k = 10;
        const [c0, c1] = [await call(session, query(m, 0, ctx, { census: "1" })), await call(session, query(m, k, ctx, { census: "1" }))];
        const per = (f) => ((f(c1.census ?? {}) ?? 0) - (f(c0.census ?? {}) ?? 0)) / k;
        counted = `; per message ${fmt(per((c) => c.writes))} socket writes, ${fmt(per((c) => c.reads))} reads`;
      }
      notes.set(m.id, `echoes checked byte for byte (5 per session); extensions: ${body.extensions || "none"}${counted}`);
    } else if (m.op === "events") {
      const q = query(m, 20, ctx, { op: "eventsCheck", ack: ctx.origin });
      const body = await call(session, q);
      notes.set(m.id, `delivery check: ${body.events}/20 events each read before the next was written (${body.chunks} chunks)${body.httpVersion ? `, ${body.httpVersion}` : ""}`);
    }
  }
  // The platform's fetch pools its connections: two fetches in a call, and one in the next.
  const conn = new URLSearchParams({ op: "conn", url: `${ctx.origin}/conn` });
  const a = await call(session, conn);
  const b = await call(session, conn);
  const ids = [...a.conns, ...b.conns].map((c) => c.conn);
  ctx.pooling = `the platform's fetch used ${new Set(ids).size} connection(s) for 4 requests over 2 calls (HTTP ${a.conns[0].http})`;
  return notes;
}

/** The tree being measured, read when the run starts (the modules are copied then). */
function commitNow() {
  try {
    let commit = execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
    if (execSync("git status --porcelain --untracked-files=no", { cwd: root }).toString().trim() !== "") commit += " + uncommitted changes";
    return commit;
  } catch {
    return "unknown";
  }
}

function header(opts, ctx) {
  const wd = workerdBinary(root);
  return [
    `CPU per unit inside workerd, ms (workerd process, all threads); ${ctx.started} to ${new Date().toISOString().slice(11, 16)} UTC, commit ${ctx.commit}`,
    `workerd ${wd.version} (npm), Node ${process.version}, ${os.cpus().length} CPUs; wasm ${ctx.wasm.map((w) => `${path.basename(w.rel)} ${w.bytes} bytes`).join(", ")}`,
    `${opts.sessions} fresh workerd sessions × ${opts.rounds} rounds, shuffled, burrow and the platform interleaved; median (p10–p90) of ${opts.sessions * opts.rounds} samples per cell`,
  ];
}

function tables(rows, results, notes, ctx) {
  const out = [];
  const cell = (r) => (r ? `${fmt(r.median)} (${fmt(r.p10)}–${fmt(r.p90)})` : "—");
  out.push("| row | burrow | platform `fetch` | goal |");
  out.push("|---|---|---|---|");
  for (const s of scenarios) {
    const mine = rows.filter((m) => m.scenario === s.key);
    if (mine.length === 0) continue;
    const main = mine.find((m) => m.main);
    const plat = mine.find((m) => m.impl === "platform");
    out.push(`| ${s.label}${main ? ` (${main.column})` : ""} | ${cell(results.get(main?.id))} | ${cell(results.get(plat?.id))} | ${s.goal} |`);
  }
  out.push("");
  out.push(`burrow's cells: HTTP/2 through tinyproxy (CONNECT) unless the row says direct. The platform's \`fetch\`: direct to the origin (it cannot use a proxy), HTTP/1.1, and ${ctx.pooling}; it asks for gzip here as burrow's default profile does.`);
  out.push("");
  out.push("| row | how | ms per unit: median | p10–p90 | min–max | units per call | samples | per-session medians | notes |");
  out.push("|---|---|---|---|---|---|---|---|---|");
  for (const m of rows) {
    const r = results.get(m.id);
    const s = scenarios.find((x) => x.key === m.scenario);
    const how = m.impl === "platform" ? m.column : `burrow, ${m.column}`;
    const parts = [];
    if (m.op === "events" && r) parts.push(`${fmt(r.chunksPerUnit)} chunks per event`);
    if (notes.has(m.id)) parts.push(notes.get(m.id));
    if (r?.retries) parts.push(`calls made again because a workerd thread exited during them: ${r.retries}`);
    if (r?.lost) parts.push(`samples still missing an exited thread's last slice after 5 tries: ${r.lost}`);
    const note = parts.join("; ");
    out.push(`| ${s.label} | ${how} | ${r ? fmt(r.median) : "—"} | ${r ? `${fmt(r.p10)}–${fmt(r.p90)}` : ""} | ${r ? `${fmt(r.min)}–${fmt(r.max)}` : ""} | ${m.n} | ${r?.samples ?? 0} | ${r ? r.sessions.map(fmt).join(" ") : ""} | ${note} |`);
  }
  return out;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let rows = measurements();
  if (opts.only) rows = rows.filter((m) => opts.only.test(m.id));
  if (rows.length === 0) throw new Error("--only matched no measurement");
  if (opts.quick) rows = rows.map((m) => ({ ...m, n: Math.max(1, Math.ceil(m.n / 2)) }));
  const { peers, sums } = loadPeers();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-bench-workerd-"));
  const origin = await startOrigin(state);
  const wsEcho = rows.some((m) => m.op === "ws") ? await startWsEcho(state) : null;
  const ctx = { peers, sums, origin: `https://localhost:${origin.port}`, wsOrigin: wsEcho ? `wss://localhost:${wsEcho.port}` : null, wsPlainOrigin: wsEcho ? `wss://localhost:${wsEcho.plainPort}` : null, pooling: "", commit: commitNow(), started: new Date().toISOString().slice(0, 16).replace("T", " ") };
  const samples = new Map(rows.map((m) => [m.id, { values: [], sessions: [], chunks: [], retries: 0, lost: 0 }]));
  const notes = new Map();
  const load = [];
  let session = null;
  try {
    const snap = snapshotModules(root, runDir, peers.ca);
    ctx.wasm = snap.wasm;
    load.push(fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "));
    for (let s = 0; s < opts.sessions; s++) {
      session = await startWorkerd({ root, runDir, modules: snap.modules });
      process.stderr.write(`session ${s + 1}/${opts.sessions}: workerd pid ${session.pid}; checking`);
      for (const [k, v] of await checkSession(session, rows, ctx)) notes.set(k, v);
      process.stderr.write(", warm-up");
      for (const m of rows) await call(session, query(m, m.n, ctx));
      const mine = new Map(rows.map((m) => [m.id, []]));
      for (let r = 0; r < opts.rounds; r++) {
        process.stderr.write(`, round ${r + 1}`);
        for (const m of shuffle(rows)) {
          const pair = shuffle([0, m.n]);
          const got = {};
          for (const n of pair) got[n] = await measured(session, query(m, n, ctx));
          const per = (got[m.n].ms - got[0].ms) / m.n;
          const entry = samples.get(m.id);
          entry.values.push(per);
          entry.retries += got[m.n].attempts + got[0].attempts - 2;
          if (got[m.n].lost || got[0].lost) entry.lost++;
          if (m.op === "events") entry.chunks.push(got[m.n].body.chunks / m.n);
          mine.get(m.id).push(per);
        }
      }
      for (const [id, xs] of mine) samples.get(id).sessions.push(quantile([...xs].sort((a, b) => a - b), 0.5));
      process.stderr.write("\n");
      await session.stop();
      session = null;
    }
    load.push(fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "));
  } finally {
    if (session) await session.stop();
    await origin.close();
    await wsEcho?.close();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
  const results = new Map();
  for (const [id, e] of samples) {
    const v = [...e.values].sort((a, b) => a - b);
    const c = [...e.chunks].sort((a, b) => a - b);
    results.set(id, { median: quantile(v, 0.5), p10: quantile(v, 0.1), p90: quantile(v, 0.9), min: v[0], max: v[v.length - 1], samples: v.length, sessions: e.sessions, retries: e.retries, lost: e.lost, chunksPerUnit: quantile(c, 0.5) });
  }
  const text = [
    ...header(opts, ctx).map((l) => `${l}  `),
    `load average (1, 5, 15 min) before: ${load[0]}; after: ${load[1] ?? "?"}`,
    "",
    ...tables(rows, results, notes, ctx),
    "",
  ].join("\n");
  process.stdout.write(text);
  if (opts.json) {
    const raw = { commit: ctx.commit, started: ctx.started, load, samples: Object.fromEntries([...samples].map(([id, e]) => [id, e.values])) };
    fs.writeFileSync(opts.json, JSON.stringify(raw));
  }
  if (opts.save) {
    fs.writeFileSync(opts.save, text);
    process.stderr.write(`saved to ${opts.save}\n`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
