// A Worker that fetches through one of its configured proxies with burrow and reports what it
// got: GET /?url=URL&via=NAME answers JSON with the status, the body's size and SHA-256 (of the
// decoded bytes), and what burrow negotiated. With &pooled=1 the connection lives in the
// BurrowPool Durable Object and serves the next Worker request too.

import { connect } from "cloudflare:sockets";
import { Client, BurrowError, warmup } from "burrow-worker";
import { BurrowPool, PooledClient } from "burrow-worker/pool";

// The pool object's class, bound as BURROW_POOL in wrangler.toml.
export { BurrowPool };

// Opt-in, at module scope: one recorded exchange through burrow's code before any request, so
// the first request meets compiled code. GET /warmup says how it went.
const warmed = warmup();

interface Env {
  /** JSON object: proxy name -> proxy URL (`http://user:pass@host:port`, `socks5h://...`). */
  PROXIES?: string;
  /** PEM trust anchors replacing the system roots (private CAs); unset: system trust. */
  CA_PEM?: string;
  /** The BurrowPool Durable Object namespace. */
  BURROW_POOL: DurableObjectNamespace;
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/warmup") return Response.json(await warmed);
    const params = url.searchParams;
    const target = params.get("url");
    const proxies: Record<string, string> = JSON.parse(env.PROXIES ?? "{}");
    const via = params.get("via");
    if (target === null || (via !== null && !(via in proxies))) {
      return Response.json({ error: "usage: /?url=URL&via=NAME", proxies: Object.keys(proxies) }, { status: 400 });
    }
    const options = {
      proxy: via === null ? undefined : proxies[via],
      trust: env.CA_PEM ? { ca: env.CA_PEM } : ("system" as const),
    };
    // Without the pool, one client per request: Workers do not let sockets cross requests.
    const client =
      params.get("pooled") === "1" ? new PooledClient({ ...options, pool: env.BURROW_POOL }) : new Client({ ...options, connect });
    try {
      const r = await client.fetch(target, { signal: request.signal });
      const body = await r.arrayBuffer();
      return Response.json({
        status: r.status,
        bytes: body.byteLength,
        sha256: hex(await crypto.subtle.digest("SHA-256", body)),
        contentEncoding: r.burrow.contentEncoding,
        httpVersion: r.burrow.httpVersion,
        tls: r.burrow.tls?.version ?? null,
        proxied: r.burrow.proxied,
        reused: r.burrow.reused,
      });
    } catch (e) {
      if (e instanceof BurrowError) {
        return Response.json({ error: e.code, phase: e.phase, message: e.message }, { status: 502 });
      }
      throw e;
    } finally {
      if (client instanceof Client) client.close(); // a body still streaming keeps its connection
    }
  },
} satisfies ExportedHandler<Env>;
