// A Worker that fetches through one of its configured proxies with burrow and reports what it
// got: GET /?url=URL&via=NAME answers JSON with the status, the body's size and SHA-256 (of the
// decoded bytes), and what burrow negotiated.

import { connect } from "cloudflare:sockets";
import { Client, BurrowError } from "burrow-worker";

interface Env {
  /** JSON object: proxy name -> proxy URL (`http://user:pass@host:port`, `socks5h://...`). */
  PROXIES?: string;
  /** PEM trust anchors replacing the system roots (private CAs); unset: system trust. */
  CA_PEM?: string;
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const params = new URL(request.url).searchParams;
    const target = params.get("url");
    const proxies: Record<string, string> = JSON.parse(env.PROXIES ?? "{}");
    const via = params.get("via");
    if (target === null || (via !== null && !(via in proxies))) {
      return Response.json({ error: "usage: /?url=URL&via=NAME", proxies: Object.keys(proxies) }, { status: 400 });
    }
    // One client per request: Workers do not let sockets (so a pool) cross requests.
    const client = new Client({
      connect,
      proxy: via === null ? undefined : proxies[via],
      trust: env.CA_PEM ? { ca: env.CA_PEM } : "system",
    });
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
      });
    } catch (e) {
      if (e instanceof BurrowError) {
        return Response.json({ error: e.code, phase: e.phase, message: e.message }, { status: 502 });
      }
      throw e;
    } finally {
      client.close(); // a body still streaming keeps its connection
    }
  },
} satisfies ExportedHandler<Env>;
