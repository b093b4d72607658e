// The figures of a window shared by several plumb processes (issue 33): two no-change plans of
// two stacks back to back and then both at once, all in one window; and a small drift every
// minute for ten minutes. Against the sandbox with the real limits; every process of a figure
// shares one cache folder (one rate ledger), as the commands of one user or one CI runner do.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { productGraph } from './generate.js';
import { dropCache, mustRun, quietCache, startSandbox } from './processes.js';
import { sharedTarget, windowDelayS } from './targets.js';
import { clock, done, round, say, workDir } from './util.js';

const DRIFT_PRODUCTS = 30;
const DRIFT_RUNS = 10;
const DRIFT_EVERY_MS = 60_000;

/** The sandbox's calls since its log was last cleared: how many, how many refused, and when each was admitted (ms). */
async function callsOf(sandbox) {
  const calls = await sandbox.admin('calls');
  await sandbox.admin('calls', 'DELETE');
  return { calls: calls.length, refused: calls.filter((c) => c.status === 429).length, atMs: calls.map((c) => Date.parse(c.at)) };
}

/** `n`-product graphs in folders of their own, applied with no latency and no limits. */
async function appliedGraphs(sandbox, n, names, latencyMs) {
  const dirs = [];
  await sandbox.admin('limits', 'DELETE');
  await sandbox.admin('faults', 'DELETE');
  for (const name of names) {
    const dir = workDir(`shared-${n}-${name}`);
    dirs.push(dir);
    writeFileSync(join(dir, 'plumb.yaml'), productGraph(n, { name: `shared-${n}-${name}` }));
    await mustRun(`apply ${name}`, ['apply', '--yes'], dir, { PLUMB_SANDBOX_URL: sandbox.url });
  }
  await sandbox.admin('faults', 'POST', { latencyMs });
  return dirs;
}

/**
 * Two no-change plans of `n` products, each of a stack of its own on one account: first one after
 * the other from a quiet window, then both at once straight after, in the same window (so the
 * window holds the first two's calls when the two at once start). Each run's wait is its wall time
 * beyond the same plan's with no limit; what the window requires is judged from the sandbox's log
 * of every call the window saw.
 */
export async function sharedWindow(n, latencyMs) {
  say(`\n${n} products in two stacks sharing one window\n`);
  const sandbox = await startSandbox('real');
  const cache = quietCache();
  let dirs = [];
  try {
    dirs = await appliedGraphs(sandbox, n, ['a', 'b'], latencyMs);
    const plan = (dir, env) => mustRun('plan', ['plan'], dir, { PLUMB_SANDBOX_URL: sandbox.url, ...env }, { expect: /No changes/ });
    await sandbox.admin('calls', 'DELETE');
    const noLimitS = round((await plan(dirs[0], {})).wall, 1);
    await callsOf(sandbox);
    say(`    ${'plan, no limit'.padEnd(44)} ${clock(noLimitS).padStart(22)}\n`);

    await sandbox.admin('limits', 'POST', { limits: 'real' });
    const env = { PLUMB_SANDBOX_LIMITS: 'real', XDG_CACHE_HOME: cache };
    const seen = [];
    const figure = async (label, run) => {
      const startMs = Date.now();
      const walls = await run();
      const log = await callsOf(sandbox);
      seen.push(...log.atMs);
      const result = { calls: log.calls, refused: log.refused, wallS: round(Math.max(...walls), 1), wallsS: walls.map((w) => round(w, 1)), windowDelayS: round(windowDelayS(seen, startMs), 1) };
      Object.assign(result, sharedTarget(result, noLimitS));
      say(
        `    ${label.padEnd(44)} ${String(result.calls).padStart(6)} calls ${result.wallsS.map(clock).join(' and ').padStart(9)}, waited ${clock(result.waitedS)} for ${clock(result.needS)} required, ${result.refused} refused\n`,
      );
      return result;
    };
    const first = await figure('back to back: the first', async () => [(await plan(dirs[0], env)).wall]);
    const second = await figure('back to back: the second', async () => [(await plan(dirs[1], env)).wall]);
    const together = await figure('both at once, straight after', async () => (await Promise.all(dirs.map((dir) => plan(dir, env)))).map((r) => r.wall));
    return { products: n, noLimitS, backToBack: [first, second], together };
  } finally {
    await sandbox.stop();
    dropCache(cache);
    for (const dir of dirs) done(dir);
  }
}

/**
 * `drift` of a 30-product stack every minute for ten minutes, in one window (one account, one
 * cache folder): the calls and how many were refused. A run that takes longer than a minute is
 * followed by the next at once.
 */
export async function driftLoop(latencyMs) {
  say(`\n${DRIFT_PRODUCTS} products, drift every ${DRIFT_EVERY_MS / 1000} s, ${DRIFT_RUNS} times\n`);
  const sandbox = await startSandbox('real');
  const cache = quietCache();
  let dirs = [];
  try {
    dirs = await appliedGraphs(sandbox, DRIFT_PRODUCTS, ['drift'], latencyMs);
    await sandbox.admin('limits', 'POST', { limits: 'real' });
    await sandbox.admin('calls', 'DELETE');
    const env = { PLUMB_SANDBOX_URL: sandbox.url, PLUMB_SANDBOX_LIMITS: 'real', XDG_CACHE_HOME: cache };
    const started = Date.now();
    const walls = [];
    for (let i = 0; i < DRIFT_RUNS; i++) {
      const due = started + i * DRIFT_EVERY_MS - Date.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      walls.push(round((await mustRun(`drift ${i + 1}`, ['drift'], dirs[0], env, {})).wall, 1));
    }
    const log = await callsOf(sandbox);
    const result = { products: DRIFT_PRODUCTS, runs: DRIFT_RUNS, everyS: DRIFT_EVERY_MS / 1000, calls: log.calls, refused: log.refused, wallsS: walls };
    say(`    ${`${DRIFT_RUNS} drifts`.padEnd(44)} ${String(result.calls).padStart(6)} calls, each ${clock(Math.min(...walls))} to ${clock(Math.max(...walls))}, ${result.refused} refused\n`);
    return result;
  } finally {
    await sandbox.stop();
    dropCache(cache);
    for (const dir of dirs) done(dir);
  }
}
