// CPU per request inside workerd, WebCrypto offload on and off.
//
//   node bench/worker-cpu.mjs                 (peers running; PEERS_STATE default /tmp/burrow-peers)
//   node bench/worker-cpu.mjs --compare DIR   (the same, alternating with another tree)
//
// Method: the e2e test Worker runs under `wrangler dev` (local workerd); one Worker request
// makes K sequential fetches of a file on one warm client (`/t/many`), and the CPU the workerd
// processes spent (utime + stime of both workerd processes wrangler runs, from /proc/PID/stat,
// 10 ms ticks) is divided by K. Each cell is measured ROUNDS times after a warm-up round; the
// median is printed. It includes everything workerd does for those fetches (socket I/O, JS
// glue, the body stream), not just wasm.
//
// --compare DIR: DIR is another checkout (its worker/build built by `script/build-worker`, its
// node_modules installed or linked). Both Workers run at once, and each cell's rounds alternate
// between the two trees (A B B A ...), so a machine that speeds up or slows down meets both
// alike; the table gets a column per tree and their ratio. This is how before/after figures in
// bench/README.md are taken.

import { spawn, execSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const state = process.env.PEERS_STATE || "/tmp/burrow-peers";
const peers = JSON.parse(fs.readFileSync(path.join(state, "peers.json"), "utf8"));
const port = (n) => peers.peers.find((p) => p.name === n).port;
const ROUNDS = Number(process.env.ROUNDS || 5);
const TICK_MS = 1000 / Number(execSync("getconf CLK_TCK").toString().trim());
const at = process.argv.indexOf("--compare");
const other = at >= 0 ? path.resolve(process.argv[at + 1] ?? "") : null;
if (at >= 0 && !fs.existsSync(path.join(other, "worker", "test", "wrangler.toml"))) {
  console.error(`--compare ${process.argv[at + 1]}: no worker/test/wrangler.toml there`);
  process.exit(2);
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

function cpuMs(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
  return (Number(rest[11]) + Number(rest[12])) * TICK_MS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Starts the test Worker of the tree at `root`; resolves to { name, base, cpu, stop }. */
async function startTree(root) {
  const testDir = path.join(root, "worker", "test");
  const caPem = fs.readFileSync(path.join(state, "pki", "root.pem"), "utf8");
  fs.writeFileSync(path.join(testDir, ".dev.vars"), `CA_PEM=${JSON.stringify(caPem)}\n`);
  const p = await freePort();
  const wrangler = path.join(root, "node_modules/.bin/wrangler");
  const args = ["dev", "--config", path.join(testDir, "wrangler.toml"), "--ip", "127.0.0.1", "--port", String(p), "--inspector-port", String(await freePort()), "--show-interactive-dev-session=false"];
  const child = spawn(wrangler, args, { cwd: testDir, stdio: "ignore", detached: true });
  const base = `http://127.0.0.1:${p}`;
  for (let i = 0; ; i++) {
    try { if ((await fetch(`${base}/health`)).ok) break; } catch {}
    if (i > 240) throw new Error(`wrangler dev did not start in ${root}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  // wrangler runs two workerd processes (its entry proxy and the Worker): count both.
  const pids = execSync(`pgrep -g ${child.pid} -f 'workerd serve'`).toString().trim().split("\n").map(Number);
  let commit = "";
  try { commit = execSync("git rev-parse --short HEAD", { cwd: root, stdio: ["ignore", "pipe", "ignore"] }).toString().trim(); } catch {}
  return {
    name: commit || path.basename(root),
    base,
    cpu: () => pids.reduce((a, pid) => a + cpuMs(pid), 0),
    stop: () => { try { process.kill(-child.pid, "SIGTERM"); } catch {} },
  };
}

/** CPU ms per fetch for `query` on each tree: the median of ROUNDS alternating rounds. */
async function cell(trees, query, k) {
  const samples = trees.map(() => []);
  let bytes = 0;
  for (let r = 0; r <= ROUNDS; r++) {
    const order = r % 2 === 0 ? trees.map((_, i) => i) : trees.map((_, i) => trees.length - 1 - i);
    for (const i of order) {
      const t = trees[i];
      const before = t.cpu();
      const res = await (await fetch(`${t.base}/t/many?${query}`)).json();
      const spent = t.cpu() - before;
      if (res.bytes === undefined) throw new Error(JSON.stringify(res));
      bytes = res.bytes;
      if (r > 0) samples[i].push(spent / k);
    }
  }
  return { ms: samples.map(median), mb: bytes / k / (1 << 20) };
}

async function main() {
  const trees = [await startTree(here)];
  try {
    if (other) trees.push(await startTree(other));
    const names = trees.map((t) => t.name);
    const cols = names.map((n) => `${n}: ms per request | ms per MB`).join(" | ");
    const ratio = trees.length > 1 ? ` | ${names[0]} / ${names[1]}` : "";
    const line = (...cells) => console.log(`| ${cells.join(" | ")} |`);
    console.log(`CPU per fetch in workerd, median of ${ROUNDS} rounds${trees.length > 1 ? " alternating between the trees" : ""}; ${new Date().toISOString()}`);
    console.log("");
    console.log(`| body | HTTP | offload | ${cols}${ratio} |`);
    console.log(`|---|---|---|${trees.map(() => "---|---|").join("")}${trees.length > 1 ? "---|" : ""}`);
    const cells = [
      ["/4m.bin", "h2", 10],
      ["/1m.bin", "h2", 20],
      ["/1m (gzip, decoded)", "h2", 20],
      ["/4m.bin", "h1", 10],
      ["/1m.bin", "h1", 20],
    ];
    for (const [file, proto, k] of cells) {
      for (const offload of ["on", "off"]) {
        const url = `https://localhost:${port("DEF")}${file.split(" ")[0]}`;
        const q = new URLSearchParams({ url, n: String(k), offload, http2: proto === "h2" ? "on" : "off" });
        const { ms, mb } = await cell(trees, q, k);
        const per = ms.flatMap((m) => [m.toFixed(1), (m / mb).toFixed(1)]);
        line(file, proto, offload, ...per, ...(ms.length > 1 ? [(ms[0] / ms[1]).toFixed(2)] : []));
      }
    }
    // The BYOB view size (offload on): one JS read per fill, then copies into the TLS buffer.
    console.log("");
    console.log(`| BYOB view | HTTP | ${names.map((n) => `${n}: /4m.bin ms per MB`).join(" | ")}${ratio} |`);
    console.log(`|---|---|${trees.map(() => "---|").join("")}${trees.length > 1 ? "---|" : ""}`);
    for (const view of [16384, 32768, 65536]) {
      for (const proto of ["on", "off"]) {
        const q = new URLSearchParams({ url: `https://localhost:${port("DEF")}/4m.bin`, n: "10", http2: proto, readView: String(view) });
        const { ms, mb } = await cell(trees, q, 10);
        line(`${view / 1024} KiB`, proto === "on" ? "h2" : "h1", ...ms.map((m) => (m / mb).toFixed(1)), ...(ms.length > 1 ? [(ms[0] / ms[1]).toFixed(2)] : []));
      }
    }
  } finally {
    for (const t of trees) t.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
