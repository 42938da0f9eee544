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
//
// Per request the Worker sends the options' canonical JSON, the method, URL, headers and body
// (or its stream); the object answers the head, `response.burrow` and either the body whole
// (a small one that had already arrived: `poolInlineBytes`) or a stream of it. What each piece
// costs is in bench/RESULTS.md (2026-12-07, the pool's CPU per request).

import { connect } from "cloudflare:sockets";
import { DurableObject } from "cloudflare:workers";
import { BurrowError, Client } from "./burrow.mjs";
import { abortReason, requestParts } from "./request-parts.mjs";

const DEFAULT_IDLE_MS = 60_000;
/** Response bodies up to this many bytes that the object already holds whole cross back as
 * bytes beside the head, not as a stream (`poolInlineBytes`). */
const DEFAULT_INLINE_BYTES = 64 * 1024;

// Object ids by namespace, options and origin, shared by every PooledClient of the isolate (a
// Worker makes one per request; the name's digest and the id are the same each time). Ids
// only, not stubs: checked in local workerd (1.20261117.1, bench/RESULTS.md 2026-12-07), a
// stub kept from one Worker request fails in the next with "Cannot perform I/O on behalf of
// a different request" (I/O type OutgoingFactory), while an id from `idFromName` in one
// request makes a working stub (`get`) in later ones. Bounded: cleared when full.
const IDS = new WeakMap(); // namespace -> Map(key -> DurableObjectId)
// Request ids, unique per isolate (the prefix) and request (the counter); made on first use,
// not at module scope, where workerd gives no time or randomness.
let idPrefix = null;
let nextId = 0;
const MAX_IDS = 256;

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

/** Microtask turns a read of a body already in burrow's wasm needs to settle at most. Measured
 * in local workerd (1.20261117.1): 2 for every read of a 1 KB or 16 KB body via CONNECT,
 * HTTP/2 and HTTP/1.1; up to 10 for a piece of a 1 MB gzip body already received; a read that
 * needs the network never settles within any number (I/O runs only when the microtask queue is
 * empty). Too few only costs the inline path (the body then streams); too many is cheap. */
const READY_TURNS = 32;

/** `read`'s result if it settles within `turns` microtask turns, else `LATE`. The turns are
 * promise reactions, stopped as soon as `read` settles (turns by `queueMicrotask`, never
 * stopped, made a pooled 1 KB request ~0.3 ms dearer: bench/RESULTS.md, 2026-12-07). */
const LATE = Symbol("late");
const settled = Promise.resolve();
function within(read, turns) {
  return new Promise((resolve, reject) => {
    let done = false;
    read.then(
      (r) => {
        done = true;
        resolve(r);
      },
      (e) => {
        done = true;
        reject(e);
      },
    );
    let left = turns;
    const step = () => {
      if (done) return;
      if (--left <= 0) resolve(LATE);
      else settled.then(step);
    };
    settled.then(step);
  });
}

/** The body whole, if it is no longer than `max` bytes and already at hand: read while each
 * read settles within READY_TURNS microtask turns, so without waiting for any I/O (a body
 * still coming from the network does not). Otherwise a stream of what was read and the rest,
 * the head not delayed. { bytes } or { stream }. */
async function wholeIfReady(body, max) {
  const reader = body.getReader();
  const parts = [];
  let size = 0;
  let pending = null;
  for (;;) {
    const read = reader.read();
    const r = await within(read, READY_TURNS);
    if (r === LATE) {
      pending = read;
      read.catch(() => {}); // (its error, if any, errors the stream when pulled)
      break;
    }
    if (r.done) {
      if (parts.length === 1) return { bytes: parts[0] };
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.byteLength;
      }
      return { bytes };
    }
    parts.push(r.value);
    size += r.value.byteLength;
    if (size > max) break;
  }
  const stream = new ReadableStream(
    {
      async pull(controller) {
        if (parts.length > 0) return controller.enqueue(parts.shift());
        const r = await (pending ?? reader.read());
        pending = null;
        if (r.done) controller.close();
        else controller.enqueue(r.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return { stream };
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

/** The `Response` of an answer whose body came whole. */
function inlineResponse(answer) {
  const { bytes, statusText, headers } = answer.inline;
  // The constructor takes 200-599 only; any other status is set on the object afterwards.
  const status = answer.status >= 200 && answer.status <= 599 ? answer.status : 200;
  const nullBody = [101, 103, 204, 205, 304].includes(answer.status) && bytes.byteLength === 0;
  return new Response(nullBody ? null : bytes, { status, statusText, headers });
}

/**
 * The Durable Object holding burrow's connections. Export it from your Worker's main module
 * and bind it (see the README's "Connections across requests"); `PooledClient` talks to it.
 */
export class BurrowPool extends DurableObject {
  #clients = new Map(); // options JSON (canonical) -> { client, timer, due, timerDue }
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
      const answer = { meta: response.burrow, url: response.url, status: response.status };
      const inline = call.inlineBytes ?? DEFAULT_INLINE_BYTES;
      if (inline > 0 && response.body !== null) {
        // A small body already here crosses as bytes: the RPC stream (a pipe, its pulls on
        // both sides) costs more than the body (bench/RESULTS.md, 2026-12-07).
        const got = await wholeIfReady(response.body, inline);
        if (got.bytes) return { ...answer, inline: { bytes: got.bytes, statusText: response.statusText, headers: [...response.headers] } };
        return { ...answer, response: new Response(got.stream, response) };
      }
      return { ...answer, response };
    } catch (e) {
      return { error: describeError(e) };
    } finally {
      this.#aborts.delete(call.id);
    }
  }

  #arm(key, entry, now) {
    entry.timerDue = entry.due;
    entry.timer = setTimeout(() => {
      const at = Date.now();
      if (at < entry.due) return this.#arm(key, entry, at);
      if (this.#clients.get(key) === entry) this.#clients.delete(key);
      entry.client.close();
    }, entry.due - now);
  }

  /** Aborts a request still waiting for its response head (RPC). */
  abort(id) {
    this.#aborts.get(id)?.abort();
  }

  /** What the object holds (RPC): clients, requests started, heads awaited. */
  stats() {
    return { clients: this.#clients.size, requests: this.#started, pendingHeads: this.#aborts.size };
  }

  #entry(key, idleMs) {
    let entry = this.#clients.get(key);
    if (!entry) {
      entry = { client: new Client({ ...JSON.parse(key), connect }), timer: null, due: 0, timerDue: Infinity };
      this.#clients.set(key, entry);
    }
    // Closing after `idle` without a request lets the object be evicted; a body still
    // streaming keeps its connection. One timer per idle spell, not one per request: a request
    // moves `due`, and the timer, when it fires early, waits the rest.
    const now = Date.now();
    entry.due = now + (idleMs ?? DEFAULT_IDLE_MS);
    if (entry.due < entry.timerDue) {
      clearTimeout(entry.timer);
      this.#arm(key, entry, now);
    }
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
  #optionsJson;
  #idleMs;
  #inlineBytes;
  #stubs = new Map(); // origin -> stub, for this client's life (one Worker request, as a rule)

  constructor(options) {
    if (!options || !options.pool || typeof options.pool.idFromName !== "function") {
      throw new TypeError("burrow: new PooledClient({ pool }) needs the BurrowPool Durable Object namespace binding (env.BURROW_POOL in the README's wrangler.toml)");
    }
    const { pool, poolIdleMs, poolInlineBytes, connect: _connect, ...rest } = options;
    if (poolIdleMs !== undefined && !(Number.isFinite(poolIdleMs) && poolIdleMs > 0)) {
      throw new TypeError("burrow: PooledClient option poolIdleMs must be a positive number of milliseconds");
    }
    if (poolInlineBytes !== undefined && !(Number.isInteger(poolInlineBytes) && poolInlineBytes >= 0)) {
      throw new TypeError("burrow: PooledClient option poolInlineBytes must be a whole number of bytes (0: always stream)");
    }
    checkSerializable(rest, "options");
    this.#pool = pool;
    // The object keys its clients by this text and makes a client from it.
    this.#optionsJson = JSON.stringify(canonical(rest));
    this.#idleMs = poolIdleMs;
    this.#inlineBytes = poolInlineBytes;
    this.fetch = this.fetch.bind(this);
  }

  /** The pool object for an origin: a name derived from the options and the origin (the
   * options hold credentials, so the name is their hash, not their text). */
  async #stub(origin) {
    let stub = this.#stubs.get(origin);
    if (stub !== undefined) return stub;
    const key = `${this.#optionsJson}\n${origin}`;
    let ids = IDS.get(this.#pool);
    if (ids === undefined) {
      ids = new Map();
      IDS.set(this.#pool, ids);
    }
    let id = ids.get(key);
    if (id === undefined) {
      id = this.#pool.idFromName(`burrow:${await sha256Hex(key)}`);
      if (ids.size >= MAX_IDS) ids.clear();
      ids.set(key, id);
    }
    stub = this.#pool.get(id);
    this.#stubs.set(origin, stub);
    return stub;
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
    let method;
    let url;
    let origin;
    let headers;
    let body = null;
    let stream = null;
    if ((typeof input === "string" || input instanceof URL) && init.body == null) {
      // No body: no Request here. The object's Client.fetch makes one of what is sent, and
      // refuses there what Request refuses (a method or header Request rejects crosses back
      // as its TypeError).
      const u = typeof input === "string" ? new URL(input) : input;
      url = u.href;
      origin = u.origin;
      method = init.method === undefined ? "GET" : String(init.method);
      headers = init.headers === undefined ? [] : [...new Headers(init.headers)];
      if (signal?.aborted) throw abortReason(signal);
    } else {
      // As Client.fetch: a ReadableStream body streams; every other body is converted by
      // Request (with the content type it implies) and sent whole, with its length.
      let req;
      ({ req, stream, body } = await requestParts(input, init, signal));
      method = req.method;
      url = req.url;
      origin = new URL(url).origin;
      headers = [...req.headers];
    }
    const stub = this.#stubs.get(origin) ?? (await this.#stub(origin));
    idPrefix ??= `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}.`;
    const id = idPrefix + (nextId++).toString(36);
    const onAbort = () => {
      stub.abort(id).catch(() => {});
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    let answer;
    try {
      answer = await stub.request({
        id,
        options: this.#optionsJson,
        idleMs: this.#idleMs,
        inlineBytes: this.#inlineBytes,
        method,
        url,
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
      answer.response?.body?.cancel().catch(() => {});
      throw abortReason(signal);
    }
    let response = answer.response ?? inlineResponse(answer);
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
