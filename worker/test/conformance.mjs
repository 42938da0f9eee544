// fetch conformance: the same requests through workerd's own `fetch` and through burrow's
// `client.fetch`, inside workerd (worker/test/conformance-worker.mjs under `wrangler dev`),
// direct to the local peers and to an origin this script serves. Each row compares what a
// caller sees: status, statusText, url, redirected, the headers (less hop-by-hop ones and
// Date), Set-Cookie via getSetCookie(), whether the body is null, the body's bytes, and the
// error's name. A row where burrow differs by design says how, and checks exactly that
// difference instead (the README's "fetch semantics" table gives the why). Every row also runs
// through burrow-worker/pool's PooledClient, which must see exactly what Client sees.
//
//   node worker/test/conformance.mjs      (PEERS_STATE, default /tmp/burrow-peers)
//
// The platform's fetch trusts the peers' test CA through NODE_EXTRA_CA_CERTS, which
// wrangler's local runtime adds to workerd's trusted certificates. Then the words a JS user
// reads in burrow's errors (JS option names, never Rust fields). Prints one line per check
// and "N passed, N failed"; exits non-zero on a failure.

import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { loadPeers, startWrangler } from "./harness.mjs";

const { state, peers, port } = loadPeers();

const caFile = path.join(state, "pki", "root.pem");
const ca = fs.readFileSync(caFile, "utf8");

let passed = 0;
let failed = 0;
function check(name, problem) {
  if (problem) failed++;
  else passed++;
  console.log(`${problem ? "FAIL" : "ok  "} ${name}${problem ? `  ${problem}` : ""}`);
}

const sha = (b) => createHash("sha256").update(b).digest("hex");

// --- the origin: what the peers' nginx has no location for ------------------------------
const TEXT = Buffer.from("hello from the conformance origin, ".repeat(64));
const CODERS = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync, zstd: zlib.zstdCompressSync };

function startOrigin() {
  const held = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const p = new URL(req.url, "http://x").pathname;
      const coding = p.startsWith("/coded/") ? p.slice("/coded/".length) : null;
      if (coding && CODERS[coding]) {
        const body = CODERS[coding](TEXT);
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": coding, "content-length": body.length });
        res.end(body);
      } else if (p === "/echo") {
        // What arrived, with a multipart boundary (random per request) replaced.
        let body = Buffer.concat(chunks).toString("latin1");
        let type = req.headers["content-type"] ?? null;
        const boundary = /boundary=(.+)$/.exec(type ?? "")?.[1];
        if (boundary) {
          body = body.split(boundary).join("BOUNDARY");
          type = type.split(boundary).join("BOUNDARY");
        }
        const framing = req.headers["transfer-encoding"] ? "chunked" : req.headers["content-length"] !== undefined ? "length" : "none";
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: req.method, type, framing, length: Buffer.byteLength(body, "latin1"), sha: sha(Buffer.from(body, "latin1")) }));
      } else if (p === "/seen") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ acceptEncoding: req.headers["accept-encoding"] ?? null, userAgent: req.headers["user-agent"] ?? null }));
      } else if (p === "/cookies") {
        res.setHeader("set-cookie", ["a=1; Path=/", "b=2; Path=/; HttpOnly"]);
        res.setHeader("content-type", "text/plain");
        res.end("two cookies");
      } else if (p === "/204") {
        res.writeHead(204, "Nothing Here", { "x-kind": "no content" });
        res.end();
      } else if (p === "/304") {
        res.writeHead(304, "Not Modified", { etag: '"v1"' });
        res.end();
      } else if (p === "/teapot") {
        res.writeHead(418, "I Am A Teapot Here", { "content-type": "text/plain" });
        res.end("short and stout");
      } else if (p === "/307") {
        res.writeHead(307, { location: "/echo" });
        res.end();
      } else if (p === "/slow-head") {
        held.push(res);
        setTimeout(() => res.writableEnded || res.end("late"), 3000);
      } else if (p === "/slow-body") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.write(Buffer.alloc(4096, 1));
        held.push(res);
        setTimeout(() => res.writableEnded || res.end(Buffer.alloc(4096, 2)), 3000);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: server.address().port,
        close: () => {
          for (const r of held) r.destroy();
          server.close();
        },
      }),
    ),
  );
}

// --- comparing ----------------------------------------------------------------------------
const UNCOMPARED_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "date"]);
// What a server changes when it codes the body: compared only when both were sent the same
// coding. burrow asks for gzip, deflate, br and zstd by default and workerd (locally) for
// none, so an origin may code burrow's response only; burrow then decodes it, and the body
// is still compared byte for byte.
const CODING_HEADERS = new Set(["content-encoding", "content-length", "etag", "accept-ranges"]);

const header = (o, name) => (o.headers ?? []).find(([n]) => n === name)?.[1];

function headerList(o, skip) {
  return (o.headers ?? [])
    .filter(([n]) => !UNCOMPARED_HEADERS.has(n) && !skip.has(n))
    .map(([n, v]) => `${n}: ${v}`)
    .sort();
}

/** Whether only burrow's response was coded, because only burrow asked (and it decoded it). */
function codedForBurrowOnly(platform, burrow) {
  const coding = header(burrow, "content-encoding");
  return coding !== undefined && header(platform, "content-encoding") === undefined && (burrow.decoded === coding || burrow.bodyNull);
}

/** What is compared, and how each is read off an outcome. */
const FIELDS = {
  status: (o) => o.status,
  statusText: (o) => o.statusText,
  url: (o) => o.url,
  redirected: (o) => o.redirected,
  headers: (o, skip) => headerList(o, skip),
  setCookie: (o) => o.setCookie,
  bodyNull: (o) => o.bodyNull,
  body: (o) => (o.bodySha === undefined ? undefined : `${o.bodyBytes} bytes ${o.bodySha.slice(0, 16)}`),
  error: (o) => o.error?.name,
  bodyError: (o) => o.bodyError?.name,
};

/** The fields that differ between the two outcomes (less `ignore`), described. */
function differences(platform, burrow, ignore = []) {
  const out = [];
  const skip = codedForBurrowOnly(platform, burrow) ? CODING_HEADERS : new Set();
  for (const [field, read] of Object.entries(FIELDS)) {
    if (ignore.includes(field)) continue;
    const a = JSON.stringify(read(platform, skip));
    const b = JSON.stringify(read(burrow, skip));
    if (a !== b) out.push(`${field}: workerd ${a} / burrow ${b}`);
  }
  return out;
}

// --- the rows -------------------------------------------------------------------------------
function rows(originPort) {
  const PLAIN = `http://127.0.0.1:${port("PLAIN")}`;
  const DEF = `https://localhost:${port("DEF")}`;
  const H1 = `https://localhost:${port("H1")}`;
  const O = `http://127.0.0.1:${originPort}`;
  const su = peers.creds?.socks_user ?? "socksuser";
  const sp = peers.creds?.socks_pass ?? "sockspass";
  const socks5 = `socks5://${su}:${sp}@127.0.0.1:${port("SOCKS_AUTH")}`;
  const textSha = sha(TEXT);
  const decodedText = (o) => (o.bodySha === textSha ? null : `body is not the decoded text (${o.bodyBytes} bytes)`);
  const stillCoded = (o) => (o.bodySha !== textSha && o.bodyBytes < TEXT.length ? null : `body is not the coded bytes (${o.bodyBytes} bytes)`);
  const echoed = (o) => {
    try {
      return JSON.parse(o.bodyText);
    } catch {
      return null;
    }
  };
  const rows = [
    // Plain requests, both HTTP versions.
    { name: "GET over HTTP/1.1", row: { url: `${PLAIN}/1k` } },
    { name: "GET over TLS, HTTP/1.1", row: { url: `${H1}/1k` } },
    // workerd speaks HTTP/1.1 to origins; HTTP/2 has no reason phrase (RFC 9113 §8.3.2).
    { name: "GET over TLS, HTTP/2 (statusText empty by design)", row: { url: `${DEF}/1k` }, ignore: ["statusText"], burrow: (b) => (b.statusText === "" ? null : `statusText ${JSON.stringify(b.statusText)}`) },
    { name: "GET over TLS with http2: false: statusText too", row: { url: `${DEF}/1k`, client: { http2: false } } },
    { name: "a status and its own reason phrase (418)", row: { url: `${O}/teapot` } },
    // Decoding.
    { name: "caller-set accept-encoding: gzip (nginx, HTTP/1.1): decoded", row: { url: `${PLAIN}/1m`, headers: { "accept-encoding": "gzip" } }, burrow: (b) => (b.decoded === "gzip" ? null : `decoded ${b.decoded}`) },
    { name: "caller-set accept-encoding: gzip (nginx over TLS, HTTP/2): decoded", row: { url: `${DEF}/1m`, headers: { "accept-encoding": "gzip" } }, ignore: ["statusText"] },
    { name: "gzip without accept-encoding: decoded, headers as sent", row: { url: `${O}/coded/gzip` } },
    { name: "caller-set accept-encoding: br: decoded", row: { url: `${O}/coded/br`, headers: { "accept-encoding": "br" } } },
    {
      name: "caller-set accept-encoding: deflate: burrow decodes, workerd hands on the coded bytes (by design)",
      row: { url: `${O}/coded/deflate`, headers: { "accept-encoding": "deflate" } },
      ignore: ["body"],
      platform: stillCoded,
      burrow: decodedText,
    },
    {
      name: "caller-set accept-encoding: zstd: burrow decodes, workerd hands on the coded bytes (by design)",
      row: { url: `${O}/coded/zstd`, headers: { "accept-encoding": "zstd" } },
      ignore: ["body"],
      platform: stillCoded,
      burrow: decodedText,
    },
    { name: "deflate with decompress: false: coded, as workerd", row: { url: `${O}/coded/deflate`, headers: { "accept-encoding": "deflate" }, client: { decompress: false } } },
    { name: "zstd with decompress: false: coded, as workerd", row: { url: `${O}/coded/zstd`, client: { decompress: false } } },
    {
      name: "gzip with decompress: false: coded bytes and coding headers (the option's point)",
      row: { url: `${O}/coded/gzip`, client: { decompress: false } },
      ignore: ["body"],
      platform: decodedText,
      burrow: (b) => stillCoded(b) ?? (b.headers.some(([n, v]) => n === "content-encoding" && v === "gzip") ? null : "no content-encoding header"),
    },
    {
      name: "what the origin is sent by default: Accept-Encoding and User-Agent (by design)",
      row: { url: `${O}/seen` },
      ignore: ["body", "headers"],
      burrow: (b) => {
        const seen = echoed(b);
        return seen?.acceptEncoding === "gzip, deflate, br, zstd" && seen?.userAgent?.startsWith("burrow/") ? null : `origin saw ${b.bodyText}`;
      },
    },
    // Redirects.
    { name: "redirects followed: url and redirected", row: { url: `${PLAIN}/r3` } },
    { name: "redirect: \"manual\" per request", row: { url: `${PLAIN}/redirect`, redirect: "manual" } },
    { name: "redirect: \"manual\" on a Request input", row: { url: `${PLAIN}/redirect`, redirect: "manual", input: "request" } },
    { name: "redirect: \"follow\" per request over a client default of \"manual\"", row: { url: `${PLAIN}/r3`, redirect: "follow", client: { redirect: "manual" } } },
    {
      name: "redirect: \"error\" per request: a TypeError (workerd refuses \"error\" before sending)",
      row: { url: `${PLAIN}/redirect`, redirect: "error" },
      burrow: (b) => (b.error?.code === "REDIRECT_FORBIDDEN" ? null : `error ${JSON.stringify(b.error)}`),
    },
    { name: "307 resends a POST body", row: { url: `${O}/307`, method: "POST", body: "string", headers: { "content-type": "text/plain" } } },
    // Responses without a body, and several Set-Cookie.
    { name: "HEAD", row: { url: `${PLAIN}/1k`, method: "HEAD" } },
    { name: "204 (its reason phrase kept)", row: { url: `${O}/204` } },
    { name: "304", row: { url: `${O}/304` } },
    { name: "Set-Cookie twice: getSetCookie() keeps them apart", row: { url: `${O}/cookies` } },
    // Request bodies of every type, and a Request input with one.
    ...["string", "arraybuffer", "typedarray", "blob", "urlsearchparams", "formdata", "stream"].map((kind) => ({
      name: `POST body: ${kind}`,
      row: { url: `${O}/echo`, method: "POST", body: kind },
    })),
    { name: "POST body: a Request input with a string body", row: { url: `${O}/echo`, method: "POST", body: "string", input: "request" } },
    { name: "PUT body: a Request input with a Blob body", row: { url: `${O}/echo`, method: "PUT", body: "blob", input: "request" } },
    {
      name: "POST body: a Request input with a stream body: the same bytes, sent with their length (workerd: chunked; by design)",
      row: { url: `${O}/echo`, method: "POST", body: "stream", input: "request" },
      ignore: ["body"],
      burrow: (b) => {
        const seen = echoed(b);
        return seen?.framing === "length" ? null : `framing ${seen?.framing}`;
      },
      both: (p, b) => {
        const [a, c] = [echoed(p), echoed(b)];
        const same = a && c && a.method === c.method && a.type === c.type && a.length === c.length && a.sha === c.sha;
        return same ? null : `echoes differ: ${p.bodyText} / ${b.bodyText}`;
      },
    },
    // Abort.
    { name: "signal aborted before the call", row: { url: `${PLAIN}/1k`, signal: "before" } },
    { name: "signal aborted while waiting for the head", row: { url: `${O}/slow-head`, signal: "headers" } },
    { name: "signal aborted during the body", row: { url: `${O}/slow-body`, signal: "body" } },
    // socks5:// (the platform goes direct): the proxy resolves, as socks5h:// would.
    {
      name: "socks5:// proxy URL with credentials (microsocks+auth): works, proxied says socks5h",
      row: { url: `${H1}/1k`, client: { proxy: socks5 } },
      burrow: (b) => (b.proxied === "socks5h" ? null : `proxied ${b.proxied}`),
    },
  ];
  return rows;
}

// --- the words a JS user reads ------------------------------------------------------------
// Errors name the JS options (never ClientConfig fields), OCSP_REVOKED says revoked and
// nothing else, a proxy's refusal carries its own reason, a closed client says so.
async function checkWords(base) {
  const DEF = `https://localhost:${port("DEF")}`;
  const u = peers.creds?.proxy_user ?? "proxyuser";
  const pw = peers.creds?.proxy_pass ?? "proxypass";
  const cases = {
    untrusted: { url: `${DEF}/1k`, client: { trust: "system" } },
    revoked: { url: `https://localhost:${port("STAPLE_REVOKED")}/1k` },
    refused: { url: "https://localhost:1/", client: { proxy: `http://127.0.0.1:${port("SQUID")}` } },
    proxyUntrusted: { url: `${DEF}/1k`, client: { proxy: `https://${u}:${pw}@localhost:${port("HTTPS_PROXY_AUTH")}`, proxyTrust: "system" } },
    tooLarge: { url: `${DEF}/1m.bin`, client: { maxBodyBytes: 100 } },
  };
  const res = await fetch(`${base}/words`, { method: "POST", body: JSON.stringify({ cases, ca }) });
  const got = await res.json();
  const rustWords = /ClientConfig|no_proxy|max_body_bytes|proxy_tls|tls\.trust|deadlines\./;
  const expect = [
    ["untrusted", "CERT_UNTRUSTED", "tls", (m) => m.includes("trust its CA with `trust`")],
    ["revoked", "OCSP_REVOKED", "tls", (m) => m.includes("certificate is revoked") && !/trust|pins|insecure/.test(m.split(":").slice(1).join(":"))],
    ["refused", "PROXY_REFUSED", "proxy", (m) => m.includes("X-Squid-Error: ERR_CONNECT_FAIL") && m.includes("check `proxy`, or list the host in `noProxy`")],
    ["proxyUntrusted", "CERT_UNTRUSTED", "tls", (m) => m.includes("the HTTPS proxy's TLS connection") && m.includes("`proxyTrust`")],
    ["tooLarge", "BODY_TOO_LARGE", "body", (m) => m.includes("raise `maxBodyBytes`")],
    ["statsAfterClose", "CLIENT_CLOSED", "request", () => true],
    ["fetchAfterClose", "CLIENT_CLOSED", "request", () => true],
  ];
  for (const [name, code, phase, says] of expect) {
    const e = got[name] ?? {};
    const m = e.message ?? "";
    const ok = e.burrow === true && e.code === code && e.phase === phase && says(m) && !rustWords.test(m);
    check(`JS words: ${name} → ${code} (${phase})`, ok ? "" : JSON.stringify(e));
  }
}

/** An outcome's fields with the origin's `date` header's value left out: the two fetches of a
 * row are made one after the other, and on a busy machine they straddle a second. */
function withoutDate(outcome) {
  if (!Array.isArray(outcome.headers)) return outcome;
  return { ...outcome, headers: outcome.headers.map(([n, v]) => (n === "date" ? [n, "(date)"] : [n, v])) };
}

/** Where the pool's outcome differs from Client's (null when none). */
function poolDifferences(burrow, pooled) {
  if (!pooled) return "no pooled outcome";
  const out = [];
  [burrow, pooled] = [withoutDate(burrow), withoutDate(pooled)];
  for (const k of new Set([...Object.keys(burrow), ...Object.keys(pooled)])) {
    const [a, b] = [JSON.stringify(burrow[k]), JSON.stringify(pooled[k])];
    if (a !== b) out.push(`${k}: Client ${a} / PooledClient ${b}`);
  }
  return out.length > 0 ? out.join("; ") : null;
}

async function main() {
  const origin = await startOrigin();
  // The platform's fetch trusts what NODE_EXTRA_CA_CERTS names (wrangler's local runtime
  // adds it to workerd's trusted certificates).
  const { base, stop } = await startWrangler("conformance.toml", "wrangler-conformance.log", { env: { NODE_EXTRA_CA_CERTS: caFile } });
  const poolMismatches = [];
  let poolRows = 0;
  try {
    for (const r of rows(origin.port)) {
      let outcome;
      try {
        const res = await fetch(`${base}/row`, { method: "POST", body: JSON.stringify({ row: r.row, ca }) });
        outcome = await res.json();
      } catch (e) {
        check(r.name, `the Worker did not answer: ${e.message}`);
        continue;
      }
      const { platform, burrow, pooled } = outcome;
      poolRows++;
      const poolDiff = poolDifferences(burrow, pooled);
      if (poolDiff) poolMismatches.push(`${r.name}: ${poolDiff}`);
      const problems = differences(platform, burrow, r.ignore);
      for (const [who, o] of [["workerd", platform], ["burrow", burrow]]) {
        const want = who === "workerd" ? r.platform : r.burrow;
        const p = want?.(o);
        if (p) problems.push(`${who}: ${p}`);
      }
      const both = r.both?.(platform, burrow);
      if (both) problems.push(both);
      // An error on both sides is only a match when the row expects one.
      const expectsError = r.row.signal === "before" || r.row.signal === "headers" || r.row.redirect === "error";
      if (!expectsError && (platform.error || burrow.error)) problems.push(`unexpected error: workerd ${JSON.stringify(platform.error)} / burrow ${JSON.stringify(burrow.error)}`);
      if (r.row.signal === "body" && burrow.bodyError?.name !== "AbortError") problems.push(`body error ${JSON.stringify(burrow.bodyError)}`);
      check(`conformance: ${r.name}`, problems.join("; "));
    }
    check(`PooledClient sees what Client sees, on all ${poolRows} rows`, poolRows > 0 && poolMismatches.length === 0 ? "" : poolMismatches.join(" | ") || "no rows");
    await checkWords(base);
  } finally {
    stop();
    origin.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
