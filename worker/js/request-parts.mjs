// What Client.fetch (burrow.mjs) and PooledClient.fetch (pool.mjs) both make of a fetch's
// (input, init): one conversion, so the two cannot drift on which bodies stream.

/** The reason an aborted signal gives, as the platform's fetch rejects with it. */
export function abortReason(signal) {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** Whether a body is a ReadableStream (streamed, never buffered). */
export function isStream(b) {
  return typeof ReadableStream !== "undefined" && b instanceof ReadableStream;
}

/**
 * The request of (input, init) as `{ req, stream, body }`. A ReadableStream in `init.body` is
 * `stream` and never read here; every other body (string, ArrayBuffer, typed array, Blob,
 * URLSearchParams, FormData, a Request input's) goes through Request's own conversion, with the
 * content type it implies, and is `body`, whole. `redirect` and `signal` are left out of the
 * Request (workerd's refuses redirect "error", which burrow implements itself); an already
 * aborted `signal` rejects before the body is read. Request's refusals are TypeErrors.
 */
export async function requestParts(input, init, signal) {
  let stream = null;
  const rest = { ...init, redirect: undefined, signal: undefined };
  if (isStream(init.body)) {
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
  return { req, stream, body };
}
