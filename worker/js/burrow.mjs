// burrow for JavaScript Workers: `new Client({ connect, ... })`, `client.fetch(input, init)`.
//
// This module is the package's entry. It instantiates the wasm (`../build/wasm.js` is the
// wasm-bindgen glue with the compiled module: wrangler and esbuild bundle a `.wasm` import as a
// WebAssembly.Module; the repository's demo and test Workers alias it to their own variant of
// the wasm, which has more exports), turns WHATWG values (Request, URL, Headers,
// body types, AbortSignal) into the plain values the Rust side takes, and builds a real
// `Response` whose body streams chunks as the origin sends them. Errors are `BurrowError`s
// with a stable `.code` and a `.phase`; argument mistakes are `TypeError`s; an abort is the
// signal's reason (an `AbortError` DOMException by default).

import * as glue from "../build/wasm.js";
// The exchange warmup() replays (crates/client/tests/warmup_exchange.rs records it).
import WARMUP from "./warmup-exchange.mjs";
import { abortReason, requestParts } from "./request-parts.mjs";

let instanceAlive = false;

// A trap (a Rust panic, which aborts) leaves the instance unusable; the next call starts a
// fresh one. Clients made before the trap are gone with it and say so.
function ensureInstance() {
  if (instanceAlive) return;
  glue.initSync({ module: glue.wasmModule });
  instanceAlive = true;
}

function onTrap(e) {
  if (e instanceof WebAssembly.RuntimeError) {
    instanceAlive = false;
    if (typeof glue.__wbg_reset_state === "function") {
      try {
        glue.__wbg_reset_state();
        instanceAlive = true;
      } catch {
        instanceAlive = false;
      }
    }
    generation++;
    return new BurrowError("WASM_TRAP", "runtime", "burrow's wasm instance trapped (a bug: the panic is in the log); it was restarted: retry with a new Client");
  }
  return e;
}

let generation = 0;

/** A failure of a burrow fetch: `.code` is stable (`CERT_EXPIRED`, `PROXY_AUTH_REQUIRED`, ...),
 * `.phase` says where it happened (`connect`, `proxy`, `tls`, `headers`, `body`, ...). */
export class BurrowError extends Error {
  constructor(code, phase, message) {
    super(message);
    this.name = "BurrowError";
    this.code = code;
    this.phase = phase;
  }
}

function toError(v, signal) {
  if (v && typeof v === "object" && typeof v.code === "string" && !(v instanceof Error)) {
    if (v.code === "ABORTED") {
      return signal && signal.reason !== undefined
        ? signal.reason
        : new DOMException("The operation was aborted.", "AbortError");
    }
    // As fetch rejects: a URL it cannot fetch, and a redirect under redirect "error", are
    // TypeErrors (with burrow's code and phase).
    if (v.code === "BAD_URL" || v.code === "REDIRECT_FORBIDDEN") {
      const e = new TypeError(v.message);
      e.code = v.code;
      e.phase = v.phase;
      return e;
    }
    return new BurrowError(v.code, v.phase, v.message);
  }
  return onTrap(v);
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** What a closed Client's methods throw. */
function closedError() {
  return new BurrowError("CLIENT_CLOSED", "request", "CLIENT_CLOSED: this Client was closed: make a new one");
}

/** burrow's HTTP client. `fetch` is bound: hand `client.fetch` to any SDK as its `fetch`. */
export class Client {
  #raw;
  #generation;
  constructor(options) {
    if (!options || typeof options.connect !== "function") {
      throw new TypeError(
        'burrow: new Client({ connect }) needs the connect function of cloudflare:sockets (import { connect } from "cloudflare:sockets")',
      );
    }
    ensureInstance();
    try {
      this.#raw = new glue.RawClient(options);
    } catch (e) {
      throw toError(e);
    }
    this.#generation = generation;
    this.fetch = this.fetch.bind(this);
  }

  /** WHATWG-shaped fetch through burrow. */
  async fetch(input, init = undefined) {
    if (this.#raw === null) throw closedError();
    if (this.#generation !== generation) {
      throw new BurrowError("WASM_TRAP", "runtime", "burrow's wasm instance was restarted after a trap: make a new Client");
    }
    init = init ?? {};
    // `redirect` and `signal` are taken here, not by `new Request`: workerd's Request refuses
    // redirect "error", which burrow's client implements. The init's wins over a Request
    // input's own; neither: the client's `redirect` option (in the wasm).
    const redirect = init.redirect ?? (input instanceof Request ? input.redirect : undefined);
    const signal = init.signal ?? (input instanceof Request ? input.signal : undefined);
    // Body: a ReadableStream in `init` is streamed, never buffered; every other body is sent
    // whole, with its length (request-parts.mjs).
    const { req, stream, body } = await requestParts(input, init, signal);
    const headers = [];
    for (const [n, v] of req.headers) headers.push([n, v]);
    const token = new glue.AbortToken();
    const onAbort = () => token.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    // The wasm-side objects of this fetch are freed as soon as it is over: workerd gives no
    // promise that finalizers run, and linear memory must not grow across requests.
    let raw;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      signal?.removeEventListener("abort", onAbort);
      // After a trap the instance is a new one: the old one's objects went with it (and
      // freeing one still borrowed by the trapped call would throw).
      if (this.#generation !== generation) return;
      raw?.free();
      token.free();
    };
    try {
      raw = await this.#raw.fetch(req.method, req.url, headers, body, stream, redirect, token);
    } catch (e) {
      const error = toError(e, signal); // first: a trap restarts the instance
      finish();
      throw error;
    }
    const status = raw.status;
    const statusText = raw.statusText;
    // The meta is JSON text, parsed when `response.burrow` is first read: most callers never
    // read it, and building it as an object from wasm was ~25 calls across per response.
    const metaJson = raw.metaJson;
    const redirects = raw.redirects;
    const rawHeaders = raw.headers;
    const finalUrl = raw.url;
    const noBody = NULL_BODY.has(status) || req.method === "HEAD";
    let readable = null;
    if (noBody) {
      raw.cancel();
      finish();
    } else {
      readable = new ReadableStream(
        {
          async pull(controller) {
            if (finished) {
              controller.close();
              return;
            }
            if (signal?.aborted) {
              raw.cancel();
              finish();
              controller.error(abortReason(signal));
              return;
            }
            let chunk;
            try {
              chunk = await raw.next();
            } catch (e) {
              const error = toError(e, signal); // first: a trap restarts the instance
              finish();
              controller.error(error);
              return;
            }
            if (chunk === undefined) {
              finish();
              controller.close();
            } else {
              controller.enqueue(chunk);
            }
          },
          cancel() {
            if (!finished) raw.cancel();
            finish();
          },
        },
        { highWaterMark: 0 },
      );
    }
    const init2 = { status: status < 200 || status > 599 ? 200 : status, statusText, headers: rawHeaders };
    let response;
    try {
      response = new Response(readable, init2);
    } catch {
      // A reason phrase Response refuses (not a reason-phrase token): none, as over HTTP/2.
      response = new Response(readable, { ...init2, statusText: "" });
    }
    let meta;
    Object.defineProperty(response, "burrow", { get: () => (meta ??= JSON.parse(metaJson)), enumerable: true });
    Object.defineProperty(response, "url", { value: finalUrl, enumerable: true });
    Object.defineProperty(response, "redirected", { value: redirects > 0, enumerable: true });
    if (init2.status !== status) Object.defineProperty(response, "status", { value: status });
    return response;
  }

  /** Opens a WebSocket (`ws://` or `wss://`) through this client's proxy, trust and
   * identity. `options.protocols`: a subprotocol or an array of them to offer;
   * `options.headers`: more fields for the Upgrade request (`Origin`, `Authorization`, ...).
   * Resolves, once the server has switched protocols, to a `BurrowWebSocket` that is open;
   * rejects with a `BurrowError` (`WS_HANDSHAKE_STATUS` for an answer other than 101, ...). */
  async websocket(url, options = undefined) {
    if (this.#raw === null) throw closedError();
    if (this.#generation !== generation) {
      throw new BurrowError("WASM_TRAP", "runtime", "burrow's wasm instance was restarted after a trap: make a new Client");
    }
    const o = options ?? {};
    const protocols = o.protocols === undefined ? [] : typeof o.protocols === "string" ? [o.protocols] : Array.from(o.protocols);
    if (!protocols.every((p) => typeof p === "string")) throw new TypeError("burrow: websocket option `protocols` must be a string or an array of strings");
    const headers = [];
    if (o.headers !== undefined) for (const [n, v] of new Headers(o.headers)) headers.push([n, v]);
    const ws = new BurrowWebSocket(String(url));
    let raw;
    try {
      raw = await this.#raw.websocket(String(url), protocols, headers, (type, value) => ws._deliver(type, value));
    } catch (e) {
      throw toError(e);
    }
    ws._open(raw, this.#generation);
    return ws;
  }

  /** Counters: WebCrypto work, the pending-head high-water mark. After `close()`, throws
   * `CLIENT_CLOSED`. */
  stats() {
    if (this.#raw === null) throw closedError();
    return this.#raw.stats();
  }

  /** Closes the pool and frees the client's wasm memory; later fetches fail with
   * `CLIENT_CLOSED`. Call it when a request is done with its client (finalizers are not
   * promised to run in workerd). Bodies still streaming keep their connection until done. */
  close() {
    if (this.#raw === null) return;
    this.#raw.close();
    this.#raw.free();
    this.#raw = null;
  }
}

/** A WebSocket opened by `client.websocket`, with the platform `WebSocket`'s shape: `send`,
 * `close`, `readyState`, `protocol`, `extensions`, `binaryType` ("arraybuffer"),
 * `bufferedAmount`, and the events open, message (`{ data }`: a string or an ArrayBuffer),
 * error and close (`{ code, reason, wasClean }`) through `addEventListener` or `onmessage`
 * and the like. Events wait until the task that awaited `client.websocket` has run, so
 * listeners added right after the await miss nothing. */
// Listeners are kept here rather than by an EventTarget: workerd's EventTarget also calls
// `on<type>` properties itself, so a subclass calling them too would call each twice.
export class BurrowWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  #raw = null;
  #generation = -1;
  #state = 0;
  #held = [];
  #started = false;
  #protocol = "";
  #extensions = "";
  onopen = null;
  onmessage = null;
  onerror = null;
  onclose = null;

  #listeners = new Map();

  constructor(url) {
    this.url = url;
  }

  /** As EventTarget's (the `once` option included). */
  addEventListener(type, listener, options = undefined) {
    if (typeof listener !== "function" && typeof listener?.handleEvent !== "function") return;
    const list = this.#listeners.get(type) ?? [];
    if (list.some((l) => l.listener === listener)) return;
    list.push({ listener, once: typeof options === "object" && options?.once === true });
    this.#listeners.set(type, list);
  }

  /** As EventTarget's. */
  removeEventListener(type, listener) {
    const list = this.#listeners.get(type);
    if (list) this.#listeners.set(type, list.filter((l) => l.listener !== listener));
  }

  get readyState() {
    return this.#state;
  }
  get protocol() {
    return this.#protocol;
  }
  get extensions() {
    return this.#extensions;
  }
  get binaryType() {
    return "arraybuffer";
  }
  set binaryType(v) {
    if (v !== "arraybuffer") throw new TypeError('burrow: a BurrowWebSocket\'s binaryType is "arraybuffer" only');
  }
  get bufferedAmount() {
    return this.#raw && this.#state < 3 && this.#generation === generation ? this.#raw.bufferedAmount : 0;
  }

  /** Queues a message: a string is sent as text, an ArrayBuffer or a view as binary. */
  send(data) {
    if (this.#state === 0) throw new DOMException("burrow: the WebSocket is not open yet", "InvalidStateError");
    if (this.#state !== 1) throw new BurrowError("WS_CLOSED", "request", "WS_CLOSED: the WebSocket is closing or closed: open a new one");
    try {
      if (typeof data === "string") this.#raw.sendText(data);
      else if (data instanceof ArrayBuffer) this.#raw.sendBinary(new Uint8Array(data));
      else if (ArrayBuffer.isView(data)) this.#raw.sendBinary(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      else throw new TypeError("burrow: WebSocket send() takes a string, an ArrayBuffer or an ArrayBufferView");
    } catch (e) {
      throw e instanceof TypeError ? e : toError(e);
    }
  }

  /** Starts the closing handshake (`code`: 1000 or 3000-4999, `reason` at most 123 bytes of
   * UTF-8); the close event follows the server's answer. */
  close(code = undefined, reason = "") {
    if (this.#state >= 2) return;
    if (code !== undefined && code !== 1000 && !(code >= 3000 && code <= 4999)) {
      throw new DOMException(`burrow: close code ${code} may not be sent: use 1000 or 3000-4999`, "InvalidAccessError");
    }
    try {
      this.#raw.close(code, String(reason));
    } catch (e) {
      throw toError(e);
    }
    this.#state = 2;
  }

  _open(raw, gen) {
    this.#raw = raw;
    this.#generation = gen;
    this.#protocol = raw.protocol;
    this.#extensions = raw.extensions;
    this.#state = 1;
    // A macrotask: after the code that awaited client.websocket() has added its listeners.
    setTimeout(() => {
      this.#started = true;
      this.#fire("open", new Event("open"));
      for (const [t, v] of this.#held.splice(0)) this.#dispatch(t, v);
    }, 0);
  }

  _deliver(type, value) {
    if (!this.#started) this.#held.push([type, value]);
    else queueMicrotask(() => this.#dispatch(type, value));
  }

  #dispatch(type, value) {
    if (type === "message") {
      const ev = new MessageEvent("message", { data: value });
      this.#fire("message", ev);
    } else if (type === "error") {
      const ev = new Event("error");
      ev.error = toError(value);
      this.#fire("error", ev);
    } else if (type === "close") {
      this.#state = 3;
      const ev = new Event("close");
      Object.assign(ev, { code: value.code, reason: value.reason, wasClean: value.wasClean });
      // The driver has ended: its wasm half goes now (finalizers are not promised in workerd).
      if (this.#raw && this.#generation === generation) this.#raw.free();
      this.#raw = null;
      this.#fire("close", ev);
    }
  }

  #fire(type, ev) {
    const handler = this["on" + type];
    const all = typeof handler === "function" ? [{ listener: handler }] : [];
    for (const l of this.#listeners.get(type) ?? []) {
      all.push(l);
      if (l.once) this.removeEventListener(type, l.listener);
    }
    for (const { listener } of all) {
      try {
        if (typeof listener === "function") listener.call(this, ev);
        else listener.handleEvent(ev);
      } catch (e) {
        // A listener's exception is its own, as with EventTarget.
        globalThis.reportError?.(e);
      }
    }
  }
}

// The functions install() put in place: each one's predecessor and whether it is still in force.
const INSTALLS = new WeakMap();

/**
 * Makes `client.fetch` the global `fetch` until the returned `uninstall()` is called, so code
 * that calls `fetch` itself (an SDK without a `fetch` option) goes through burrow. Nothing is
 * installed on import. Installs nest and can be undone in any order: `uninstall()` puts back
 * what this install replaced (skipping installs already undone), if the global is still this
 * install's; when a later install is on top, the global is left to it and this install's
 * function passes calls on to what it replaced until that one is undone too. Once every install
 * is undone the global is exactly the function that was there first. A second `uninstall()`
 * does nothing.
 */
export function install(client) {
  if (!client || typeof client.fetch !== "function") {
    throw new TypeError("burrow: install(client) needs a Client or PooledClient (an object with fetch)");
  }
  const record = { previous: globalThis.fetch, active: true };
  const installed = function fetch(input, init) {
    return record.active ? client.fetch(input, init) : record.previous.call(globalThis, input, init);
  };
  INSTALLS.set(installed, record);
  globalThis.fetch = installed;
  return function uninstall() {
    if (!record.active) return;
    record.active = false;
    if (globalThis.fetch !== installed) return;
    let target = record.previous;
    for (let r = INSTALLS.get(target); r && !r.active; r = INSTALLS.get(target)) target = r.previous;
    globalThis.fetch = target;
  };
}

/**
 * Runs one recorded exchange through burrow's real code (an HTTP CONNECT proxy, TLS 1.3 with
 * the recording's own anchor, HTTP/2, a gzip body) over a stand-in socket, so that the first
 * real request meets wasm and JavaScript that V8 has already compiled. Opt-in; meant for
 * module scope (`warmup();` beside the imports), where workerd allows no I/O, timers or
 * random numbers: the exchange needs none (its server name, `warmup.burrow.invalid`, is the
 * one whose connections draw no randomness, so the recording replays). The promise resolves
 * with `{ ok: true }`, or `{ ok: false, error }` (also logged) when the recording does not
 * replay; it never rejects.
 */
export async function warmup() {
  try {
    const client = new Client({
      connect: replayConnect(WARMUP),
      proxy: WARMUP.proxy,
      trust: { ca: WARMUP.anchor },
      sessionCache: "off",
      // The recording's chain is validated every time (that is code to warm), and never
      // fills the isolate's cache.
      chainCache: "off",
    });
    try {
      const r = await client.fetch(WARMUP.url);
      // The stream's reader, not r.arrayBuffer(): workerd refuses a Response's own body
      // methods at module scope.
      const parts = [];
      let length = 0;
      for (const reader = r.body.getReader(); ; ) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        length += value.length;
      }
      const body = new Uint8Array(length);
      let at = 0;
      for (const p of parts) {
        body.set(p, at);
        at += p.length;
      }
      const sha = hexOf(new Uint8Array(await crypto.subtle.digest("SHA-256", body)));
      if (r.status !== WARMUP.status || sha !== WARMUP.bodySha256) {
        throw new Error(`the replayed response is not the recorded one (status ${r.status}, body sha256 ${sha})`);
      }
    } finally {
      client.close();
    }
    return { ok: true };
  } catch (e) {
    const error = `burrow: warmup() did not replay: ${e?.message ?? e}`;
    console.warn(error);
    return { ok: false, error };
  }
}

const hexOf = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

function bytesOfHex(h) {
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.substr(2 * i, 2), 16);
  return out;
}

/** A `connect` whose socket plays the recorded server: each piece once the client has
 * written as many bytes as when it was recorded, and every client byte checked against the
 * recording (a difference fails the exchange at once instead of leaving it waiting). */
function replayConnect(recording) {
  const expected = bytesOfHex(recording.client);
  const pieces = recording.server.map(([after, hex]) => [after, bytesOfHex(hex)]);
  return () => {
    let written = 0;
    let next = 0;
    let failure = null;
    let ended = false;
    let wake = null;
    const nudge = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const readable = new ReadableStream({
      type: "bytes",
      async pull(controller) {
        for (;;) {
          if (failure) throw failure;
          const piece = pieces[next];
          if (piece && written >= piece[0]) {
            next++;
            controller.enqueue(piece[1].slice());
            return;
          }
          if (!piece && ended) {
            controller.close();
            return;
          }
          await new Promise((resolve) => (wake = resolve));
        }
      },
    });
    const writable = new WritableStream({
      write(chunk) {
        // What the client writes after the recorded bytes (its farewell on close: GOAWAY,
        // close_notify) needs no answer and is not compared.
        for (let i = 0; i < chunk.length && written + i < expected.length; i++) {
          if (expected[written + i] !== chunk[i]) {
            failure = new Error(`the client's bytes differ from the recording at offset ${written + i} (this build's warmup-exchange.mjs is stale)`);
            nudge();
            throw failure;
          }
        }
        written += chunk.length;
        nudge();
      },
      close() {
        ended = true;
        nudge();
      },
    });
    return {
      readable,
      writable,
      opened: Promise.resolve({}),
      closed: Promise.resolve(),
      close() {
        ended = true;
        nudge();
        return Promise.resolve();
      },
    };
  };
}
