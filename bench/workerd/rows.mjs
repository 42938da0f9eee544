// What the workerd harness measures: issue 25's table, each row over HTTP/2 and HTTP/1.1
// through an HTTP CONNECT proxy (tinyproxy) and over HTTP/2 through SOCKS5 (microsocks),
// beside the platform's own fetch where it can do the same job.
//
// A scenario is a row of the summary table; a measurement is one cell of it (one way of doing
// the job). `n` is how many units one call does (requests, clients, events): large enough
// that the call's CPU is well above the baseline's noise, small enough that a round stays
// short. `main` marks the cell the summary table shows for burrow.

/** Rows of the summary table, in its order. `per` names the unit n counts. */
export const scenarios = [
  { key: "new-1k", label: "new connection + 1 KB, via CONNECT", per: "request", goal: "≤ 2.0 ms" },
  { key: "new-16k-direct", label: "new connection + 16 KB, direct, TLS 1.3", per: "request", goal: "≤ 1.2 ms" },
  { key: "second-1k", label: "second client in the same isolate, same origin, via CONNECT + 1 KB", per: "request", goal: "≤ 1.0 ms" },
  { key: "pooled-1k", label: "pooled in a Durable Object (Worker + object CPU), 1 KB via CONNECT", per: "request", goal: "≤ 1.0 ms" },
  { key: "pooled-16k", label: "pooled in a Durable Object (Worker + object CPU), 16 KB via CONNECT", per: "request", goal: "—" },
  { key: "warm-1k", label: "warm 1 KB", per: "request", goal: "≤ 0.35 ms" },
  { key: "warm-16k", label: "warm 16 KB", per: "request", goal: "≤ 0.40 ms" },
  { key: "warm-1m-gzip", label: "warm 1 MB gzip", per: "request", goal: "≤ 3.5 ms" },
  { key: "warm-4m-gzip", label: "warm 4 MB gzip", per: "request", goal: "≤ 10 ms" },
  { key: "warm-4m-bin", label: "warm 4 MB incompressible", per: "request", goal: "≤ 10 ms" },
  { key: "ws-text-100", label: "WebSocket echo, 100-byte text message (warm socket, one at a time)", per: "message", goal: "—" },
  { key: "ws-bin-16k", label: "WebSocket echo, 16 KiB binary message (warm socket, one at a time)", per: "message", goal: "—" },
  { key: "event", label: "per server-sent event (many small chunks)", per: "event", goal: "≤ 0.050 ms" },
  { key: "construct", label: "`new Client({ trust: \"system\" })` alone", per: "client", goal: "≤ 0.1 ms" },
];

// The ways to reach an origin. The platform's fetch cannot use a proxy: it goes direct, over
// HTTP/1.1 (workerd's fetch has no HTTP/2), on connections workerd pools between calls.
const routes = {
  "CONNECT h2": { proxy: "HTTP_PROXY", http2: true },
  "CONNECT h1": { proxy: "HTTP_PROXY", http2: false },
  "SOCKS5 h2": { proxy: "SOCKS", http2: true },
  "direct h2": { proxy: null, http2: true },
  "direct h1": { proxy: null, http2: false },
  // The second-client row as it was before the isolate's session cache: a full handshake.
  "CONNECT h2, sessionCache: client": { proxy: "HTTP_PROXY", http2: true, sessionCache: "client" },
  // A PooledClient per Worker request; the connection stays in the BurrowPool object.
  "CONNECT h2, pooled": { proxy: "HTTP_PROXY", http2: true, impl: "pooled" },
  "CONNECT h1, pooled": { proxy: "HTTP_PROXY", http2: false, impl: "pooled" },
  // The same with every body streamed from the object (poolInlineBytes: 0), as before small
  // bodies came back whole with the head.
  "CONNECT h2, pooled, streamed": { proxy: "HTTP_PROXY", http2: true, impl: "pooled", poolInlineBytes: 0 },
  // Every AES-GCM record through WebCrypto (tls.inlineRecordBytes: 0), as before small records
  // stayed in wasm: the same run's before and after.
  "CONNECT h2, every record in WebCrypto": { proxy: "HTTP_PROXY", http2: true, inlineRecordBytes: 0 },
  // A full handshake (no ticket: sessionCache "client") to a chain this isolate has already
  // validated (chainCache "isolate", the default): what the verified-chain cache saves.
  "CONNECT h2, chain already verified": { proxy: "HTTP_PROXY", http2: true, sessionCache: "client", chainCache: "isolate" },
  // The same job without the pool: a new client, so a new connection, per request.
  "CONNECT h2, new connection": { proxy: "HTTP_PROXY", http2: true, sessionCache: "client" },
  // WebSockets (HTTP/1.1 Upgrade, wss:// to bench/workerd/wsecho.mjs): a server that agrees
  // permessage-deflate (burrow offers it, as browsers do), or one without it.
  "CONNECT, wss, deflate": { proxy: "HTTP_PROXY", http2: true, deflate: true },
  "CONNECT, wss, no deflate": { proxy: "HTTP_PROXY", http2: true, deflate: false },
  "direct, wss, deflate": { proxy: null, http2: true, deflate: true },
  "direct, wss, no deflate": { proxy: null, http2: true, deflate: false },
};
const proxied = ["CONNECT h2", "CONNECT h1", "SOCKS5 h2"];
export const PLATFORM = "platform fetch";

function burrow(scenario, route, job) {
  return { scenario, column: route, impl: "burrow", main: route === "CONNECT h2" || route === "direct h2" || route === "CONNECT, wss, no deflate" || route === "trust: system", ...routes[route], ...job };
}

function platform(scenario, job) {
  return { scenario, column: PLATFORM, impl: "platform", main: false, proxy: null, http2: false, ...job };
}

/** Every measurement, in table order. `peer`/`file`: the nginx peer and file fetched. */
export function measurements() {
  const rows = [];
  // A first contact: each client's tickets and validated chains are its own (sessionCache and
  // chainCache "client"), so no client resumes or skips what the one before it did.
  const first = { sessionCache: "client", chainCache: "client" };
  for (const route of [...proxied, "CONNECT h2, every record in WebCrypto"]) rows.push(burrow("new-1k", route, { op: "fetch", peer: "DEF", file: "1k", reuse: 1, prime: "none", n: 12, ...first }));
  // The same full handshakes, the chain already in the isolate's cache (a client before them
  // validated it, in this call and every call before).
  rows.push(burrow("new-1k", "CONNECT h2, chain already verified", { op: "fetch", peer: "DEF", file: "1k", reuse: 1, prime: "other", n: 12 }));
  for (const route of ["direct h2", "direct h1"]) rows.push(burrow("new-16k-direct", route, { op: "fetch", peer: "TLS13", file: "16k", reuse: 1, prime: "none", n: 16, ...first }));
  // The isolate's session cache (the default): each new client resumes the session the one
  // before it made.
  for (const route of [...proxied, "CONNECT h2, sessionCache: client"]) rows.push(burrow("second-1k", route, { op: "fetch", peer: "DEF", file: "1k", reuse: 1, prime: "other", n: 12 }));
  // The pool: a new PooledClient per request (as a Worker makes one per request), the object
  // warm (prime "same"), against a new connection per request.
  for (const [key, file, n] of [["pooled-1k", "1k", 40], ["pooled-16k", "16k", 40]]) {
    for (const route of ["CONNECT h2, pooled", "CONNECT h2, pooled, streamed", "CONNECT h1, pooled"]) rows.push(burrow(key, route, { op: "fetch", peer: "DEF", file, reuse: 1, prime: "same", n, main: route === "CONNECT h2, pooled" }));
    rows.push(burrow(key, "CONNECT h2, new connection", { op: "fetch", peer: "DEF", file, reuse: 1, prime: "none", n: 12, main: false }));
  }
  const warm = [
    ["warm-1k", "1k", 60, 150],
    ["warm-16k", "16k", 50, 100],
    ["warm-1m-gzip", "1m", 10, 12],
    ["warm-4m-gzip", "4m", 4, 4],
    ["warm-4m-bin", "4m.bin", 4, 4],
  ];
  for (const [key, file, n, nPlatform] of warm) {
    const before = key === "warm-1k" || key === "warm-16k" ? ["CONNECT h2, every record in WebCrypto"] : [];
    for (const route of [...proxied, ...before]) rows.push(burrow(key, route, { op: "fetch", peer: "DEF", file, reuse: 0, prime: "same", n }));
    // gzip=1: the platform asks for gzip as burrow's default profile does (it asks for none
    // by default), so both decode the same bytes on the wire.
    rows.push(platform(key, { op: "fetch", peer: "DEF", file, reuse: 0, prime: "same", n: nPlatform, gzip: true }));
  }
  // A warm WebSocket (opened in every call, the n = 0 call too, and one message echoed first):
  // n messages, each sent when the previous echo has arrived.
  for (const [key, kind, size, n] of [["ws-text-100", "text", 100, 100], ["ws-bin-16k", "binary", 16384, 40]]) {
    for (const route of ["CONNECT, wss, deflate", "CONNECT, wss, no deflate", "direct, wss, deflate", "direct, wss, no deflate"]) rows.push(burrow(key, route, { op: "ws", kind, size, n }));
    // The platform's offers no permessage-deflate (checked each run: the notes), so the server
    // that would agree it changes nothing for it.
    rows.push(platform(key, { op: "ws", kind, size, n, deflate: true, column: "platform WebSocket (direct, wss)" }));
  }
  for (const route of [...proxied, "CONNECT h2, every record in WebCrypto"]) rows.push(burrow("event", route, { op: "events", prime: "same", n: 150 }));
  rows.push(platform("event", { op: "events", prime: "same", n: 150 }));
  rows.push({ scenario: "construct", column: "trust: system", impl: "burrow", main: true, op: "construct", trust: "system", n: 200 });
  rows.push({ scenario: "construct", column: "trust: { ca } (one PEM)", impl: "burrow", main: false, op: "construct", trust: "ca", n: 200 });
  return rows.map((r) => ({ ...r, id: `${r.scenario} / ${r.column}` }));
}

/** The gap between two events on the origin: long enough that the Worker has read one event
 * before the next is written (each chunk its own read), short enough for a quick row. The
 * harness reports chunks per event so a run where they merged is visible. */
export const EVENT_GAP_MS = 5;
