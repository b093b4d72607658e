/**
 * The interconnect API's rate window as a user meets it, against a sandbox that enforces a small
 * one (a few calls per few seconds, per address): calls keep within it across commands and
 * processes, a wait for it is shown, a refresh that may not fit it is said beforehand, and a
 * ledger that cannot be used is one warning, never a failure.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox(0);
});
afterAll(async () => sandbox.close());
beforeEach(async () => sandbox.clearCalls());

/** The sandbox refuses interconnect calls over `max` per `windowMs` from one address (and forgets what it counted); `off` lifts it. */
async function sandboxWindow(max: number | 'off', windowMs = 3000): Promise<void> {
  const limits = max === 'off' ? 'off' : [{ provider: 'interconnect', name: 'test window', max, windowMs, per: 'address', source: 'test' }];
  const res = await fetch(`${sandbox.url}/_sandbox/limits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limits }) });
  if (!res.ok) throw new Error(`sandbox limits: ${res.status} ${await res.text()}`);
}

/** A stack of `count` ports, with `window` as its interconnect:rateLimit when given. */
function ports(name: string, count: number, window?: string): string {
  const config = window ? ['config:', `  interconnect:rateLimit: ${window}`] : [];
  const resources = Array.from(
    { length: count },
    (_, i) => `  p${i}:\n    type: interconnect:Port\n    properties: { productName: ${name}-${i}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }`,
  );
  return [`name: ${name}`, ...config, 'resources:', ...resources].join('\n');
}

/** A folder holding a stack of ports, and the environment of a command in it: this sandbox and `cache` as the user's cache folder. */
function stack(name: string, count: number, window: string | undefined, cache: string) {
  const dir = workdir();
  writeManifest(dir, 'plumb.yaml', ports(name, count, window));
  return { dir, env: { ...sandbox.env, XDG_CACHE_HOME: cache } };
}

async function interconnectCalls() {
  return sandbox.calls('interconnect');
}

const refused = async () => (await interconnectCalls()).filter((c) => c.status === 429).length;

describe('a rate window', () => {
  it('an apply, and the plans after it, keep within it, show the wait, and say beforehand that the refresh may wait', async () => {
    await sandboxWindow(3);
    const { dir, env } = stack('window', 5, '3/3s', workdir('plumb-cache-'));
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(applied.code).toBe(0);
    // An apply of 5 ports makes more than 3 calls: some wait for the window.
    expect(applied.stdout).toMatch(/^\S+Z the interconnect API's window of 3 calls per 3 seconds is full: waiting [\d.]+ s for room$/m);
    const planned = await plumb(['plan'], { cwd: dir, env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('No changes.');
    // Said before the refresh starts.
    const said = /^interconnect: \d of 3 calls (is|are) left in the API's 3-second window and refreshing 5 objects may need up to 5: the refresh may wait up to [\d.]+ s for room\.$/m.exec(
      planned.stdout,
    );
    expect(said).not.toBeNull();
    expect(said!.index).toBeLessThan(planned.stdout.indexOf('Refreshing state'));
    const json = await plumb(['plan', '--json'], { cwd: dir, env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).rateRoom).toEqual([{ provider: 'interconnect', limit: 3, windowMs: 3000, left: expect.any(Number), need: 5, waitMs: expect.any(Number) }]);
    expect(json.stderr).toMatch(/^interconnect: \d of 3 calls (is|are) left/m);
    const events = await plumb(['apply', '--yes', '--json'], { cwd: dir, env });
    const lines = events.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.filter((e) => e.type === 'rate-room')).toEqual([expect.objectContaining({ type: 'rate-room', provider: 'interconnect', limit: 3, need: 5 })]);
    expect(await refused()).toBe(0);
  });

  it('a window with room for the refresh: nothing is said of it', async () => {
    await sandboxWindow(20);
    const { dir, env } = stack('roomy', 3, '20/3s', workdir('plumb-cache-'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const planned = await plumb(['plan'], { cwd: dir, env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).not.toMatch(/calls are left|window .* is full/);
    expect(await refused()).toBe(0);
  });

  it('two processes at once with one cache folder share the window: none of their calls is refused; with two folders, some are', async () => {
    const twoAtOnce = async (name: string, caches: [string, string]) => {
      await sandboxWindow(4);
      await sandbox.clearCalls();
      const stacks = caches.map((cache, i) => stack(`${name}-${i}`, 3, '4/3s', cache));
      const results = await Promise.all(stacks.map(({ dir, env }) => plumb(['apply', '--yes'], { cwd: dir, env })));
      for (const result of results) expect(result.code, result.stderr).toBe(0);
      return refused();
    };
    const shared = workdir('plumb-cache-');
    expect(await twoAtOnce('shared', [shared, shared])).toBe(0);
    // The same two with a ledger each: together they send more than the window allows.
    expect(await twoAtOnce('apart', [workdir('plumb-cache-'), workdir('plumb-cache-')])).toBeGreaterThan(0);
  });

  it('a no-change plan makes the same calls with the window on as with no limit', async () => {
    const count = async (limit: boolean) => {
      await sandboxWindow(limit ? 3 : 'off');
      const { dir, env } = stack(limit ? 'counted-on' : 'counted-off', 5, limit ? '3/3s' : undefined, workdir('plumb-cache-'));
      expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
      await sandbox.clearCalls();
      const planned = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
      expect(planned.code).toBe(0);
      const calls = await interconnectCalls();
      expect(calls.filter((c) => c.status === 429)).toEqual([]);
      return calls.map((c) => `${c.method} ${c.path}`).sort();
    };
    const off = await count(false);
    expect(off).toEqual(['GET /v2/products', 'POST /oauth2/token']);
    expect(await count(true)).toEqual(off);
  });
});

describe('a rate ledger that cannot be used', () => {
  const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('Warning:'));

  it('one that holds something else: one warning naming it, and it is written afresh', async () => {
    await sandboxWindow(20);
    const cache = workdir('plumb-cache-');
    const { dir, env } = stack('garbled', 2, '20/3s', cache);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const folder = join(cache, 'plumb', 'rate');
    const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const file = join(folder, files[0]!);
    writeFileSync(file, '{"not": "a ledger"');
    const planned = await plumb(['plan'], { cwd: dir, env });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('No changes.');
    expect(warnings(planned.stderr)).toEqual([`Warning: the rate ledger ${file} was not a rate ledger; it was started afresh`]);
    const rewritten = JSON.parse(readFileSync(file, 'utf8')) as { answered: unknown[] };
    expect(rewritten.answered.length).toBeGreaterThan(0);
  });

  it('a cache folder that cannot be written: one warning naming it, and the command counts its calls alone', async () => {
    await sandboxWindow(20);
    const cache = workdir('plumb-cache-');
    // A file where the ledger's folder would be: no one, root included, can make the folder.
    mkdirSync(join(cache, 'plumb'));
    writeFileSync(join(cache, 'plumb', 'rate'), '');
    const { dir, env } = stack('unwritable', 2, '20/3s', cache);
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(applied.code).toBe(0);
    const planned = await plumb(['plan'], { cwd: dir, env });
    expect(planned.code).toBe(0);
    for (const run of [applied, planned]) {
      expect(warnings(run.stderr)).toEqual([
        expect.stringMatching(new RegExp(`^Warning: the rate ledger in ${join(cache, 'plumb', 'rate')} could not be used \\(.*\\); calls are counted by this process alone$`)),
      ]);
    }
    expect(existsSync(join(cache, 'plumb', 'rate'))).toBe(true);
    expect(await refused()).toBe(0);
  });
});
