// TypeScript declarations for burrow's JS API (worker/js/burrow.mjs).

/** What `connect` of `cloudflare:sockets` is. */
export type Connect = (address: { hostname: string; port: number }, options?: object) => unknown;

export type Trust = "system" | "insecure" | { ca: string | string[] };

export interface ClientOptions {
  /** The `connect` function of `cloudflare:sockets`. */
  connect: Connect;
  /** `http://`, `https://`, `socks5h://` or `socks5://` proxy URL (credentials in the
   * userinfo). Workers have no DNS, so `socks5://` is sent the name as `socks5h://` is: the
   * proxy resolves it (`response.burrow.proxied` is then `"socks5h"`). */
  proxy?: string;
  /** Hosts that bypass the proxy. */
  noProxy?: string | string[];
  /** Certificate trust for origins (default "system"); also the proxy's unless `proxyTrust`. */
  trust?: Trust;
  proxyTrust?: Trust;
  /** SPKI pins, `sha256/BASE64`. */
  pins?: string[];
  /** A built-in client identity. */
  profile?: "curl" | "curl_7_88" | "chrome" | "default_web";
  tls?: { alpn?: string[]; requireStaple?: boolean; offload?: boolean };
  http2?: boolean;
  timeouts?: { connectMs?: number; proxyMs?: number; tlsMs?: number; headersMs?: number; idleMs?: number; totalMs?: number };
  /** Body cap in bytes; `null` = unlimited (default 32 MiB). */
  maxBodyBytes?: number | null;
  /** Decode gzip, deflate, br and zstd bodies, also when the request sets its own
   * `accept-encoding` (default true; the headers stay as the server sent them). `false` hands
   * on the coded bytes. */
  decompress?: boolean;
  cookies?: boolean;
  /** What a redirect does unless the request says (`init.redirect`, or a `Request` input's
   * own `redirect`); `"error"` rejects with a `TypeError` whose `code` is
   * `REDIRECT_FORBIDDEN`. Default "follow". */
  redirect?: "follow" | "manual" | "error";
  maxRedirects?: number;
  userAgent?: string | null;
  /** BYOB read view size (default 64 KiB). */
  readViewBytes?: number;
}

export interface TlsMeta {
  version: "TLSv1.3" | "TLSv1.2";
  cipher: string;
  cipherSuite: number;
  group: string;
  groupId: number;
  alpn: string | null;
  resumed: boolean;
  /** TLS 1.2: whether the session used extended master secret; null for TLS 1.3. */
  extendedMasterSecret: boolean | null;
  chain: { subject: string; issuer: string; notAfter: number }[];
  ocsp: "good" | "none" | "not-checked";
}

export interface BurrowMeta {
  proxied: "http" | "https" | "socks5" | "socks5h" | null;
  httpVersion: string;
  tls: TlsMeta | null;
  proxyTls: TlsMeta | null;
  ocsp: string | null;
  reused: boolean;
  retried: boolean;
  redirects: number;
  /** The coding burrow decoded (the headers still say what the server sent). */
  contentEncoding: string | null;
  timings: { connect: number; proxy: number; tls: number; ttfb: number; total: number };
}

export interface BurrowResponse extends Response {
  readonly burrow: BurrowMeta;
}

export class BurrowError extends Error {
  readonly code: string;
  readonly phase: string;
}

export class Client {
  constructor(options: ClientOptions);
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<BurrowResponse>;
  stats(): { webcrypto?: Record<string, number>; pendingHeadsHighWater?: number };
  close(): void;
}

export function wasmMemoryBytes(): number;
export function wasmTasks(): { tasks: number; promises: number };
export function wasmCryptoCounts(): { aesGcm: number; chacha20Poly1305: number; signatures: number };
