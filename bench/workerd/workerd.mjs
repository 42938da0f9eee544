// One workerd session for the harness: the npm package's workerd binary (not wrangler) with a
// generated config that serves bench/workerd/worker.mjs on 127.0.0.1, and the process's CPU
// time read from outside.
//
// The config's "internet" network allows loopback ("local") for both `fetch` and
// `cloudflare:sockets`, and trusts the peers' test CA (`tlsOptions.trustedCertificates`) so
// the platform's `fetch` can reach the local origins. The modules are those the bench Worker
// imports, found by following its relative imports, copied once per run (snapshot) so a
// rebuild during a run cannot mix two builds. CPU is read per thread from /proc (workerd
// starts and ends a tokio worker thread now and then, for name lookups).

import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const ENTRY = "bench/workerd/worker.mjs";

/** The workerd binary of the npm package installed in `root` (a dependency of wrangler). */
export function workerdBinary(root) {
  const require = createRequire(path.join(root, "package.json"));
  const pkg = require("workerd");
  return { bin: pkg.default, version: pkg.version, compatibilityDate: pkg.compatibilityDate };
}

/** The modules reachable from `entry` by relative imports: paths relative to `root`. */
function moduleGraph(root, entry) {
  const seen = new Set();
  const todo = [entry];
  const importRe = /(?:^|[;\s])(?:import|export)\s*(?:[^'"();]*?\sfrom\s*)?["']([^"']+)["']/g;
  while (todo.length > 0) {
    const rel = todo.pop();
    if (seen.has(rel)) continue;
    seen.add(rel);
    if (!/\.m?js$/.test(rel)) continue;
    const text = fs.readFileSync(path.join(root, rel), "utf8");
    for (const m of text.matchAll(importRe)) {
      const spec = m[1];
      if (!spec.startsWith(".")) continue; // cloudflare:sockets and the like
      todo.push(path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec)));
    }
  }
  return [...seen].sort();
}

/** Copies the bench Worker's modules and the CA into `runDir`; returns what a config needs. */
export function snapshotModules(root, runDir, caPemFile, entry = ENTRY) {
  const graph = moduleGraph(root, entry);
  // The main module goes first in the config.
  const modules = [entry, ...graph.filter((m) => m !== entry)];
  for (const rel of modules) {
    const from = path.join(root, rel);
    if (!fs.existsSync(from)) {
      throw new Error(`${rel} (imported by the bench Worker) is missing: run script/build-worker`);
    }
    fs.mkdirSync(path.dirname(path.join(runDir, "modules", rel)), { recursive: true });
    fs.copyFileSync(from, path.join(runDir, "modules", rel));
  }
  fs.copyFileSync(caPemFile, path.join(runDir, "ca.pem"));
  const wasm = modules.filter((m) => m.endsWith(".wasm")).map((m) => ({ rel: m, bytes: fs.statSync(path.join(root, m)).size }));
  return { modules, wasm };
}

function configText(modules, compatibilityDate) {
  const mod = (rel) => {
    const kind = rel.endsWith(".wasm") ? "wasm" : "esModule";
    return `    (name = ${JSON.stringify(rel)}, ${kind} = embed ${JSON.stringify(`modules/${rel}`)}),`;
  };
  const entryFirst = modules;
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "bench", worker = .bench),
    (name = "internet", network = (
      allow = ["public", "local"],
      tlsOptions = (trustedCertificates = [embed "ca.pem"]),
    )),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "bench")],
);

const bench :Workerd.Worker = (
  modules = [
${entryFirst.map(mod).join("\n")}
  ],
  compatibilityDate = ${JSON.stringify(compatibilityDate)},
  bindings = [
    (name = "CA_PEM", text = embed "ca.pem"),
    (name = "BURROW_POOL", durableObjectNamespace = "BurrowPool"),
  ],
  durableObjectNamespaces = [(className = "BurrowPool", uniqueKey = "burrow-bench-pool")],
  durableObjectStorage = (inMemory = void),
);
`;
}

/** CPU time of a process, per thread: nanoseconds on the CPU (user and system) from each
 * thread's schedstat, keyed by thread id. */
export function processCpu(pid) {
  const threads = new Map();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(tid, Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]));
    } catch {
      // the thread exited between the listing and the read: as if it had not been listed
    }
  }
  return threads;
}

/** ms of CPU between two readings: every thread's growth, all of a thread's time when it
 * started in between. `lost` counts threads that exited in between: their last slice is not
 * in `ms`, so the caller measures again. */
export function cpuDelta(a, b) {
  let ns = 0;
  for (const [tid, v] of b) ns += v - (a.get(tid) ?? 0);
  let lost = 0;
  for (const tid of a.keys()) if (!b.has(tid)) lost++;
  return { ms: ns / 1e6, lost };
}

/** Starts workerd in `runDir`; resolves to { pid, base, inspector, cpu(), stop() }.
 * `inspect`: with its inspector on a free loopback port (`inspector` is its address). */
export async function startWorkerd({ root, runDir, modules, inspect = false }) {
  const { bin, compatibilityDate } = workerdBinary(root);
  const config = path.join(runDir, "bench.capnp");
  fs.writeFileSync(config, configText(modules, compatibilityDate));
  const args = ["serve", config, "--control-fd=3"];
  if (inspect) args.push("--inspector-addr=127.0.0.1:0");
  const child = spawn(bin, args, { cwd: runDir, stdio: ["ignore", "ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let inspector = null;
  const listening = new Promise((resolve, reject) => {
    let buf = "";
    child.stdio[3].on("data", (d) => {
      buf += d;
      for (let nl; (nl = buf.indexOf("\n")) >= 0; buf = buf.slice(nl + 1)) {
        const msg = JSON.parse(buf.slice(0, nl));
        if (msg.event === "listen-inspector") inspector = `127.0.0.1:${msg.port}`;
        if (msg.event === "listen" && msg.socket === "http") resolve(msg.port);
      }
    });
    exited.then(({ code, signal }) => reject(new Error(`workerd exited (${code ?? signal}) before listening:\n${stderr}`)));
  });
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`workerd did not listen within 120 s:\n${stderr}`)), 120_000).unref());
  const port = await Promise.race([listening, timeout]);
  return {
    pid: child.pid,
    base: `http://127.0.0.1:${port}`,
    inspector,
    stderr: () => stderr,
    cpu: () => processCpu(child.pid),
    // SIGTERM lets workerd drain; one that has not exited after 10 s is killed.
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const late = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(late);
    },
  };
}
