// The benchmark (`npm run bench`): what users feel. An interconnect graph of 300 products (100
// ports with user tags, 50 MCRs each with two prefix lists, 150 VXCs) is applied, planned and
// checked for drift by the built CLI against a standalone sandbox that enforces the APIs'
// documented rate limits and answers each call after 150 ms, twice side by side: as plumb reads
// and orders (in bulk where the API allows), and one object at a time (PLUMB_READS=one-by-one,
// the shape of Terraform's providers). Each figure is the calls the sandbox received and the wall
// time of the command. Beside them the no-change plan with no limit at all, both ways, and the
// window's bound of each plan; two plans sharing one window, back to back and at once; then the
// engine's own cost, with no remote call. Prints a table and writes bench/results.json.
//
//   BENCH_LARGE=1        also the 3,000-product graph (hours under the limits), 30,000 resources and the drift loop
//   BENCH_DRIFT_LOOP=1   also a 30-product drift every minute for ten minutes
//   BENCH_PRODUCTS=60    other graph sizes (multiples of 60, comma-separated); `none`: the engine's cost alone
//   BENCH_MODES=bulk     only one of the two ways (bulk, one-by-one)
//   BENCH_KEEP=1         keep the work folders (printed)
//   BENCH_OUT=FILE       write the figures there instead of bench/results.json

import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateManifest, graphShape, productGraph } from './generate.js';
import { mustRun, startSandbox } from './processes.js';
import { planTarget, verdict, windowBoundS } from './targets.js';
import { clock, done, round, say, workDir } from './util.js';
import { driftLoop, sharedWindow } from './window-figures.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LATENCY_MS = 150;
const SLOW_PROVISIONING_MS = 30_000;
const STACKS = 10;
const SIZES = process.env.BENCH_PRODUCTS === 'none' ? [] : process.env.BENCH_PRODUCTS ? process.env.BENCH_PRODUCTS.split(',').map(Number) : process.env.BENCH_LARGE ? [60, 300, 3000] : [60, 300];
// Two plans sharing one window, at the size the issue names.
const SHARED_PRODUCTS = 300;
const DRIFT_LOOP = Boolean(process.env.BENCH_LARGE || process.env.BENCH_DRIFT_LOOP);
// The engine's own cost at the sizes its targets name; 30,000 with the large set, as its apply
// waits on a listing of every product after each order.
const ENGINE_SIZES = process.env.BENCH_LARGE ? [3000, 30000] : [3000];
const MODES = (process.env.BENCH_MODES ?? 'bulk,one-by-one').split(',');
// A tenth of each graph is a graph of its own (drift --all), so sizes are multiples of 60.
for (const n of SIZES) if (!Number.isInteger(n) || n < 60 || n % 60) throw new Error(`BENCH_PRODUCTS: ${n} is not a multiple of 60`);
for (const mode of MODES) if (mode !== 'bulk' && mode !== 'one-by-one') throw new Error(`BENCH_MODES: ${mode} is neither bulk nor one-by-one`);

/**
 * Runs one measured command against the sandbox: its limits' windows, its call log and its rate
 * ledger (a cache folder of its own) start empty, as for a user who has not called the API for
 * five minutes. Its calls (and how many of them the sandbox refused) and its wall time. `limits`:
 * what the sandbox enforces, `real` or `off`.
 */
async function measure(sandbox, label, args, cwd, env, options, limits = 'real') {
  await sandbox.admin('limits', 'POST', { limits });
  await sandbox.admin('calls', 'DELETE');
  const r = await mustRun(label, args, cwd, env, options);
  const calls = await sandbox.admin('calls');
  const result = { calls: calls.length, refused: calls.filter((c) => c.status === 429).length, wallS: round(r.wall, 1) };
  say(`    ${label.padEnd(44)} ${String(result.calls).padStart(6)} calls ${clock(result.wallS).padStart(9)}${result.refused ? ` (${result.refused} refused)` : ''}\n`);
  return result;
}

/** Prepares without measuring: no latency and no limits, so set-up costs the run little. */
async function unmeasured(sandbox, run) {
  await sandbox.admin('faults', 'DELETE');
  await sandbox.admin('limits', 'DELETE');
  try {
    return await run();
  } finally {
    await sandbox.admin('faults', 'POST', { latencyMs: LATENCY_MS });
  }
}

/** Every figure of one graph size, read and ordered one way. */
async function scenarios(n, mode) {
  say(`\n  ${mode}\n`);
  const sandbox = await startSandbox('real');
  await sandbox.admin('faults', 'POST', { latencyMs: LATENCY_MS });
  const env = { PLUMB_SANDBOX_URL: sandbox.url, PLUMB_SANDBOX_LIMITS: 'real', PLUMB_READS: mode === 'one-by-one' ? 'one-by-one' : undefined };
  const resources = graphShape(n).ports + graphShape(n).mcrs * 3 + graphShape(n).vxcs;
  const added = new RegExp(`Resources: ${resources} added`);
  const out = {};
  const dirs = [];
  try {
    const dir = workDir(`${n}-${mode}`);
    dirs.push(dir);
    writeFileSync(join(dir, 'plumb.yaml'), productGraph(n));
    out.apply = await measure(sandbox, 'apply from nothing', ['apply', '--yes'], dir, env, { expect: added });
    out.plan = await measure(sandbox, 'plan, no change', ['plan'], dir, env, { expect: /No changes/ });
    if (mode === 'bulk') {
      // The same plan with no limit at all (the sandbox enforcing none, the client keeping to
      // none), as plumb reads and one object at a time: the window's bound and Terraform's shape.
      const free = { PLUMB_SANDBOX_URL: sandbox.url };
      out.planNoLimit = await measure(sandbox, 'plan, no change, no limit', ['plan'], dir, free, { expect: /No changes/ }, 'off');
      out.planOneByOneNoLimit = await measure(sandbox, 'plan, no change, one by one, no limit', ['plan'], dir, { ...free, PLUMB_READS: 'one-by-one' }, { expect: /No changes/ }, 'off');
    }
    out.drift = await measure(sandbox, 'drift', ['drift'], dir, env, {});

    const slow = workDir(`${n}-${mode}-slow`);
    dirs.push(slow);
    writeFileSync(join(slow, 'plumb.yaml'), productGraph(n, { name: `slow-${n}` }));
    await sandbox.admin('settings', 'POST', { provisioningMs: SLOW_PROVISIONING_MS });
    out.applySlow = await measure(sandbox, `apply from nothing, ${SLOW_PROVISIONING_MS / 1000} s provisioning`, ['apply', '--yes'], slow, env, { expect: added });
    await sandbox.admin('settings', 'POST', { provisioningMs: 0 });

    const stacks = workDir(`${n}-${mode}-stacks`);
    dirs.push(stacks);
    writeFileSync(join(stacks, 'plumb.yaml'), productGraph(n / STACKS, { name: `stacks-${n}` }));
    await unmeasured(sandbox, async () => {
      for (let s = 0; s < STACKS; s++) await mustRun(`apply stack ${s}`, ['apply', '--yes', '--stack', `s${s}`], stacks, { PLUMB_SANDBOX_URL: sandbox.url });
    });
    out.driftAll = await measure(sandbox, `drift --all, ${STACKS} stacks of ${n / STACKS}`, ['drift', '--all'], stacks, env, {});
    return out;
  } finally {
    await sandbox.stop();
    for (const dir of dirs) done(dir);
  }
}

/** The engine's own cost, with no remote call: validate on 10 resources; apply and plan --no-refresh on 3,000 and 30,000. */
async function engine() {
  say('\nengine, no remote call\n');
  const result = {};
  const small = workDir('validate');
  writeFileSync(join(small, 'plumb.yaml'), generateManifest(10, { name: 'startup' }));
  result.validate10 = await median(5, () => mustRun('validate', ['validate'], small, {}));
  engineLine('validate, 10 resources', result.validate10, 5);
  done(small);
  const dirs = [];
  const sandboxes = [];
  try {
    for (const n of ENGINE_SIZES) {
      const runs = n <= 3000 ? 3 : 1;
      const manifest = generateManifest(n);
      const added = new RegExp(`Resources: ${n} added`);
      let dir;
      let env;
      // Each apply starts from an empty state and an empty account of its own, as a user's first
      // apply does (an account holding the earlier runs' products would list them every round);
      // the last one's state is planned.
      result[`apply${n}`] = await median(runs, async () => {
        await sandboxes.pop()?.stop();
        const sandbox = await startSandbox('off');
        sandboxes.push(sandbox);
        env = { PLUMB_SANDBOX_URL: sandbox.url };
        dir = workDir(`engine-${n}`);
        dirs.push(dir);
        writeFileSync(join(dir, 'plumb.yaml'), manifest);
        return mustRun(`apply ${n} resources`, ['apply', '--yes'], dir, env, { expect: added });
      });
      engineLine(`apply, ${n.toLocaleString('en')} resources`, result[`apply${n}`], runs);
      result[`planNoRefresh${n}`] = await median(runs, () => mustRun('plan --no-refresh', ['plan', '--no-refresh'], dir, env, { expect: /No changes/ }));
      engineLine(`plan --no-refresh, ${n.toLocaleString('en')} resources`, result[`planNoRefresh${n}`], runs);
    }
  } finally {
    for (const sandbox of sandboxes) await sandbox.stop();
    for (const dir of dirs) done(dir);
  }
  return result;
}

function engineLine(label, figure, runs) {
  const of = runs > 1 ? ` (median of ${runs})` : '';
  say(`    ${label.padEnd(36)} ${figure.wallS.toFixed(2).padStart(8)} s ${figure.peakRssMiB.toFixed(0).padStart(5)} MiB${of}\n`);
}

/** The run with the median wall time, and the highest peak RSS of all. */
async function median(runs, run) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await run());
  const mid = [...all].sort((a, b) => a.wall - b.wall)[Math.floor(runs / 2)];
  return { wallS: round(mid.wall, 3), peakRssMiB: round(Math.max(...all.map((r) => r.rss)), 1), wallsS: all.map((r) => round(r.wall, 3)) };
}

const ROWS = [
  ['apply from nothing', 'apply'],
  [`apply from nothing, ${SLOW_PROVISIONING_MS / 1000} s provisioning`, 'applySlow'],
  ['plan, no change', 'plan'],
  ['plan, no change, no limit', 'planNoLimit'],
  ['drift', 'drift'],
  [`drift --all, ${STACKS} stacks`, 'driftAll'],
];

/** A figure's cell; a plan with the window's bound beside it, from the same plan's run with no limit. */
function cell(f, noLimit) {
  if (!f) return '—';
  const refused = f.refused ? ` (${f.refused} refused)` : '';
  const bound = noLimit ? ` (the window's bound: ${clock(windowBoundS(f.calls, noLimit.wallS, LATENCY_MS))})` : '';
  return `${f.calls} calls, ${clock(f.wallS)}${refused}${bound}`;
}

function sizeTable(size) {
  const { ports, mcrs, vxcs } = graphShape(size.products);
  const bulk = size.modes.bulk;
  const oneByOne = size.modes['one-by-one'];
  const parts = [`${size.products.toLocaleString('en')} products (${ports} ports with tags, ${mcrs} MCRs with ${2 * mcrs} prefix lists, ${vxcs} VXCs), ${LATENCY_MS} ms per call, real limits:\n`];
  parts.push(`|  | plumb | one by one (PLUMB_READS=one-by-one) |\n| --- | --- | --- |\n`);
  for (const [label, key] of ROWS) {
    if (key === 'planNoLimit') parts.push(`| ${label} | ${cell(bulk?.planNoLimit)} | ${cell(bulk?.planOneByOneNoLimit)} |\n`);
    else if (key === 'plan') parts.push(`| ${label} | ${cell(bulk?.plan, bulk?.planNoLimit)} | ${cell(oneByOne?.plan, bulk?.planOneByOneNoLimit)} |\n`);
    else parts.push(`| ${label} | ${cell(bulk?.[key])} | ${cell(oneByOne?.[key])} |\n`);
  }
  const target = planTarget(size.products, bulk?.plan, bulk?.planNoLimit, LATENCY_MS);
  if (target) parts.push(`\nNo-change plan of ${size.products.toLocaleString('en')} products from a quiet window, ${target.text}: ${verdict(target.met)}.\n`);
  return `${parts.join('')}\n`;
}

function sharedTable(shared) {
  const [first, second] = shared.backToBack;
  const run = (r) => `${r.calls} calls, ${r.wallsS.map(clock).join(' and ')}, waited ${clock(r.waitedS)} where the window required ${clock(r.needS)}, ${r.refused} refused`;
  return [
    `Two no-change plans of ${shared.products} products (two stacks, one account, one window), real limits; one alone with no limit: ${clock(shared.noLimitS)}:\n`,
    `- back to back, the first: ${run(first)}\n`,
    `- back to back, the second: ${run(second)}: ${verdict(first.refused === 0 && second.met)}\n`,
    `- both at once, straight after: ${run(shared.together)}: ${verdict(shared.together.met)}\n\n`,
  ].join('');
}

function driftLoopLine(loop) {
  const walls = `each ${clock(Math.min(...loop.wallsS))} to ${clock(Math.max(...loop.wallsS))}`;
  return `\`drift\` of ${loop.products} products every ${loop.everyS} s, ${loop.runs} times, one window: ${loop.calls} calls (${walls}), ${loop.refused} refused: ${verdict(loop.refused === 0)}.\n\n`;
}

function table(sizes, shared, loop, engineFigures) {
  const parts = sizes.map(sizeTable);
  if (shared) parts.push(sharedTable(shared));
  if (loop) parts.push(driftLoopLine(loop));
  const f = (x) => `${x.wallS.toFixed(2)} s (${x.peakRssMiB.toFixed(0)} MiB)`;
  const e = engineFigures;
  parts.push(`Engine, no remote call: \`validate\` on 10 resources ${f(e.validate10)}.\n`);
  for (const n of ENGINE_SIZES) {
    parts.push(`${n.toLocaleString('en')} resources: apply from an empty state ${f(e[`apply${n}`])}; \`plan --no-refresh\`, no change, ${f(e[`planNoRefresh${n}`])}.\n`);
  }
  return parts.join('');
}

const sizes = [];
for (const n of SIZES) {
  say(`\n${n} products\n`);
  const modes = {};
  for (const mode of MODES) modes[mode] = await scenarios(n, mode);
  sizes.push({ products: n, shape: graphShape(n), modes });
}
const shared = SIZES.length ? await sharedWindow(SHARED_PRODUCTS, LATENCY_MS) : undefined;
const loop = DRIFT_LOOP ? await driftLoop(LATENCY_MS) : undefined;
const engineFigures = await engine();
const report = table(sizes, shared, loop, engineFigures);
say(`\n${report}`);
const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, loadAverage: loadavg().map((l) => round(l, 2)) };
const results = {
  date: new Date().toISOString(),
  machine,
  latencyMs: LATENCY_MS,
  limits: 'real',
  slowProvisioningMs: SLOW_PROVISIONING_MS,
  stacks: STACKS,
  sizes,
  shared,
  driftLoop: loop,
  engine: engineFigures,
  table: report,
};
const out = process.env.BENCH_OUT ? resolve(process.env.BENCH_OUT) : join(ROOT, 'bench', 'results.json');
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
say(`\nwrote ${out}\n`);
