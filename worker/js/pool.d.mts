// TypeScript declarations for burrow-worker/pool (js/pool.mjs). Written by hand.

import type { BurrowMeta, ClientOptions } from "./burrow.mjs";

/** What `PooledClient` needs of the `BurrowPool` namespace binding (`env.BURROW_POOL`):
 * workers-types' `DurableObjectNamespace` is one. */
export interface BurrowPoolNamespace {
  idFromName(name: string): unknown;
  get(id: any): any;
}

/** `Client`'s options without `connect` (the pool object has its own), plain data only:
 * they are sent to the object. */
export interface PooledClientOptions extends Omit<ClientOptions, "connect"> {
  /** The `BurrowPool` Durable Object namespace binding. */
  pool: BurrowPoolNamespace;
  /** The object closes its connections after this long without a new request (default
   * 60 000 ms); a body still streaming keeps its connection until done. */
  poolIdleMs?: number;
  /** A response body of at most this many bytes that the object already holds whole when the
   * head is ready is sent back with the head, as bytes, instead of as a stream (default
   * 65 536; 0: always stream). The `Response` is the same either way; a body still arriving
   * streams. */
  poolInlineBytes?: number;
}

/** A response from the pool: `burrow` says what the object's client negotiated. */
export interface PooledResponse extends Response {
  readonly burrow: BurrowMeta & { readonly pooled: true };
}

/** The pool object's counters. */
export interface BurrowPoolStats {
  /** Clients the object holds (one per distinct options). */
  clients: number;
  /** Requests it has started since it was created. */
  requests: number;
  /** Requests still waiting for their response head. */
  pendingHeads: number;
}

/** The Durable Object holding burrow's connections. Export it from your Worker's main module
 * (`export { BurrowPool } from "burrow-worker/pool"`) and bind it in `wrangler.toml`. */
export class BurrowPool {
  constructor(ctx: unknown, env: unknown);
  /** The counters (RPC). */
  stats(): BurrowPoolStats;
}

/** A fetch-shaped client whose connections live in a `BurrowPool` object, so they outlive
 * the Worker request that opened them. `fetch` is bound. */
export class PooledClient {
  constructor(options: PooledClientOptions);
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<PooledResponse>;
  /** The counters of the object that serves `url`'s origin. */
  stats(url: string | URL): Promise<BurrowPoolStats>;
}
