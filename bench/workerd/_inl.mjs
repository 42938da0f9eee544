import { BurrowPool as Base, PooledClient } from "../../worker/js/pool.mjs";
const counts = { inline: 0, stream: 0 };
export class BurrowPool extends Base {
  async request(call) {
    const a = await super.request(call);
    if (a.inline) counts.inline++; else counts.stream++;
    return a;
  }
  counts() { return counts; }
}
export default {
  async fetch(request, env) {
    const u = new URL(request.url);
    const c = new PooledClient({ pool: env.BURROW_POOL, trust: { ca: env.CA_PEM }, proxy: "http://127.0.0.1:3128" });
    for (let i = 0; i < 5; i++) { const r = await c.fetch(u.searchParams.get("url")); await r.arrayBuffer(); }
    const stub = env.BURROW_POOL.get(env.BURROW_POOL.idFromName("x"));
    return Response.json(await stub.counts());
  },
};
