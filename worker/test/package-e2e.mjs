// The npm package as a user gets it (script/package-e2e runs this after script/build-worker):
//
//   1. `npm pack` refuses without a build of the package's wasm, with a stale one, and with
//      another variant's; it packs exactly the files a consumer needs (`npm pack --dry-run`).
//   2. `tsc --noEmit --strict` against @cloudflare/workers-types passes on the declarations,
//      on every ```ts example of README.md and worker/README.md, and on the consumer Worker.
//   3. The consumer Worker (examples/js-worker: its own package.json depending on the packed
//      tarball, its own wrangler.toml) is installed from the tarball, bundled by wrangler
//      without a warning, and inside workerd fetches /1m (gzip) and /4m.bin byte-exact through
//      squid and microsocks, both with credentials.
//
// Prints one line per check and "N passed, N failed"; exits non-zero on a failure.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { check, finish, loadPeers, root, startWrangler } from "./harness.mjs";

const pkgDir = path.join(root, "worker");
const example = path.join(root, "examples", "js-worker");
// Not CARGO_TARGET_DIR: examples/js-worker/package.json names the tarball under target/npm.
const target = path.join(root, "target");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...opts });
  return { code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}`, stdout: r.stdout ?? "" };
}

// --- 1. packing ---------------------------------------------------------------------------

// What a consumer needs, and nothing else.
const SHIPPED = [
  "LICENSE-APACHE",
  "LICENSE-MIT",
  "README.md",
  "build/burrow_worker.js",
  "build/burrow_worker_bg.wasm",
  "build/wasm.js",
  "js/burrow.d.mts",
  "js/burrow.d.ts",
  "js/burrow.mjs",
  "js/pool.d.mts",
  "js/pool.mjs",
  "js/request-parts.mjs",
  "js/warmup-exchange.mjs",
  "package.json",
];

// A copy of the package's manifest and check beside a fake workspace, to see `npm pack` refuse.
function refusal(name, setup, want) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-pack-"));
  try {
    const w = path.join(dir, "worker");
    fs.mkdirSync(path.join(w, "build"), { recursive: true });
    fs.mkdirSync(path.join(dir, "crates", "x", "src"), { recursive: true });
    for (const f of ["package.json", "check-build.mjs"]) fs.copyFileSync(path.join(pkgDir, f), path.join(w, f));
    for (const f of ["Cargo.toml", "Cargo.lock"]) fs.writeFileSync(path.join(dir, f), "");
    fs.writeFileSync(path.join(dir, "crates", "x", "src", "lib.rs"), "");
    const old = new Date(Date.now() - 60_000);
    for (const f of ["Cargo.toml", "Cargo.lock", "crates/x/src/lib.rs"]) fs.utimesSync(path.join(dir, f), old, old);
    setup(w, dir);
    const r = run("npm", ["pack", "--dry-run", "--json"], { cwd: w });
    const ok = want === "packs" ? r.code === 0 : r.code !== 0 && r.out.includes(want) && r.out.includes("script/build-worker");
    check(`npm pack ${name}`, ok, r.out.slice(-600));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function writeBuild(w, features = "none") {
  for (const f of ["wasm.js", "burrow_worker.js", "burrow_worker_bg.wasm"]) fs.writeFileSync(path.join(w, "build", f), "");
  fs.writeFileSync(path.join(w, "build", "features"), `${features}\n`);
}

function packing() {
  refusal("without a build refuses, saying how", () => {}, "is missing");
  refusal("with another variant's wasm refuses", (w) => writeBuild(w, "demo,test-hooks"), "not the package's");
  refusal("after a Rust source changed refuses", (w, dir) => {
    writeBuild(w);
    const old = new Date(Date.now() - 30_000);
    for (const f of ["wasm.js", "burrow_worker.js", "burrow_worker_bg.wasm", "features"]) fs.utimesSync(path.join(w, "build", f), old, old);
    fs.utimesSync(path.join(dir, "crates", "x", "src", "lib.rs"), new Date(), new Date());
  }, "changed after");
  refusal("with a fresh build packs", (w) => writeBuild(w), "packs");

  const dry = run("npm", ["pack", "--dry-run", "--json"], { cwd: pkgDir });
  let files = [];
  try {
    files = JSON.parse(dry.stdout)[0].files.map((f) => f.path);
  } catch {}
  // The snippets' folder name carries a hash: compare it by shape.
  const got = files.map((f) => f.replace(/^build\/snippets\/burrow-worker-[0-9a-f]+\//, "build/snippets/*/")).sort();
  const want = [...SHIPPED, "build/snippets/*/inline0.js", "build/snippets/*/inline1.js"].sort();
  check("the tarball holds exactly what a consumer needs", dry.code === 0 && JSON.stringify(got) === JSON.stringify(want), `${dry.out.slice(-400)}\n got ${JSON.stringify(got)}\nwant ${JSON.stringify(want)}`);

  const dest = path.join(target, "npm");
  fs.mkdirSync(dest, { recursive: true });
  const packed = run("npm", ["pack", "--json", "--pack-destination", dest], { cwd: pkgDir });
  let tgz = null;
  try {
    tgz = path.join(dest, JSON.parse(packed.stdout)[0].filename);
  } catch {}
  check("npm pack makes the tarball", packed.code === 0 && tgz !== null && fs.existsSync(tgz), packed.out.slice(-600));
  return tgz;
}

// --- 2. types -----------------------------------------------------------------------------

function readmeExamples() {
  const dir = path.join(target, "ts-check");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const files = [];
  for (const readme of ["README.md", "worker/README.md"]) {
    const text = fs.readFileSync(path.join(root, readme), "utf8");
    const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    blocks.forEach((code, i) => {
      const f = path.join(dir, `${readme.replace(/[/.]/g, "_")}_${i + 1}.ts`);
      fs.writeFileSync(f, code);
      files.push(f);
    });
    check(`${readme} has TypeScript examples to compile`, blocks.length > 0, "no ```ts block");
  }
  const config = {
    compilerOptions: {
      target: "es2022",
      module: "es2022",
      moduleResolution: "bundler",
      lib: ["es2022"],
      types: ["@cloudflare/workers-types"],
      strict: true,
      noEmit: true,
      // The README examples import the package by name: the package folder of this checkout
      // (its package.json `types`, so burrow.d.ts and through it burrow.d.mts; the consumer
      // Worker resolves the installed tarball through `exports`).
      paths: { "burrow-worker": [pkgDir], "burrow-worker/pool": [path.join(pkgDir, "js", "pool.d.mts")] },
    },
    files: [path.join(pkgDir, "js", "burrow.d.mts"), path.join(pkgDir, "js", "burrow.d.ts"), path.join(pkgDir, "js", "pool.d.mts"), ...files],
  };
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config, null, 2));
  return dir;
}

function types() {
  const dir = readmeExamples();
  const decl = run(bin("tsc"), ["--noEmit", "--strict", "-p", dir], { cwd: root });
  check("tsc --noEmit --strict: declarations and README examples", decl.code === 0, decl.out.slice(0, 3000));
  const consumer = run(bin("tsc"), ["--noEmit", "--strict", "-p", example], { cwd: root });
  check("tsc --noEmit --strict: the consumer Worker (types from the installed tarball)", consumer.code === 0, consumer.out.slice(0, 3000));
}

// --- 3. the consumer Worker in workerd ----------------------------------------------------

async function consumer() {
  const { state, port, creds: c, sums } = loadPeers();
  const proxies = {
    "squid+auth": `http://${c.proxy_user}:${c.proxy_pass}@127.0.0.1:${port("SQUID_AUTH")}`,
    "microsocks+auth": `socks5h://${c.socks_user}:${c.socks_pass}@127.0.0.1:${port("SOCKS_AUTH")}`,
  };
  const ca = fs.readFileSync(path.join(state, "pki", "root.pem"), "utf8");
  // Single quotes: a dotenv value taken as written (the JSON keeps its double quotes).
  fs.writeFileSync(path.join(example, ".dev.vars"), `PROXIES='${JSON.stringify(proxies)}'\nCA_PEM=${JSON.stringify(ca)}\n`);

  let worker;
  try {
    // Without ?url= the Worker answers 400 with its usage: it is up.
    worker = await startWrangler(path.join(example, "wrangler.toml"), "wrangler-js-worker.log", { ready: async (base) => (await fetch(`${base}/`)).status === 400 });
  } catch (e) {
    check("the consumer Worker starts under wrangler dev", false, String(e.message));
    return;
  }
  check("the consumer Worker starts under wrangler dev", true);
  try {
    for (const via of Object.keys(proxies)) {
      for (const file of ["1m", "4m.bin"]) {
        const u = new URL(worker.base);
        u.searchParams.set("url", `https://localhost:${port("DEF")}/${file}`);
        u.searchParams.set("via", via);
        const r = await fetch(u);
        const j = await r.json().catch(() => ({}));
        const size = fs.statSync(path.join(state, "www", file)).size;
        const coded = file === "1m" ? j.contentEncoding === "gzip" : j.contentEncoding === null;
        check(`consumer Worker via ${via}: /${file} byte-exact (${j.bytes} B${file === "1m" ? ", gzip decoded" : ""})`, r.status === 200 && j.status === 200 && j.bytes === size && j.sha256 === sums[file] && coded && j.proxied !== null, JSON.stringify(j));
      }
    }
    const warmed = await (await fetch(new URL("/warmup", worker.base))).json().catch((e) => ({ error: String(e) }));
    check("consumer Worker's warmup() at module scope replayed (from the tarball)", warmed.ok === true, JSON.stringify(warmed));
    // The pool from the tarball: the second Worker request reuses the first one's connection.
    const pooled = [];
    for (let i = 0; i < 2; i++) {
      const u = new URL(worker.base);
      u.searchParams.set("url", `https://localhost:${port("DEF")}/1m`);
      u.searchParams.set("via", "squid+auth");
      u.searchParams.set("pooled", "1");
      pooled.push(await (await fetch(u)).json().catch(() => ({})));
    }
    check(
      "consumer Worker's PooledClient: the next Worker request reuses the pooled connection",
      pooled.every((j) => j.status === 200 && j.sha256 === sums["1m"]) && pooled[0].reused === false && pooled[1].reused === true,
      JSON.stringify(pooled),
    );
  } finally {
    worker.stop();
  }
  const warnings = fs.readFileSync(worker.logFile, "utf8").split("\n").filter((l) => /\[WARNING\]|Duplicate key/.test(l));
  check("wrangler bundles the package without a warning", warnings.length === 0, warnings.join(" | "));
}

async function main() {
  const tgz = packing();
  if (tgz !== null) {
    fs.rmSync(path.join(example, "node_modules"), { recursive: true, force: true });
    const inst = run("npm", ["install", "--no-package-lock", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: example });
    const installed = path.join(example, "node_modules", "burrow-worker", "build", "burrow_worker_bg.wasm");
    check("the consumer installs burrow-worker from the tarball", inst.code === 0 && fs.existsSync(installed), inst.out.slice(-600));
  }
  types();
  if (tgz !== null) await consumer();
  finish();
}

main().catch((e) => {
  console.error(e);
  finish(1);
});
