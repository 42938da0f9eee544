// Checks worker/js/ja4.mjs (the JA4 the demo page shows and the e2e test reads off the wire)
// against every capture in ../shared/vectors/clienthello: `node worker/test/ja4.mjs`.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ja4 } from "../js/ja4.mjs";

export { ja4 };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dir = path.join(process.env.BURROW_VECTORS || path.resolve(here, "../../../shared/vectors"), "clienthello");
  let ok = 0, bad = 0;
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const j = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
    const want = j.client_hello?.ja4;
    if (!want) continue;
    const got = await ja4(Buffer.from(fs.readFileSync(path.join(dir, j.file), "utf8").trim(), "hex"));
    if (got === want) ok++;
    else { bad++; console.log(`${f}: ${got} != ${want}`); }
  }
  console.log(`${ok} passed, ${bad} failed`);
  process.exit(bad || !ok ? 1 : 0);
}
