import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandbox, type Sandbox } from '@plumb/sandbox';

/** The CLI entry point, built (tests run after `npm run build`, as a user would). */
export const PLUMB = resolve(import.meta.dirname, '../../bin/plumb.cjs');

/** What one CLI run printed and returned. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `plumb ...args` in `cwd` with extra environment (or another copy of the CLI); never throws on a non-zero exit. */
export function plumb(args: string[], opts: { cwd: string; env?: Record<string, string | undefined>; input?: string; bin?: string }): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...opts.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const child = execFile(process.execPath, [opts.bin ?? PLUMB, ...args], { cwd: opts.cwd, env: env as NodeJS.ProcessEnv, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolvePromise({ code, stdout, stderr });
    });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}

/**
 * The environment that makes a plumb process kill itself (SIGKILL, no cleanup) once `records`
 * journal entries are durable: crash-recovery tests (see crash-after-records.mjs).
 */
export function crashAfterRecords(records: number): Record<string, string> {
  const preload = pathToFileURL(resolve(import.meta.dirname, 'crash-after-records.mjs')).href;
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim(), CRASH_AFTER_RECORDS: String(records) };
}

/** A fresh folder for one test's manifests and state. */
export function workdir(prefix = 'plumb-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a manifest file and returns its path. */
export function writeManifest(dir: string, name: string, yaml: string): string {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return file;
}

/** A sandbox in this test process, instant provisioning, with helpers for its admin API. */
export async function testSandbox(provisioningMs = 0): Promise<
  Sandbox & {
    calls(provider?: string): Promise<Array<{ provider: string; method: string; path: string; query: Record<string, unknown>; status: number; at: string }>>;
    clearCalls(): Promise<void>;
    /** Changes the sandbox's settings (`provisioningMs`...) through its admin API. */
    settings(body: Record<string, unknown>): Promise<void>;
    env: Record<string, string>;
  }
> {
  const sandbox = await startSandbox({ provisioningMs });
  return {
    ...sandbox,
    env: { PLUMB_SANDBOX_URL: sandbox.url },
    async calls(provider) {
      const res = await fetch(`${sandbox.url}/_sandbox/calls${provider ? `?provider=${provider}` : ''}`);
      return (await res.json()) as never;
    },
    async clearCalls() {
      await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
    },
    async settings(body) {
      const res = await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`sandbox settings: ${res.status} ${await res.text()}`);
    },
  };
}
