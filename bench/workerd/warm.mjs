// The bench Worker with `warmup()` at module scope (bench/workerd/first.mjs --warmup): the same
// routes, so the first requests of a fresh isolate can be compared with and without it.

import { warmup } from "../../worker/js/burrow.mjs";
import bench, { BurrowPool } from "./worker.mjs";

const warmed = warmup();

export { BurrowPool };

export default {
  async fetch(request, env, ctx) {
    const result = await warmed;
    if (!result.ok) return new Response(result.error, { status: 500 });
    return bench.fetch(request, env, ctx);
  },
};
