// The benchmark (`npm run bench`): generated manifests of 300, 3,000 and 30,000 resources applied
// and planned by the compiled CLI against a standalone sandbox, each command timed (wall seconds)
// and measured (peak RSS); then the cost per step of recording state, and the apply makespan
// against the critical-path lower bound with 200 ms per call. Prints a table and writes
// bench/results.json.
//
//   BENCH_SIZES=300,3000 npm run bench     limit the sizes (default 300,3000,30000)
//   BENCH_SCHED_SIZE=300                   size of the scheduling run (default 300)
//   BENCH_RUNS=3                           runs per command up to 3,000 resources, median shown
//   BENCH_KEEP=1                           keep the work folders (printed)
//   BENCH_KEEP_ENV=1                       keep NODE_EXTRA_CA_CERTS for the CLI runs (see README)
//   BENCH_STYLE=flow                       write the manifests in YAML flow style (default block);
//                                          the results go to bench/results-flow.json

import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateManifest, generatedGraph } from './generate.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'plumb.cjs');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const SIZES = (process.env.BENCH_SIZES ?? '300,3000,30000').split(',').map(Number).filter((n) => n >= 3);
const SCHED_SIZE = Number(process.env.BENCH_SCHED_SIZE ?? 300);
// Runs of each command at up to 3,000 resources (the median is reported); one at 30,000.
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const LATENCY_MS = 200;
const PROVISIONING_MS = 2000;
const RECORDS = 200;
const STYLE = process.env.BENCH_STYLE ?? 'block';
if (STYLE !== 'block' && STYLE !== 'flow') throw new Error(`BENCH_STYLE must be block or flow, not ${STYLE}`);

// NODE_EXTRA_CA_CERTS makes every node process parse a certificate bundle before it starts
// (0.1 s on the benchmark machines): a cost of the machine, not of plumb.
// The node that runs the benchmark runs the CLI too (its #! line finds node on PATH).
const childEnv = { ...process.env, NO_COLOR: '1', PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
if (!process.env.BENCH_KEEP_ENV) delete childEnv.NODE_EXTRA_CA_CERTS;

/** Runs the CLI once: exit code, output, wall seconds and peak RSS (MiB) of the child. */
async function plumb(args, cwd, env) {
  const timeFile = join(cwd, '.time');
  // The CLI runs as the installed `plumb` command does: through its #! line (and its node flags).
  const [cmd, argv] = TIME ? [TIME, ['-f', '%M', '-o', timeFile, CLI, ...args]] : [CLI, args];
  const started = performance.now();
  const child = spawn(cmd, argv, { cwd, env: { ...childEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // Without GNU time, sample the child's high-water mark until it exits.
  let peakKb = 0;
  const poll = TIME ? undefined : setInterval(() => (peakKb = Math.max(peakKb, vmHwm(child.pid))), 20);
  const code = await new Promise((done) => child.on('close', done));
  const wall = (performance.now() - started) / 1000;
  if (poll) clearInterval(poll);
  if (TIME) peakKb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop());
  return { code, stdout, stderr, wall, rss: peakKb / 1024 };
}

function vmHwm(pid) {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Runs a command that must succeed (and whose output must match), and returns its figures. */
async function measured(label, args, cwd, env, expect, { runs = 1, before } = {}) {
  const all = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    const r = await plumb(args, cwd, env);
    if (r.code !== 0 || (expect && !expect.test(r.stdout))) {
      throw new Error(`${label} failed (exit ${r.code}):\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
    }
    all.push(r);
  }
  // The run with the median wall time, and the highest peak RSS of all runs.
  const median = [...all].sort((a, b) => a.wall - b.wall)[Math.floor(all.length / 2)];
  const rss = Math.max(...all.map((r) => r.rss));
  const of = runs > 1 ? ` (median of ${runs})` : '';
  process.stdout.write(`  ${label.padEnd(28)} ${median.wall.toFixed(2).padStart(7)} s ${rss.toFixed(0).padStart(6)} MiB${of}\n`);
  return { wallS: round(median.wall, 3), peakRssMiB: round(rss, 1), runs, wallsS: all.map((r) => round(r.wall, 3)) };
}

/** Starts the standalone sandbox in its own process. */
async function startSandbox() {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'sandbox.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) done(out.split('\n')[0].trim());
    });
    child.on('exit', (code) => fail(new Error(`sandbox exited (${code})`)));
  });
  const admin = async (path, method = 'GET', body) => {
    const res = await fetch(`${url}/_sandbox/${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  };
  return { url, admin, stop: () => new Promise((done) => (child.kill('SIGTERM'), child.on('exit', done))) };
}

/** Journal appends against the state an apply left, and what one full snapshot rewrite costs. */
async function stateWrites(workDir, n) {
  const { LocalStore } = await import('../dist/state/local.js');
  const { SecretCodec } = await import('../dist/state/secrets.js');
  const root = join(workDir, '.plumb-copy');
  cpSync(join(workDir, '.plumb'), root, { recursive: true });
  // State is kept per manifest: the one project folder holding a default stack.
  const project = readdirSync(root).find((name) => existsSync(join(root, name, 'default', 'state.json')));
  const store = new LocalStore(root, project, 'default', SecretCodec.open(join(root, 'secret.key')));
  const snapshot = await store.read();
  const resources = Object.values(snapshot.resources);
  const entry = (i) => ({ kind: 'outcome', address: resources[i % resources.length].address, resource: resources[i % resources.length], at: new Date().toISOString() });
  // One at a time: the latency a step waits for its own outcome to be durable.
  let started = performance.now();
  for (let i = 0; i < RECORDS; i++) await store.record(entry(i));
  const sequentialUs = ((performance.now() - started) * 1000) / RECORDS;
  // Ten at a time, as an apply with --parallelism 10 records them: concurrent appends share a sync.
  started = performance.now();
  for (let i = 0; i < RECORDS; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => store.record(entry(i + k))));
  const concurrentUs = ((performance.now() - started) * 1000) / RECORDS;
  // What a step would cost if it rewrote the whole state, as Terraform does.
  started = performance.now();
  await store.write(snapshot);
  const rewriteMs = performance.now() - started;
  await store.close();
  rmSync(root, { recursive: true, force: true });
  process.stdout.write(`  journal append per step      ${sequentialUs.toFixed(0).padStart(7)} µs alone, ${concurrentUs.toFixed(0)} µs with 10 at once; a full rewrite ${rewriteMs.toFixed(0)} ms\n`);
  return { resources: n, journalAppendUs: round(sequentialUs, 0), journalAppendConcurrentUs: round(concurrentUs, 0), snapshotRewriteMs: round(rewriteMs, 1) };
}

/** The sandbox calls one create step makes when nothing waits (no latency, instant provisioning). */
async function callsPerStep(sandbox, n) {
  const dir = mkdtempSync(join(tmpdir(), `plumb-bench-calls-`));
  writeFileSync(join(dir, 'plumb.yaml'), generateManifest(n, { name: `calls-${n}` }));
  await sandbox.admin('calls', 'DELETE');
  await measured(`apply (count calls) ${n}`, ['apply', '--yes'], dir, { PLUMB_SANDBOX_URL: sandbox.url }, /Apply complete/);
  const calls = await sandbox.admin('calls?provider=interconnect');
  rmSync(dir, { recursive: true, force: true });
  const tokens = calls.filter((c) => c.path.endsWith('/oauth2/token')).length;
  return (calls.length - tokens) / n;
}

/**
 * Apply makespan with 200 ms per call and 2 s provisioning, parallelism at least the graph's
 * width, divided by the critical-path lower bound. A step's bound is its calls in series with
 * the provisioning wait overlapping one poll: validate and buy (2 calls), then the product is
 * ready 2 s after the buy was handled and a poll answers at that moment at the earliest, then
 * the remaining calls. Along the longest path (a port, then a VXC on it) plus one token exchange.
 */
async function scheduling(sandbox, n) {
  const calls = await callsPerStep(sandbox, n);
  const dir = mkdtempSync(join(tmpdir(), `plumb-bench-sched-`));
  writeFileSync(join(dir, 'plumb.yaml'), generateManifest(n, { name: `sched-${n}` }));
  await sandbox.admin('settings', 'POST', { provisioningMs: PROVISIONING_MS });
  await sandbox.admin('faults', 'POST', { provider: 'interconnect', latencyMs: LATENCY_MS });
  try {
    const r = await plumb(['apply', '--yes', '--json', '--parallelism', String(n)], dir, { PLUMB_SANDBOX_URL: sandbox.url });
    if (r.code !== 0) throw new Error(`scheduling apply failed (exit ${r.code}):\n${r.stderr.slice(-2000)}`);
    const events = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const starts = events.filter((e) => e.type === 'step-start').map((e) => Date.parse(e.at));
    const ends = events.filter((e) => e.type === 'step-done').map((e) => Date.parse(e.at));
    const makespanMs = Math.max(...ends) - Math.min(...starts);
    const graph = generatedGraph(n);
    const width = Math.max(graph.filter((g) => g.needs.length === 0).length, graph.filter((g) => g.needs.length > 0).length);
    const step = 2 * LATENCY_MS + Math.max(PROVISIONING_MS, LATENCY_MS) + (calls - 3) * LATENCY_MS;
    const boundMs = LATENCY_MS + longestPath(graph) * step;
    const ratio = makespanMs / boundMs;
    process.stdout.write(`  makespan ${(makespanMs / 1000).toFixed(2)} s / bound ${(boundMs / 1000).toFixed(2)} s = ${ratio.toFixed(3)} (parallelism ${n} >= width ${width}, ${calls.toFixed(2)} calls per step)\n`);
    return { resources: n, parallelism: n, width, latencyMs: LATENCY_MS, provisioningMs: PROVISIONING_MS, callsPerStep: round(calls, 2), makespanS: round(makespanMs / 1000, 3), boundS: round(boundMs / 1000, 3), ratio: round(ratio, 3) };
  } finally {
    await sandbox.admin('faults', 'DELETE');
    await sandbox.admin('settings', 'POST', { provisioningMs: 0 });
    if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

/** Steps on the longest dependency path of the generated graph. */
function longestPath(graph) {
  const byAddress = new Map(graph.map((g) => [g.address, g]));
  const memo = new Map();
  const depth = (g) => {
    if (!memo.has(g.address)) memo.set(g.address, 1 + Math.max(0, ...g.needs.map((a) => depth(byAddress.get(a)))));
    return memo.get(g.address);
  };
  return Math.max(...graph.map(depth));
}

/**
 * Applies a small graph against a new sandbox before anything is measured: a remote API is a
 * server that has been running, and a just-started sandbox answers its first few thousand calls
 * while its own code is still being compiled.
 */
async function warmUp(sandbox) {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-bench-warm-'));
  writeFileSync(join(dir, 'plumb.yaml'), generateManifest(600, { name: 'warm-up' }));
  const r = await plumb(['apply', '--yes'], dir, { PLUMB_SANDBOX_URL: sandbox.url });
  rmSync(dir, { recursive: true, force: true });
  if (r.code !== 0) throw new Error(`warm-up apply failed (exit ${r.code}):\n${r.stderr.slice(-2000)}`);
}

async function size(n) {
  process.stdout.write(`\n${n} resources\n`);
  const sandbox = await startSandbox();
  await warmUp(sandbox);
  const dir = mkdtempSync(join(tmpdir(), `plumb-bench-${n}-`));
  const file = join(dir, 'plumb.yaml');
  const text = generateManifest(n, { style: STYLE });
  writeFileSync(file, text);
  const env = { PLUMB_SANDBOX_URL: sandbox.url };
  try {
    const result = { resources: n };
    const runs = n > 3000 ? 1 : RUNS;
    // Each apply starts from an empty state (the sandbox keeps the products: it only grows).
    const fresh = () => rmSync(join(dir, '.plumb'), { recursive: true, force: true });
    result.validate = await measured('validate', ['validate'], dir, env, /valid/, { runs });
    result.apply = await measured('apply (fresh state)', ['apply', '--yes'], dir, env, new RegExp(`Resources: ${n} added`), { runs, before: fresh });
    result.planRefresh = await measured('plan, no change', ['plan'], dir, env, /No changes/, { runs });
    result.planNoRefresh = await measured('plan --no-refresh, no change', ['plan', '--no-refresh'], dir, env, /No changes/, { runs });
    writeFileSync(file, text.replace(/productName: bench-port-0([,\n])/, 'productName: bench-port-0-renamed$1'));
    result.planOneChange = await measured('plan --no-refresh, 1 change', ['plan', '--no-refresh'], dir, env, /1 to change/, { runs });
    writeFileSync(file, text);
    result.stateWrite = await stateWrites(dir, n);
    return result;
  } finally {
    await sandbox.stop();
    if (process.env.BENCH_KEEP) process.stdout.write(`  kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** Start-up: `plumb validate` on a 10-resource manifest, the median of five runs (no remote call). */
async function startup() {
  process.stdout.write('\nstart-up\n');
  const dir = mkdtempSync(join(tmpdir(), 'plumb-bench-startup-'));
  writeFileSync(join(dir, 'plumb.yaml'), generateManifest(10, { name: 'startup', style: STYLE }));
  try {
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await plumb(['validate'], dir, {}));
    if (runs.some((r) => r.code !== 0)) throw new Error(`validate failed:\n${runs.find((r) => r.code !== 0).stderr}`);
    const walls = runs.map((r) => r.wall).sort((a, b) => a - b);
    const result = { resources: 10, wallS: round(walls[2], 3), minWallS: round(walls[0], 3), peakRssMiB: round(Math.max(...runs.map((r) => r.rss)), 1) };
    process.stdout.write(`  validate, 10 resources        ${result.wallS.toFixed(2).padStart(7)} s (best ${result.minWallS.toFixed(2)} s) ${result.peakRssMiB.toFixed(0).padStart(6)} MiB\n`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function table(results, sched, start) {
  const rows = [
    ['validate', (r) => r.validate],
    ['apply (fresh state)', (r) => r.apply],
    ['plan, no change (refresh)', (r) => r.planRefresh],
    ['plan --no-refresh, no change', (r) => r.planNoRefresh],
    ['plan --no-refresh, 1 change', (r) => r.planOneChange],
  ];
  const head = ['', ...results.map((r) => `${r.resources.toLocaleString('en')} resources`)];
  const lines = [head, head.map(() => '---')];
  for (const [label, get] of rows) lines.push([label, ...results.map((r) => `${get(r).wallS.toFixed(2)} s, ${get(r).peakRssMiB.toFixed(0)} MiB`)]);
  lines.push(['state write per step (journal append)', ...results.map((r) => `${r.stateWrite.journalAppendUs} µs (${r.stateWrite.journalAppendConcurrentUs} µs with 10 at once)`)]);
  lines.push(['full state rewrite (avoided per step)', ...results.map((r) => `${r.stateWrite.snapshotRewriteMs.toFixed(0)} ms`)]);
  const md = lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  const startLine = `\nStart-up: \`plumb validate\` on 10 resources, median of 5: ${start.wallS.toFixed(2)} s (best ${start.minWallS.toFixed(2)} s), ${start.peakRssMiB.toFixed(0)} MiB`;
  const schedLine = sched
    ? `\nScheduling (${sched.resources} resources, ${sched.latencyMs} ms per call, ${sched.provisioningMs / 1000} s provisioning, parallelism ${sched.parallelism}): makespan ${sched.makespanS.toFixed(2)} s / critical-path bound ${sched.boundS.toFixed(2)} s = **${sched.ratio.toFixed(2)}**`
    : '';
  return `${md}\n${startLine}\n${schedLine}\n`;
}

const start = await startup();
const results = [];
for (const n of SIZES) results.push(await size(n));
let sched;
if (SCHED_SIZE >= 3) {
  process.stdout.write(`\nscheduling\n`);
  const sandbox = await startSandbox();
  try {
    sched = await scheduling(sandbox, SCHED_SIZE);
  } finally {
    await sandbox.stop();
  }
}
const report = table(results, sched, start);
process.stdout.write(`\n${report}`);
const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model, loadAverage: loadavg().map((l) => round(l, 2)), extraCaCertsRemoved: !process.env.BENCH_KEEP_ENV && Boolean(process.env.NODE_EXTRA_CA_CERTS) };
writeFileSync(join(ROOT, 'bench', STYLE === 'block' ? 'results.json' : `results-${STYLE}.json`), `${JSON.stringify({ date: new Date().toISOString(), style: STYLE, machine, startup: start, sizes: results, scheduling: sched, table: report }, null, 2)}\n`);
process.stdout.write(`\nwrote bench/${STYLE === 'block' ? 'results.json' : `results-${STYLE}.json`}\n`);
