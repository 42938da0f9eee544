// The pool test Worker: each Worker request makes one fetch through `PooledClient` (the
// connection lives in the BurrowPool object) or, to compare, through a `Client` of its own.
// worker/test/pool-e2e.mjs drives it.
//
//   POST /run { url, proxy?, ca, http2?, pooled?, method?, upload?, abortAfterFirstChunk?,
//               idleMs?, clientCert?, text? }  ->  { ok, status, sha256, bytes, meta,
//                               firstChunkMs, totalMs, uploadSha256, text, error }
//   POST /stats { url, proxy?, ca, http2? }  ->  the pool object's stats()

import { connect } from "cloudflare:sockets";
import { Client } from "../js/burrow.mjs";
import { BurrowPool, PooledClient } from "../js/pool.mjs";

/** The package's BurrowPool, plus eviction on demand: a request for a URL with `evict=1` resets
 * the object (`ctx.abort()`, as the runtime does when it evicts one), dropping its connections. */
class EvictablePool extends BurrowPool {
  async request(call) {
    if (new URL(call.url).searchParams.get("evict") === "1") this.ctx.abort("burrow pool-e2e: evicted");
    return super.request(call);
  }
}

export { EvictablePool as BurrowPool };

const hex = (d) => Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");

function options(env, p) {
  const o = { proxy: p.proxy || undefined, trust: { ca: p.ca }, sessionCache: "client" };
  if (p.http2 === false) o.http2 = false;
  if (p.clientCert) o.tls = { clientCert: p.clientCert };
  return o;
}

/** `n` bytes of a fixed pattern, streamed in 16 KiB chunks. */
function uploadStream(n) {
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= n) return c.close();
      const len = Math.min(16384, n - sent);
      const chunk = new Uint8Array(len);
      for (let i = 0; i < len; i++) chunk[i] = (sent + i) % 251;
      sent += len;
      c.enqueue(chunk);
    },
  });
}

async function patternSha(n) {
  const all = new Uint8Array(n);
  for (let i = 0; i < n; i++) all[i] = i % 251;
  return hex(await crypto.subtle.digest("SHA-256", all));
}

async function run(env, p) {
  const o = options(env, p);
  const client = p.pooled === false ? new Client({ ...o, connect }) : new PooledClient({ ...o, pool: env.BURROW_POOL, poolIdleMs: p.idleMs });
  const t0 = Date.now();
  const controller = new AbortController();
  const init = { method: p.method ?? "GET", signal: controller.signal };
  if (p.upload) init.body = uploadStream(p.upload);
  try {
    const r = await client.fetch(p.url, init);
    const reader = r.body.getReader();
    const chunks = [];
    let bytes = 0;
    let firstChunkMs = null;
    let error = null;
    for (;;) {
      let step;
      try {
        step = await reader.read();
      } catch (e) {
        error = { name: e?.name, message: String(e?.message ?? e) };
        break;
      }
      if (step.done) break;
      if (firstChunkMs === null) firstChunkMs = Date.now() - t0;
      chunks.push(step.value);
      bytes += step.value.byteLength;
      if (p.abortAfterFirstChunk) controller.abort();
    }
    const all = new Uint8Array(bytes);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.byteLength;
    }
    return {
      ok: error === null,
      status: r.status,
      bytes,
      sha256: hex(await crypto.subtle.digest("SHA-256", all)),
      meta: r.burrow,
      url: r.url,
      firstChunkMs,
      totalMs: Date.now() - t0,
      uploadSha256: p.upload ? await patternSha(p.upload) : undefined,
      text: p.text ? new TextDecoder().decode(all) : undefined,
      error,
    };
  } catch (e) {
    return { ok: false, error: { name: e?.name, code: e?.code, phase: e?.phase, message: String(e?.message ?? e) } };
  } finally {
    if (client instanceof Client) client.close();
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/health") return Response.json({ ok: true });
    const p = await request.json();
    if (pathname === "/run") return Response.json(await run(env, p));
    if (pathname === "/stats") {
      const client = new PooledClient({ ...options(env, p), pool: env.BURROW_POOL });
      return Response.json(await client.stats(p.url));
    }
    return new Response("not found", { status: 404 });
  },
};
