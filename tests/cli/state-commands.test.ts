import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const manifest = (addresses: string[]) =>
  `name: s\nresources:\n${addresses
    .map((a) => `  ${a}:\n    type: interconnect:Port\n    properties: { productName: ${a}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\n`)
    .join('')}`;

describe('state commands', () => {
  it('pull, push (refusing older serials and other lineages), rm and mv', async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'plumb.yaml', manifest(['a', 'b']));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);

    const pulled = await plumb(['state', 'pull'], { cwd: dir, env });
    const snapshot = JSON.parse(pulled.stdout);
    expect(Object.keys(snapshot.resources).sort()).toEqual(['a', 'b']);
    writeFileSync(join(dir, 'old.json'), pulled.stdout);

    const moved = await plumb(['state', 'mv', 'b', 'c'], { cwd: dir, env });
    expect(moved.code).toBe(0);
    expect((await plumb(['state', 'list'], { cwd: dir, env })).stdout).toMatch(/^a\t.*\nc\t/);
    writeManifest(dir, 'plumb.yaml', manifest(['a', 'c']));
    const afterMove = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(afterMove.stdout).toContain('~ productName = "b" -> "c"');

    const older = await plumb(['state', 'push', 'old.json'], { cwd: dir, env });
    expect(older.code).toBe(1);
    expect(older.stderr).toMatch(/older than the state's \d+: pushing it would lose changes/);
    const other = { ...snapshot, lineage: 'someone-else', serial: 999 };
    writeFileSync(join(dir, 'other.json'), JSON.stringify(other));
    const foreign = await plumb(['state', 'push', 'other.json'], { cwd: dir, env });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/has lineage someone-else, but the state has/);
    const forced = await plumb(['state', 'push', 'old.json', '--force'], { cwd: dir, env });
    expect(forced.code).toBe(0);
    expect((await plumb(['state', 'list'], { cwd: dir, env })).stdout).toMatch(/^a\t.*\nb\t/);

    const removed = await plumb(['state', 'rm', 'a'], { cwd: dir, env });
    expect(removed.stdout).toMatch(/removed a from state; .+ still exists remotely/);
    const state = JSON.parse(readFileSync(join(dir, '.plumb/default/state.json'), 'utf8'));
    expect(Object.keys(state.resources)).toEqual(['b']);
    const missing = await plumb(['state', 'rm', 'nope'], { cwd: dir, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no resource "nope" in state/);
  });

  it('state unlock --force removes a lock left behind', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest(['a']));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, '.plumb/default'), { recursive: true });
    writeFileSync(join(dir, '.plumb/default/lock'), JSON.stringify({ pid: 1, host: 'elsewhere', time: '2026-01-01T00:00:00Z', command: 'apply' }));
    const refused = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(refused.stderr).toMatch(/locked by pid 1 on elsewhere since 2026-01-01T00:00:00Z \(apply\)/);
    const unlocked = await plumb(['state', 'unlock', '--force'], { cwd: dir, env: sandbox.env });
    expect(unlocked.stdout).toContain('removed the lock held by pid 1 on elsewhere (apply)');
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});
