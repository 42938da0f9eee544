// A one-purpose TLS server for burrow's interop tests, run by the test with the node on PATH
// (script/test puts .tools/bin first: Node 22 with OpenSSL 3.5, which has X25519MLKEM768).
//
//   node tls-server.mjs --key FILE --cert FILE [--curve NAME] [--tls 1.2|1.3] [--mode MODE]
//
// Listens on 127.0.0.1, an ephemeral port, and prints one line `PORT <n>` when ready. Every
// connection gets one HTTP/1.1 response to its request head, with a close-delimited body (no
// Content-Length, no chunked) holding `protocol=... cipher=...`, then:
//   --mode close-notify  the TLS connection is ended with close_notify (the default);
//   --mode no-close-notify  the TCP connection is closed without close_notify (a truncation
//                           as an attacker on the path would make it).
// The process runs until it is killed.
import tls from 'node:tls';
import fs from 'node:fs';

const opts = { mode: 'close-notify' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const k = argv[i].replace(/^--/, '');
  if (argv[i + 1] === undefined) throw new Error(`option ${argv[i]} needs a value`);
  opts[k] = argv[i + 1];
}
for (const k of ['key', 'cert']) {
  if (!opts[k]) throw new Error(`--${k} FILE is required`);
}
const version = { '1.2': 'TLSv1.2', '1.3': 'TLSv1.3' }[opts.tls];
const config = {
  key: fs.readFileSync(opts.key),
  cert: fs.readFileSync(opts.cert),
  ALPNProtocols: ['http/1.1'],
};
if (opts.curve) config.ecdhCurve = opts.curve;
if (version) {
  config.minVersion = version;
  config.maxVersion = version;
}

const server = tls.createServer(config, (sock) => {
  let head = '';
  sock.on('error', () => {});
  sock.on('data', (d) => {
    if (head.includes('\r\n\r\n')) return;
    head += d.toString('latin1');
    if (!head.includes('\r\n\r\n')) return;
    const cipher = sock.getCipher();
    const body = `protocol=${sock.getProtocol()} cipher=${cipher && cipher.standardName}\n`;
    sock.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${body}`, () => {
      if (opts.mode === 'no-close-notify') {
        // Let the record leave, then drop the TCP connection under TLS: no close_notify.
        setTimeout(() => sock.destroy(), 50);
      } else {
        sock.end();
      }
    });
  });
});
server.on('tlsClientError', () => {});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${server.address().port}\n`);
});
