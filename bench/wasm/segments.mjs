// The callgrind dumps that count-report.mjs and count-functions.mjs add up, from the phase
// marks count.mjs recorded. Dump N holds what ran between marks N-1 and N. A segment belongs
// to the operation whose OpStart (1) opened it, unless a PeerStart (2) opened it (the scripted
// server's work, which the timed figure leaves out too) or an OpEnd (0) did (setup and
// bookkeeping). Rung e's ops run in the order path, AEAD alone, design floor; the calibration
// pass and the warm-up round (the first six ops) are left out.

/** The operations of a rung-e item, in the order they run. */
export const OPS = ["path", "aead", "floor"];
const SKIP = 6;

/**
 * The dumps to count: `{ dump, op, opens }` per segment, `dump` the dump's number, `op` one
 * of OPS, `opens` true for the first segment of an operation (count operations by it).
 */
export function* segments(marks) {
  let op = -1;
  for (let k = 2; k <= marks.length; k++) {
    const opened = marks[k - 2];
    if (opened === 1) op++;
    if (op < SKIP || opened === 0 || opened === 2) continue;
    yield { dump: k, op: OPS[op % OPS.length], opens: opened === 1 };
  }
}
