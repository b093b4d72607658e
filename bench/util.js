// What the benchmark's scripts share: output, work folders and the way figures are written.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const say = (text) => process.stdout.write(text);

/** A new work folder for one graph. */
export function workDir(label) {
  return mkdtempSync(join(tmpdir(), `plumb-bench-${label}-`));
}

/** Removes a work folder, or says where it is kept (BENCH_KEEP=1). */
export function done(dir) {
  if (process.env.BENCH_KEEP) say(`    kept ${dir}\n`);
  else rmSync(dir, { recursive: true, force: true });
}

export function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Seconds as `12.3 s`, `4m 05s` or `1h 02m`. */
export function clock(seconds) {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m ${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
