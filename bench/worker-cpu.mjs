// CPU per request inside workerd, WebCrypto offload on and off.
//
//   node bench/worker-cpu.mjs            (peers running; PEERS_STATE default /tmp/burrow-peers)
//
// Method: the e2e test Worker runs under `wrangler dev` (local workerd); one Worker request
// makes K sequential fetches of a file on one warm client (`/t/many`), and the CPU the workerd
// process spent (utime + stime of both workerd processes wrangler runs, from /proc/PID/stat, 10 ms ticks) is divided by K. Each cell is
// measured ROUNDS times after a warm-up round; the median is printed. It includes everything
// workerd does for those fetches (socket I/O, JS glue, the body stream), not just wasm.

import { spawn, execSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const testDir = path.join(root, "worker", "test");
const state = process.env.PEERS_STATE || "/tmp/burrow-peers";
const peers = JSON.parse(fs.readFileSync(path.join(state, "peers.json"), "utf8"));
const port = (n) => peers.peers.find((p) => p.name === n).port;
const ROUNDS = Number(process.env.ROUNDS || 5);
const TICK_MS = 1000 / Number(execSync("getconf CLK_TCK").toString().trim());

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

async function main() {
  const caPem = fs.readFileSync(path.join(state, "pki", "root.pem"), "utf8");
  fs.writeFileSync(path.join(testDir, ".dev.vars"), `CA_PEM=${JSON.stringify(caPem)}\n`);
  const p = await freePort();
  const child = spawn(path.join(root, "node_modules/.bin/wrangler"), ["dev", "--config", path.join(testDir, "wrangler.toml"), "--ip", "127.0.0.1", "--port", String(p), "--inspector-port", String(await freePort()), "--show-interactive-dev-session=false"], { cwd: testDir, stdio: "ignore", detached: true });
  const base = `http://127.0.0.1:${p}`;
  try {
    for (let i = 0; ; i++) {
      try { if ((await fetch(`${base}/health`)).ok) break; } catch {}
      if (i > 240) throw new Error("wrangler dev did not start");
      await new Promise((r) => setTimeout(r, 500));
    }
    // wrangler runs two workerd processes (its entry proxy and the Worker): count both.
    const pids = execSync(`pgrep -g ${child.pid} -f 'workerd serve'`).toString().trim().split("\n").map(Number);
    const cpuAll = () => pids.reduce((a, pid) => a + cpuMs(pid), 0);
    const cells = [
      ["/4m.bin", "h2", 10],
      ["/1m.bin", "h2", 20],
      ["/1m (gzip, decoded)", "h2", 20],
      ["/4m.bin", "h1", 10],
      ["/1m.bin", "h1", 20],
    ];
    console.log(`| body | HTTP | offload | CPU ms per request (median of ${ROUNDS}) | ms per MB |`);
    console.log("|---|---|---|---|---|");
    for (const [file, proto, k] of cells) {
      for (const offload of ["on", "off"]) {
        const url = `https://localhost:${port("DEF")}${file.split(" ")[0]}`;
        const q = new URLSearchParams({ url, n: String(k), offload, http2: proto === "h2" ? "on" : "off" });
        const samples = [];
        for (let r = 0; r <= ROUNDS; r++) {
          const before = cpuAll();
          const res = await (await fetch(`${base}/t/many?${q}`)).json();
          const spent = cpuAll() - before;
          if (r > 0) samples.push(spent / k);
          if (res.bytes === undefined) throw new Error(JSON.stringify(res));
          var mb = res.bytes / k / (1 << 20);
        }
        const m = median(samples);
        console.log(`| ${file} | ${proto} | ${offload} | ${m.toFixed(1)} | ${(m / mb).toFixed(1)} |`);
      }
    }
    // The BYOB view size (offload on): one JS read per fill, then copies into the 17 KiB TLS
    // buffer.
    console.log("");
    console.log(`| BYOB view | /4m.bin h2 ms/MB | /4m.bin h1 ms/MB |`);
    console.log("|---|---|---|");
    for (const view of [16384, 32768, 65536]) {
      const row = [];
      for (const proto of ["on", "off"]) {
        const q = new URLSearchParams({ url: `https://localhost:${port("DEF")}/4m.bin`, n: "10", http2: proto, readView: String(view) });
        const samples = [];
        for (let r = 0; r <= ROUNDS; r++) {
          const before = cpuAll();
          await (await fetch(`${base}/t/many?${q}`)).json();
          if (r > 0) samples.push((cpuAll() - before) / 10 / 4);
        }
        row.push(median(samples).toFixed(1));
      }
      console.log(`| ${view / 1024} KiB | ${row[0]} | ${row[1]} |`);
    }
  } finally {
    try { process.kill(-child.pid, "SIGTERM"); } catch {}
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
