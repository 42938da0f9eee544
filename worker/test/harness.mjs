// What the Worker test runners (e2e.mjs, conformance.mjs, package-e2e.mjs) share: the running
// peers (PEERS_STATE, default /tmp/burrow-peers), counted checks, and a Worker under
// `wrangler dev` on a free loopback port (its log under target/test-logs).

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
const logDir = process.env.TEST_LOG_DIR || path.join(root, "target", "test-logs");

/** The peers of ../shared/peers: `port(name)`, `creds`, `sums` (file -> SHA-256), `state`,
 * `peers` (the whole peers.json). */
export function loadPeers() {
  const state = process.env.PEERS_STATE || "/tmp/burrow-peers";
  const peers = JSON.parse(fs.readFileSync(path.join(state, "peers.json"), "utf8"));
  const port = (name) => {
    const p = peers.peers.find((x) => x.name === name);
    if (!p) throw new Error(`peer ${name} missing from ${state}/peers.json`);
    return p.port;
  };
  const sums = Object.fromEntries(
    fs
      .readFileSync(path.join(state, "www", "sha256sums"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(/\s+/))
      .map(([h, n]) => [n, h]),
  );
  return { state, peers, port, creds: peers.creds, sums };
}

let passed = 0;
let failed = 0;

/** Prints one check's line and counts it. */
export function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `  ${detail}`}`);
}

/** Prints "N passed, N failed" (an `extraFailures` count for a crash) and exits accordingly. */
export function finish(extraFailures = 0) {
  console.log(`${passed} passed, ${failed + extraFailures} failed`);
  process.exit(failed + extraFailures === 0 ? 0 : 1);
}

/** A TCP port free on loopback right now. */
export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const healthy = async (base) => (await fetch(`${base}/health`)).ok;

/** Starts `wrangler dev --config CONFIG` (a path, or a file name in this folder), with `env`
 * added to its environment and its log in target/test-logs/LOGNAME, and waits until
 * `ready(base)` says yes (default: `/health` answers 2xx). Returns `{ base, logFile, stop }`;
 * wrangler leads its own process group, which `stop()` ends. */
export async function startWrangler(config, logName, { ready = healthy, env = {} } = {}) {
  const file = path.resolve(here, config);
  const p = await freePort();
  const inspector = await freePort();
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, logName);
  const log = fs.openSync(logFile, "w");
  const child = spawn(
    path.join(root, "node_modules", ".bin", "wrangler"),
    ["dev", "--config", file, "--ip", "127.0.0.1", "--port", String(p), "--inspector-port", String(inspector), "--show-interactive-dev-session=false"],
    { cwd: path.dirname(file), stdio: ["ignore", log, log], detached: true, env: { ...process.env, ...env } },
  );
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  const base = `http://127.0.0.1:${p}`;
  for (let i = 0; i < 240; i++) {
    try {
      if (await ready(base)) return { base, logFile, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  stop();
  throw new Error(`wrangler dev did not answer on ${base} (log: ${logFile})`);
}
