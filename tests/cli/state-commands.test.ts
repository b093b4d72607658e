import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

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
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(Object.keys(state.resources)).toEqual(['b']);
    const missing = await plumb(['state', 'rm', 'nope'], { cwd: dir, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no resource "nope" in state/);
  });

  it('state unlock --force removes a lock left behind', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest(['a']));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, '.plumb/s/default'), { recursive: true });
    writeFileSync(join(dir, '.plumb/s/default/lock'), JSON.stringify({ pid: 1, host: 'elsewhere', time: '2026-01-01T00:00:00Z', command: 'apply' }));
    const refused = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(refused.stderr).toMatch(/locked by pid 1 on elsewhere since 2026-01-01T00:00:00Z \(apply\)/);
    const unlocked = await plumb(['state', 'unlock', '--force'], { cwd: dir, env: sandbox.env });
    expect(unlocked.stdout).toContain('removed the lock held by pid 1 on elsewhere (apply)');
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});

describe('state rm forgets interrupted operations and set-aside objects', () => {
  /** The UID an interrupted create had ordered, as its journal recorded it. */
  const orderedUid = (dir: string) =>
    readFileSync(join(dir, '.plumb/s/default/journal.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { kind: string; id?: string })
      .find((e) => e.kind === 'id')!.id!;

  it('an interrupted create is forgotten, saying what it had ordered, and the next plan creates the resource anew', async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'plumb.yaml', manifest(['a']));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    // Killed once b's order was accepted (its intent and id journaled), before its outcome.
    writeManifest(dir, 'plumb.yaml', manifest(['a', 'b']));
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...env, ...crashAfterRecords(2) } });
    expect(killed.code).not.toBe(0);
    const uid = orderedUid(dir);

    const missing = await plumb(['state', 'rm', 'nope'], { cwd: dir, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no resource "nope" in state, and no interrupted operation of it');
    expect(missing.stderr).toContain('addresses: a, b');
    const held = await plumb(['state', 'rm', 'a'], { cwd: dir, env });
    expect(held.code).toBe(1);
    expect(held.stderr).toContain('a is not forgotten while b has interrupted operations');
    expect(held.stderr).toContain('plumb state rm b');

    const forgot = await plumb(['state', 'rm', 'b'], { cwd: dir, env });
    expect(forgot.code, forgot.stderr).toBe(0);
    expect(forgot.stdout).toMatch(new RegExp(`^forgot an interrupted create of b \\(ordered ${uid} at \\d{4}-\\d\\d-\\d\\dT[^;]+; it may exist and be billed`));
    const plan = await plumb(['plan'], { cwd: dir, env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain('interrupted');
    expect(plan.stdout).toContain('# b will be created');
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.');
  });

  it('a set-aside object ADDR~ID is forgotten by its key', async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'plumb.yaml', manifest(['a']));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const file = stateFile(dir);
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const key = `a~${state.resources.a.id}`;
    state.resources = { [key]: { ...state.resources.a, address: key } };
    writeFileSync(file, JSON.stringify(state));

    const removed = await plumb(['state', 'rm', key], { cwd: dir, env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`removed ${key} from state`);
    expect((await plumb(['state', 'list'], { cwd: dir, env })).stdout).toBe('');
  });
});

describe('a state that cannot be trusted is refused, never read as empty', () => {
  const setUp = async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest(['a', 'b']));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    return dir;
  };

  it('a damaged journal line with outcomes after it names the file and line; a torn last line is tolerated', async () => {
    const dir = await setUp();
    // Killed after the first port's intent, id and outcome and the second's intent.
    writeManifest(dir, 'plumb.yaml', manifest(['a', 'b', 'c', 'd']));
    const killed = await plumb(['apply', '--yes', '--parallelism', '1'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(4) } });
    expect(killed.code).not.toBe(0);
    const journal = join(dir, '.plumb/s/default/journal.jsonl');
    const lines = readFileSync(journal, 'utf8').split('\n');
    writeFileSync(journal, [lines[0].slice(0, 20), ...lines.slice(1)].join('\n'));
    const refused = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${journal}:1 is damaged`);
    expect(refused.stdout).not.toContain('will be created');

    // The same damage on the last line is a write torn by the crash: what came before stands.
    writeFileSync(journal, [...lines.slice(0, -2), lines.at(-2)!.slice(0, 20)].join('\n'));
    expect((await plumb(['plan'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });

  it('a state.json of the wrong shape or cut short names the file and what is wrong', async () => {
    const dir = await setUp();
    const file = stateFile(dir);
    const good = readFileSync(file, 'utf8');
    const cases: Array<[string, string]> = [
      [good.replace(/"serial":\d+/, '"serial":"ten"'), '"serial" must be a whole number'],
      [JSON.stringify({ ...JSON.parse(good), resources: 5 }), '"resources" must be an object of addresses'],
      [JSON.stringify({ ...JSON.parse(good), version: 7 }), '"version" is 7'],
      ['null', 'it is not a JSON object'],
      [good.slice(0, 200), `${file} is damaged`],
    ];
    for (const [text, message] of cases) {
      writeFileSync(file, text);
      const refused = await plumb(['plan'], { cwd: dir, env: sandbox.env });
      expect(refused.code, message).toBe(1);
      expect(refused.stderr).toContain(message);
      expect(refused.stderr).toContain(file);
    }
  });

  it('a stack name that would leave the state folder, and a location that is neither a folder nor PostgreSQL, are refused', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest(['a']));
    const escaped = await plumb(['--stack', '../../escaped', 'plan'], { cwd: dir, env: sandbox.env });
    expect(escaped.code).toBe(1);
    expect(escaped.stderr).toContain('invalid stack name "../../escaped"');
    const mysql = await plumb(['--state', 'mysql://127.0.0.1/db', 'plan'], { cwd: dir, env: sandbox.env });
    expect(mysql.code).toBe(1);
    expect(mysql.stderr).toContain('not a folder path or a postgres:// URL');
    expect(readdirSync(dir).sort()).toEqual(['plumb.yaml']);
  });
});
