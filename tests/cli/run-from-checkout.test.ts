import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workdir } from '../support/cli.js';

const root = resolve(import.meta.dirname, '../..');
const bundle = join(root, 'dist', 'bundle', 'plumb.cjs');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };

/** Runs npx in the checkout, with an npm cache of its own (so npx meets the checkout for the first time) and no registry it can reach. */
function npx(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    npm_config_cache: workdir('plumb-npx-cache-'),
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
  };
  return new Promise((done) => {
    execFile('npx', args, { cwd: root, env, timeout: 90_000 }, (err, stdout, stderr) => done({ code: err ? Number((err as { code?: unknown }).code) || 1 : 0, stdout, stderr }));
  });
}

const identity = (file: string) => {
  const { ino, mtimeMs } = statSync(file);
  return { ino, mtimeMs };
};

describe('running plumb from the checkout', () => {
  it('the npm package has a name of its own and its command is plumb', () => {
    expect(pkg.name).toBe('plumb-reconciler');
    expect(Object.keys(pkg.bin)).toEqual(['plumb']);
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { name: string; packages: Record<string, { name?: string }> };
    expect([lock.name, lock.packages[''].name]).toEqual([pkg.name, pkg.name]);
  });

  it('npx plumb version runs the checkout as built, offline, without building or touching the bundle', async () => {
    const before = identity(bundle);
    const run = await npx(['plumb', 'version']);
    expect(run.stderr).not.toMatch(/npm (error|warn)/i);
    expect(run.stdout).toBe(`plumb ${pkg.version} (npm package plumb-reconciler, node ${process.version}, ${process.platform}-${process.arch})\n`);
    expect(run.code).toBe(0);
    expect(identity(bundle)).toEqual(before);
  }, 120_000);

  it('a build replaces the bundle in one step: it is never missing while the build runs', async () => {
    const before = identity(bundle);
    let missing = 0;
    const watch = setInterval(() => {
      if (!existsSync(bundle)) missing++;
    }, 1);
    const code = await new Promise<number | null>((done) => spawn(process.execPath, [join(root, 'scripts', 'bundle.js')], { cwd: root, stdio: 'ignore' }).on('exit', done));
    clearInterval(watch);
    expect(code).toBe(0);
    expect(missing).toBe(0);
    expect(identity(bundle).ino).not.toBe(before.ino);
    expect(readdirSync(join(root, 'dist', 'bundle')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 120_000);
});
