// The end-to-end test Worker: the demo Worker's routes plus test-only routes, run by
// worker/test/e2e.mjs under `wrangler dev` (worker/test/wrangler.toml sets BURROW_TEST_HOOKS and
// builds with the test variant of the wasm, worker/build-test/). Nothing here ships in the package.

import { connect } from "cloudflare:sockets";
import OpenAI from "openai";
import demo, { clientOptions } from "../js/entry.mjs";
import { Client, BurrowError, install, warmup } from "../js/burrow.mjs";
import { wasmHeap, wasmMemoryBytes, wasmCryptoCounts, wasmTasks, PANIC_HOST } from "../js/test-hooks.mjs";

function json(value, status = 200) {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

function err(e) {
  return { name: e?.name, code: e?.code ?? null, phase: e?.phase ?? null, message: String(e?.message ?? e), burrow: e instanceof BurrowError };
}

async function sha256hex(buf) {
  const d = await crypto.subtle.digest("SHA-256", buf);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// warmup() at module scope, as a user calls it (no I/O, timers or random numbers allowed
// here): /t/warmup reports how it went.
const warmedAtModuleScope = warmup();

// A client kept across requests on purpose (the cross-request test).
let globalClient = null;

/** `connect` with every read of its sockets' readable counted into `tally.n`. */
function readCounting(connect, tally) {
  return (address, options) => {
    const socket = connect(address, options);
    const readable = {
      getReader(o) {
        const r = socket.readable.getReader(o);
        return {
          read(view) {
            tally.n++;
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
    return {
      readable,
      writable: socket.writable,
      get opened() {
        return socket.opened;
      },
      get closed() {
        return socket.closed;
      },
      close: () => socket.close(),
      startTls: (o) => socket.startTls(o),
    };
  };
}

const routes = {
  // One fetch, reported: status, size, SHA-256 of the decoded body, meta, crypto counts.
  async "/t/get"(p, env) {
    const before = wasmCryptoCounts();
    const client = new Client(clientOptions(env, p));
    try {
      const r = await client.fetch(p.get("url"), { method: p.get("method") ?? "GET" });
      const body = await r.arrayBuffer();
      // Read together, so a record opened in between (a late ticket) cannot split them.
      const after = wasmCryptoCounts();
      const stats = client.stats();
      return json({
        ok: true,
        status: r.status,
        bytes: body.byteLength,
        sha256: await sha256hex(body),
        contentEncoding: r.headers.get("content-encoding"),
        meta: r.burrow,
        // Read after the body is done (the response's wasm side is freed by then), twice.
        sameMeta: r.burrow === r.burrow,
        metaKeys: Object.keys(r.burrow).join(","),
        tlsKeys: r.burrow.tls ? Object.keys(r.burrow.tls).join(",") : null,
        stats,
        wasm: { aesGcm: after.aesGcm - before.aesGcm, signatures: after.signatures - before.signatures, chacha: after.chacha20Poly1305 - before.chacha20Poly1305 },
      });
    } catch (e) {
      return json({ ok: false, error: err(e) });
    } finally {
      client.close();
    }
  },

  // Streams the upstream body with timestamps per chunk: proves incremental delivery.
  async "/t/chunks"(p, env) {
    const client = new Client(clientOptions(env, p));
    const r = await client.fetch(p.get("url"));
    const reader = r.body.getReader();
    const t0 = Date.now();
    const chunks = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push({ at: Date.now() - t0, bytes: value.byteLength });
    }
    return json({ chunks });
  },

  // POST a body of `n` bytes (as a ReadableStream when stream=1) to an echo URL; counts and
  // sizes every socket write() through an instrumented connect.
  async "/t/post"(p, env) {
    const n = Number(p.get("n") ?? 1048576);
    const writes = [];
    const counting = (addr, opts) => {
      const s = connect(addr, opts);
      const w = s.writable;
      const orig = w.getWriter.bind(w);
      Object.defineProperty(s, "writable", {
        value: {
          getWriter() {
            const wr = orig();
            return {
              write(c) { writes.push(c.byteLength); return wr.write(c); },
              close() { return wr.close(); },
              releaseLock() { return wr.releaseLock(); },
              get closed() { return wr.closed; },
              get ready() { return wr.ready; },
            };
          },
        },
      });
      return s;
    };
    const data = new Uint8Array(n);
    for (let i = 0; i < n; i++) data[i] = (i * 7 + 3) & 0xff;
    const client = new Client({ ...clientOptions(env, p), connect: counting });
    let body = data;
    if (p.get("stream") === "1") {
      let off = 0;
      body = new ReadableStream({
        pull(c) {
          if (off >= n) { c.close(); return; }
          const piece = data.subarray(off, Math.min(n, off + 100000));
          off += piece.byteLength;
          c.enqueue(piece.slice());
        },
      });
    }
    try {
      const r = await client.fetch(p.get("url"), { method: "POST", body, headers: { "content-type": "application/octet-stream" } });
      const echoed = await r.arrayBuffer();
      return json({ ok: true, status: r.status, sent: await sha256hex(data), echoed: await sha256hex(echoed), echoedBytes: echoed.byteLength, maxWrite: Math.max(0, ...writes), writes: writes.length, httpVersion: r.burrow.httpVersion });
    } catch (e) {
      return json({ ok: false, error: err(e) });
    }
  },

  // Aborts a fetch mid-body, then fetches again on the same client.
  async "/t/abort"(p, env) {
    const client = new Client(clientOptions(env, p));
    const ac = new AbortController();
    let aborted;
    try {
      const r = await client.fetch(p.get("url"), { signal: ac.signal });
      const reader = r.body.getReader();
      await reader.read();
      ac.abort();
      await reader.read();
      aborted = { name: "no error" };
    } catch (e) {
      aborted = err(e);
    }
    // Aborted before it starts.
    let early;
    try {
      const ac2 = new AbortController();
      ac2.abort();
      await client.fetch(p.get("url"), { signal: ac2.signal });
      early = { name: "no error" };
    } catch (e) {
      early = err(e);
    }
    const again = await client.fetch(p.get("next") ?? p.get("url"));
    const body = await again.arrayBuffer();
    return json({ aborted, early, next: { status: again.status, bytes: body.byteLength } });
  },

  // `n` sequential requests on one client. Live heap (bytes and blocks not yet freed) before
  // the client exists, after 10 requests and every 250; linear memory (a high-water mark) for
  // the record.
  async "/t/many"(p, env) {
    const n = Number(p.get("n") ?? 1000);
    const heapFirst = wasmHeap();
    const tasksFirst = wasmTasks();
    const memoryFirst = wasmMemoryBytes();
    const options = clientOptions(env, p);
    // reads=1: the sockets' reads are counted (a body chunk is what whole reads carried, so
    // there are never more chunks than reads).
    const reads = { n: 0 };
    if (p.get("reads") === "1") options.connect = readCounting(options.connect, reads);
    const client = new Client(options);
    let heapAfter10 = heapFirst;
    let bytes = 0;
    let chunks = 0;
    const marks = [];
    for (let i = 0; i < n; i++) {
      const r = await client.fetch(p.get("url"));
      if (p.get("cancel") === "1") {
        // One chunk, then the body is cancelled (as when the Worker's own client goes away).
        const reader = r.body.getReader();
        const { value } = await reader.read();
        bytes += value?.byteLength ?? 0;
        chunks++;
        await reader.cancel();
      } else if (p.get("chunks") === "1") {
        const reader = r.body.getReader();
        for (;;) { const { done, value } = await reader.read(); if (done) break; bytes += value.byteLength; chunks++; }
      } else bytes += (await r.arrayBuffer()).byteLength;
      if (i === 9) heapAfter10 = wasmHeap();
      if ((i + 1) % 250 === 0) marks.push(wasmHeap());
    }
    const heapEnd = wasmHeap();
    client.close();
    return json({ n, bytes, chunks, reads: reads.n, tasksFirst, heapFirst, heapAfter10, heapEnd, marks, memoryFirst, memoryEnd: wasmMemoryBytes() });
  },

  // WebSockets (client.websocket): mode "echo" sends `n` messages of mixed sizes (text and
  // binary alternating, every 25th over 64 KiB) all at once and compares each echo byte for
  // byte; "close" checks close codes both ways; "refused" expects the named error.
  async "/t/ws"(p, env) {
    const client = new Client(clientOptions(env, p));
    const url = p.get("url");
    const mode = p.get("mode") ?? "echo";
    const opened = (ws) => new Promise((resolve) => ws.addEventListener("close", resolve));
    try {
      if (mode === "refused") {
        try {
          await client.websocket(url);
          return json({ ok: false, error: "no error" });
        } catch (e) {
          return json({ ok: true, error: err(e) });
        }
      }
      if (mode === "close") {
        // The server closes (4001 "server bye") after one message.
        const a = await client.websocket(`${url}/close`);
        const aClosed = opened(a);
        a.send("close me");
        const ca = await aClosed;
        // We close (4002 "client bye"); the server's reply echoes the code.
        const b = await client.websocket(`${url}/echo`);
        const bClosed = opened(b);
        b.close(4002, "client bye");
        const cb = await bClosed;
        let badCode;
        const c = await client.websocket(`${url}/echo`);
        try { c.close(1005); badCode = "no error"; } catch (e) { badCode = err(e); }
        c.close(1000);
        await opened(c);
        return json({ ok: true, server: { code: ca.code, reason: ca.reason, wasClean: ca.wasClean }, client: { code: cb.code, reason: cb.reason, wasClean: cb.wasClean }, badCode, stateAfter: b.readyState });
      }
      const n = Number(p.get("n") ?? 1000);
      const ws = await client.websocket(`${url}/echo`, { protocols: ["chat"] });
      const sent = [];
      for (let i = 0; i < n; i++) {
        const size = i % 25 === 0 ? 65536 + 1000 + i * 13 : (i * 37) % 3000;
        if (i % 2 === 0) {
          let t = "";
          while (t.length < size) t += `msg ${i} héllo ✓ `;
          sent.push(t.slice(0, size));
        } else {
          const b = new Uint8Array(size);
          for (let k = 0; k < size; k++) b[k] = (k * 31 + i) & 0xff;
          sent.push(b);
        }
      }
      const got = [];
      const done = new Promise((resolve, reject) => {
        ws.onmessage = (ev) => {
          got.push(ev.data);
          if (got.length === n) resolve();
        };
        ws.addEventListener("error", (ev) => reject(ev.error));
        ws.addEventListener("close", (ev) => reject(new Error(`closed early: ${ev.code}`)));
      });
      for (const m of sent) ws.send(m);
      await done;
      let mismatches = 0;
      let bytes = 0;
      for (let i = 0; i < n; i++) {
        const a = sent[i];
        const b = got[i];
        if (typeof a === "string") {
          bytes += a.length;
          if (b !== a) mismatches++;
        } else {
          bytes += a.byteLength;
          const v = b instanceof ArrayBuffer ? new Uint8Array(b) : null;
          if (!v || v.length !== a.length || v.some((x, k) => x !== a[k])) mismatches++;
        }
      }
      const closed = opened(ws);
      ws.close(1000, "done");
      const c = await closed;
      return json({ ok: mismatches === 0, n, received: got.length, mismatches, bytes, protocol: ws.protocol, extensions: ws.extensions, close: { code: c.code, wasClean: c.wasClean } });
    } catch (e) {
      return json({ ok: false, error: err(e) });
    } finally {
      client.close();
    }
  },

  // Live heap and executor counts between requests (what the previous request left behind).
  async "/t/heap"() {
    return json({ heap: wasmHeap(), tasks: wasmTasks() });
  },

  // `n` fetches at once to distinct origins; all must succeed, at most six await heads.
  async "/t/parallel"(p, env) {
    const urls = p.getAll("url");
    const client = new Client(clientOptions(env, p));
    const results = await Promise.allSettled(urls.map(async (u) => {
      const r = await client.fetch(u);
      return (await r.arrayBuffer()).byteLength;
    }));
    return json({ results: results.map((r) => (r.status === "fulfilled" ? { ok: true, bytes: r.value } : { ok: false, error: err(r.reason) })), stats: client.stats() });
  },

  // Request 1 makes a client and pools a connection; request 2 uses the same client.
  async "/t/global"(p, env) {
    const step = p.get("step");
    if (step === "1") {
      globalClient = new Client(clientOptions(env, p));
      const r = await globalClient.fetch(p.get("url"));
      await r.arrayBuffer();
      return json({ ok: true });
    }
    const t0 = Date.now();
    try {
      const r = await globalClient.fetch(p.get("url"));
      await r.arrayBuffer();
      return json({ ok: true, ms: Date.now() - t0 });
    } catch (e) {
      return json({ ok: false, ms: Date.now() - t0, error: err(e) });
    }
  },

  // A real SDK from npm with burrow's fetch, against a local origin that speaks its API.
  async "/t/sdk"(p, env) {
    const client = new Client(clientOptions(env, p));
    const openai = new OpenAI({ apiKey: "sk-test-burrow", baseURL: p.get("base"), fetch: client.fetch, maxRetries: 0 });
    try {
      const chat = await openai.chat.completions.create({ model: "burrow-test", messages: [{ role: "user", content: "say hi" }] });
      const stream = await openai.chat.completions.create({ model: "burrow-test", messages: [{ role: "user", content: "stream" }], stream: true });
      let streamed = "";
      for await (const part of stream) streamed += part.choices[0]?.delta?.content ?? "";
      return json({ ok: true, content: chat.choices[0].message.content, streamed });
    } catch (e) {
      return json({ ok: false, error: err(e) });
    }
  },

  // install(): the global fetch goes through burrow until uninstall(), which restores exactly
  // what was there; nested installs undone in order and out of order.
  async "/t/install"(p, env) {
    const original = globalThis.fetch;
    const out = {};
    const a = new Client(clientOptions(env, p));
    const b = new Client(clientOptions(env, p));
    try {
      out.untouchedBefore = globalThis.fetch === original;
      const undoA = install(a);
      out.replaced = globalThis.fetch !== original;
      const r = await fetch(p.get("url"));
      out.viaBurrow = Boolean(r.burrow) && (await r.arrayBuffer()).byteLength > 0;
      const withA = globalThis.fetch;
      const undoB = install(b);
      const r2 = await fetch(p.get("url"));
      out.nestedViaBurrow = Boolean(r2.burrow) && (await r2.arrayBuffer()).byteLength > 0;
      undoB();
      out.innerUndoRestoresOuter = globalThis.fetch === withA;
      undoA();
      out.outerUndoRestoresOriginal = globalThis.fetch === original;
      undoA();
      out.secondUndoIsNoop = globalThis.fetch === original;
      // Out of order: A then B, undo A first (B stays), then B (the original comes back).
      const undoA2 = install(a);
      const undoB2 = install(b);
      const withB = globalThis.fetch;
      undoA2();
      out.outOfOrderKeepsTop = globalThis.fetch === withB;
      undoB2();
      out.outOfOrderRestoresOriginal = globalThis.fetch === original;
      try { install({}); out.badArgument = "no error"; } catch (e) { out.badArgument = err(e); }
    } finally {
      globalThis.fetch = original;
      a.close();
      b.close();
    }
    return json(out);
  },

  // warmup(): at module scope (above) and again inside a request.
  async "/t/warmup"() {
    return json({ moduleScope: await warmedAtModuleScope, inRequest: await warmup() });
  },

  // Argument mistakes are TypeErrors.
  async "/t/typeerrors"() {
    const out = {};
    try { new Client({}); out.noConnect = "no error"; } catch (e) { out.noConnect = err(e); }
    const client = new Client({ connect });
    try { await client.fetch("not a url"); out.badUrl = "no error"; } catch (e) { out.badUrl = err(e); }
    try { new Client({ connect, timeouts: { idleMs: "soon" } }); out.badOption = "no error"; } catch (e) { out.badOption = err(e); }
    try { new Client({ connect, chainCache: "shared" }); out.badChainCache = "no error"; } catch (e) { out.badChainCache = err(e); }
    try { await client.fetch("socks://x/"); out.scheme = "no error"; } catch (e) { out.scheme = err(e); }
    return json(out);
  },

  // A panic inside Client.fetch (the test variant's connect traps for PANIC_HOST): the fetch
  // rejects with WASM_TRAP, and the instance is restarted for the next client.
  // Client certificates: a POSTed JSON `{ url, cert?, proxyCert?, n? }` (`cert` and
  // `proxyCert` are `{ certChain, key }` PEMs; the query has the usual switches: proxy,
  // offload, sessionCache). `n` fetches on one client; each page's text and whether its
  // session was resumed, the client's stats and the wasm's own signature count. A client the
  // options refuse answers `stage: "config"` with the error.
  async "/t/mtls"(p, env, _ctx, request) {
    const spec = await request.json();
    const options = clientOptions(env, p);
    if (spec.cert !== undefined) options.tls.clientCert = spec.cert;
    if (spec.proxyCert !== undefined) options.proxyTls = { clientCert: spec.proxyCert };
    const before = wasmCryptoCounts();
    let client;
    try {
      client = new Client(options);
    } catch (e) {
      return json({ ok: false, stage: "config", error: err(e) });
    }
    const pages = [];
    const report = () => ({ pages, stats: client.stats(), wasm: { signatures: wasmCryptoCounts().signatures - before.signatures } });
    try {
      for (let i = 0; i < (spec.n ?? 1); i++) {
        const r = await client.fetch(spec.url);
        pages.push({ status: r.status, text: await r.text(), resumed: r.burrow.tls?.resumed ?? null, version: r.burrow.tls?.version ?? null, tlsMs: r.burrow.timings.tls });
      }
      return json({ ok: true, ...report() });
    } catch (e) {
      return json({ ok: false, stage: "fetch", error: err(e), ...report() });
    } finally {
      client.close();
    }
  },

  async "/t/panic"() {
    const client = new Client({ connect });
    try {
      await client.fetch(`https://${PANIC_HOST}/`);
      return json({ trapped: false });
    } catch (e) {
      return json({ trapped: true, error: err(e) });
    }
  },
};

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const route = routes[url.pathname];
    if (route) {
      try {
        return await route(url.searchParams, env, ctx, request);
      } catch (e) {
        return json({ ok: false, error: err(e) }, 500);
      }
    }
    return demo.fetch(request, env, ctx);
  },
};
