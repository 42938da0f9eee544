// The example Rust Worker (examples/rust-worker: workers-rs, burrow-worker's Rust API) inside
// workerd. script/rust-worker-e2e builds it with worker-build first, then runs this:
//
//   1. The module carries none of the JS API: no RawClient/RawResponse/AbortToken export in the
//      wasm, no trace of them in the glue; worker/README.md's Rust example is the example's
//      src/lib.rs, verbatim (so the README's code is the code compiled and run here).
//   2. Under `wrangler dev`, GET /?url=...&proxy=NAME streams /1m (gzip, decoded by burrow) and
//      /4m.bin back byte-exact (SHA-256 of what arrives here) through squid and microsocks, both
//      with credentials.
//   3. Failures answer the typed error's code: an expired certificate is CERT_EXPIRED (phase
//      tls), a wrong proxy password PROXY_AUTH_REQUIRED (phase proxy).
//
// Prints one line per check and "N passed, N failed"; exits non-zero on a failure.

import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { check, finish, loadPeers, root, startWrangler } from "./harness.mjs";

const example = path.join(root, "examples", "rust-worker");
const build = path.join(example, "build");

// --- 1. what the module is ---------------------------------------------------------------

function module() {
  const glue = path.join(build, "index.js");
  const wasmFile = fs.existsSync(build) ? fs.readdirSync(build).find((f) => f.endsWith(".wasm")) : undefined;
  check("worker-build made build/index.js and its wasm", fs.existsSync(glue) && wasmFile !== undefined, `${build}: ${fs.existsSync(build) ? fs.readdirSync(build).join(", ") : "missing"}`);
  if (wasmFile === undefined || !fs.existsSync(glue)) return;
  const bytes = fs.readFileSync(path.join(build, wasmFile));
  const exports = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
  const jsApi = exports.filter((n) => /rawclient|rawresponse|aborttoken/i.test(n));
  check(`the Rust Worker's wasm exports none of the JS API (${exports.length} exports, ${bytes.length} B)`, exports.length > 0 && jsApi.length === 0, jsApi.join(", "));
  const js = fs.readFileSync(glue, "utf8");
  check("its glue names none of the JS API", !/RawClient|RawResponse|AbortToken/.test(js), "found RawClient/RawResponse/AbortToken in build/index.js");
  check("its glue imports connect from cloudflare:sockets (burrow's import, kept for the runtime)", /from\s*["']cloudflare:sockets["']/.test(js), "no cloudflare:sockets import in build/index.js");
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  console.log(`rust-worker: build/${wasmFile} ${bytes.length} B (${(bytes.length / 1e6).toFixed(2)} MB), ${gz} B gzipped (${(gz / 1e6).toFixed(2)} MB)`);
}

function readme() {
  const text = fs.readFileSync(path.join(root, "worker", "README.md"), "utf8");
  const blocks = [...text.matchAll(/```rust\n([\s\S]*?)```/g)].map((m) => m[1]);
  const src = fs.readFileSync(path.join(example, "src", "lib.rs"), "utf8");
  check("worker/README.md's Rust example is examples/rust-worker/src/lib.rs verbatim", blocks.length === 1 && blocks[0] === src, `${blocks.length} rust block(s); first differs from src/lib.rs`);
}

// --- 2 and 3. in workerd ------------------------------------------------------------------

async function inWorkerd() {
  const { state, port, creds: c, sums } = loadPeers();
  const proxies = {
    "squid+auth": `http://${c.proxy_user}:${c.proxy_pass}@127.0.0.1:${port("SQUID_AUTH")}`,
    "microsocks+auth": `socks5h://${c.socks_user}:${c.socks_pass}@127.0.0.1:${port("SOCKS_AUTH")}`,
    "squid+wrongpass": `http://${c.proxy_user}:not-${c.proxy_pass}@127.0.0.1:${port("SQUID_AUTH")}`,
  };
  const ca = fs.readFileSync(path.join(state, "pki", "root.pem"), "utf8");
  // Single quotes: a dotenv value taken as written (the JSON keeps its double quotes).
  fs.writeFileSync(path.join(example, ".dev.vars"), `PROXIES='${JSON.stringify(proxies)}'\nCA_PEM=${JSON.stringify(ca)}\n`);
  // The example's wrangler.toml less its [build]: wrangler runs what script/rust-worker-e2e
  // built and this test inspected, rather than building again.
  const config = fs.readFileSync(path.join(example, "wrangler.toml"), "utf8").replace(/^\[build\][\s\S]*?(?=^\[|^# PROXIES)/m, "");
  const e2eConfig = path.join(example, "wrangler.e2e.toml");
  fs.writeFileSync(e2eConfig, config);

  let worker;
  try {
    // Without ?url= the Worker answers 400 with its usage: it is up.
    worker = await startWrangler(e2eConfig, "wrangler-rust-worker.log", { ready: async (base) => (await fetch(`${base}/`)).status === 400 });
  } catch (e) {
    check("the Rust Worker starts under wrangler dev", false, String(e.message));
    return;
  }
  check("the Rust Worker starts under wrangler dev", true);
  const get = (params) => {
    const u = new URL(worker.base);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    // identity: the runtime would gzip a text body for a caller that takes gzip (as the edge
    // does), which would hide whether burrow's headers describe the bytes it streams.
    return fetch(u, { headers: { "accept-encoding": "identity" } });
  };
  try {
    for (const via of ["squid+auth", "microsocks+auth"]) {
      for (const file of ["1m", "4m.bin"]) {
        const r = await get({ url: `https://localhost:${port("DEF")}/${file}`, proxy: via });
        // Read as it streams: count the pieces, hash the bytes.
        const hash = crypto.createHash("sha256");
        let bytes = 0;
        let pieces = 0;
        if (r.body !== null) {
          for await (const piece of r.body) {
            hash.update(piece);
            bytes += piece.length;
            pieces++;
          }
        }
        const sha = hash.digest("hex");
        const size = fs.statSync(path.join(state, "www", file)).size;
        const decoded = r.headers.get("x-burrow-decoded");
        // burrow decoded /1m and said so. (That the Worker's answer drops the origin's
        // Content-Encoding is not observable here: kept, the runtime would gzip the decoded body
        // itself and, for an identity caller, undo it; the bytes are what is checked.)
        const coded = file === "1m" ? decoded === "gzip" && r.headers.get("content-encoding") === null : decoded === "";
        const proxied = r.headers.get("x-burrow-proxied");
        check(
          `Rust Worker via ${via}: /${file} byte-exact (${bytes} B in ${pieces} pieces${file === "1m" ? ", gzip decoded by burrow" : ""}, ${r.headers.get("x-burrow-http-version")}, proxied ${proxied})`,
          r.status === 200 && bytes === size && sha === sums[file] && coded && proxied !== null && proxied !== "None",
          `status ${r.status}, ${bytes} B, sha ${sha} want ${sums[file]}, headers ${JSON.stringify(Object.fromEntries(r.headers))}`,
        );
      }
    }
    const failures = [
      { name: "an expired certificate", url: `https://localhost:${port("EXPIRED")}/1m`, proxy: "squid+auth", code: "CERT_EXPIRED", phase: "tls" },
      { name: "a wrong proxy password", url: `https://localhost:${port("DEF")}/1m`, proxy: "squid+wrongpass", code: "PROXY_AUTH_REQUIRED", phase: "proxy" },
    ];
    for (const f of failures) {
      const r = await get({ url: f.url, proxy: f.proxy });
      const j = await r.json().catch(() => ({}));
      check(
        `Rust Worker: ${f.name} is ${f.code} (phase ${f.phase}), its message code first`,
        r.status === 502 && j.error === f.code && j.phase === f.phase && typeof j.message === "string" && j.message.startsWith(`${f.code}: `),
        `status ${r.status} ${JSON.stringify(j)}`,
      );
    }
  } finally {
    worker.stop();
  }
  const warnings = fs.readFileSync(worker.logFile, "utf8").split("\n").filter((l) => /\[WARNING\]|\[ERROR\]/.test(l));
  check("wrangler runs the Rust Worker without a warning", warnings.length === 0, warnings.join(" | "));
}

async function main() {
  module();
  readme();
  await inWorkerd();
  finish();
}

main().catch((e) => {
  console.error(e);
  finish(1);
});
