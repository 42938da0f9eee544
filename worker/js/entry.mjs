// The burrow demo Worker (wrangler.toml `main`): a user of the JS API in ./burrow.mjs, plus the
// diagnostics of the demo's own wasm variant (./diagnostics.mjs). Not in the npm package.
//
//   GET /fetch?url=URL   relays URL through PROXY_URL with the configured trust, streaming
//   GET /info?url=URL    JSON: TLS version, suite, group, ALPN, resumed, chain, OCSP, HTTP
//                        version, timings
//   GET /health          {"ok":true,"version":...}
//   GET /selftest        burrow-crypto's known-answer tests inside workerd
//   GET /bench?op=...    a crypto loop inside workerd
//
// Configuration (wrangler.toml [vars], secrets, or .dev.vars under `wrangler dev`):
//   PROXY_URL  http://user:pass@host:port, https://..., socks5h://...  (empty: direct)
//   NO_PROXY   hosts that bypass the proxy
//   CA_PEM     PEM trust anchors replacing the system roots (empty: system trust)
//   OFFLOAD    "off" keeps AES-GCM and signatures in wasm (for measuring); default on
// A failed fetch answers 502 with {"error": CODE, "message": ...}.

import { connect } from "cloudflare:sockets";
import { Client, BurrowError } from "./burrow.mjs";
import { diagnostics } from "./diagnostics.mjs";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "proxy-connection",
]);

function json(status, value) {
  return new Response(JSON.stringify(value, null, 2) + "\n", {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

function failure(e) {
  if (e instanceof BurrowError) return json(502, { error: e.code, phase: e.phase, message: e.message });
  if (e instanceof TypeError) return json(400, { error: e.code ?? "BAD_REQUEST", message: e.message });
  if (e?.name === "AbortError") return json(504, { error: "ABORTED", message: e.message });
  return json(500, { error: "INTERNAL", message: String(e?.message ?? e) });
}

/** The client options for this request, from the environment. */
export function clientOptions(env, params) {
  const options = {
    connect,
    proxy: env.PROXY_URL || undefined,
    noProxy: env.NO_PROXY || undefined,
    trust: env.CA_PEM ? { ca: env.CA_PEM } : "system",
    tls: { offload: env.OFFLOAD !== "off" },
  };
  // Tests choose the proxy and the switches per request; a deployment does not let its
  // callers do that.
  if (env.BURROW_TEST_HOOKS === "1" && params) {
    if (params.has("proxy")) options.proxy = params.get("proxy") || undefined;
    if (params.get("offload") === "off") options.tls.offload = false;
    if (params.get("http2") === "off") options.http2 = false;
    if (params.has("decompress")) options.decompress = params.get("decompress") !== "off";
    if (params.has("profile")) options.profile = params.get("profile");
    if (params.has("readView")) options.readViewBytes = Number(params.get("readView"));
    if (params.has("timeouts")) options.timeouts = JSON.parse(params.get("timeouts"));
    // Tests that count signatures, chains or staples need full handshakes: the isolate's
    // session cache (the default) only where a test asks for it.
    options.sessionCache = params.get("sessionCache") ?? "client";
  }
  return options;
}

function target(params) {
  const url = params.get("url");
  if (!url) throw new TypeError("missing ?url= (percent-encode it)");
  return url;
}

async function relay(request, env, params) {
  const client = new Client(clientOptions(env, params));
  let upstream;
  try {
    upstream = await client.fetch(target(params), { signal: request.signal });
  } finally {
    // The body keeps what it needs (its connection) until it is read; the rest goes now.
    client.close();
  }
  const headers = new Headers();
  for (const [n, v] of upstream.headers) {
    if (HOP_BY_HOP.has(n)) continue;
    // The body is handed on decoded when burrow decoded it: its coding headers no longer fit.
    if (upstream.burrow.contentEncoding && (n === "content-encoding" || n === "content-length")) continue;
    headers.append(n, v);
  }
  headers.set("x-burrow-http-version", upstream.burrow.httpVersion);
  if (upstream.burrow.tls) headers.set("x-burrow-tls", `${upstream.burrow.tls.version} ${upstream.burrow.tls.cipher}`);
  return new Response(upstream.body, { status: upstream.status, headers });
}

async function info(request, env, params) {
  const client = new Client(clientOptions(env, params));
  const started = Date.now();
  let r, body;
  try {
    r = await client.fetch(target(params), { signal: request.signal });
    body = await r.arrayBuffer();
  } finally {
    client.close();
  }
  return json(200, {
    url: r.url,
    status: r.status,
    bodyBytes: body.byteLength,
    ms: Date.now() - started,
    ...r.burrow,
  });
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const params = url.searchParams;
    try {
      switch (url.pathname) {
        case "/fetch":
          return await relay(request, env, params);
        case "/info":
          return await info(request, env, params);
        default: {
          const d = diagnostics(request.method, url.pathname, url.search);
          return new Response(request.method === "HEAD" ? null : d.body, {
            status: d.status,
            headers: { "content-type": d.contentType, "cache-control": "no-store" },
          });
        }
      }
    } catch (e) {
      return failure(e);
    }
  },
};
