// Breaks a V8 CPU profile of workerd (bench/workerd/profile.mjs) down by the phase of a new
// burrow connection each sample belongs to, from the names on its stack: the wasm keeps its
// Rust names (the release build and wasm-bindgen keep the name section), the JS glue its
// function names.
//
// Samples are counted, not weighted by V8's time deltas: on a loaded machine the sampler's
// interval stretches and a delta mostly measures how long the thread waited to run again
// (one sample in a native socket read carried 18 ms), while the count of samples in a place
// stays proportional to the time spent there. Idle samples are left out.
//
// A sample's phase is the first rule below whose pattern some frame of its stack matches
// (the order matters: a task's own frames decide before the JS call that happened to enter
// the executor). Its detail is, within the phase, the leaf-most frame that matches one of the
// phase's detail patterns.

const SOCKET_WRITE = /__wbg_write_|WorkerSocket as .*NetStream>::write_all/;
const SOCKET_READ = /__wbg_read_|WorkerSocket as .*NetStream>::read/;
const SEAL = /RecordKey>::seal|__wbg_encrypt_/;
const OPEN = /RecordKey>::open|__wbg_decrypt_/;

const handshakeDetails = [
  ["key shares: ML-KEM-768 (generate; unused when the server picks X25519)", /ml_kem|mlkem|keccak|sha3::/],
  ["key shares: X25519 (generate, complete)", /x25519|curve25519/],
  ["key shares: P-256 / P-384 (generate, complete)", /\bp256::|\bp384::|primeorder|elliptic_curve/],
  ["key shares: other", /burrow_crypto::kx::/],
  ["hashing (transcript, certificates)", /sha2::|burrow_crypto::hash::|Transcript/],
  ["HKDF / HMAC (key schedule, Finished)", /burrow_crypto::(hkdf|hmac)::|\bhkdf::|\bhmac::/],
  ["trust anchors (`{ ca }` PEM: parsed once per isolate since 12-08)", /Judge::new|Trust::anchors|pem::|trust::anchors::/],
  ["path building", /Judge::judge|burrow_x509::(path|verify)::|AnswerBook/],
  ["certificate parsing", /burrow_x509::|summarise/],
  ["traffic keys into WebCrypto (importKey)", /import_key|import_pending|__wbg_importKey_/],
  ["records: open / seal (WebCrypto AES-GCM)", new RegExp(`${OPEN.source}|${SEAL.source}`)],
  ["socket write", SOCKET_WRITE],
  ["socket read", SOCKET_READ],
  ["handshake messages, record layer", /burrow_handshake::|burrow_record::/],
];

const h2Details = [
  ["records: seal (WebCrypto AES-GCM)", SEAL],
  ["records: open (WebCrypto AES-GCM)", OPEN],
  ["socket write", SOCKET_WRITE],
  ["socket read", SOCKET_READ],
  ["HTTP/2 frames, HPACK", /burrow_h2::|hpack/],
  ["TLS after the handshake (tickets, key update)", /burrow_handshake::|burrow_record::/],
];

/** [phase, pattern on any frame, details]; first match wins. Frames are "name url". */
export const PHASES = [
  ["client construction (options, trust, profile)", /RawClient::new|rawclient_new|^Client .*burrow\.mjs/, [
    ["proxy URL parse", /Proxy::parse|\burl::|idna::/],
    ["options read from the JS object", /options::|__wbg_get_|string_get/],
    ["WebCrypto provider (scratch buffers)", /webcrypto::|new_with_length/],
    ["trust store", /trust::|x509|pem::|anchor/i],
    ["profile", /profile::/],
  ]],
  ["teardown (close, free)", /rawclient_close|rawclient_free|rawresponse_free|NetStream>::close|__wbg_close_|Timers as core::ops::drop|^close .*burrow\.mjs|^finish .*burrow\.mjs/, []],
  ["timers (deadlines: setTimeout, clearTimeout, Date.now)", /Timers::|__wbg_setTimeout_|__wbg_clearTimeout_|__wbg_now_|^setTimeout |^clearTimeout /, []],
  ["socket open (cloudflare:sockets connect)", /WorkerNet as .*Net>::connect/, []],
  ["proxy exchange (CONNECT / SOCKS5)", /proxy_handshake|burrow_proxy::/, [
    ["socket write", SOCKET_WRITE],
    ["socket read", SOCKET_READ],
  ]],
  ["HTTP/2 driver: preface, SETTINGS, request, response frames", /h2::drive/, h2Details],
  ["TLS handshake: signatures (WebCrypto verify, with each key's importKey)", /CryptoOffload>::verify|__wbg_verify_/, []],
  ["TLS handshake: ClientHello to Finished, the rest", /connect_resuming|judge_offloaded|burrow_handshake::/, handshakeDetails],
  ["request and response head (Client.send, RawClient.fetch)", /Client<N>>::send|RawClient::fetch/, [
    ["response meta (`r.burrow`: TLS, chain, timings)", /burrow_worker::meta::|burrow_worker::json::|api::set|Reflect::set|__wbg_set_|__wbg_of_|CertSummary|name_to_text/],
    ["RawResponse wrapper", /rawresponse_new|__wrap/],
    ["content decoder set-up", /burrow_decode::/],
    ["HTTP/2 request (send_h2)", /send_h2|h2_exchange/],
    ["HTTP/1.1 request", /send_h1|h1_exchange/],
  ]],
  ["Response and its body stream", /rawresponse_|RawResponse::|^pull .*burrow\.mjs|^Response |^ReadableStream |^drain .*worker\.mjs/, []],
  ["Client.fetch in JS (Request, headers, Response object)", /^fetch .*burrow\.mjs/, []],
  ["burrow's executor and promise glue (no task frame)", /burrow_worker::exec::|wasm_bindgen::convert::closures|^real .*burrow_worker\.js/, []],
  ["bench Worker's own loop", /worker\.mjs$/, []],
  ["workerd native code (no JS frame)", /^\(program\)/, []],
  ["garbage collection", /^\(garbage collector\)/, []],
  ["workerd's JS builtins (no frame)", /^ |^ inline0\.js$/, []],
];

const frameName = (n) => `${n.callFrame.functionName} ${n.callFrame.url.split("/").pop()}`;

function classify(stack) {
  for (const [phase, pattern, details] of PHASES) {
    if (!stack.some((f) => pattern.test(f))) continue;
    for (let i = stack.length - 1; i >= 0; i--) {
      const hit = details.find(([, p]) => p.test(stack[i]));
      if (hit) return [phase, hit[0]];
    }
    return [phase, details.length > 0 ? "other" : ""];
  }
  return ["other", stack[stack.length - 1]];
}

/** Sample counts per phase and detail, and the leaf frames no rule claimed. */
export function breakdown(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map();
  const phases = new Map();
  const unclaimed = new Map();
  let samples = 0;
  let idle = 0;
  for (const id of profile.samples) {
    const leaf = byId.get(id);
    if (leaf.callFrame.functionName === "(idle)") {
      idle++;
      continue;
    }
    samples++;
    if (!memo.has(id)) {
      const stack = [];
      for (let x = id; x !== undefined; x = parent.get(x)) stack.unshift(frameName(byId.get(x)));
      memo.set(id, classify(stack.slice(1)));
    }
    const [phase, detail] = memo.get(id);
    const p = phases.get(phase) ?? { count: 0, details: new Map() };
    p.count++;
    p.details.set(detail, (p.details.get(detail) ?? 0) + 1);
    phases.set(phase, p);
    if (phase === "other") unclaimed.set(detail, (unclaimed.get(detail) ?? 0) + 1);
  }
  return { samples, idle, phases, unclaimed };
}

/** Markdown: phases in the order of PHASES, details by size, ms per unit at `msPerUnit`. */
export function renderBreakdown(b, o) {
  const pct = (c) => `${((100 * c) / b.samples).toFixed(1)} %`;
  const ms = (c) => ((o.msPerUnit * c) / b.samples).toFixed(3);
  const out = [];
  out.push(`| phase | detail | share of samples | ≈ ms per ${o.unit} |`);
  out.push("|---|---|---|---|");
  const order = [...PHASES.map(([p]) => p), "other"];
  for (const phase of order) {
    const p = b.phases.get(phase);
    if (!p) continue;
    out.push(`| **${phase}** | | **${pct(p.count)}** | **${ms(p.count)}** |`);
    const details = [...p.details].filter(([d]) => d !== "").sort((x, y) => y[1] - x[1]);
    if (phase === "other") details.splice(8);
    for (const [d, c] of details) out.push(`| | ${d.replace(/\|/g, "\\|").slice(0, 120)} | ${pct(c)} | ${ms(c)} |`);
  }
  return out.join("\n");
}
