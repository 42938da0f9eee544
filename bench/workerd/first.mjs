// The first requests of a fresh isolate: in each of SESSIONS fresh workerd processes, workerd's
// CPU at startup, then two `new Client({ trust: { ca } })` calls and four new-connection
// fetches (1 KB via CONNECT, HTTP/2, sessionCache "client"), each measured alone, then three
// empty calls (the baseline). It shows what a `warmup()` would have to move out of the first
// request. Not run by script/test; bench/RESULTS.md has a run.
//
//   node bench/workerd/first.mjs [SESSIONS]    (peers up; script/build-worker package first)

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPeers, measured, query } from "./calls.mjs";
import { measurements } from "./rows.mjs";
import { snapshotModules, startWorkerd } from "./workerd.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const sessions = Number(process.argv[2] ?? 3);
const { peers, sums } = loadPeers();
const ctx = { peers, sums, origin: "https://localhost:1" };
const row = measurements().find((r) => r.id === "new-1k / CONNECT h2");
const construct = new URLSearchParams({ impl: "burrow", op: "construct", n: "1", trust: "ca" });
const ms = (x) => x.toFixed(2);

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-first-"));
try {
  const snap = snapshotModules(root, runDir, peers.ca);
  console.log("| session | startup CPU | new Client ×2 | fetch 1 | fetch 2 | fetch 3 | fetch 4 | empty call ×3 |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (let s = 1; s <= sessions; s++) {
    const session = await startWorkerd({ root, runDir, modules: snap.modules });
    try {
      let startup = 0;
      for (const v of session.cpu().values()) startup += v / 1e6;
      const clients = [];
      for (let i = 0; i < 2; i++) clients.push(ms((await measured(session, construct)).ms));
      const fetches = [];
      for (let i = 0; i < 4; i++) fetches.push(ms((await measured(session, query(row, 1, ctx))).ms));
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
