// What the runners in this folder (e2e.mjs, conformance.mjs) share: the running peers'
// description (PEERS_STATE, default /tmp/burrow-peers), and a test Worker under `wrangler dev`
// on loopback (a free port, the log under target/test-logs, a wait for `/health`).

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

/** The peers' state folder, their description (peers.json), and a peer's port by name. */
export const state = process.env.PEERS_STATE || "/tmp/burrow-peers";
export const peers = JSON.parse(fs.readFileSync(path.join(state, "peers.json"), "utf8"));
export const port = (name) => {
  const p = peers.peers.find((x) => x.name === name);
  if (!p) throw new Error(`peer ${name} missing from ${state}/peers.json`);
  return p.port;
};

/** A TCP port free on loopback right now. */
export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/** Starts `wrangler dev --config config` (a file in this folder) with `env` added to the
 * environment, logging to `logName`; resolves to `{ child, base }` once `/health` answers.
 * Stop it with `process.kill(-child.pid, "SIGTERM")` (it leads its own process group). */
export async function startWrangler(config, logName, env = {}) {
  const p = await freePort();
  const inspector = await freePort();
  const logDir = process.env.TEST_LOG_DIR || path.join(root, "target", "test-logs");
  fs.mkdirSync(logDir, { recursive: true });
  const log = fs.openSync(path.join(logDir, logName), "w");
  const child = spawn(
    path.join(root, "node_modules", ".bin", "wrangler"),
    ["dev", "--config", path.join(here, config), "--ip", "127.0.0.1", "--port", String(p), "--inspector-port", String(inspector), "--show-interactive-dev-session=false"],
    { cwd: here, stdio: ["ignore", log, log], detached: true, env: { ...process.env, ...env } },
  );
  const base = `http://127.0.0.1:${p}`;
  for (let i = 0; i < 240; i++) {
    try {
      const r = await fetch(`${base}/health`);
      if (r.ok) return { child, base };
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  try { process.kill(-child.pid); } catch {}
  throw new Error(`wrangler dev did not answer on ${base} (log: ${logDir}/${logName})`);
}
