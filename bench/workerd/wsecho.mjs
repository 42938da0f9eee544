// A WebSocket echo origin for the workerd harness (bench/workerd/run.mjs): Python's
// `websockets` (script/bootstrap installs it, as for worker/test/e2e.mjs), started by the
// harness and stopped after it, on 127.0.0.1 only, over TLS with the peers' test leaf (so the
// rows are wss://, as a Worker's WebSockets mostly are). /echo sends every message back as it
// came (text as text, binary as binary). Two ports: one agrees permessage-deflate when the
// client offers it (websockets' default, as most servers do), the other never does; the
// harness notes what each client agreed.

import { spawn } from "node:child_process";
import path from "node:path";

const SERVER = `
import asyncio, ssl, sys
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

async def handler(ws):
    try:
        if ws.request.path.split("?")[0] != "/echo":
            await ws.close(4004, "no such path")
            return
        async for msg in ws:
            await ws.send(msg)
    except ConnectionClosed:
        pass

async def main():
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[1], sys.argv[2])
    ctx.set_alpn_protocols(["http/1.1"])
    s = await serve(handler, "127.0.0.1", 0, ssl=ctx, max_size=1 << 20)
    plain = await serve(handler, "127.0.0.1", 0, ssl=ctx, max_size=1 << 20, compression=None)
    print(s.sockets[0].getsockname()[1], plain.sockets[0].getsockname()[1], flush=True)
    await asyncio.Future()

asyncio.run(main())
`;

/** Starts the echo origin; resolves to { port, plainPort, close() }: `port` agrees
 * permessage-deflate when offered, `plainPort` never does (a server without the extension). */
export async function startWsEcho(peersState) {
  const pki = path.join(peersState, "pki");
  const child = spawn("python3", ["-c", SERVER, path.join(pki, "leaf-p256.chain.pem"), path.join(pki, "leaf-p256.key")], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const [port, plainPort] = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.trim().split(" ").map(Number));
    });
    exited.then((code) => reject(new Error(`the WebSocket echo server (python3 with websockets 17: run script/bootstrap) exited with ${code}`)));
  });
  return {
    port,
    plainPort,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
