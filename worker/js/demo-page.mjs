// The demo Worker's page (`GET /`): a form (URL, proxy, trust, identity, pool) that asks
// `/info` and renders its answer — status, headers, TLS, the chain with expiry dates, OCSP,
// timings and the JA4 of the ClientHello seen on the socket. Plain HTML and a small script, no
// build step. Not in the npm package.

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function options(list, selected) {
  return list
    .map(({ value, label }) => `<option value="${escapeHtml(value)}"${value === selected ? " selected" : ""}>${escapeHtml(label)}</option>`)
    .join("");
}

/**
 * The page's HTML. `choices`: `{ proxies: [{ value, label }], proxy, trusts: [{ value, label }],
 * trust, profiles: [...], url, pool }` — names only: proxy URLs (with their credentials) and
 * PEM stay in the Worker.
 */
export function demoPage(choices) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>burrow demo</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1d232a; }
  h1 { font-size: 1.4rem; margin-bottom: 0.2rem; }
  p.lead { margin-top: 0; color: #555; }
  form { display: grid; grid-template-columns: 9rem 1fr; gap: 0.5rem 1rem; align-items: center; background: #f4f6f8; padding: 1rem; border-radius: 6px; }
  input[type=url] { width: 100%; box-sizing: border-box; font: inherit; padding: 0.3rem; }
  select { font: inherit; padding: 0.2rem; }
  button { grid-column: 2; justify-self: start; font: inherit; padding: 0.35rem 1.2rem; }
  section { margin-top: 1.5rem; }
  h2 { font-size: 1.1rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
  table { border-collapse: collapse; width: 100%; }
  td, th { text-align: left; vertical-align: top; padding: 0.2rem 0.6rem 0.2rem 0; }
  th { width: 12rem; color: #555; font-weight: 500; }
  code, td.mono { font-family: ui-monospace, monospace; font-size: 0.9em; word-break: break-all; }
  .error { background: #fdecea; border: 1px solid #f5c2bd; padding: 0.8rem; border-radius: 6px; }
  .muted { color: #777; }
  ol.chain li { margin-bottom: 0.4rem; }
</style>
</head>
<body>
<h1>burrow</h1>
<p class="lead">HTTPS from this Worker through a proxy, with burrow's own TLS and certificate checks.
The same answer as JSON: <code>/info?url=…</code>; the body relayed: <code>/fetch?url=…</code>.</p>
<form id="ask">
  <label for="url">URL</label>
  <input id="url" name="url" type="url" required value="${escapeHtml(choices.url)}">
  <label for="via">Proxy</label>
  <select id="via" name="via">${options(choices.proxies, choices.proxy)}</select>
  <label for="trust">Trust</label>
  <select id="trust" name="trust">${options(choices.trusts, choices.trust)}</select>
  <label for="profile">Identity</label>
  <select id="profile" name="profile">${options(choices.profiles, "")}</select>
  <label for="pool">Connection</label>
  <label>${choices.pool ? `<input id="pool" name="pool" type="checkbox" value="1"> keep it in the pool's Durable Object (reused by the next request)` : `<span class="muted">new per request (no BURROW_POOL binding)</span>`}</label>
  <button id="go" type="submit">Fetch</button>
</form>
<div id="out" aria-live="polite"></div>
<script>
const out = document.getElementById("out");
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
};
const rows = (pairs) => el("table", {}, ...pairs.map(([k, v, cls]) => el("tr", {}, el("th", {}, k), el("td", { "data-field": k, ...(cls ? { class: cls } : {}) }, v ?? "—"))));
const section = (title, ...kids) => el("section", {}, el("h2", {}, title), ...kids);
const day = (ms) => new Date(ms).toISOString().slice(0, 10);

function render(j) {
  out.replaceChildren();
  if (j.error) {
    out.append(el("div", { class: "error", id: "error" },
      el("strong", {}, j.error), " (phase ", el("code", {}, j.phase ?? "?"), ")", el("br"), j.message ?? ""));
    return;
  }
  const b = j;
  out.append(section("Response", rows([
    ["Status", String(j.status), "mono"],
    ["URL", j.url, "mono"],
    ["HTTP", b.httpVersion],
    ["Proxy", b.proxied ?? "direct"],
    ["Connection", (b.pooled ? "pooled, " : "") + (b.reused ? "reused" : "new")],
    ["Body", j.bodyBytes + " bytes" + (b.contentEncoding ? " (decoded " + b.contentEncoding + ")" : "")],
  ])));
  const t = b.tls;
  if (t) {
    out.append(section("TLS", rows([
      ["Version", t.version], ["Cipher suite", t.cipher, "mono"], ["Key exchange", t.group, "mono"],
      ["ALPN", t.alpn], ["Resumed", t.resumed ? "yes (ticket)" : "no"], ["OCSP", t.ocsp],
    ])));
    const chain = el("ol", { class: "chain", id: "chain" });
    for (const c of t.chain) {
      chain.append(el("li", {}, el("div", { class: "mono subject" }, c.subject),
        el("div", { class: "muted" }, "issued by ", el("span", { class: "issuer" }, c.issuer), " · expires ", el("time", { class: "expires" }, day(c.notAfter)))));
    }
    out.append(section("Certificate chain (as presented, leaf first)", t.chain.length ? chain : el("p", { class: "muted" }, "none: the session was resumed from a ticket")));
  }
  if (b.proxyTls) out.append(section("Proxy TLS", rows([["Version", b.proxyTls.version], ["Cipher suite", b.proxyTls.cipher, "mono"], ["Key exchange", b.proxyTls.group, "mono"]])));
  const tm = b.timings ?? {};
  out.append(section("Timings (ms)", rows([["Connect", tm.connect], ["Proxy", tm.proxy], ["TLS", tm.tls], ["First byte", tm.ttfb], ["Total", tm.total]].map(([k, v]) => [k, v === undefined ? undefined : String(v)]))));
  const hello = j.clientHello;
  out.append(section("Identity", rows([
    ["Profile", j.profile],
    ["JA4", hello?.ja4 ?? (hello?.note ?? "not seen"), "mono ja4"],
    ["Seen on", hello?.hop ?? "—"],
  ])));
  out.append(section("Response headers", el("table", { id: "headers" }, ...j.headers.map(([k, v]) => el("tr", {}, el("th", { class: "mono" }, k), el("td", { class: "mono" }, v))))));
}

document.getElementById("ask").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const q = new URLSearchParams(new FormData(ev.target));
  q.set("ja4", "1");
  out.replaceChildren(el("p", { class: "muted", id: "pending" }, "fetching…"));
  try {
    const r = await fetch("/info?" + q);
    render(await r.json());
  } catch (e) {
    render({ error: "DEMO_UNREACHABLE", message: String(e) });
  }
  out.setAttribute("data-done", String(Date.now()));
});
</script>
</body>
</html>
`;
}
