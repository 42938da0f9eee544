// The burrow demo Worker (wrangler.toml `main`): a user of the JS API in ./burrow.mjs and of the
// pool in ./pool.mjs, plus the diagnostics of the demo's own wasm variant (./diagnostics.mjs).
// Not in the npm package.
//
//   GET /                the page: a form asking /info, its answer rendered (./demo-page.mjs)
//   GET /fetch?url=URL   relays URL through PROXY_URL with the configured trust, streaming
//   GET /info?url=URL    JSON: status, headers, TLS version, suite, group, ALPN, resumed, chain,
//                        OCSP, HTTP version, timings; with &ja4=1 the JA4 of the ClientHello seen
//                        on the socket
//     both take &via=NAME (a proxy by name: "default" is PROXY_URL, "direct", or a key of
//     PROXIES), &trust=system|ca (ca: CA_PEM), &profile=NAME (curl, chrome, ...), &pool=1
//     (the connection kept in the BurrowPool Durable Object, reused by later requests)
//   GET /health          {"ok":true,"version":...}
//   GET /selftest        burrow-crypto's known-answer tests inside workerd
//   GET /bench?op=...    a crypto loop inside workerd
//
// Configuration (wrangler.toml [vars], secrets, or .dev.vars under `wrangler dev`):
//   PROXY_URL  http://user:pass@host:port, https://..., socks5h://...  (empty: direct)
//   PROXIES    optional JSON {"name": "proxy URL", ...}: more proxies the page offers by name
//   DEMO_URL   the URL the page's form starts with (default https://example.com/)
//   NO_PROXY   hosts that bypass the proxy
//   CA_PEM     PEM trust anchors replacing the system roots (empty: system trust)
//   OFFLOAD    "off" keeps AES-GCM and signatures in wasm (for measuring); default on
// A failed fetch answers 502 with {"error": CODE, "message": ...}.

import { connect } from "cloudflare:sockets";
import { Client, BurrowError } from "./burrow.mjs";
import { PooledClient } from "./pool.mjs";
import { diagnostics } from "./diagnostics.mjs";
import { demoPage } from "./demo-page.mjs";
import { ja4 } from "./ja4.mjs";

// The Durable Object class behind `?pool=1` (wrangler.toml binds it as BURROW_POOL).
export { BurrowPool } from "./pool.mjs";

const PROFILES = ["default_web", "curl", "curl_7_88", "chrome"];

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

/** The proxies this deployment offers by name: `[{ value, label, url }]`, the default first. */
export function proxyChoices(env) {
  const list = [];
  if (env.PROXY_URL) list.push({ value: "default", label: `PROXY_URL (${redact(env.PROXY_URL)})`, url: env.PROXY_URL });
  list.push({ value: "direct", label: "direct (no proxy)", url: "" });
  if (env.PROXIES) {
    let named;
    try {
      named = JSON.parse(env.PROXIES);
    } catch (e) {
      throw new TypeError(`PROXIES is not JSON ({"name": "proxy URL", ...}): ${e.message}`);
    }
    for (const [name, url] of Object.entries(named)) list.push({ value: name, label: `${name} (${redact(url)})`, url: String(url) });
  }
  return list;
}

/** A proxy URL without its credentials, for labels. */
function redact(url) {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.username ? "…@" : ""}${u.host}`;
  } catch {
    return "not a URL";
  }
}

function trustChoices(env) {
  const list = [];
  if (env.CA_PEM) list.push({ value: "ca", label: "CA_PEM (private anchors)" });
  list.push({ value: "system", label: "system (bundled Mozilla roots)" });
  return list;
}

/** The client options for this request, from the environment and the page's choices (names
 * of what the deployment configured, never a proxy URL or PEM from the caller). */
export function clientOptions(env, params) {
  const options = {
    connect,
    proxy: env.PROXY_URL || undefined,
    noProxy: env.NO_PROXY || undefined,
    trust: env.CA_PEM ? { ca: env.CA_PEM } : "system",
    tls: { offload: env.OFFLOAD !== "off" },
  };
  if (params?.has("via")) {
    const via = params.get("via");
    const choice = proxyChoices(env).find((c) => c.value === via);
    if (!choice) throw new TypeError(`unknown proxy "${via}" (via=): this deployment offers ${proxyChoices(env).map((c) => c.value).join(", ")}`);
    options.proxy = choice.url || undefined;
  }
  if (params?.has("trust")) {
    const trust = params.get("trust");
    if (trust === "system") options.trust = "system";
    else if (trust === "ca" && env.CA_PEM) options.trust = { ca: env.CA_PEM };
    else throw new TypeError(`unknown trust "${trust}" (trust=): this deployment offers ${trustChoices(env).map((c) => c.value).join(", ")}`);
  }
  if (params?.get("profile")) {
    const profile = params.get("profile");
    if (!PROFILES.includes(profile)) throw new TypeError(`unknown profile "${profile}" (profile=): one of ${PROFILES.join(", ")}`);
    options.profile = profile;
  }
  // Tests choose the proxy and the switches per request; a deployment does not let its
  // callers do that.
  if (env.BURROW_TEST_HOOKS === "1" && params) {
    if (params.has("proxy")) options.proxy = params.get("proxy") || undefined;
    if (params.get("offload") === "off") options.tls.offload = false;
    if (params.has("inlineRecordBytes")) options.tls.inlineRecordBytes = Number(params.get("inlineRecordBytes"));
    if (params.get("http2") === "off") options.http2 = false;
    if (params.has("decompress")) options.decompress = params.get("decompress") !== "off";
    if (params.has("readView")) options.readViewBytes = Number(params.get("readView"));
    if (params.has("timeouts")) options.timeouts = JSON.parse(params.get("timeouts"));
    // Tests that count signatures, chains or staples need full handshakes: the isolate's
    // session cache (the default) only where a test asks for it.
    options.sessionCache = params.get("sessionCache") ?? "client";
    // Likewise the chain cache: each test client validates its chains itself unless a test
    // asks for the isolate's.
    options.chainCache = params.get("chainCache") ?? "client";
  }
  return options;
}

function target(params) {
  const url = params.get("url");
  if (!url) throw new TypeError("missing ?url= (percent-encode it)");
  return url;
}

async function relay(request, env, params) {
  const client = makeClient(env, params, clientOptions(env, params), null);
  let upstream;
  try {
    upstream = await client.fetch(target(params), { signal: request.signal });
  } finally {
    // The body keeps what it needs (its connection) until it is read; the rest goes now.
    client.close?.();
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

/** The first bytes written to each socket burrow opens (for the ClientHello's JA4). */
const SNIFF_BYTES = 16 * 1024;

/** `connect`, recording the first bytes each socket is sent into `hops`. The socket is passed
 * through but for its writable side, which copies into the record before writing. */
function sniffingConnect(hops) {
  return (address, options) => {
    const socket = connect(address, options);
    const hop = { bytes: new Uint8Array(0) };
    hops.push(hop);
    const writer = socket.writable.getWriter();
    const writable = new WritableStream({
      write(chunk) {
        if (hop.bytes.length < SNIFF_BYTES) {
          const take = chunk.subarray(0, SNIFF_BYTES - hop.bytes.length);
          const grown = new Uint8Array(hop.bytes.length + take.length);
          grown.set(hop.bytes);
          grown.set(take, hop.bytes.length);
          hop.bytes = grown;
        }
        return writer.write(chunk);
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason),
    });
    return {
      get readable() {
        return socket.readable;
      },
      writable,
      opened: socket.opened,
      closed: socket.closed,
      close: () => socket.close(),
    };
  };
}

/** The JA4 of the first ClientHello in what the sockets were sent: after a CONNECT request or
 * a SOCKS5 exchange it is the origin's; through an https:// proxy it is the proxy hop's (the
 * origin's travels encrypted inside it). */
async function helloSeen(hops, proxied) {
  for (const { bytes } of hops) {
    for (let i = 0; i + 6 <= bytes.length; i++) {
      if (bytes[i] !== 22 || bytes[i + 1] !== 3 || bytes[i + 5] !== 1) continue;
      const got = await ja4(bytes.subarray(i));
      if (got) return { ja4: got, hop: proxied === "https" ? "the socket to the https:// proxy (the origin's hello is encrypted inside its TLS)" : "the socket, sent to the origin" };
    }
  }
  return { ja4: null, hop: null, note: "no ClientHello on the socket (resumed from another request's connection?)" };
}

/** A `Client` for this request, or with `pool=1` a `PooledClient` whose connections live in
 * the BURROW_POOL object. `connect` replaces the platform's (the JA4 sniffer). */
function makeClient(env, params, options, connectWith) {
  if (params.get("pool") === "1") {
    if (!env.BURROW_POOL) throw new TypeError("pool=1 needs the BURROW_POOL Durable Object binding (wrangler.toml)");
    const { connect: _connect, ...rest } = options;
    return new PooledClient({ ...rest, pool: env.BURROW_POOL });
  }
  return new Client(connectWith ? { ...options, connect: connectWith } : options);
}

async function info(request, env, params) {
  const options = clientOptions(env, params);
  const pooled = params.get("pool") === "1";
  const hops = [];
  const client = makeClient(env, params, options, params.get("ja4") === "1" && !pooled ? sniffingConnect(hops) : null);
  const started = Date.now();
  let r, body;
  try {
    r = await client.fetch(target(params), { signal: request.signal });
    body = await r.arrayBuffer();
  } finally {
    client.close?.();
  }
  const answer = {
    url: r.url,
    status: r.status,
    bodyBytes: body.byteLength,
    ms: Date.now() - started,
    headers: [...r.headers],
    profile: options.profile ?? "default_web",
    ...r.burrow,
  };
  if (params.get("ja4") === "1") {
    answer.clientHello = pooled
      ? { ja4: null, hop: null, note: "the pool's object opened the socket: its bytes are not seen here" }
      : await helloSeen(hops, r.burrow.proxied);
  }
  return json(200, answer);
}

/** The page's choices: names and labels only. */
function page(env) {
  const proxies = proxyChoices(env).map(({ value, label }) => ({ value, label }));
  const html = demoPage({
    proxies,
    proxy: proxies[0].value,
    trusts: trustChoices(env),
    trust: env.CA_PEM ? "ca" : "system",
    profiles: PROFILES.map((p) => ({ value: p === "default_web" ? "" : p, label: p === "default_web" ? "default_web (burrow's own)" : p })),
    url: env.DEMO_URL || "https://example.com/",
    pool: Boolean(env.BURROW_POOL),
  });
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

const ROUTES = "GET / (the page), /fetch?url=URL, /info?url=URL, /health, /selftest, /bench?op=...";

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const params = url.searchParams;
    try {
      switch (url.pathname) {
        case "/":
          if (request.method !== "GET" && request.method !== "HEAD") return json(405, { error: "METHOD_NOT_ALLOWED", message: `only GET: ${ROUTES}` });
          return page(env);
        case "/fetch":
          return await relay(request, env, params);
        case "/info":
          return await info(request, env, params);
        case "/health":
        case "/selftest":
        case "/bench": {
          const d = diagnostics(request.method, url.pathname, url.search);
          return new Response(request.method === "HEAD" ? null : d.body, {
            status: d.status,
            headers: { "content-type": d.contentType, "cache-control": "no-store" },
          });
        }
        default:
          return json(404, { error: "NOT_FOUND", message: `no route ${url.pathname}: try ${ROUTES}` });
      }
    } catch (e) {
      return failure(e);
    }
  },
};
