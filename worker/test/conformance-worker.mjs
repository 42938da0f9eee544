// The conformance Worker: runs one request twice, through the platform's own `fetch` and
// through burrow's `client.fetch`, and answers with what each gave back (status, headers,
// body digest, url, redirected, Set-Cookie, or the error). worker/test/conformance.mjs holds
// the list of requests, starts this Worker under `wrangler dev` and compares the two.
//
//   POST /row   { row: { url, method?, headers?, body?, redirect?, input?, signal?, client? },
//                 ca: PEM }   ->   { platform: Outcome, burrow: Outcome }
//   POST /words { cases: { name: { url, client } }, ca: PEM }  ->  { name: the error }
//                 (and what a closed client's stats() and fetch() throw)
//   Each /row also answers `pooled`: the same run through burrow-worker/pool's PooledClient
//   (the connection in the BurrowPool Durable Object), which must match `burrow`.
//
// `body` names a kind, built here for both runs alike: "string", "arraybuffer", "typedarray"
// (a view into a larger buffer), "blob", "urlsearchparams", "formdata", "stream". `input`
// "request" passes a `Request` (carrying the method, headers, body and redirect) instead of
// the URL. `signal` "before" aborts before the call, "headers" while waiting for the head,
// "body" after the first chunk. `client` are burrow's options (the platform has none).

import { connect } from "cloudflare:sockets";
import { Client, BurrowError } from "../js/burrow.mjs";
import { BurrowPool, PooledClient } from "../js/pool.mjs";

// The pool's object: each row also runs through PooledClient, which must give what Client gives.
export { BurrowPool };

const TEXT = "burrow conformance body ✓ ".repeat(40);

function bodyOf(kind) {
  const bytes = new TextEncoder().encode(TEXT);
  switch (kind) {
    case undefined:
      return undefined;
    case "string":
      return TEXT;
    case "arraybuffer":
      return bytes.buffer.slice(0);
    case "typedarray": {
      // A view that does not start at its buffer's start: only the view is the body.
      const big = new Uint8Array(bytes.length + 16);
      big.set(bytes, 8);
      return big.subarray(8, 8 + bytes.length);
    }
    case "blob":
      return new Blob([bytes], { type: "text/x-burrow" });
    case "urlsearchparams":
      return new URLSearchParams({ a: "1", text: TEXT.slice(0, 40) });
    case "formdata": {
      const f = new FormData();
      f.append("field", "value");
      f.append("file", new Blob([bytes], { type: "application/octet-stream" }), "f.bin");
      return f;
    }
    case "stream":
      return new ReadableStream({
        start(c) {
          c.enqueue(bytes.subarray(0, 100));
          c.enqueue(bytes.subarray(100));
          c.close();
        },
      });
    default:
      throw new Error(`unknown body kind ${kind}`);
  }
}

async function sha256hex(buf) {
  const d = await crypto.subtle.digest("SHA-256", buf);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function errorOf(e) {
  return { name: e?.name ?? typeof e, code: e?.code ?? null, message: String(e?.message ?? e) };
}

/** One run of `row` with `fetchFn`; everything a caller can observe. */
async function run(row, fetchFn) {
  const controller = new AbortController();
  const init = { method: row.method ?? "GET" };
  if (row.headers) init.headers = row.headers;
  if (row.body) init.body = bodyOf(row.body);
  if (row.redirect) init.redirect = row.redirect;
  if (row.signal) init.signal = controller.signal;
  let input = row.url;
  let callInit = init;
  if (row.input === "request") {
    // A Request carries it all (workerd's Request cannot carry redirect "error").
    const { signal, ...rest } = init;
    input = new Request(row.url, rest);
    callInit = signal ? { signal } : undefined;
  }
  if (row.signal === "before") controller.abort();
  let timer;
  if (row.signal === "headers") timer = setTimeout(() => controller.abort(), 300);
  const out = {};
  try {
    const r = await fetchFn(input, callInit);
    clearTimeout(timer);
    out.status = r.status;
    out.statusText = r.statusText;
    out.url = r.url;
    out.redirected = r.redirected;
    out.headers = [...r.headers].map(([n, v]) => [n.toLowerCase(), v]);
    out.setCookie = r.headers.getSetCookie();
    out.bodyNull = r.body === null;
    out.proxied = r.burrow?.proxied;
    out.decoded = r.burrow?.contentEncoding;
    if (row.signal === "body") {
      const reader = r.body.getReader();
      await reader.read();
      controller.abort();
      try {
        for (;;) {
          const { done } = await reader.read();
          if (done) break;
        }
        out.bodyError = null;
      } catch (e) {
        out.bodyError = errorOf(e);
      }
    } else {
      const buf = await r.arrayBuffer();
      out.bodyBytes = buf.byteLength;
      out.bodySha = await sha256hex(buf);
      out.bodyText = new TextDecoder("utf-8", { fatal: false }).decode(buf.slice(0, 400));
    }
  } catch (e) {
    clearTimeout(timer);
    out.error = errorOf(e);
  }
  return out;
}

/** Failures a JS user meets, each as `{ code, phase, message, burrow }`: the words must be
 * the JS API's. `cases` maps a name to `{ url, client }`. */
async function words(cases, ca) {
  const out = {};
  for (const [name, { url, client }] of Object.entries(cases)) {
    const c = new Client({ connect, trust: { ca }, ...client });
    try {
      const r = await c.fetch(url);
      await r.arrayBuffer();
      out[name] = { code: null };
    } catch (e) {
      out[name] = { ...errorOf(e), phase: e?.phase ?? null, burrow: e instanceof BurrowError };
    } finally {
      c.close();
    }
  }
  // A closed client says so, for stats() as for fetch().
  const c = new Client({ connect });
  c.close();
  for (const [name, call] of [["statsAfterClose", () => c.stats()], ["fetchAfterClose", () => c.fetch("https://localhost/")]]) {
    try {
      await call();
      out[name] = { code: null };
    } catch (e) {
      out[name] = { ...errorOf(e), phase: e?.phase ?? null, burrow: e instanceof BurrowError };
    }
  }
  return out;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    if (url.pathname === "/words" && request.method === "POST") {
      const { cases, ca } = await request.json();
      return Response.json(await words(cases, ca));
    }
    if (url.pathname !== "/row" || request.method !== "POST") return new Response("not found", { status: 404 });
    const { row, ca } = await request.json();
    const platform = await run(row, (input, init) => fetch(input, init));
    const client = new Client({ connect, trust: { ca }, ...(row.client ?? {}) });
    try {
      const burrow = await run(row, client.fetch);
      const pooled = await run(row, new PooledClient({ pool: env.BURROW_POOL, trust: { ca }, ...(row.client ?? {}) }).fetch);
      return Response.json({ platform, burrow, pooled });
    } finally {
      client.close();
    }
  },
};
