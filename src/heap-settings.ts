/**
 * V8's heap settings for the long-running server (`worklink start`), set at start unless the
 * operator gave their own on node's command line (`node --heap-growing-percent=N …`; node
 * refuses this V8 flag in NODE_OPTIONS, so the command line is the only place it can be).
 *
 * Why: after each full GC V8 lets the old generation grow to up to 4× what survived before the
 * next one. In a burst of commands nearly everything promoted is garbage within a second, but
 * the heap committed to hold it stays resident until V8's memory reducer gives it back, seconds
 * of quiet later: 10,000 commands left RSS at ~265 MB, of which ~140 MB old space holding
 * ~50 MB of live objects (`npm run bench:memory`). Growing by 50 % instead collects that garbage
 * sooner for about the same CPU per command (bench:memory, bench:ack; docs/scaling.md).
 */
import { setFlagsFromString } from 'node:v8';

/** The old generation grows by this much over what survived the last full GC. */
export const HEAP_GROWING_PERCENT = 50;

/** The flags set (none when the operator chose their own). */
export function applyHeapSettings(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flag: string) => void = setFlagsFromString,
): string[] {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return [];
  const flag = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  // Read by V8 at each full GC, so setting it now (before the app's objects exist) is enough.
  setFlags(flag);
  return [flag];
}
