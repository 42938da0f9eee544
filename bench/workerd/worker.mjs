// The bench Worker that bench/workerd/run.mjs runs in workerd. One call, one measured job:
//
//   GET /run?impl=burrow|pooled|platform&op=fetch&url=URL&n=N&reuse=R&prime=none|same|other
//           &proxy=URL&http2=on|off&trust=ca|system&gzip=1&bytes=B&sha256=HEX&check=sha256|size
//       n requests of url, a new burrow Client every R of them (R = 0: one client for all).
//       prime=same: one request first on the first client (a warm connection for the n);
//       prime=other: one request first on a client of its own, closed before the n start (the
//       n then meet an isolate that has already talked to the origin). Every body is read to
//       its end with the default reader; its size is checked, and with check=sha256 its
//       SHA-256 too. The platform's fetch goes direct (it cannot use a proxy) and asks for
//       gzip only when gzip=1 (burrow's default profile always asks). impl=pooled: a
//       PooledClient per "client" (burrow-worker/pool), its connections in the BurrowPool
//       Durable Object (whose CPU is workerd's too, so it is counted); poolInlineBytes=B its
//       option of that name (0: every body streams from the object); inlineRecordBytes=B
//       (burrow): tls.inlineRecordBytes (0: every AES-GCM record through WebCrypto).
//       census=1 (burrow): counts the socket operations and WebCrypto calls of the n (the
//       profile's report; it wraps the sockets, so it is never on a measured call)
//   GET /run?op=construct&n=N&trust=ca|system    n × (new Client, close), no request
//   GET /run?op=events&url=URL&n=N&...           one request of a server-sent event stream of
//       n events (the origin's /events), read chunk by chunk; the bytes are checked at the end
//   GET /run?op=eventsCheck&url=URL&ack=ORIGIN&... the same, acknowledging each event as it
//       arrives (the origin writes the next only then) and timestamping it
//   GET /run?op=conn&url=URL                     the platform's fetch of the origin's /conn
//       twice: whether it pooled the connection
//   GET /run?impl=burrow|platform&op=ws&url=WSS_URL&n=N&kind=text|binary&size=S&proxy=URL
//       one WebSocket to the echo origin (bench/workerd/wsecho.mjs): opened, one message echoed
//       (the warm-up, in every call), then n messages of S bytes, each sent once the previous
//       echo has arrived, then closed (waiting for the close). Each echo's size is checked;
//       with check=full its bytes too. burrow: `client.websocket`; the platform: `fetch` with
//       `Upgrade: websocket` and `resp.webSocket.accept()` (direct: it cannot use a proxy).
//
// Answers JSON: { ok, requests, bytes, chunks, ... } or { ok: false, error }.

import { connect } from "cloudflare:sockets";
// The one import of burrow's package: a change of its layout changes this line only.
import { Client } from "../../worker/js/burrow.mjs";
import { BurrowPool, PooledClient } from "../../worker/js/pool.mjs";

export { BurrowPool };

const EVENT_BYTES = 96; // bench/workerd/origin.mjs EVENT_BYTES

function json(value) {
  return new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });
}

function hex(buf) {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads a body to its end with the default reader; { bytes, chunks, parts }. */
async function drain(body, keep) {
  const reader = body.getReader();
  let bytes = 0;
  let chunks = 0;
  const parts = keep ? [] : null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    chunks++;
    if (keep) parts.push(value);
  }
  return { bytes, chunks, parts };
}

function joined(parts, bytes) {
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return all;
}

/** `connect` of cloudflare:sockets, counting what burrow does with each socket into `tally`. */
function countingConnect(tally) {
  return (address, options) => {
    tally.sockets++;
    const sizes = tally.sockets === 1 ? tally.firstSocketWrites : null;
    const socket = connect(address, options);
    const readable = {
      getReader(o) {
        const r = socket.readable.getReader(o);
        return {
          read(view) {
            tally.reads++;
            return view === undefined ? r.read() : r.read(view);
          },
          cancel: (why) => r.cancel(why),
          releaseLock: () => r.releaseLock(),
          get closed() {
            return r.closed;
          },
        };
      },
    };
    const writable = {
      getWriter() {
        const w = socket.writable.getWriter();
        return {
          write(chunk) {
            tally.writes++;
            tally.writeBytes += chunk.byteLength;
            sizes?.push(chunk.byteLength);
            return w.write(chunk);
          },
          close: () => w.close(),
          releaseLock: () => w.releaseLock(),
          get closed() {
            return w.closed;
          },
          get ready() {
            return w.ready;
          },
        };
      },
    };
    return {
      readable,
      writable,
      get opened() {
        return socket.opened;
      },
      get closed() {
        return socket.closed;
      },
      close: () => socket.close(),
    };
  };
}

/** The options of one burrow Client for this call. */
function burrowOptions(p, env, tally = null) {
  const options = { connect: tally ? countingConnect(tally) : connect, trust: p.get("trust") === "system" ? "system" : { ca: env.CA_PEM } };
  if (p.get("proxy")) options.proxy = p.get("proxy");
  if (p.get("http2") === "off") options.http2 = false;
  if (p.get("sessionCache")) options.sessionCache = p.get("sessionCache");
  if (p.get("inlineRecordBytes") !== null) options.tls = { inlineRecordBytes: Number(p.get("inlineRecordBytes")) };
  if (p.get("chainCache")) options.chainCache = p.get("chainCache");
  return options;
}

/** A fetch function per implementation: burrow's through `client`, or the platform's. */
function fetcher(p, client) {
  if (p.get("impl") === "platform") {
    const headers = p.get("gzip") === "1" ? { "accept-encoding": "gzip" } : {};
    return (url) => fetch(url, { headers });
  }
  return client.fetch;
}

/** A new client of the call's implementation (none for the platform's fetch). */
function makeClient(p, env, tally) {
  const impl = p.get("impl");
  if (impl === "platform") return null;
  if (impl === "pooled") {
    const { connect: _connect, ...options } = burrowOptions(p, env);
    const inline = p.get("poolInlineBytes");
    return new PooledClient({ ...options, pool: env.BURROW_POOL, ...(inline === null ? {} : { poolInlineBytes: Number(inline) }) });
  }
  return new Client(burrowOptions(p, env, tally));
}

async function runFetch(p, env) {
  const n = Number(p.get("n"));
  const reuse = Number(p.get("reuse") ?? 0);
  const prime = p.get("prime") ?? "none";
  const url = p.get("url");
  const wantBytes = Number(p.get("bytes"));
  const wantSha = p.get("sha256");
  const hashing = p.get("check") === "sha256";
  const burrow = p.get("impl") !== "platform";
  const out = { ok: true, requests: 0, bytes: 0, chunks: 0, encoding: null, httpVersion: null, tls: null, proxied: null };

  const one = async (doFetch) => {
    const r = await doFetch(url);
    if (r.status !== 200) throw new Error(`status ${r.status} from ${url}`);
    const { bytes, chunks, parts } = await drain(r.body, hashing);
    if (bytes !== wantBytes) throw new Error(`${url}: ${bytes} bytes, expected ${wantBytes}`);
    if (hashing) {
      const sha = hex(await crypto.subtle.digest("SHA-256", joined(parts, bytes)));
      if (sha !== wantSha) throw new Error(`${url}: SHA-256 ${sha}, expected ${wantSha}`);
    }
    out.requests++;
    out.bytes += bytes;
    out.chunks += chunks;
    out.encoding = r.headers.get("content-encoding");
    if (burrow) {
      out.httpVersion = r.burrow.httpVersion;
      out.tls = { version: r.burrow.tls.version, cipher: r.burrow.tls.cipher, group: r.burrow.tls.group, resumed: r.burrow.tls.resumed };
      out.proxied = r.burrow.proxied;
    }
  };

  const tally = burrow && p.get("census") === "1" ? { sockets: 0, reads: 0, writes: 0, writeBytes: 0, firstSocketWrites: [], webcrypto: {} } : null;
  let client = null;
  const closeClient = () => {
    if (client && tally) {
      for (const [k, v] of Object.entries(client.stats().webcrypto ?? {})) tally.webcrypto[k] = (tally.webcrypto[k] ?? 0) + v;
    }
    if (client instanceof Client) client.close();
    client = null;
  };
  const newClient = () => {
    closeClient();
    client = makeClient(p, env, tally);
  };
  try {
    if (prime === "other") {
      newClient();
      await one(fetcher(p, client));
      closeClient();
    }
    if (prime === "same" || n > 0) newClient();
    if (prime === "same") await one(fetcher(p, client));
    for (let i = 0; i < n; i++) {
      if (reuse > 0 && i > 0 && i % reuse === 0) newClient();
      await one(fetcher(p, client));
    }
  } finally {
    closeClient();
  }
  out.requests -= prime === "none" ? 0 : 1;
  if (tally) out.census = tally;
  return out;
}

async function runConstruct(p, env) {
  const n = Number(p.get("n"));
  for (let i = 0; i < n; i++) new Client(burrowOptions(p, env)).close();
  return { ok: true, clients: n };
}

/** One event stream: every byte kept, checked against the origin's events at the end. */
async function runEvents(p, env) {
  const n = Number(p.get("n"));
  const client = p.get("impl") === "platform" ? null : new Client(burrowOptions(p, env));
  try {
    const doFetch = fetcher(p, client);
    // A warm connection first, so the stream's own cost is what n scales.
    if (p.get("prime") === "same") await drain((await doFetch(p.get("warm"))).body, false);
    const r = await doFetch(`${p.get("url")}?n=${n}&gapMs=${p.get("gapMs") ?? 0}`);
    const { bytes, chunks, parts } = await drain(r.body, true);
    const text = new TextDecoder().decode(joined(parts, bytes));
    if (bytes !== n * EVENT_BYTES) throw new Error(`${bytes} bytes of events, expected ${n * EVENT_BYTES}`);
    for (let seq = 0; seq < n; seq++) {
      if (!text.startsWith(`id: ${seq}\n`, seq * EVENT_BYTES)) throw new Error(`event ${seq} is not where it belongs`);
    }
    return { ok: true, events: n, bytes, chunks, httpVersion: r.burrow?.httpVersion ?? null };
  } finally {
    client?.close();
  }
}

/** One event stream whose writer waits for each event's acknowledgement: a stream that held an
 * event back until more bytes came would stall here (and the origin says so). */
async function runEventsCheck(p, env) {
  const n = Number(p.get("n"));
  const id = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const ack = p.get("ack");
  const client = p.get("impl") === "platform" ? null : new Client(burrowOptions(p, env));
  const arrivals = [];
  let problem = null;
  try {
    const r = await fetcher(p, client)(`${p.get("url")}?n=${n}&ack=${id}`);
    const reader = r.body.getReader();
    const decoder = new TextDecoder();
    let pending = "";
    let next = 0;
    let chunks = 0;
    const t0 = Date.now();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      pending += decoder.decode(value, { stream: true });
      let end;
      while ((end = pending.indexOf("\n\n")) >= 0) {
        const event = pending.slice(0, end);
        pending = pending.slice(end + 2);
        const seq = Number(/^id: (\d+)\n/.exec(event)?.[1]);
        if (seq !== next) problem ??= `event ${seq} arrived when ${next} was due`;
        next++;
        arrivals.push(Date.now() - t0);
        const a = await fetch(`${ack}/ack?id=${id}&seq=${seq}`);
        await a.arrayBuffer();
      }
    }
    if (pending !== "") problem ??= `${pending.length} bytes after the last event`;
    const writer = await (await fetch(`${ack}/acks?id=${id}`)).json();
    problem ??= writer.problem;
    if (next !== n) problem ??= `${next} events of ${n} arrived`;
    return { ok: problem === null, error: problem, events: next, chunks, writer, arrivalsMs: arrivals, httpVersion: r.burrow?.httpVersion ?? null };
  } finally {
    client?.close();
  }
}

async function runConn(p) {
  const conns = [];
  for (let i = 0; i < 2; i++) conns.push(await (await fetch(p.get("url"))).json());
  return { ok: true, conns };
}

/** The message of a WebSocket row: text of `size` ASCII characters (JSON-like, as an API
 * sends), or `size` bytes that deflate cannot shrink (a xorshift stream). */
function wsMessage(kind, size) {
  if (kind === "text") {
    let t = "";
    for (let i = 0; t.length < size; i++) t += `{"seq":${i},"op":"tick","v":${(i * 7919) % 10007}}`;
    return t.slice(0, size);
  }
  const b = new Uint8Array(size);
  let x = 0x9e3779b9;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

/** One WebSocket: open, a warm-up echo, n echoes one at a time, close. */
async function runWs(p, env, tally = null) {
  const n = Number(p.get("n"));
  const kind = p.get("kind");
  const msg = wsMessage(kind, Number(p.get("size")));
  const full = p.get("check") === "full";
  const platform = p.get("impl") === "platform";
  const client = platform ? null : new Client(burrowOptions(p, env, tally));
  try {
    let ws;
    let agreed = null;
    if (platform) {
      const resp = await fetch(p.get("url").replace(/^ws/, "http"), { headers: { Upgrade: "websocket" } });
      ws = resp.webSocket;
      if (!ws) throw new Error(`no WebSocket from the platform's fetch: status ${resp.status}`);
      agreed = resp.headers.get("sec-websocket-extensions");
      // (This compatibility date's default binaryType is "blob".)
      ws.binaryType = "arraybuffer";
      ws.accept();
    } else {
      ws = await client.websocket(p.get("url"));
    }
    // Echoes as they come; `next()` is the next one.
    const arrived = [];
    let waiting = null;
    let failed = null;
    const closed = new Promise((resolve) => ws.addEventListener("close", (ev) => resolve({ code: ev.code, wasClean: ev.wasClean })));
    ws.addEventListener("message", (ev) => {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w.resolve(ev.data);
      } else arrived.push(ev.data);
    });
    const fail = (e) => {
      failed ??= e;
      if (waiting) waiting.reject(e);
    };
    ws.addEventListener("error", (ev) => fail(ev.error ?? new Error("WebSocket error")));
    closed.then((c) => fail(new Error(`closed early: ${c.code}`)));
    const next = () => {
      if (arrived.length > 0) return Promise.resolve(arrived.shift());
      if (failed) return Promise.reject(failed);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    };
    const same = (got) => {
      if (kind === "text") return typeof got === "string" && (full ? got === msg : got.length === msg.length);
      if (!(got instanceof ArrayBuffer) || got.byteLength !== msg.byteLength) return false;
      if (!full) return true;
      const v = new Uint8Array(got);
      for (let i = 0; i < v.length; i++) if (v[i] !== msg[i]) return false;
      return true;
    };
    let bytes = 0;
    for (let i = 0; i <= n; i++) {
      ws.send(msg);
      const got = await next();
      if (!same(got)) throw new Error(`echo ${i} differs from what was sent (${typeof got} ${got?.constructor?.name}, ${got?.byteLength ?? got?.length}, ${p.get("impl")} ${kind})`);
      if (i > 0) bytes += kind === "text" ? got.length : got.byteLength;
    }
    const extensions = agreed ?? ws.extensions;
    failed = new Error("closing");
    ws.close(1000, "done");
    const c = await closed;
    if (c.code !== 1000) throw new Error(`closed with ${c.code}, not 1000`);
    return { ok: true, messages: n, bytes, extensions, close: c };
  } finally {
    client?.close();
  }
}

async function runWsCounted(p, env) {
  if (p.get("census") !== "1" || p.get("impl") === "platform") return runWs(p, env);
  const tally = { sockets: 0, reads: 0, writes: 0, writeBytes: 0, firstSocketWrites: [], webcrypto: {} };
  const out = await runWs(p, env, tally);
  return { ...out, census: tally };
}

const ops = { ws: runWsCounted, conn: runConn, fetch: runFetch, construct: runConstruct, events: runEvents, eventsCheck: runEventsCheck };

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return json({ ok: true });
    const op = ops[url.searchParams.get("op")];
    if (url.pathname !== "/run" || !op) return json({ ok: false, error: `no ${url.pathname}?op=${url.searchParams.get("op")}` });
    try {
      return json(await op(url.searchParams, env));
    } catch (e) {
      return json({ ok: false, error: `${e?.name}: ${e?.code ?? ""} ${e?.message ?? e}` });
    }
  },
};
