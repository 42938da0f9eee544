// The Durable Object pool end to end: worker/test/pool-worker.mjs (PooledClient and the
// BurrowPool object, on the npm package's wasm) under `wrangler dev`, through the local squid
// with credentials behind a relay this script runs, which counts the TCP connections the pool
// opens and can cut them. Checks: consecutive Worker requests reuse one connection; 20
// concurrent ones share one HTTP/2 connection; a connection cut between requests is replaced
// without a failed request; streaming bodies cross the object both ways intact; an abort
// cancels the object's stream (its HTTP/1.1 connection closes); an idle pool closes its
// connections; errors keep their code and phase.
//
//   node worker/test/pool-e2e.mjs      (PEERS_STATE, default /tmp/burrow-peers)

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { check, finish, loadPeers, startWrangler } from "./harness.mjs";
import { startMtls } from "./mtls-servers.mjs";

const { state, port, creds, sums } = loadPeers();
const ca = fs.readFileSync(path.join(state, "pki", "root.pem"), "utf8");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A TCP relay to `target`: counts connections, reports closes, cuts them on demand. */
function startRelay(target) {
  const live = new Set();
  const relay = { accepted: 0, closedByClient: 0, port: 0, cut() {}, close() {} };
  const server = net.createServer((client) => {
    relay.accepted++;
    const upstream = net.connect(target, "127.0.0.1");
    const pair = { client, upstream, cut: false };
    live.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("end", () => {
      if (!pair.cut) relay.closedByClient++;
    });
    const done = () => {
      live.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", done);
    upstream.on("close", done);
    client.on("error", done);
    upstream.on("error", done);
  });
  relay.cut = () => {
    for (const pair of live) {
      pair.cut = true;
      pair.client.destroy();
      pair.upstream.destroy();
    }
  };
  relay.close = () => server.close();
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(Object.assign(relay, { port: server.address().port }))));
}

const squid = port("SQUID_AUTH");
const { proxy_user: user, proxy_pass: pass } = creds;
const origin = `https://localhost:${port("TLS13")}`;
const proxyVia = (relay) => `http://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${relay.port}`;

const { base, stop } = await startWrangler("pool.toml", "wrangler-pool.log");
let crashed = 0;
const relays = [];
try {
  const post = async (route, body) => (await fetch(`${base}${route}`, { method: "POST", body: JSON.stringify({ ca, ...body }) })).json();
  const run = (body) => post("/run", body);
  const relay = async () => {
    const r = await startRelay(squid);
    relays.push(r);
    return r;
  };

  // Reuse across Worker requests, then 20 at once on the same HTTP/2 connection.
  const a = await relay();
  const first = await run({ url: `${origin}/1k`, proxy: proxyVia(a) });
  const second = await run({ url: `${origin}/1k`, proxy: proxyVia(a) });
  check(
    "consecutive Worker requests reuse one pooled connection",
    first.ok && second.ok && first.sha256 === sums["1k"] && second.sha256 === sums["1k"] && first.meta?.reused === false && second.meta?.reused === true && second.meta?.pooled === true && a.accepted === 1,
    JSON.stringify({ first: first.meta ?? first.error, second: second.meta ?? second.error, connections: a.accepted }),
  );
  const many = await Promise.all(Array.from({ length: 20 }, () => run({ url: `${origin}/16k`, proxy: proxyVia(a) })));
  check(
    "20 concurrent Worker requests share one HTTP/2 connection",
    many.every((r) => r.ok && r.sha256 === sums["16k"] && r.meta?.httpVersion === "HTTP/2" && r.meta?.reused === true) && a.accepted === 1,
    JSON.stringify({ connections: a.accepted, bad: many.filter((r) => !(r.ok && r.meta?.reused)).map((r) => r.error ?? r.meta) }),
  );

  // The proxy's side cuts the pooled connection between two requests.
  a.cut();
  await sleep(200);
  const after = await run({ url: `${origin}/1k`, proxy: proxyVia(a) });
  check(
    "a pooled connection cut between requests is replaced without a failed request",
    after.ok && after.sha256 === sums["1k"] && a.accepted === 2,
    JSON.stringify({ after: after.error ?? after.meta, connections: a.accepted }),
  );

  // Bodies stream through the object both ways.
  const big = await run({ url: `${origin}/4m.bin`, proxy: proxyVia(a) });
  check("4 MiB response crosses the object byte-exact", big.ok && big.sha256 === sums["4m.bin"] && big.bytes === 4 * 1024 * 1024, JSON.stringify(big.error ?? { bytes: big.bytes }));
  const slow = await run({ url: `${origin}/chunked-slow`, proxy: proxyVia(a) });
  check(
    "a slow stream's first chunk reaches the Worker before the origin writes the next",
    slow.ok && slow.firstChunkMs !== null && slow.totalMs >= 550 && slow.firstChunkMs < slow.totalMs - 400,
    JSON.stringify(slow.error ?? { first: slow.firstChunkMs, total: slow.totalMs }),
  );
  const up = await run({ url: `${origin}/echo`, proxy: proxyVia(a), method: "POST", upload: 1 << 20 });
  check("a streamed 1 MiB request body crosses the object intact", up.ok && up.status === 200 && up.bytes === 1 << 20 && up.sha256 === up.uploadSha256, JSON.stringify(up.error ?? { status: up.status, bytes: up.bytes }));

  // Abort mid-body over HTTP/1.1: the object cancels its stream, which closes that connection.
  const b = await relay();
  // (A slow body: a fast one may already be wholly in the RPC pipe when the abort comes.)
  const aborted = await run({ url: `${origin}/chunked-slow`, proxy: proxyVia(b), http2: false, abortAfterFirstChunk: true });
  let closed = false;
  for (let i = 0; i < 50 && !closed; i++) {
    await sleep(100);
    closed = b.closedByClient === 1;
  }
  check(
    "an aborted Worker request cancels its stream in the object (its connection closes)",
    aborted.ok === false && aborted.status === 200 && aborted.error?.name === "AbortError" && closed,
    JSON.stringify({ aborted, connections: b.accepted, closedByClient: b.closedByClient }),
  );

  // An idle pool lets its connections go.
  const c = await relay();
  const idle = await run({ url: `${origin}/1k`, proxy: proxyVia(c), idleMs: 1000 });
  let idleClosed = false;
  for (let i = 0; i < 60 && !idleClosed; i++) {
    await sleep(100);
    idleClosed = c.closedByClient === 1;
  }
  check("an idle pool closes its connections (poolIdleMs)", idle.ok && idleClosed, JSON.stringify({ idle: idle.error ?? idle.meta?.reused, closedByClient: c.closedByClient }));
  const again = await run({ url: `${origin}/1k`, proxy: proxyVia(c), idleMs: 1000 });
  check("after the idle close the next request connects again", again.ok && again.meta?.reused === false && c.accepted === 2, JSON.stringify({ again: again.error ?? again.meta, connections: c.accepted }));

  // The object evicted (reset) between requests: the next request makes a new object, which
  // connects again; nothing of the old one is used.
  const d = await relay();
  const beforeEviction = [];
  for (let i = 0; i < 2; i++) beforeEviction.push(await run({ url: `${origin}/1k`, proxy: proxyVia(d) }));
  const evicting = await run({ url: `${origin}/1k?evict=1`, proxy: proxyVia(d) });
  const afterEviction = await run({ url: `${origin}/1k`, proxy: proxyVia(d) });
  check(
    "after the object's eviction the next request connects again and succeeds",
    beforeEviction.every((r) => r.ok && r.sha256 === sums["1k"]) && beforeEviction[1].meta?.reused === true && evicting.ok === false &&
      afterEviction.ok && afterEviction.sha256 === sums["1k"] && afterEviction.meta?.reused === false && d.accepted === 2,
    JSON.stringify({ before: beforeEviction.map((r) => r.meta?.reused), evicting: evicting.error, after: afterEviction.error ?? afterEviction.meta?.reused, connections: d.accepted }),
  );

  // Errors cross the object with their code and phase.
  const expired = await run({ url: `https://localhost:${port("EXPIRED")}/1k`, proxy: proxyVia(a) });
  check("an error keeps its code and phase across the object", expired.ok === false && expired.error?.name === "BurrowError" && expired.error.code === "CERT_EXPIRED" && expired.error.phase === "tls", JSON.stringify(expired.error));

  // A client certificate crosses to the object as plain strings (tls.clientCert); a refused
  // pair's code comes back, without the key.
  const mtls = await startMtls(state);
  try {
    const url = `https://localhost:${mtls.port13}/`;
    const cert = await run({ url, clientCert: mtls.cert("p256"), text: true });
    check("PooledClient with tls.clientCert: the server requiring one saw burrow-client-p256", cert.ok && cert.meta?.pooled === true && cert.text?.includes("burrow-client-p256"), JSON.stringify(cert.error ?? cert.meta));
    const other = mtls.cert("rsa").key;
    const bad = await run({ url, clientCert: { certChain: mtls.cert("p256").certChain, key: other } });
    const keyLine = other.split("\n")[1];
    check("PooledClient with another key: CLIENT_CERT_KEY_MISMATCH across the object, the key in no part of it", bad.ok === false && bad.error?.code === "CLIENT_CERT_KEY_MISMATCH" && keyLine.length === 64 && !JSON.stringify(bad).includes(keyLine), JSON.stringify(bad.error));
  } finally {
    mtls.close();
  }

  const stats = await post("/stats", { url: `${origin}/1k`, proxy: proxyVia(a) });
  check("the pool object reports one client and its requests", stats.clients === 1 && stats.requests >= 25 && stats.pendingHeads === 0, JSON.stringify(stats));
} catch (e) {
  console.log(`FAIL pool-e2e crashed: ${e?.stack ?? e}`);
  crashed = 1;
} finally {
  stop();
  for (const r of relays) r.close();
}
finish(crashed);
