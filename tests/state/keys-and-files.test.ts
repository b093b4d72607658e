import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox();
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

const MANIFEST = `name: keyed
resources:
  port:
    type: interconnect:Port
    properties:
      productName: keyed-port
      portSpeed: 1000
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
      costCentre: { fn::secret: cc-keyed-5521 }
`;

/** Every file under `dir`, relative to it. */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();
}

async function applied(env: Record<string, string> = {}): Promise<string> {
  const dir = workdir('plumb-keys-');
  writeManifest(dir, 'plumb.yaml', MANIFEST);
  const result = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...env } });
  expect(result.code, result.stderr).toBe(0);
  return dir;
}

describe('the key of the secrets in state', () => {
  it('a missing key file is refused, naming the state file and the key, and no new key is made', async () => {
    const dir = await applied();
    const key = join(dir, '.plumb', 'secret.key');
    const state = join(dir, '.plumb', 'keyed', 'default', 'state.json');
    rmSync(key);
    for (const command of [['plan'], ['apply', '--yes'], ['state', 'show', 'port']]) {
      const refused = await plumb(command, { cwd: dir, env: sandbox.env });
      expect(refused.code, command.join(' ')).toBe(1);
      expect(refused.stderr).toContain(`cannot read the secrets in ${state}: the key file ${key} is missing`);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(key), `${command.join(' ')} made a new key`).toBe(false);
    }
  });

  it('a new key is not made while any state at the location holds secrets sealed with the lost one', async () => {
    const dir = await applied();
    rmSync(join(dir, '.plumb', 'secret.key'));
    writeManifest(dir, 'other.yaml', MANIFEST.replace('name: keyed', 'name: other').replace('keyed-port', 'other-port'));
    const refused = await plumb(['apply', 'other.yaml', '--yes'], { cwd: dir, env: sandbox.env });
    expect(refused.code).toBe(1);
    // Refused when the order's intent is to be journaled: before it is sent.
    expect(refused.stdout).toContain(
      `port (create): cannot seal a secret in state: the key file ${join(dir, '.plumb', 'secret.key')} is missing, and ${join(dir, '.plumb', 'keyed', 'default', 'state.json')} holds secrets sealed with it`,
    );
    expect(existsSync(join(dir, '.plumb', 'secret.key'))).toBe(false);
    expect(await api.liveProducts('other-port')).toEqual([]);
  });

  it('a wrong PLUMB_PASSPHRASE is refused, naming the state file; no key file is made', async () => {
    const dir = await applied({ PLUMB_PASSPHRASE: 'first passphrase' });
    const state = join(dir, '.plumb', 'keyed', 'default', 'state.json');
    expect(existsSync(join(dir, '.plumb', 'secret.key'))).toBe(false);
    const refused = await plumb(['plan'], { cwd: dir, env: { ...sandbox.env, PLUMB_PASSPHRASE: 'second passphrase' } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cannot read the secrets in ${state}: PLUMB_PASSPHRASE is not the passphrase they were sealed with`);
    expect(existsSync(join(dir, '.plumb', 'secret.key'))).toBe(false);
    const keyless = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(keyless.stderr).toContain(`the key file ${join(dir, '.plumb', 'secret.key')} is missing`);
  });
});

describe('read-only commands leave the state location as it was', () => {
  const commands = [
    ['validate'],
    ['plan'],
    ['plan', '--json'],
    ['drift'],
    ['graph'],
    ['state', 'list'],
    ['state', 'show', 'port'],
    ['state', 'pull'],
    ['lookup', 'interconnect:index/getLocation:getLocation', '--arg', 'id=2'],
    ['schema', 'interconnect:Port'],
  ];

  it('create no file in a state location that does not exist yet', async () => {
    const dir = workdir('plumb-keys-');
    writeManifest(dir, 'plumb.yaml', MANIFEST);
    for (const command of commands) {
      await plumb(command, { cwd: dir, env: sandbox.env });
      expect(existsSync(join(dir, '.plumb')), `${command.join(' ')} made .plumb`).toBe(false);
    }
  });

  it('add or change no file in a state location that holds state', async () => {
    const dir = await applied();
    const before = files(join(dir, '.plumb')).map((f) => [f, statSync(join(dir, '.plumb', f)).mtimeMs]);
    for (const command of commands) {
      const result = await plumb(command, { cwd: dir, env: sandbox.env });
      expect(result.code, `${command.join(' ')}: ${result.stderr}`).toBe(0);
      const after = files(join(dir, '.plumb')).map((f) => [f, statSync(join(dir, '.plumb', f)).mtimeMs]);
      expect(after, command.join(' ')).toEqual(before);
    }
  });
});

describe('locks', () => {
  it('plan takes the lock: while an apply holds it, plan names the holder and settles nothing', async () => {
    const dir = await applied();
    const stack = join(dir, '.plumb', 'keyed', 'default');
    // An apply in progress: it holds the lock and has journaled an update it has not finished.
    const holder = { pid: process.pid, host: hostname(), time: '2026-01-01T00:00:00Z', command: 'apply' };
    writeFileSync(join(stack, 'lock'), JSON.stringify(holder));
    const intent = { kind: 'intent', address: 'port', type: 'interconnect:index/port:Port', action: 'update', token: 'tok-running', id: 'x', at: new Date().toISOString() };
    writeFileSync(join(stack, 'journal.jsonl'), `${JSON.stringify(intent)}\n`);
    const plan = await plumb(['plan', '--lock-timeout', '0s'], { cwd: dir, env: sandbox.env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`state for stack "default" is locked by pid ${process.pid} on ${hostname()} since 2026-01-01T00:00:00Z (apply)`);
    expect(plan.stdout).not.toMatch(/interrupted|settled/);
    expect(files(stack)).toEqual(['journal.id', 'journal.jsonl', 'lock', 'state.json', 'state.json.backup']);
  });

  it('a lock file left empty by a kill is taken over once it is a few seconds old; a fresh one is named empty', async () => {
    const dir = await applied();
    const lock = join(dir, '.plumb', 'keyed', 'default', 'lock');
    writeFileSync(lock, '');
    // Dated a little ahead, so that it is still fresh however slowly the command starts.
    const soon = new Date(Date.now() + 30_000);
    utimesSync(lock, soon, soon);
    const fresh = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain(`${lock} is empty or damaged`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const taken = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(taken.code, taken.stderr).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });
});

describe('files a killed run leaves', () => {
  it('a stale state.json.<pid>.tmp is ignored by reads and removed by the next write', async () => {
    const dir = await applied();
    const stack = join(dir, '.plumb', 'keyed', 'default');
    mkdirSync(stack, { recursive: true });
    writeFileSync(join(stack, 'state.json.99999999.tmp'), '{"half": ');
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(plan.code, plan.stderr).toBe(0);
    const replaced = await plumb(['apply', '--yes', '--replace', 'port'], { cwd: dir, env: sandbox.env });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(files(stack)).toEqual(['journal.id', 'state.json', 'state.json.backup']);
  });
});
