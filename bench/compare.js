// Compares builds of plumb on the benchmark's manifests, their runs interleaved so that each
// build meets the same load on a shared machine: `validate` of 10 resources, and `validate` and
// a no-change `plan --no-refresh` of larger manifests (state made once by an apply with the last
// build, then planned by each). Prints each build's best and median wall seconds, and its best
// CPU seconds (user and system, from GNU time where there is one): when other work shares the
// machine, wall time says more about the load than about plumb.
//
//   node bench/compare.js OLD/bin/plumb.cjs bin/plumb.cjs
//   BENCH_SIZES=10,3000,30000    sizes (10 is validate only)
//   BENCH_STYLES=block,flow      manifest styles (see generate.js)
//   BENCH_RUNS=5                 runs of each command per build (3 at 30,000 resources)

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateManifest } from './generate.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLIS = process.argv.slice(2).map((cli) => resolve(cli));
const SIZES = (process.env.BENCH_SIZES ?? '10,3000,30000').split(',').map(Number);
const STYLES = (process.env.BENCH_STYLES ?? 'block,flow').split(',');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
if (CLIS.length === 0) throw new Error('usage: node bench/compare.js CLI [CLI...]');
const env = { ...process.env, NO_COLOR: '1', PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
delete env.NODE_EXTRA_CA_CERTS;

/** Runs a CLI once (through its #! line, as the benchmark does): exit code, output, wall and CPU seconds. */
function run(cli, args, cwd, extra) {
  const timeFile = join(cwd, '.time');
  const [cmd, argv] = TIME ? [TIME, ['-f', '%U %S', '-o', timeFile, cli, ...args]] : [cli, args];
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { cwd, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const cpu = TIME
        ? readFileSync(timeFile, 'utf8')
            .trim()
            .split('\n')
            .pop()
            .split(' ')
            .map(Number)
            .reduce((a, b) => a + b, 0)
        : NaN;
      done({ code, out, wall: (performance.now() - started) / 1000, cpu });
    });
  });
}

async function startSandbox() {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'sandbox.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((done) => child.stdout.once('data', (d) => done(String(d).split('\n')[0].trim())));
  return { url, stop: () => child.kill('SIGTERM') };
}

/** Each build's walls for one command, the builds taking turns. */
async function interleaved(args, cwd, extra, runs, expect) {
  const results = CLIS.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < CLIS.length; k++) {
      const r = await run(CLIS[k], args, cwd, extra);
      if (r.code !== 0 || !expect.test(r.out)) throw new Error(`${CLIS[k]} ${args.join(' ')} failed (exit ${r.code}):\n${r.out.slice(-2000)}`);
      results[k].push(r);
    }
  }
  return results.map((rs) => {
    const walls = rs.map((r) => r.wall).sort((a, b) => a - b);
    const cpu = Math.min(...rs.map((r) => r.cpu));
    return `${walls[0].toFixed(2)} s (median ${walls[Math.floor(walls.length / 2)].toFixed(2)}; CPU ${cpu.toFixed(2)} s)`;
  });
}

const sandbox = await startSandbox();
const rows = [];
try {
  for (const style of STYLES) {
    for (const n of SIZES) {
      const dir = mkdtempSync(join(tmpdir(), `plumb-compare-${style}-${n}-`));
      writeFileSync(join(dir, 'plumb.yaml'), generateManifest(n, { style }));
      const extra = { PLUMB_SANDBOX_URL: sandbox.url };
      const runs = n > 3000 ? Math.min(RUNS, 3) : RUNS;
      const before = rows.length;
      try {
        rows.push([`validate, ${n} resources, ${style}`, ...(await interleaved(['validate'], dir, extra, runs, /valid/))]);
        if (n > 10) {
          const applied = await run(CLIS[CLIS.length - 1], ['apply', '--yes'], dir, extra);
          if (applied.code !== 0) throw new Error(`apply failed:\n${applied.out.slice(-2000)}`);
          rows.push([`plan --no-refresh, ${n} resources, ${style}`, ...(await interleaved(['plan', '--no-refresh'], dir, extra, runs, /No changes/))]);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      for (const row of rows.slice(before)) process.stdout.write(`| ${row.join(' | ')} |\n`);
    }
  }
} finally {
  sandbox.stop();
}
const head = ['', ...CLIS.map((cli) => cli.replace(/\/bin\/plumb\.cjs$/, ''))];
process.stdout.write(`\n${[head, head.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n')}\n`);
