// The benchmark's processes: the CLI run as the installed `plumb` command is (wall time, peak
// RSS, exit code and output), and a standalone sandbox with its admin endpoints.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin', 'plumb.cjs');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

// NODE_EXTRA_CA_CERTS makes every node process parse a certificate bundle before it starts: a
// cost of the machine, not of plumb. The node that runs the benchmark runs the CLI too.
const childEnv = { ...process.env, NO_COLOR: '1', PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
if (!process.env.BENCH_KEEP_ENV) delete childEnv.NODE_EXTRA_CA_CERTS;
// XDG_CACHE_HOME holds the rate ledger every plumb process on a machine shares: the user's is
// never touched, and a figure's window holds only the calls of the processes it runs.
for (const key of ['PLUMB_SANDBOX_URL', 'PLUMB_SANDBOX_LIMITS', 'PLUMB_READS', 'PLUMB_STATE', 'XDG_CACHE_HOME']) delete childEnv[key];

/**
 * A cache folder of its own, so a rate window starts quiet: the processes of one figure that must
 * share a window are given the same one (`XDG_CACHE_HOME`); removed by `dropCache`.
 */
export function quietCache() {
  return mkdtempSync(join(tmpdir(), 'plumb-bench-cache-'));
}

export function dropCache(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs the CLI once: exit code, output, wall seconds and the child's peak RSS (MiB). Without
 * `XDG_CACHE_HOME` in `env` it gets a cache folder of its own, removed after it.
 */
export async function plumb(args, cwd, env = {}) {
  if (!env.XDG_CACHE_HOME) {
    const cache = quietCache();
    try {
      return await plumb(args, cwd, { ...env, XDG_CACHE_HOME: cache });
    } finally {
      dropCache(cache);
    }
  }
  const timeFile = join(cwd, '.time');
  const [cmd, argv] = TIME ? [TIME, ['-f', '%M', '-o', timeFile, CLI, ...args]] : [CLI, args];
  const merged = { ...childEnv, ...env };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  const started = performance.now();
  const child = spawn(cmd, argv, { cwd, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let peakKb = 0;
  const poll = TIME ? undefined : setInterval(() => (peakKb = Math.max(peakKb, vmHwm(child.pid))), 20);
  const code = await new Promise((done) => child.on('close', done));
  const wall = (performance.now() - started) / 1000;
  if (poll) clearInterval(poll);
  if (TIME && existsSync(timeFile)) peakKb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop());
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

/** Runs a command that must end with one of `codes` and print `expect`; its run, or an error with its output. */
export async function mustRun(label, args, cwd, env, { expect, codes = [0] } = {}) {
  const r = await plumb(args, cwd, env);
  if (!codes.includes(r.code) || (expect && !expect.test(r.stdout))) {
    throw new Error(`${label} failed (exit ${r.code}):\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  }
  return r;
}

/** Starts the standalone sandbox in its own process (`limits`: `real` or `off`), with its admin endpoints. */
export async function startSandbox(limits = 'off') {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'sandbox.js'), '--limits', limits], { stdio: ['ignore', 'pipe', 'inherit'] });
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
    if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  };
  return { url, admin, stop: () => new Promise((done) => (child.kill('SIGTERM'), child.on('exit', done))) };
}
