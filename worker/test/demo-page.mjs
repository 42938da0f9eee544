// The demo's page in a real browser: `node worker/test/demo-page.mjs BASE` (script/server-check
// runs it against script/server, which is `wrangler dev` with the local peers). Headless
// Chromium (Debian's, $CHROMIUM or /usr/bin/chromium) loads BASE/, fills the form, submits it and
// reads what the page rendered: the chain (leaf for localhost, issued by the test CA, expiry
// dates), TLS, JA4, headers; an expired certificate's error; a pooled fetch reused by the next.
// Screenshots go to target/demo-page*.png.

import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { check, finish, loadPeers, root } from "./harness.mjs";

const base = process.argv[2];
if (!base) throw new Error("usage: node worker/test/demo-page.mjs http://127.0.0.1:PORT");
const { port } = loadPeers();
const shots = path.join(root, "target");
fs.mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let extra = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
  const consoleErrors = [];
  page.on("pageerror", (e) => consoleErrors.push(String(e)));

  // Submits the form with these choices and waits for the answer to be rendered.
  const ask = async ({ url, via, trust, profile = "", pool = false }) => {
    await page.fill("#url", url);
    await page.selectOption("#via", via);
    await page.selectOption("#trust", trust);
    await page.selectOption("#profile", profile);
    if (pool) await page.check("#pool");
    else if (await page.$("#pool")) await page.uncheck("#pool");
    const before = await page.getAttribute("#out", "data-done");
    await page.click("#go");
    await page.waitForFunction((b) => document.querySelector("#out").getAttribute("data-done") !== b, before, { timeout: 60_000 });
  };
  const texts = (sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent.trim()));

  const r = await page.goto(`${base}/`, { waitUntil: "load", timeout: 60_000 });
  check("GET / serves an HTML page", r.status() === 200 && (r.headers()["content-type"] ?? "").startsWith("text/html"), `${r.status()} ${r.headers()["content-type"]}`);
  const vias = await page.$$eval("#via option", (os) => os.map((o) => o.value));
  check("the page offers the local proxies by name, never their URLs", ["default", "direct", "squid", "tinyproxy+auth", "https proxy+auth", "microsocks+auth"].every((v) => vias.includes(v)) && !(await page.content()).includes("proxypass"), JSON.stringify(vias));

  // 1. Through squid with Basic auth (PROXY_URL), the test CA: the chain as rendered. An origin
  // this server has not met (script/server-check fetched DEF already): a resumed session
  // carries no certificate, and the page says so instead of a chain.
  await ask({ url: `https://localhost:${port("TLS13")}/1k`, via: "default", trust: "ca" });
  await page.screenshot({ path: path.join(shots, "demo-page.png"), fullPage: true });
  const subjects = await texts("#chain .subject");
  const issuers = await texts("#chain .issuer");
  const expires = await texts("#chain .expires");
  check("rendered chain: a leaf for localhost, issued by the test PKI, each with an expiry date",
    subjects.length >= 1 && /localhost/i.test(subjects[0]) && issuers.length === subjects.length && issuers.every((i) => /burrow|test|CA|root|intermediate/i.test(i)) && expires.length === subjects.length && expires.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)),
    JSON.stringify({ subjects, issuers, expires, resumed: await page.textContent('td[data-field="Resumed"]').catch(() => null) }));
  const field = async (name) => (await page.textContent(`td[data-field="${name}"]`))?.trim();
  const shown = { status: await field("Status"), http: await field("HTTP"), proxy: await field("Proxy"), version: await field("Version"), suite: await field("Cipher suite"), alpn: await field("ALPN") };
  check("rendered status, HTTP version, proxy kind, TLS version, suite and ALPN",
    shown.status === "200" && /^HTTP\/(2|1\.1)$/.test(shown.http) && shown.proxy === "http" && /^TLSv1\.[23]$/.test(shown.version) && /^TLS_/.test(shown.suite) && ["h2", "http/1.1"].includes(shown.alpn),
    JSON.stringify(shown));
  const ja4 = (await texts("td.ja4"))[0] ?? "";
  check("rendered the JA4 of the ClientHello seen on the socket", /^t1[23]d\d{4}(h2|h1|00)_[0-9a-f]{12}_[0-9a-f]{12}$/.test(ja4), ja4);
  const headerNames = await page.$$eval("#headers th", (ths) => ths.map((t) => t.textContent));
  check("rendered the response headers", headerNames.includes("content-length") || headerNames.includes("content-type"), JSON.stringify(headerNames));

  // 2. The chrome identity over SOCKS5 to an origin this server has not met (a resumed
  // session adds pre_shared_key, as Chromium's does): its JA4 is the captured Chromium's.
  await ask({ url: `https://localhost:${port("CADDY")}/1k`, via: "microsocks+auth", trust: "ca", profile: "chrome" });
  const ja4Chrome = (await texts("td.ja4"))[0] ?? "";
  const chromeShown = { ja4: ja4Chrome, proxy: await field("Proxy"), resumed: await field("Resumed") };
  check("chrome identity through microsocks+auth: Chromium's JA4 rendered", ja4Chrome === "t13d1517h2_8daaf6152771_cb7bf5808d99" && chromeShown.proxy === "socks5h" && chromeShown.resumed === "no", JSON.stringify(chromeShown));

  // 3. An expired certificate: the error, its code and phase, rendered.
  await ask({ url: `https://localhost:${port("EXPIRED")}/1k`, via: "default", trust: "ca" });
  await page.screenshot({ path: path.join(shots, "demo-page-error.png"), fullPage: true });
  const err = (await page.$("#error")) ? await page.textContent("#error") : "";
  check("expired certificate: CERT_EXPIRED (phase tls) rendered", err.includes("CERT_EXPIRED") && err.includes("tls"), err);

  // 4. System trust refuses the test CA.
  await ask({ url: `https://localhost:${port("DEF")}/1k`, via: "direct", trust: "system" });
  const err2 = (await page.$("#error")) ? await page.textContent("#error") : "";
  check("system trust: the test CA is not trusted (a CERT_ error rendered)", /CERT_[A-Z_]+/.test(err2), err2);

  // 5. The pool: the second pooled fetch reuses the connection the first left in the object.
  const poolUrl = `https://localhost:${port("DEF")}/1k?page-pool=${Date.now()}`;
  await ask({ url: poolUrl, via: "squid", trust: "ca", pool: true });
  const first = await page.textContent("#out");
  await ask({ url: poolUrl, via: "squid", trust: "ca", pool: true });
  const second = await page.textContent("#out");
  check("pooled: the next request reuses the object's connection", /pooled, (new|reused)/.test(first) && /pooled, reused/.test(second), `${first.slice(0, 300)} | ${second.slice(0, 300)}`);

  check("no script errors on the page", consoleErrors.length === 0, consoleErrors.join("; "));
} catch (e) {
  console.log(`FAIL demo page: ${e?.stack ?? e}`);
  extra = 1;
} finally {
  await browser.close();
}
finish(extra);
