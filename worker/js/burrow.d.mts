// TypeScript declarations for burrow-worker (js/burrow.mjs). Written by hand; the error
// code and phase unions are checked against the Rust sources by worker/tests/js_error_codes.rs.

/** The address `connect` of `cloudflare:sockets` takes (burrow passes an object). */
export interface SocketAddress {
  hostname: string;
  port: number;
}

/** The options burrow passes to `connect`: plain TCP (burrow does the TLS), no half-open. */
export interface SocketOptions {
  secureTransport: "off" | "on" | "starttls";
  allowHalfOpen: boolean;
}

/** What burrow uses of the socket `connect` returns. */
export interface Socket {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  readonly opened: Promise<unknown>;
  close(): Promise<void>;
}

/** The shape of `connect` from `cloudflare:sockets`: pass that function itself. */
export type Connect = (address: SocketAddress, options?: SocketOptions) => Socket;

/** Certificate trust: the bundled Mozilla roots, your own PEM anchors, or no checks at all. */
export type Trust = "system" | "insecure" | { ca: string | string[] };

/** A client certificate (mTLS), offered when the server asks for one. Read both from
 * secrets (`wrangler secret put`), never from source. */
export interface ClientCertificate {
  /** PEM CERTIFICATE blocks, the leaf first, then its intermediates. */
  certChain: string;
  /** The leaf's private key, PEM: PKCS#8 `PRIVATE KEY`, SEC1 `EC PRIVATE KEY` or PKCS#1
   * `RSA PRIVATE KEY`, unencrypted (P-256, P-384, RSA 2048-8192, Ed25519). A key that is not
   * the leaf's is refused by `new Client` (`CLIENT_CERT_KEY_MISMATCH`). */
  key: string;
}

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
  /** Certificate trust for an `https://` proxy. */
  proxyTrust?: Trust;
  /** SPKI pins, `sha256/BASE64`. */
  pins?: string[];
  /** A built-in client identity (TLS and HTTP/2 fingerprint). */
  profile?: "curl" | "curl_7_88" | "chrome" | "default_web";
  tls?: {
    alpn?: string[];
    requireStaple?: boolean;
    offload?: boolean;
    /** With `offload`, AES-GCM records (ciphertext and tag) up to this many bytes are opened
     * and sealed in wasm, where they cost less than a WebCrypto call (default 1024; 0 sends
     * every record to WebCrypto). Both hops. */
    inlineRecordBytes?: number;
    /** The certificate offered to origins that ask for one (never to a proxy). */
    clientCert?: ClientCertificate;
  };
  /** The TLS hop to an `https://` proxy (its trust is `proxyTrust`). */
  proxyTls?: {
    /** The certificate offered to the proxy when it asks for one (never to an origin). */
    clientCert?: ClientCertificate;
  };
  http2?: boolean;
  /** Deadlines in milliseconds; 0 turns one off. */
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
  /** Where TLS session tickets go. `"isolate"` (default): one cache for every client in this
   * isolate, so the next request's client resumes a session an earlier one made with the same
   * TLS settings, proxy and origin (no certificate is sent again: `response.burrow.tls.chain`
   * is empty and `resumed` true). `"client"`: this client's own connections only. `"off"`:
   * always a full handshake. */
  sessionCache?: "isolate" | "client" | "off";
  /** Where validated certificate chains are remembered. `"isolate"` (default): one cache for
   * every client in this isolate, so a full handshake to a chain an earlier client validated
   * with the same trust settings (`trust`/`proxyTrust` with its anchors, `pins`,
   * `tls.requireStaple`) skips the chain's signature checks and path building; the server's
   * handshake signature, the time, the host name and a stapled OCSP response are still checked
   * on every connection. Keyed by the exact certificates sent; at most 128 chains. `"client"`:
   * this client's own. `"off"`: every full handshake validates the chain from scratch. */
  chainCache?: "isolate" | "client" | "off";
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
  /** The origin's TLS; null for an `http://` URL. */
  tls: TlsMeta | null;
  /** An `https://` proxy's TLS; null otherwise. */
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

/** The stable codes of a `BurrowError` (burrow's Rust error codes). */
export type ErrorCode =
  | "BAD_REQUEST"
  | "BODY_NOT_REPLAYABLE"
  | "BODY_SOURCE_FAILED"
  | "BODY_TOO_LARGE"
  | "BODY_TRUNCATED"
  | "CERT_BAD_SIGNATURE"
  | "CERT_BAD_TRUST_ANCHOR"
  | "CERT_BUDGET_EXCEEDED"
  | "CERT_CA_AS_LEAF"
  | "CERT_CUSTOM_PENDING"
  | "CERT_CUSTOM_REJECTED"
  | "CERT_EXPIRED"
  | "CERT_EXTENDED_KEY_USAGE"
  | "CERT_HOSTNAME_IDNA"
  | "CERT_HOSTNAME_INVALID"
  | "CERT_INVALID"
  | "CERT_ISSUER_NOT_CA"
  | "CERT_KEY_USAGE"
  | "CERT_NAME_CONSTRAINTS"
  | "CERT_NAME_CONSTRAINTS_UNSUPPORTED"
  | "CERT_NAME_MISMATCH"
  | "CERT_NOT_YET_VALID"
  | "CERT_PATH_LEN"
  | "CERT_PATH_TOO_LONG"
  | "CERT_PIN_MISMATCH"
  | "CERT_UNSUPPORTED_ALGORITHM"
  | "CERT_UNSUPPORTED_CRITICAL_EXTENSION"
  | "CERT_UNTRUSTED"
  | "CLIENT_CERT_BAD_KEY"
  | "CLIENT_CERT_KEY_MISMATCH"
  | "CLIENT_CERT_NO_CERTIFICATE"
  | "CLIENT_CERT_NO_KEY"
  | "CLIENT_CERT_UNUSABLE"
  | "CLIENT_CLOSED"
  | "CONNECTION_LOST"
  | "CONNECT_FAILED"
  | "CONNECT_FORBIDDEN"
  | "CROSS_REQUEST"
  | "DECODE_FAILED"
  | "DNS_UNAVAILABLE"
  | "H2_CLOSED"
  | "H2_COMPRESSION"
  | "H2_CONCURRENCY_LIMIT"
  | "H2_FLOOD"
  | "H2_FLOW_CONTROL"
  | "H2_FRAME_SIZE"
  | "H2_GOAWAY"
  | "H2_HEADER_LIST_TOO_LARGE"
  | "H2_INVALID_REQUEST_HEADERS"
  | "H2_INVALID_SETTING"
  | "H2_MALFORMED_RESPONSE"
  | "H2_OVER_RELEASE"
  | "H2_PROTOCOL"
  | "H2_REFUSED"
  | "H2_STREAM_IDS_EXHAUSTED"
  | "H2_STREAM_RESET"
  | "H2_UNKNOWN_STREAM"
  | "HTTP_PROTOCOL"
  | "OCSP_INVALID"
  | "OCSP_MISMATCH"
  | "OCSP_REVOKED"
  | "OCSP_STALE"
  | "OCSP_STAPLE_REQUIRED"
  | "OCSP_UNKNOWN"
  | "PROXY_AUTH_REQUIRED"
  | "PROXY_CLOSED"
  | "PROXY_INVALID_REQUEST"
  | "PROXY_PROTOCOL"
  | "PROXY_REFUSED"
  | "PROXY_URL_INVALID"
  | "REDIRECT_INSECURE"
  | "REDIRECT_LIMIT"
  | "REDIRECT_LOCATION"
  | "REDIRECT_LOOP"
  | "RNG_FAILED"
  | "SOCKS5_ADDRESS_TYPE_NOT_SUPPORTED"
  | "SOCKS5_COMMAND_NOT_SUPPORTED"
  | "SOCKS5_CONNECTION_REFUSED"
  | "SOCKS5_GENERAL_FAILURE"
  | "SOCKS5_HOST_UNREACHABLE"
  | "SOCKS5_NETWORK_UNREACHABLE"
  | "SOCKS5_NOT_ALLOWED"
  | "SOCKS5_NO_ACCEPTABLE_METHOD"
  | "SOCKS5_TTL_EXPIRED"
  | "SOCKS5_UNKNOWN_REPLY"
  | "TIMEOUT_CONNECT"
  | "TIMEOUT_HEADERS"
  | "TIMEOUT_IDLE"
  | "TIMEOUT_PROXY"
  | "TIMEOUT_TLS"
  | "TIMEOUT_TOTAL"
  | "TLS12_BAD_KEY_EXCHANGE_SIGNATURE"
  | "TLS12_INSECURE_RENEGOTIATION"
  | "TLS12_LEGACY_CIPHER"
  | "TLS12_NO_EXTENDED_MASTER_SECRET"
  | "TLS_ALERT"
  | "TLS_API_MISUSE"
  | "TLS_BAD_CERTIFICATE"
  | "TLS_BAD_CERTIFICATE_VERIFY"
  | "TLS_BAD_FINISHED"
  | "TLS_BAD_KEY_SHARE"
  | "TLS_BAD_RECORD_MAC"
  | "TLS_BUFFER_FULL"
  | "TLS_CERT_DECOMPRESSION"
  | "TLS_CLIENT_CERT_REQUIRED"
  | "TLS_CLIENT_SIGN_FAILED"
  | "TLS_CLOSED"
  | "TLS_DECODE"
  | "TLS_DOWNGRADE"
  | "TLS_INTERNAL"
  | "TLS_KEY_UPDATE_STORM"
  | "TLS_MESSAGE_TOO_LARGE"
  | "TLS_MISSING_EXTENSION"
  | "TLS_NOT_TLS"
  | "TLS_POST_HANDSHAKE_AUTH"
  | "TLS_PROFILE_UNPERFORMABLE"
  | "TLS_PROTOCOL"
  | "TLS_PROTOCOL_VERSION"
  | "TLS_RECORD_OVERFLOW"
  | "TLS_SELECTED_UNPERFORMABLE"
  | "TLS_SEQUENCE_EXHAUSTED"
  | "TLS_TOO_MANY_EMPTY_RECORDS"
  | "TLS_TOO_MANY_POST_HANDSHAKE_MESSAGES"
  | "TLS_TOO_MANY_TICKETS"
  | "TLS_TOO_MANY_WARNING_ALERTS"
  | "TLS_UNOFFERED_ALPN"
  | "TLS_UNOFFERED_CIPHER"
  | "TLS_UNOFFERED_GROUP"
  | "TLS_UNOFFERED_SIGNATURE_SCHEME"
  | "TLS_UNSOLICITED_EXTENSION"
  | "TLS_UNSUPPORTED_GROUP"
  | "UNSUPPORTED_CONTENT_ENCODING"
  | "WASM_TRAP"
  | "WS_ABNORMAL_CLOSURE"
  | "WS_CLOSED"
  | "WS_COMPRESSION"
  | "WS_FLOOD"
  | "WS_HANDSHAKE"
  | "WS_HANDSHAKE_STATUS"
  | "WS_INVALID_ARGUMENT"
  | "WS_INVALID_UTF8"
  | "WS_MESSAGE_TOO_BIG"
  | "WS_PROTOCOL"
  | "WS_SEND_QUEUE_FULL";

/** Where a fetch failed. */
export type ErrorPhase =
  | "connect"
  | "proxy"
  | "tls"
  | "headers"
  | "body"
  | "total"
  | "request"
  | "redirect"
  | "runtime";

/** A failed burrow fetch. Argument mistakes are `TypeError`s and an abort is the signal's
 * reason, never a `BurrowError`. */
export class BurrowError extends Error {
  constructor(code: ErrorCode, phase: ErrorPhase, message: string);
  readonly name: "BurrowError";
  readonly code: ErrorCode;
  readonly phase: ErrorPhase;
}

/** Options of `client.websocket`. */
export interface WebSocketOptions {
  /** Subprotocols to offer, in order of preference. */
  protocols?: string | string[];
  /** More fields for the Upgrade request (`Origin`, `Authorization`, ...); the handshake's
   * own (`Upgrade`, `Connection`, `Sec-WebSocket-*`, `Host`) are refused. */
  headers?: HeadersInit;
}

/** The close event of a `BurrowWebSocket`. */
export interface BurrowCloseEvent extends Event {
  readonly code: number;
  readonly reason: string;
  readonly wasClean: boolean;
}

/** The error event of a `BurrowWebSocket`: `error` is the `BurrowError`. */
export interface BurrowErrorEvent extends Event {
  readonly error: BurrowError;
}

/** The message event of a `BurrowWebSocket`: a string for text, an ArrayBuffer for binary. */
export interface BurrowMessageEvent extends Event {
  readonly data: string | ArrayBuffer;
}

export interface BurrowWebSocketEventMap {
  open: Event;
  message: BurrowMessageEvent;
  error: BurrowErrorEvent;
  close: BurrowCloseEvent;
}

/** An open WebSocket from `client.websocket`, shaped as the platform's `WebSocket`. */
export class BurrowWebSocket {
  static readonly CONNECTING: 0;
  static readonly OPEN: 1;
  static readonly CLOSING: 2;
  static readonly CLOSED: 3;
  readonly url: string;
  readonly readyState: 0 | 1 | 2 | 3;
  readonly protocol: string;
  readonly extensions: string;
  readonly bufferedAmount: number;
  binaryType: "arraybuffer";
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: BurrowMessageEvent) => void) | null;
  onerror: ((ev: BurrowErrorEvent) => void) | null;
  onclose: ((ev: BurrowCloseEvent) => void) | null;
  send(data: string | ArrayBuffer | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  addEventListener<K extends keyof BurrowWebSocketEventMap>(type: K, listener: ((ev: BurrowWebSocketEventMap[K]) => void) | { handleEvent(ev: BurrowWebSocketEventMap[K]): void }, options?: boolean | { once?: boolean }): void;
  removeEventListener<K extends keyof BurrowWebSocketEventMap>(type: K, listener: ((ev: BurrowWebSocketEventMap[K]) => void) | { handleEvent(ev: BurrowWebSocketEventMap[K]): void }): void;
}

/** burrow's HTTP client. `fetch` is bound: hand `client.fetch` to any SDK as its `fetch`. */
export class Client {
  constructor(options: ClientOptions);
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<BurrowResponse>;
  /** Opens a WebSocket through this client's proxy, trust and identity; resolves once open. */
  websocket(url: string | URL, options?: WebSocketOptions): Promise<BurrowWebSocket>;
  /** Counters. `chainCache` is the chain cache this client uses (the isolate's, shared with
   * other clients, unless `chainCache` says otherwise; absent when off): validations answered
   * from it (`hits`), validations that built the path (`misses`), chains held (`entries`). */
  stats(): {
    webcrypto?: Record<string, number>;
    chainCache?: { hits: number; misses: number; entries: number };
    pendingHeadsHighWater?: number;
  };
  close(): void;
}

/** Makes `client.fetch` the global `fetch` until the returned function is called, which puts
 * back what was there (installs nest and can be undone in any order). Never done on import. */
export function install(client: { fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> }): () => void;

/** Runs one recorded exchange through burrow's code at module scope (no I/O: a stand-in
 * socket), so the first real request meets compiled code. Opt-in; never rejects. */
export function warmup(): Promise<{ ok: true } | { ok: false; error: string }>;
