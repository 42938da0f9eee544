// The calls the harness makes to the bench Worker (bench/workerd/worker.mjs), shared by the
// measuring run (run.mjs) and the profile (profile.mjs).

import fs from "node:fs";
import path from "node:path";
import { EVENT_GAP_MS } from "./rows.mjs";
import { cpuDelta } from "./workerd.mjs";

export const state = process.env.PEERS_STATE || "/tmp/burrow-peers";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The peers, their files' sizes and SHA-256, the CA. */
export function loadPeers() {
  const peers = JSON.parse(fs.readFileSync(path.join(state, "peers.json"), "utf8"));
  const sums = new Map();
  for (const line of fs.readFileSync(path.join(peers.www, "sha256sums"), "utf8").split("\n")) {
    const [sha, name] = line.trim().split(/\s+/);
    if (name) sums.set(name, { sha, bytes: fs.statSync(path.join(peers.www, name)).size });
  }
  return { peers, sums };
}

/** The query of one measurement's call with `n` units. */
export function query(m, n, ctx, extra = {}) {
  const q = new URLSearchParams({ impl: m.impl, op: m.op, n: String(n) });
  if (m.proxy) q.set("proxy", ctx.peers.peers.find((p) => p.name === m.proxy).url);
  if (!m.http2) q.set("http2", "off");
  if (m.trust) q.set("trust", m.trust);
  if (m.sessionCache) q.set("sessionCache", m.sessionCache);
  if (m.chainCache) q.set("chainCache", m.chainCache);
  if (m.poolInlineBytes !== undefined) q.set("poolInlineBytes", String(m.poolInlineBytes));
  if (m.inlineRecordBytes !== undefined) q.set("inlineRecordBytes", String(m.inlineRecordBytes));
  if (m.op === "fetch") {
    const file = ctx.sums.get(m.file);
    q.set("url", `https://localhost:${ctx.peers.ports[m.peer]}/${m.file}`);
    q.set("reuse", String(m.reuse));
    q.set("prime", m.prime);
    q.set("bytes", String(file.bytes));
    q.set("sha256", file.sha);
    q.set("check", "size");
    if (m.gzip) q.set("gzip", "1");
  }
  if (m.op === "events") {
    q.set("url", `${ctx.origin}/events`);
    q.set("warm", `${ctx.origin}/conn`);
    q.set("prime", m.prime);
    q.set("gapMs", String(EVENT_GAP_MS));
  }
  if (m.op === "ws") {
    q.set("url", `${m.deflate ? ctx.wsOrigin : ctx.wsPlainOrigin}/echo`);
    q.set("kind", m.kind);
    q.set("size", String(m.size));
  }
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q;
}

export async function call(session, q) {
  const res = await fetch(`${session.base}/run?${q}`);
  const body = await res.json();
  if (!body.ok) throw new Error(`${q.get("op")} ${q.get("url") ?? ""} failed: ${JSON.stringify(body)}`);
  return body;
}

/** CPU (ms) of one call, counted until workerd has settled after it (no CPU in two 10 ms
 * windows, so teardown that finishes after the answer counts). A call during which a thread
 * exited is made again: that thread's last slice cannot be read. */
export async function measured(session, q) {
  for (let attempt = 1; ; attempt++) {
    const before = session.cpu();
    const body = await call(session, q);
    let last = session.cpu();
    for (let quiet = 0, i = 0; quiet < 2 && i < 50; i++) {
      await sleep(10);
      const now = session.cpu();
      quiet = cpuDelta(last, now).ms < 0.05 ? quiet + 1 : 0;
      last = now;
    }
    const d = cpuDelta(before, last);
    if (d.lost === 0 || attempt === 5) return { ms: d.ms, lost: d.lost, attempts: attempt, body };
  }
}
