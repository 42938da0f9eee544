// A small HTTPS origin for the workerd harness (bench/workerd/run.mjs), on 127.0.0.1 only:
// what the peers do not serve. HTTP/2 and HTTP/1.1 (ALPN), the peers' test leaf and key.
//
//   GET /events?n=N&gapMs=G        N server-sent events, one write each, G ms apart (a stream of
//                                  many small chunks with gaps, as an LLM API or a feed sends)
//   GET /events?n=N&ack=ID         the same, but event k+1 is written only once /ack?id=ID&seq=k
//                                  has arrived: proof that event k reached the reader first
//   GET /ack?id=ID&seq=K           acknowledges event K of stream ID (204)
//   GET /acks?id=ID                JSON: what stream ID's writer saw (events written, acks in
//                                  order, the first problem if any)
//   GET /conn                      JSON: an id of the TCP connection this request came on (to see
//                                  whether a client pools its connections)
//
// Every event is `id: K\ndata: {"seq":K,"pad":"..."}\n\n`, EVENT_BYTES long; the reader checks
// the sequence and the total.

import fs from "node:fs";
import http2 from "node:http2";
import path from "node:path";

/** Bytes of one event on the wire (before TLS and HTTP framing). */
export const EVENT_BYTES = 96;
/** How long a writer waits for an acknowledgement before it gives the stream up. */
const ACK_DEADLINE_MS = 60_000;

/** The text of event `seq`, exactly EVENT_BYTES long. */
export function eventText(seq) {
  const head = `id: ${seq}\ndata: {"seq":${seq},"pad":"`;
  const tail = `"}\n\n`;
  return head + "x".repeat(EVENT_BYTES - head.length - tail.length) + tail;
}

/** Starts the origin; resolves to { port, close() }. */
export async function startOrigin(peersState) {
  const pki = path.join(peersState, "pki");
  const server = http2.createSecureServer({
    allowHTTP1: true,
    cert: fs.readFileSync(path.join(pki, "leaf-p256.chain.pem")),
    key: fs.readFileSync(path.join(pki, "leaf-p256.key")),
  });
  const streams = new Map(); // ack id -> { written, acked, problem, wake }
  const sockets = new Set();
  let connections = 0;
  server.on("secureConnection", (s) => {
    s.setNoDelay(true);
    s.burrowConnection = ++connections;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("request", (req, res) => {
    const url = new URL(req.url, "https://localhost");
    const q = url.searchParams;
    const reply = (status, value) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(value));
    };
    if (url.pathname === "/conn") {
      const socket = req.stream ? req.stream.session.socket : req.socket;
      return reply(200, { conn: socket.burrowConnection ?? null, http: req.httpVersion });
    }
    if (url.pathname === "/ack") {
      const s = streams.get(q.get("id"));
      if (!s) return reply(404, { error: "no such stream" });
      const seq = Number(q.get("seq"));
      if (seq !== s.acked.length) s.problem ??= `ack ${seq} arrived when ${s.acked.length} was due`;
      else if (seq >= s.written) s.problem ??= `ack ${seq} arrived before event ${seq} was written`;
      s.acked.push(seq);
      s.wake?.();
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname === "/acks") {
      const s = streams.get(q.get("id"));
      if (!s) return reply(404, { error: "no such stream" });
      streams.delete(q.get("id"));
      return reply(200, { written: s.written, acked: s.acked.length, problem: s.problem ?? null });
    }
    if (url.pathname === "/events") {
      return serveEvents(req, res, q, streams);
    }
    reply(404, { error: `no ${url.pathname} here` });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function serveEvents(req, res, q, streams) {
  const n = Number(q.get("n") ?? 10);
  const gapMs = Number(q.get("gapMs") ?? 0);
  const ackId = q.get("ack");
  if (req.socket && !req.stream) req.socket.setNoDelay(true);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
  let gone = false;
  res.on("close", () => {
    gone = true;
  });
  const record = ackId ? { written: 0, acked: [], problem: null, wake: null } : null;
  if (record) streams.set(ackId, record);
  for (let seq = 0; seq < n && !gone; seq++) {
    if (record && seq > 0) {
      // Event `seq` waits for the acknowledgement of event `seq - 1`.
      const due = seq - 1;
      const arrived = await new Promise((resolve) => {
        if (record.acked.length > due) return resolve(true);
        const timer = setTimeout(() => resolve(false), ACK_DEADLINE_MS);
        record.wake = () => {
          if (record.acked.length > due) {
            clearTimeout(timer);
            resolve(true);
          }
        };
      });
      if (!arrived) {
        record.problem ??= `no acknowledgement of event ${due} within ${ACK_DEADLINE_MS} ms: it did not reach the reader`;
        break;
      }
    } else if (gapMs > 0 && seq > 0) {
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    if (gone) break;
    res.write(eventText(seq));
    if (record) record.written = seq + 1;
  }
  res.end();
}
