// The first requests of a fresh isolate: in each of SESSIONS fresh workerd processes, workerd's
// CPU at startup, then two `new Client({ trust: { ca } })` calls and eight new-connection
// fetches (1 KB via CONNECT, HTTP/2, sessionCache "client"), each measured alone, then three
// empty calls (the baseline). With --warmup the Worker calls `warmup()` at module scope
// (bench/workerd/warm.mjs): its cost shows in the startup column, its effect in the fetches.
// Not run by script/test; bench/RESULTS.md has a run.
//
//   node bench/workerd/first.mjs [SESSIONS] [--warmup]   (peers up; script/build-worker package first)

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPeers, measured, query } from "./calls.mjs";
import { measurements } from "./rows.mjs";
import { snapshotModules, startWorkerd } from "./workerd.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const warm = args.includes("--warmup");
const sessions = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);
const { peers, sums } = loadPeers();
const ctx = { peers, sums, origin: "https://localhost:1" };
const row = measurements().find((r) => r.id === "new-1k / CONNECT h2");
const construct = new URLSearchParams({ impl: "burrow", op: "construct", n: "1", trust: "ca" });
const ms = (x) => x.toFixed(2);
// Enough fetches to see V8's later tier-up (a costly fetch a few requests in) as well as the first.
const FETCHES = 8;

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-first-"));
try {
  const snap = snapshotModules(root, runDir, peers.ca, warm ? "bench/workerd/warm.mjs" : undefined);
  console.log(warm ? "warmup() at module scope" : "no warmup()");
  console.log(`| session | startup CPU | new Client ×2 | ${Array.from({ length: FETCHES }, (_, i) => `fetch ${i + 1}`).join(" | ")} | empty call ×3 |`);
  console.log(`|---|---|---|${"---|".repeat(FETCHES)}---|`);
  for (let s = 1; s <= sessions; s++) {
    const session = await startWorkerd({ root, runDir, modules: snap.modules });
    try {
      let startup = 0;
      for (const v of session.cpu().values()) startup += v / 1e6;
      const clients = [];
      for (let i = 0; i < 2; i++) clients.push(ms((await measured(session, construct)).ms));
      const fetches = [];
      for (let i = 0; i < FETCHES; i++) fetches.push(ms((await measured(session, query(row, 1, ctx))).ms));
      const empty = [];
      for (let i = 0; i < 3; i++) empty.push(ms((await measured(session, query(row, 0, ctx))).ms));
      console.log(`| ${s} | ${startup.toFixed(1)} | ${clients.join(", ")} | ${fetches.join(" | ")} | ${empty.join(", ")} |`);
    } finally {
      await session.stop();
    }
  }
} finally {
  fs.rmSync(runDir, { recursive: true, force: true });
}
