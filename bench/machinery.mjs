// node bench/machinery.mjs CALLGRIND_OUT [TOP]: what the client's receive path costs per
// record outside the AEAD, by instruction count and simulated L1 data-cache misses, from a
// callgrind run with --cache-sim=yes that collected only inside the bench's fetches
// (--toggle-collect on `burrow_bench::ladder::path::block_on`; script/bench-machinery runs
// it). Both counts are deterministic for a given binary, so a change of a few percent shows
// where wall-clock figures move by ±30 % between sittings (bench/README.md, "Receive-path
// ladder").
//
// Two sums: the machinery (everything but the AEAD, the copies, the scripted server and the
// handshake's public-key and hash work) and the copies (memcpy/memmove/memset, whoever calls
// them). The divisor is the records opened inside the fetches: the response's (257 per
// response) and the few of the client's that the scripted server opens (a request and the
// WINDOW_UPDATEs, about ten per response), so a figure is per 16 KiB record within ~4 %.
import fs from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/machinery.mjs CALLGRIND_OUT [TOP]");
  process.exit(2);
}
const top = Number(topArg ?? 0);

// Not the client's machinery: the AEAD, the scripted server and the bench around it, and the
// handshake's public-key, hash and certificate work (once per connection).
const notMachinery = new RegExp(
  [
    "chacha|poly1305|\\baes|ghash|polyval|cipher::|AeadKey|universal_hash|subtle::|core_arch",
    "burrow_testkit|Tls13Server|ladder::path::Conn::|ladder::wire|RecordWriter::write_parts",
    "\\b(sha2|sha1|hmac|hkdf|curve25519_dalek|ed25519_dalek|x25519_dalek|p256|p384|p521)::",
    "\\b(rsa|num_bigint|crypto_bigint|burrow_x509|der|spki|keccak|ml_kem)::|_dl_",
  ].join("|"),
);
const copy = /memcpy|memmove|memset/;

const lines = fs.readFileSync(file, "utf8").split("\n");
const events = (lines.find((l) => l.startsWith("events:")) ?? "").slice(7).trim().split(/\s+/);
const at = ["Ir", "D1mr", "D1mw"].map((e) => events.indexOf(e));
if (at.some((i) => i < 0)) {
  console.error("machinery.mjs: the run needs --cache-sim=yes");
  process.exit(2);
}

// Function names are compressed: "fn=(7) name" the first time, "fn=(7)" after.
const names = new Map();
const nameOf = (spec) => {
  const m = /^\((\d+)\)(?: (.*))?$/.exec(spec);
  if (!m) return spec;
  if (m[2] !== undefined) names.set(m[1], m[2]);
  return names.get(m[1]) ?? spec;
};
const self = new Map();
let fn = "";
let callee = "";
let afterCalls = false;
let opens = 0;
for (const l of lines) {
  if (l.startsWith("fn=")) {
    fn = nameOf(l.slice(3));
  } else if (l.startsWith("cfn=")) {
    callee = nameOf(l.slice(4));
  } else if (l.startsWith("calls=")) {
    if (callee.includes("AeadKey::open_in_place")) {
      opens += Number(l.slice(6).split(" ")[0]);
    }
    afterCalls = true;
  } else if (/^[0-9+\-*]/.test(l)) {
    // The line after `calls=` is the call's inclusive cost, not the caller's own.
    if (afterCalls) {
      afterCalls = false;
      continue;
    }
    const v = l.trim().split(/\s+/);
    const c = self.get(fn) ?? [0, 0, 0];
    // Field 0 is the position; event k is field k + 1 (missing ones are zero).
    at.forEach((i, k) => {
      c[k] += Number(v[i + 1] ?? 0) || 0;
    });
    self.set(fn, c);
  }
}
if (opens === 0) {
  console.error("machinery.mjs: no record was opened inside the collected part");
  process.exit(2);
}
const sum = () => [0, 0, 0];
const machinery = sum();
const copies = sum();
const kept = [];
for (const [name, c] of self) {
  if (notMachinery.test(name)) continue;
  const into = copy.test(name) ? copies : machinery;
  c.forEach((x, k) => {
    into[k] += x;
  });
  if (!copy.test(name)) kept.push([name, c]);
}
const per = (x) => (x / opens).toFixed(0);
const misses = (c) => per(c[1] + c[2]);
console.log(
  `${opens} records opened; per record: machinery ${per(machinery[0])} instructions, ` +
    `${misses(machinery)} L1d misses; copies ${per(copies[0])} instructions, ` +
    `${misses(copies)} L1d misses`,
);
kept.sort((a, b) => b[1][0] - a[1][0]);
for (const [name, c] of kept.slice(0, top)) {
  console.log(`  ${per(c[0]).padStart(6)} ${misses(c).padStart(5)}  ${name.slice(0, 110)}`);
}
