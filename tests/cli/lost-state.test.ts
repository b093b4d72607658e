import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox();
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

const manifest = (prefix: string, count = 3) =>
  `name: lost\nresources:\n${Array.from(
    { length: count },
    (_, i) => `  port${i}:\n    type: interconnect:Port\n    properties: { productName: ${prefix}-${i}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\n`,
  ).join('')}`;

const stackDir = (dir: string) => join(dir, '.plumb', 'lost', 'default');

/** Every command that reads the stack's state, each with what lets it run unattended. */
const READERS = [
  ['plan'],
  ['apply', '--yes'],
  ['destroy', '--yes'],
  ['refresh', '--yes'],
  ['drift'],
  ['cost'],
  ['import', 'port9', 'interconnect:Port', '00000000-0000-0000-0000-000000000000'],
  ['import', '--discover', 'interconnect:Port'],
  ['state', 'list'],
  ['state', 'pull'],
  ['output'],
];

/** Runs every command that reads state; each must stop with exit 1, say `expected`, and call no remote API. */
async function expectEveryReaderStops(dir: string, expected: string[]): Promise<void> {
  await sandbox.clearCalls();
  for (const args of READERS) {
    const result: CliResult = await plumb(args, { cwd: dir, env: sandbox.env });
    expect(result.code, `${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(1);
    for (const text of expected) expect(result.stderr, args.join(' ')).toContain(text);
    expect(result.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    expect(result.stdout, args.join(' ')).not.toContain('will be created');
  }
  expect(await sandbox.calls()).toEqual([]);
}

/** An apply killed once the first port is bought and recorded and the second is ordered. */
async function killedApply(prefix: string): Promise<string> {
  const dir = workdir('plumb-lost-');
  writeManifest(dir, 'plumb.yaml', manifest(prefix));
  const killed = await plumb(['apply', '--yes', '--parallelism', '1'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(5) } });
  expect(killed.code).not.toBe(0);
  expect(existsSync(join(stackDir(dir), 'journal.jsonl'))).toBe(true);
  expect((await api.liveProducts(`${prefix}-`)).length).toBe(2);
  return dir;
}

describe('a journal lost after a kill stops every command that reads state', () => {
  it('deleted: each names the journal, what may have happened and what to do, and calls nothing', async () => {
    const dir = await killedApply('lost-deleted');
    const journal = join(stackDir(dir), 'journal.jsonl');
    rmSync(journal);
    await expectEveryReaderStops(dir, [
      `${journal} is missing`,
      'what it ordered may be recorded nowhere',
      'restore it from a backup',
      'plumb state repair --accept-lost-journal',
      'plumb import --discover',
      'options.import',
    ]);
    expect(await api.liveProducts('lost-deleted-')).toHaveLength(2);
  });

  it('truncated to empty: the same', async () => {
    const dir = await killedApply('lost-emptied');
    const journal = join(stackDir(dir), 'journal.jsonl');
    writeFileSync(journal, '');
    await expectEveryReaderStops(dir, [`${journal} is empty`, 'what it ordered may be recorded nowhere', 'plumb state repair --accept-lost-journal']);
    expect(await api.liveProducts('lost-emptied-')).toHaveLength(2);
  });

  it('cut back to its first line: the same', async () => {
    const dir = await killedApply('lost-header');
    const journal = join(stackDir(dir), 'journal.jsonl');
    writeFileSync(journal, `${readFileSync(journal, 'utf8').split('\n')[0]}\n`);
    await expectEveryReaderStops(dir, [`${journal} holds no entries`, 'plumb state repair --accept-lost-journal']);
  });

  it('restored from a copy, the apply converges and buys nothing twice', async () => {
    const dir = await killedApply('lost-restored');
    const journal = join(stackDir(dir), 'journal.jsonl');
    renameSync(journal, join(dir, 'journal.copy'));
    expect((await plumb(['plan'], { cwd: dir, env: sandbox.env })).code).toBe(1);
    renameSync(join(dir, 'journal.copy'), journal);
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await api.liveProducts('lost-restored-')).toHaveLength(3);
  });

  it('accepted with state repair, plan and apply proceed from what state.json holds; a saved plan from before is stale', async () => {
    const dir = workdir('plumb-lost-');
    writeManifest(dir, 'plumb.yaml', manifest('lost-accepted', 1));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    writeManifest(dir, 'plumb.yaml', manifest('lost-accepted'));
    expect((await plumb(['plan', '--out', 'before.json'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const killed = await plumb(['apply', '--yes', '--parallelism', '1'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(3) } });
    expect(killed.code).not.toBe(0);
    rmSync(join(stackDir(dir), 'journal.jsonl'));

    const accepted = await plumb(['state', 'repair', '--accept-lost-journal'], { cwd: dir, env: sandbox.env });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('plumb import --discover');
    const again = await plumb(['state', 'repair', '--accept-lost-journal'], { cwd: dir, env: sandbox.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no lost journal to accept');

    const stale = await plumb(['apply', 'before.json'], { cwd: dir, env: sandbox.env });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('Saved plan is stale');
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 2 to add');
  });
});

describe('a state.json deleted while its stack had state', () => {
  it('stops every command that reads state, naming it and its backup; state push of the backup restores it', async () => {
    const dir = workdir('plumb-lost-');
    writeManifest(dir, 'plumb.yaml', manifest('lost-snapshot'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const file = join(stackDir(dir), 'state.json');
    const backup = `${file}.backup`;
    rmSync(file);
    await expectEveryReaderStops(dir, [`${file} is missing`, backup, `plumb state push ${backup}`, 'plumb state repair --accept-lost-state']);
    expect(await api.liveProducts('lost-snapshot-')).toHaveLength(3);

    const pushed = await plumb(['state', 'push', backup], { cwd: dir, env: sandbox.env });
    expect(pushed.code, pushed.stderr).toBe(0);
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(plan.code, plan.stdout).toBe(0);
  });

  it('accepted with state repair, forgets what the backup recorded and says what stays billed', async () => {
    const dir = workdir('plumb-lost-');
    writeManifest(dir, 'plumb.yaml', manifest('lost-forgotten', 1));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const id = JSON.parse(readFileSync(join(stackDir(dir), 'state.json'), 'utf8')).resources.port0.id as string;
    rmSync(join(stackDir(dir), 'state.json'));
    const accepted = await plumb(['state', 'repair', '--accept-lost-state'], { cwd: dir, env: sandbox.env });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain(`port0\tinterconnect:index/port:Port\t${id}`);
    expect(accepted.stdout).toContain('still exist remotely');
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 1 to add');
  });
});

describe('no alarm where nothing was lost', () => {
  it('a fresh folder, one holding only a lock a killed first plan left, and a stack destroyed (then its state.json deleted)', async () => {
    const dir = workdir('plumb-lost-');
    writeManifest(dir, 'plumb.yaml', manifest('lost-none', 1));
    expect((await plumb(['plan'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    mkdirSync(stackDir(dir), { recursive: true });
    writeFileSync(join(stackDir(dir), 'lock'), JSON.stringify({ pid: deadPid(), host: hostname(), time: '2026-01-01T00:00:00Z', command: 'plan' }));
    const taken = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toContain('Plan: 1 to add');

    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    expect((await plumb(['plan'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    rmSync(join(stackDir(dir), 'state.json'));
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 1 to add');
  });

  it('a killed apply whose journal is kept converges, every kill point', async () => {
    for (const after of [1, 2, 3, 4, 6, 8]) {
      const dir = workdir('plumb-lost-');
      const prefix = `lost-kept-${after}`;
      writeManifest(dir, 'plumb.yaml', manifest(prefix));
      const killed = await plumb(['apply', '--yes', '--parallelism', '1'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(after) } });
      expect(killed.code).not.toBe(0);
      const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(again.code, `${after}: ${again.stderr}`).toBe(0);
      expect(await api.liveProducts(`${prefix}-`)).toHaveLength(3);
    }
  });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (!child.pid) throw new Error('could not start a short-lived process');
  return child.pid;
}
