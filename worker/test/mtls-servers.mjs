// Servers for the client-certificate (mTLS) tests of e2e.mjs and pool-e2e.mjs: a PKI of our
// own, openssl s_server requiring a client certificate (TLS 1.3 and 1.2), and an HTTPS CONNECT
// proxy requiring one.

import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// The client CA and one client leaf per key kind (CN burrow-client-KIND), made with the
// openssl CLI in a temporary folder, as crates/native/tests/mtls.rs makes them; SEC1 and PKCS#1
// copies of the P-256 and RSA keys. The servers present the peers' `localhost` leaf, which the
// test Worker trusts (CA_PEM).
const MTLS_KINDS = {
  p256: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
  p384: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"],
  rsa: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"],
  ed25519: ["-algorithm", "ED25519"],
};

/** Makes the PKI and starts the servers; `state` is the peers' folder (their `localhost` leaf).
 * `close()` stops them and deletes the PKI. */
export async function startMtls(state) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-e2e-mtls-"));
  const openssl = (...args) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key");
  openssl("req", "-x509", "-new", "-key", "ca.key", "-subj", "/CN=burrow e2e client CA", "-days", "2", "-out", "ca.pem");
  fs.writeFileSync(path.join(dir, "ext.cnf"), "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n");
  for (const [kind, gen] of Object.entries(MTLS_KINDS)) {
    openssl("genpkey", ...gen, "-out", `${kind}.key`);
    openssl("req", "-new", "-key", `${kind}.key`, "-subj", `/CN=burrow-client-${kind}`, "-out", `${kind}.csr`);
    openssl("x509", "-req", "-in", `${kind}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2", "-extfile", "ext.cnf", "-out", `${kind}.pem`);
  }
  openssl("ec", "-in", "p256.key", "-out", "p256.sec1");
  openssl("rsa", "-in", "rsa.key", "-traditional", "-out", "rsa.pkcs1");
  const read = (f) => fs.readFileSync(path.join(dir, f), "utf8");
  const pki = path.join(state, "pki");
  const children = [];
  const free = () => new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
  const sServer = async (version) => {
    const p = await free();
    const child = spawn("openssl", ["s_server", "-accept", `127.0.0.1:${p}`, "-cert", path.join(pki, "leaf-p256.pem"), "-key", path.join(pki, "leaf-p256.key"), "-cert_chain", path.join(pki, "inter.pem"), "-CAfile", path.join(dir, "ca.pem"), "-Verify", "1", "-verify_return_error", "-www", version], { stdio: "ignore" });
    children.push(child);
    for (let i = 0; i < 100; i++) {
      const up = await new Promise((resolve) => {
        const c = net.connect(p, "127.0.0.1", () => { c.destroy(); resolve(true); });
        c.on("error", () => resolve(false));
      });
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return p;
  };
  const port13 = await sServer("-tls1_3");
  const port12 = await sServer("-tls1_2");
  // An HTTPS CONNECT proxy that wants a client certificate from our CA (Node's TLS: OpenSSL
  // refuses a handshake without one); it notes the CN each tunnel was opened with.
  const proxySeen = [];
  const proxy = https.createServer({
    key: fs.readFileSync(path.join(pki, "leaf-p256.key")),
    cert: fs.readFileSync(path.join(pki, "leaf-p256.chain.pem")),
    ca: read("ca.pem"),
    requestCert: true,
    rejectUnauthorized: true,
    minVersion: "TLSv1.3",
  });
  proxy.on("connect", (req, sock, head) => {
    proxySeen.push(sock.getPeerCertificate()?.subject?.CN ?? null);
    const [host, port] = req.url.split(":");
    const up = net.connect(Number(port), host === "localhost" ? "127.0.0.1" : host, () => {
      sock.write("HTTP/1.1 200 Connection established\r\n\r\n");
      if (head?.length) up.write(head);
      up.pipe(sock);
      sock.pipe(up);
    });
    const end = () => { up.destroy(); sock.destroy(); };
    up.on("error", end);
    sock.on("error", end);
  });
  proxy.on("tlsClientError", () => {});
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const cert = (kind, keyFile = `${kind}.key`) => ({ certChain: read(`${kind}.pem`), key: read(keyFile) });
  const keys = [...Object.keys(MTLS_KINDS).map((k) => read(`${k}.key`)), read("p256.sec1"), read("rsa.pkcs1")];
  // An EC key's PEM carries its public key too, which the certificate (and s_server's page,
  // which prints it) may show in the same base64 alignment: such pieces are not secret.
  const certs = Object.keys(MTLS_KINDS).map((k) => read(`${k}.pem`)).join("");
  return {
    port13,
    port12,
    proxyPort: proxy.address().port,
    proxySeen,
    cert,
    keys,
    certs,
    close: () => {
      for (const c of children) c.kill();
      proxy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
