// JA4 (FoxIO) of a ClientHello, in plain JavaScript for workerd and Node alike (WebCrypto's
// SHA-256, no Buffer). The demo Worker shows the JA4 of the hello it saw on the socket; the e2e
// test checks the wire from workerd with it; `node worker/test/ja4.mjs` checks it against every
// capture in ../shared/vectors/clienthello. Not in the npm package.

const grease = (v) => (v & 0x0f0f) === 0x0a0a && v >> 8 === (v & 0xff);
const hex4 = (v) => v.toString(16).padStart(4, "0");

async function sha12(s) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)));
  return [...d.subarray(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The handshake message carried by the TLS records at the start of `rec`, or null when they
 * are not (or not yet all of) a ClientHello. */
export function clientHelloMessage(rec) {
  const parts = [];
  let total = 0;
  let need = -1;
  for (let i = 0; i + 5 <= rec.length; ) {
    if (rec[i] !== 22) break;
    const len = (rec[i + 3] << 8) | rec[i + 4];
    if (i + 5 + len > rec.length) return null;
    parts.push(rec.subarray(i + 5, i + 5 + len));
    total += len;
    i += 5 + len;
    if (need < 0 && total >= 4) {
      const first = parts[0].length >= 4 ? parts[0] : concat(parts, 4);
      if (first[0] !== 1) return null;
      need = 4 + ((first[1] << 16) | (first[2] << 8) | first[3]);
    }
    if (need >= 0 && total >= need) return concat(parts, need);
  }
  return null;
}

function concat(parts, n) {
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    const take = Math.min(p.length, n - at);
    out.set(p.subarray(0, take), at);
    at += take;
    if (at === n) break;
  }
  return out;
}

/** JA4 of `rec` (bytes starting with the TLS records of a ClientHello), or null. */
export async function ja4(rec) {
  const hs = clientHelloMessage(rec);
  if (!hs) return null;
  const u16 = (at) => (hs[at] << 8) | hs[at + 1];
  let p = 4 + 2 + 32;
  p += 1 + hs[p]; // session id
  const cl = u16(p);
  const ciphers = [];
  for (let i = 0; i < cl; i += 2) ciphers.push(u16(p + 2 + i));
  p += 2 + cl;
  p += 1 + hs[p]; // compression methods
  const end = p + 2 + u16(p);
  p += 2;
  const exts = [];
  let sni = false;
  let alpn = "00";
  let sigs = [];
  let version = u16(4);
  while (p + 4 <= end) {
    const t = u16(p);
    const l = u16(p + 2);
    const body = p + 4;
    exts.push(t);
    if (t === 0) sni = true;
    if (t === 16 && l > 3) {
      const first = String.fromCharCode(...hs.subarray(body + 3, body + 3 + hs[body + 2]));
      alpn = first.length ? first[0] + first[first.length - 1] : "00";
    }
    if (t === 13) {
      sigs = [];
      for (let i = 2; i < 2 + u16(body); i += 2) sigs.push(u16(body + i));
    }
    if (t === 43) {
      const vs = [];
      for (let i = 1; i < 1 + hs[body]; i += 2) vs.push(u16(body + i));
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
  const b = cs.length ? await sha12(cs.map(hex4).sort().join(",")) : "000000000000";
  const ec = es.filter((e) => e !== 0 && e !== 16).map(hex4).sort().join(",");
  const sg = sigs.filter((s) => !grease(s)).map(hex4).join(",");
  const c = es.length ? await sha12(sg ? `${ec}_${sg}` : ec) : "000000000000";
  return `${a}_${b}_${c}`;
}
