// burrow's connection pool in a Durable Object: `BurrowPool` (the object) and `PooledClient`
// (what a Worker calls instead of `Client`).
//
// Why an object: a socket belongs to the request that opened it, so a plain Worker pays a new
// proxied TLS connection per request. Every request to one Durable Object shares that object's
// I/O context, so a `Client` living in the object keeps its HTTP/1.1 keep-alive and HTTP/2
// connections from one Worker request to the next. Checked in local workerd (wrangler 4.164,
// compatibility date 2026-11-01): a socket opened while serving one request to an object read
// and wrote while serving later ones; a `Response` with a streaming body, a `ReadableStream`
// argument and plain objects cross the RPC boundary as streams (worker/test/pool-e2e.mjs
// proves each in CI).
//
// The object is chosen by the client's options and the request's origin, so one object holds
// the connections of one (proxy, trust, identity, origin). Its `Client` closes after
// `poolIdleMs` without a new request (bodies still streaming keep their connection until done),
// which lets the platform evict the object; an evicted object's next request simply connects
// again.

import { connect } from "cloudflare:sockets";
import { DurableObject } from "cloudflare:workers";
import { BurrowError, Client } from "./burrow.mjs";

const DEFAULT_IDLE_MS = 60_000;

// Object names by options and origin, shared by every PooledClient of the isolate (a Worker
// makes one per request; the digest is the same each time). Bounded: cleared when full.
const NAMES = new Map();
const MAX_NAMES = 256;

/** Options with their keys sorted at every level: the same options give the same object. */
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    const out = {};
    for (const k of Object.keys(value).sort()) {
      if (value[k] !== undefined) out[k] = canonical(value[k]);
    }
    return out;
  }
  return value;
}

/** Plain data only: the options travel to the object by RPC (structured clone). */
function checkSerializable(value, path) {
  if (typeof value === "function" || typeof value === "symbol") {
    throw new TypeError(`burrow: PooledClient option ${path} is a ${typeof value}; the pool's options must be plain data (they are sent to the BurrowPool object)`);
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) checkSerializable(v, `${path}.${k}`);
  }
}

async function sha256Hex(text) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

function abortReason(signal) {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** The error the object reported, as `Client.fetch` would have thrown it. */
function rebuildError(e, signal) {
  if (e.name === "AbortError" && signal?.aborted) return abortReason(signal);
  if (e.kind === "burrow") return new BurrowError(e.code, e.phase, e.message);
  const err = e.kind === "type" ? new TypeError(e.message) : new Error(e.message);
  if (e.code !== undefined) err.code = e.code;
  if (e.phase !== undefined) err.phase = e.phase;
  if (e.name && e.kind !== "type") err.name = e.name;
  return err;
}

/** What crosses back to the Worker when `Client.fetch` rejects inside the object. */
function describeError(e) {
  if (e instanceof BurrowError) return { kind: "burrow", code: e.code, phase: e.phase, message: e.message };
  if (e instanceof TypeError) return { kind: "type", code: e.code, phase: e.phase, message: e.message };
  return { kind: "other", name: e?.name ?? "Error", message: String(e?.message ?? e) };
}

/**
 * The Durable Object holding burrow's connections. Export it from your Worker's main module
 * and bind it (see the README's "Connections across requests"); `PooledClient` talks to it.
 */
export class BurrowPool extends DurableObject {
  #clients = new Map(); // options JSON -> { client, timer, lastUse }
  #aborts = new Map(); // request id -> AbortController
  #started = 0;

  /** Runs one fetch for a `PooledClient` (RPC; not for direct use). */
  async request(call) {
    const entry = this.#entry(call.options, call.idleMs);
    const controller = new AbortController();
    this.#aborts.set(call.id, controller);
    this.#started++;
    try {
      const init = {
        method: call.method,
        headers: call.headers,
        body: call.body ?? call.stream ?? undefined,
        redirect: call.redirect,
        signal: controller.signal,
      };
      const response = await entry.client.fetch(call.url, init);
      return { response, meta: response.burrow, url: response.url, status: response.status };
    } catch (e) {
      return { error: describeError(e) };
    } finally {
      this.#aborts.delete(call.id);
    }
  }

  /** Aborts a request still waiting for its response head (RPC). */
  abort(id) {
    this.#aborts.get(id)?.abort();
  }

  /** What the object holds (RPC): clients, requests started, heads awaited. */
  stats() {
    return { clients: this.#clients.size, requests: this.#started, pendingHeads: this.#aborts.size };
  }

  #entry(options, idleMs) {
    const key = JSON.stringify(options);
    let entry = this.#clients.get(key);
    if (!entry) {
      entry = { client: new Client({ ...options, connect }), timer: null };
      this.#clients.set(key, entry);
    }
    clearTimeout(entry.timer);
    const idle = idleMs ?? DEFAULT_IDLE_MS;
    // Closing lets the object be evicted; a body still streaming keeps its connection.
    entry.timer = setTimeout(() => {
      if (this.#clients.get(key) === entry) this.#clients.delete(key);
      entry.client.close();
    }, idle);
    return entry;
  }
}

/**
 * A fetch-shaped client whose connections live in a `BurrowPool` Durable Object, so they
 * outlive the Worker request that made them. Takes `Client`'s options (without `connect`, which
 * the object has) plus `pool`, the object's namespace binding, and `poolIdleMs`.
 */
export class PooledClient {
  #pool;
  #options;
  #optionsJson;
  #idleMs;
  #nextId = 0;

  constructor(options) {
    if (!options || !options.pool || typeof options.pool.idFromName !== "function") {
      throw new TypeError("burrow: new PooledClient({ pool }) needs the BurrowPool Durable Object namespace binding (env.BURROW_POOL in the README's wrangler.toml)");
    }
    const { pool, poolIdleMs, connect: _connect, ...rest } = options;
    if (poolIdleMs !== undefined && !(Number.isFinite(poolIdleMs) && poolIdleMs > 0)) {
      throw new TypeError("burrow: PooledClient option poolIdleMs must be a positive number of milliseconds");
    }
    checkSerializable(rest, "options");
    this.#pool = pool;
    this.#options = canonical(rest);
    this.#optionsJson = JSON.stringify(this.#options);
    this.#idleMs = poolIdleMs;
    this.fetch = this.fetch.bind(this);
  }

  /** The pool object for an origin: a name derived from the options and the origin (the
   * options hold credentials, so the name is their hash, not their text). */
  async #stub(origin) {
    const key = `${this.#optionsJson}\n${origin}`;
    let name = NAMES.get(key);
    if (name === undefined) {
      name = `burrow:${await sha256Hex(key)}`;
      if (NAMES.size >= MAX_NAMES) NAMES.clear();
      NAMES.set(key, name);
    }
    return this.#pool.get(this.#pool.idFromName(name));
  }

  /** The pool object's counters for the origin of `url` (for tests and dashboards). */
  async stats(url) {
    return (await this.#stub(new URL(url).origin)).stats();
  }

  /** WHATWG-shaped fetch through the pool object; the response body streams from it. */
  async fetch(input, init = undefined) {
    init = init ?? {};
    const redirect = init.redirect ?? (input instanceof Request ? input.redirect : undefined);
    const signal = init.signal ?? (input instanceof Request ? input.signal : undefined);
    // As Client.fetch: a ReadableStream body streams; every other body is converted by
    // Request (with the content type it implies) and sent whole, with its length.
    let stream = null;
    const rest = { ...init, redirect: undefined, signal: undefined };
    if (typeof ReadableStream !== "undefined" && init.body instanceof ReadableStream) {
      stream = init.body;
      rest.body = undefined;
    }
    let req;
    try {
      req = new Request(input, rest);
    } catch (e) {
      throw e instanceof TypeError ? e : new TypeError(String(e?.message ?? e));
    }
    if (signal?.aborted) throw abortReason(signal);
    let body = null;
    if (stream === null && req.body !== null && req.method !== "GET" && req.method !== "HEAD") {
      body = new Uint8Array(await req.arrayBuffer());
    }
    const headers = [...req.headers];
    const stub = await this.#stub(new URL(req.url).origin);
    const id = `${Date.now().toString(36)}.${(this.#nextId++).toString(36)}.${Math.random().toString(36).slice(2)}`;
    const onAbort = () => {
      stub.abort(id).catch(() => {});
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    let answer;
    try {
      answer = await stub.request({
        id,
        options: this.#options,
        idleMs: this.#idleMs,
        method: req.method,
        url: req.url,
        headers,
        body,
        stream,
        redirect,
      });
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    if (answer.error) throw rebuildError(answer.error, signal);
    if (signal?.aborted) {
      answer.response.body?.cancel().catch(() => {});
      throw abortReason(signal);
    }
    let response = answer.response;
    if (signal && response.body) {
      // As fetch does: an abort while the body streams errors it with the signal's reason
      // (and cancels the object's stream). Only with a signal: the extra pipe costs a hop per
      // chunk.
      const { readable, writable } = new TransformStream();
      response.body.pipeTo(writable, { signal }).catch(() => {});
      response = new Response(readable, response);
    }
    Object.defineProperty(response, "burrow", { value: { ...answer.meta, pooled: true }, enumerable: true });
    Object.defineProperty(response, "url", { value: answer.url, enumerable: true });
    Object.defineProperty(response, "redirected", { value: answer.meta.redirects > 0, enumerable: true });
    if (response.status !== answer.status) Object.defineProperty(response, "status", { value: answer.status });
    return response;
  }
}
