// JA4 (FoxIO) of a ClientHello record, for the wire check from workerd. Verified against every
// capture in ../shared/vectors/clienthello (`node worker/test/ja4.mjs` prints the tally).

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const grease = (v) => (v & 0x0f0f) === 0x0a0a && v >> 8 === (v & 0xff);
const hex4 = (v) => v.toString(16).padStart(4, "0");
const sha12 = (s) => createHash("sha256").update(s).digest("hex").slice(0, 12);

/** JA4 of the bytes `rec` (one or more TLS records holding a ClientHello), or null. */
export function ja4(rec) {
  // Reassemble the handshake message from the records.
  let hs = Buffer.alloc(0);
  for (let i = 0; i + 5 <= rec.length; ) {
    const len = rec.readUInt16BE(i + 3);
    if (rec[i] !== 22) return null;
    hs = Buffer.concat([hs, rec.subarray(i + 5, i + 5 + len)]);
    i += 5 + len;
  }
  if (hs[0] !== 1) return null;
  let p = 4 + 2 + 32;
  p += 1 + hs[p]; // session id
  const cl = hs.readUInt16BE(p);
  const ciphers = [];
  for (let i = 0; i < cl; i += 2) ciphers.push(hs.readUInt16BE(p + 2 + i));
  p += 2 + cl;
  p += 1 + hs[p]; // compression methods
  const end = p + 2 + hs.readUInt16BE(p);
  p += 2;
  const exts = [];
  let sni = false;
  let alpn = "00";
  let sigs = [];
  let version = hs.readUInt16BE(4);
  while (p + 4 <= end) {
    const t = hs.readUInt16BE(p);
    const l = hs.readUInt16BE(p + 2);
    const body = hs.subarray(p + 4, p + 4 + l);
    exts.push(t);
    if (t === 0) sni = true;
    if (t === 16 && l > 3) {
      const first = body.subarray(3, 3 + body[2]).toString("latin1");
      alpn = first.length ? first[0] + first[first.length - 1] : "00";
    }
    if (t === 13) {
      sigs = [];
      for (let i = 2; i < 2 + body.readUInt16BE(0); i += 2) sigs.push(body.readUInt16BE(i));
    }
    if (t === 43) {
      const vs = [];
      for (let i = 1; i < 1 + body[0]; i += 2) vs.push(body.readUInt16BE(i));
      const real = vs.filter((v) => !grease(v));
      if (real.length) version = Math.max(...real);
    }
    p += 4 + l;
  }
  const v = { 0x0304: "13", 0x0303: "12", 0x0302: "11", 0x0301: "10" }[version] ?? "00";
  const cs = ciphers.filter((c) => !grease(c));
  const es = exts.filter((e) => !grease(e));
  const n2 = (n) => String(Math.min(n, 99)).padStart(2, "0");
  const a = `t${v}${sni ? "d" : "i"}${n2(cs.length)}${n2(es.length)}${alpn}`;
  const b = cs.length ? sha12(cs.map(hex4).sort().join(",")) : "000000000000";
  const ec = es.filter((e) => e !== 0 && e !== 16).map(hex4).sort().join(",");
  const sg = sigs.filter((s) => !grease(s)).map(hex4).join(",");
  const c = es.length ? sha12(sg ? `${ec}_${sg}` : ec) : "000000000000";
  return `${a}_${b}_${c}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.join(process.env.BURROW_VECTORS || path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../shared/vectors"), "clienthello");
  let ok = 0, bad = 0;
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const j = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
    const want = j.client_hello?.ja4;
    if (!want) continue;
    const got = ja4(Buffer.from(fs.readFileSync(path.join(dir, j.file), "utf8").trim(), "hex"));
    if (got === want) ok++;
    else { bad++; console.log(`${f}: ${got} != ${want}`); }
  }
  console.log(`${ok} passed, ${bad} failed`);
  process.exit(bad ? 1 : 0);
}
