import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { postgresForFile } from '../support/postgres.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

/** A Pulumi project file: the project and its config declarations, no program. */
const project = (prefix: string) => `name: layout-${prefix}
runtime: yaml
description: ports for the layout tests
config:
  portName:
    type: string
    value: ${prefix}-port # Pulumi project config: a value for every stack
  speed:
    type: integer
`;

/** The program, as Main.yaml holds it. */
const program = `resources:
  port:
    type: interconnect:Port
    properties:
      productName: \${portName}
      portSpeed: \${speed}
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
outputs:
  project: \${pulumi.project}
`;

const run = (dir: string, ...args: string[]) => plumb(args, { cwd: dir, env: { ...sandbox.env, PLUMB_PASSPHRASE: undefined, PULUMI_CONFIG_PASSPHRASE: undefined } });

describe("Pulumi's project layout", () => {
  it('plain plumb plan/apply read Main.yaml, with the project and its config from Pulumi.yaml and the stack file Pulumi.<stack>.yaml', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', project('pl-main'));
    writeManifest(dir, 'Main.yaml', program);
    writeManifest(dir, 'Pulumi.dev.yaml', 'config:\n  layout-pl-main:speed: 1000\n');
    const applied = await run(dir, 'apply', '--yes', '--stack', 'dev');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const live = await new InterconnectApi(sandbox.url).liveProducts('pl-main-');
    expect(live.map((p) => [p.productName, p.portSpeed])).toEqual([['pl-main-port', 1000]]);
    const output = await run(dir, 'output', 'project', '--stack', 'dev');
    expect(output.stdout).toBe('"layout-pl-main"\n');
    // -f Pulumi.yaml and -f Main.yaml both mean the project: nothing to change, nothing destroyed.
    for (const file of ['Pulumi.yaml', 'Main.yaml']) {
      const planned = await run(dir, 'plan', '-f', file, '--stack', 'dev');
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout).toMatch(/No changes/);
    }
    const validated = await run(dir, 'validate', '--stack', 'dev');
    expect(validated.code, validated.stderr).toBe(0);
  });

  it('keeps the state when the program moves from Pulumi.yaml into Main.yaml', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', `${project('pl-move')}${program}`);
    writeManifest(dir, 'Pulumi.dev.yaml', 'config:\n  layout-pl-move:speed: 1000\n');
    expect((await run(dir, 'apply', '--yes', '--stack', 'dev')).code).toBe(0);
    writeManifest(dir, 'Pulumi.yaml', project('pl-move'));
    writeManifest(dir, 'Main.yaml', program);
    const planned = await run(dir, 'plan', '--stack', 'dev');
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/No changes/);
    expect((await run(dir, 'apply', '--yes', '--stack', 'dev')).code).toBe(0);
    expect(await new InterconnectApi(sandbox.url).liveProducts('pl-move-')).toHaveLength(1);
  });

  it("main: names the program's folder: ${pulumi.cwd} is it, ${pulumi.rootDirectory} and the state are the project's", async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', 'name: layout-pl-sub\nruntime: yaml\nmain: subdir\n');
    mkdirSync(join(dir, 'subdir'));
    writeManifest(dir, 'subdir/Main.yaml', 'outputs:\n  cwd: ${pulumi.cwd}\n  root: ${pulumi.rootDirectory}\n');
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    const outputs = JSON.parse((await run(dir, 'output', '--json')).stdout) as Record<string, string>;
    expect(outputs).toEqual({ cwd: realpathSync(join(dir, 'subdir')), root: realpathSync(dir) });
    expect(existsSync(join(dir, '.plumb', 'layout-pl-sub', 'default'))).toBe(true);
    writeManifest(dir, 'Pulumi.yaml', 'name: layout-pl-sub\nruntime: yaml\nmain: elsewhere\n');
    const missing = await run(dir, 'plan');
    expect(missing.stderr).toMatch(/^Error: Pulumi\.yaml:3:7: main: names elsewhere, which holds no Main\.json or Main\.yaml/);
  });

  it('a config declaration of Pulumi.yaml with no value is reported at its line in Pulumi.yaml', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', project('pl-missing'));
    writeManifest(dir, 'Main.yaml', program);
    const planned = await run(dir, 'validate');
    expect(planned.code).toBe(1);
    expect(planned.stderr).toMatch(/^Pulumi\.yaml:8:3: error: config speed has no value for stack "default"/);
  });

  it('refuses two candidate programs in one folder, naming both and how to choose', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', `${project('pl-two')}${program}`);
    writeManifest(dir, 'Main.yaml', program);
    const both = await run(dir, 'plan');
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/Pulumi\.yaml:\d+:1: Pulumi\.yaml holds a program \(resources:\), and so does Main\.yaml/);

    const other = workdir();
    writeManifest(other, 'Pulumi.yaml', project('pl-two'));
    writeManifest(other, 'Main.yaml', program);
    writeManifest(other, 'plumb.yaml', 'name: other\noutputs:\n  a: 1\n');
    writeManifest(other, 'Pulumi.dev.yaml', 'config:\n  layout-pl-two:speed: 1000\n');
    const two = await run(other, 'plan');
    expect(two.code).toBe(1);
    expect(two.stderr).toContain('plumb.yaml and Pulumi.yaml are both programs of this folder');
    expect(two.stderr).toContain('-f plumb.yaml or -f Pulumi.yaml');
    // Chosen with -f, each reads its own stack files: Pulumi.dev.yaml is the Pulumi project's.
    for (const file of ['plumb.yaml', 'Pulumi.yaml']) {
      const chosen = await run(other, 'validate', '-f', file, '--stack', 'dev');
      expect(chosen.code, chosen.stderr).toBe(0);
    }
  });

  it("a program in Pulumi.yaml takes the project's descriptive keys, refuses another runtime and the keys plumb does not support", async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'Pulumi.yaml',
      `name: layout-keys\nruntime:\n  name: yaml\nauthor: ops\nwebsite: https://example.com\nlicense: MIT\nconfig:\n  portName: { type: string, default: p }\n  speed: { type: integer, default: 1000 }\n${program}`,
    );
    const described = await run(dir, 'validate');
    expect(described.stderr).toBe('');
    expect(described.code).toBe(0);
    writeManifest(
      dir,
      'Pulumi.yaml',
      `name: layout-keys\nruntime: nodejs\nbackend:\n  url: file://.\nconfig:\n  portName: { type: string, default: p }\n  speed: { type: integer, default: 1000 }\n${program}`,
    );
    const refused = await run(dir, 'validate');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Pulumi.yaml:2:10: error: runtime "nodejs" is not one plumb runs');
    expect(refused.stderr).toContain('Pulumi.yaml:3:1: error: "backend" is not supported');
    expect(refused.stderr).toContain('2 errors; nothing was changed.');
  });

  it('a Pulumi project is named, with a name that can name its state: each said at its place in Pulumi.yaml', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', 'runtime: yaml\n');
    writeManifest(dir, 'Main.yaml', 'resources: {}\n');
    const unnamed = await run(dir, 'validate');
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toMatch(/^Pulumi\.yaml:1:1: error: Pulumi\.yaml has no name:\n/);
    writeManifest(dir, 'Pulumi.yaml', 'name: Bad Name!\nruntime: yaml\n');
    const bad = await run(dir, 'validate');
    expect(bad.stderr).toMatch(/^Pulumi\.yaml:1:7: error: the manifest's name "Bad Name!" cannot name the folder its state is kept in\n/);
    expect(bad.stderr).toContain('1 error; nothing was changed.');
  });

  it('plumb init does not write a second program beside Pulumi.yaml', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', project('pl-init'));
    writeManifest(dir, 'Main.yaml', program);
    const init = await run(dir, 'init', 'interconnect');
    expect(init.code).toBe(1);
    expect(init.stderr).toContain('this folder holds a Pulumi project (Pulumi.yaml)');
    expect(existsSync(join(dir, 'plumb.yaml'))).toBe(false);
  });

  it('a config key declared in both Pulumi.yaml and Main.yaml is refused, naming both places', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', project('pl-twice'));
    writeManifest(dir, 'Main.yaml', `config:\n  speed:\n    type: integer\n${program}`);
    const result = await run(dir, 'validate');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Main\.yaml:2:3: error: config speed is declared in both Main\.yaml and Pulumi\.yaml:8:3/);
  });

  it('plumb config set in a Pulumi project writes Pulumi.<stack>.yaml', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', project('pl-cfg'));
    writeManifest(dir, 'Main.yaml', program);
    const set = await run(dir, 'config', 'set', 'speed', '10000', '--stack', 'prod');
    expect(set.stdout).toBe('Set layout-pl-cfg:speed in Pulumi.prod.yaml.\n');
    expect(readFileSync(join(dir, 'Pulumi.prod.yaml'), 'utf8')).toBe('config:\n  layout-pl-cfg:speed: 10000\n');
  });

  it('reads Pulumi.<stack>.yaml beside plumb.yaml; both stack files for one stack are refused', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', `name: layout-pl-own\nconfig:\n  speed: { type: integer }\n  portName: { type: string, default: pl-own-port }\n${program}`);
    writeManifest(dir, 'Pulumi.dev.yaml', 'config:\n  layout-pl-own:speed: 1000\n');
    const validated = await run(dir, 'validate', '--stack', 'dev');
    expect(validated.code, validated.stderr).toBe(0);
    writeFileSync(join(dir, 'plumb.dev.yaml'), 'config:\n  layout-pl-own:speed: 10000\n');
    const both = await run(dir, 'validate', '--stack', 'dev');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('plumb.dev.yaml and');
    expect(both.stderr).toContain('Pulumi.dev.yaml both hold the settings of stack "dev"');
  });
});

/** Pulumi's own passphrase test data (pkg/secrets/passphrase): this salt opens with "password", and its check value is `pulumi` encrypted. */
const SALT = 'v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==';
const PULUMI_ENCRYPTED = 'v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==';

/** A project whose port's cost centre is a secret from the stack file. */
const secretProject = (prefix: string) => `name: layout-${prefix}
runtime: yaml
config:
  token: { type: string, secret: true }
`;
const secretProgram = (prefix: string) => `resources:
  port:
    type: interconnect:Port
    properties:
      productName: ${prefix}-port
      portSpeed: 1000
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
      costCentre: \${token}
`;

describe('Pulumi stack files', () => {
  const secretDir = (prefix: string, stackFile: string) => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', secretProject(prefix));
    writeManifest(dir, 'Main.yaml', secretProgram(prefix));
    writeManifest(dir, 'Pulumi.dev.yaml', stackFile);
    return dir;
  };
  const withPassphrase = (dir: string, env: Record<string, string | undefined>, ...args: string[]) =>
    plumb(args, { cwd: dir, env: { ...sandbox.env, PLUMB_PASSPHRASE: undefined, PULUMI_CONFIG_PASSPHRASE: undefined, PULUMI_CONFIG_PASSPHRASE_FILE: undefined, ...env } });

  it("opens a secure: value encrypted by Pulumi's passphrase provider, keeps it secret and sealed in state", async () => {
    const dir = secretDir('pl-pass', `encryptionsalt: ${SALT}\nconfig:\n  layout-pl-pass:token:\n    secure: ${PULUMI_ENCRYPTED}\n`);
    const planned = await withPassphrase(dir, { PULUMI_CONFIG_PASSPHRASE: 'password' }, 'plan', '--stack', 'dev');
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/costCentre +\+?= ?\[secret\]|costCentre.*\[secret\]/);
    const applied = await withPassphrase(dir, { PULUMI_CONFIG_PASSPHRASE: 'password' }, 'apply', '--yes', '--stack', 'dev');
    expect(applied.code, applied.stderr).toBe(0);
    const [live] = await new InterconnectApi(sandbox.url).liveProducts('pl-pass-');
    expect(live.costCentre).toBe('pulumi');
    const state = readFileSync(join(dir, '.plumb', 'layout-pl-pass', 'dev', 'state.json'), 'utf8');
    expect(state).not.toMatch(/"costCentre":\s*"pulumi"/);
    // The passphrase from a file, as PULUMI_CONFIG_PASSPHRASE_FILE names it.
    writeFileSync(join(dir, 'phrase.txt'), 'password\n');
    const fromFile = await withPassphrase(dir, { PULUMI_CONFIG_PASSPHRASE_FILE: join(dir, 'phrase.txt') }, 'plan', '--stack', 'dev');
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toMatch(/No changes/);
  });

  it('opens a secret Pulumi keeps inside a structured value, and keeps the whole value secret', async () => {
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', 'name: layout-pl-obj\nruntime: yaml\nconfig:\n  account: { type: object }\n');
    writeManifest(dir, 'Main.yaml', secretProgram('pl-obj').replace('${token}', '${account.key}'));
    writeManifest(dir, 'Pulumi.dev.yaml', `encryptionsalt: ${SALT}\nconfig:\n  layout-pl-obj:account:\n    user: ops\n    key:\n      secure: ${PULUMI_ENCRYPTED}\n`);
    const applied = await withPassphrase(dir, { PULUMI_CONFIG_PASSPHRASE: 'password' }, 'apply', '--yes', '--stack', 'dev');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/costCentre.*\[secret\]/);
    const [live] = await new InterconnectApi(sandbox.url).liveProducts('pl-obj-');
    expect(live.costCentre).toBe('pulumi');
  });

  it('a missing or wrong passphrase is an error at the encryptionsalt line naming the variable', async () => {
    const dir = secretDir('pl-nopass', `encryptionsalt: ${SALT}\nconfig:\n  layout-pl-nopass:token:\n    secure: ${PULUMI_ENCRYPTED}\n`);
    const missing = await withPassphrase(dir, {}, 'validate', '--stack', 'dev');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Pulumi\.dev\.yaml:1:17: error: this stack's secrets are encrypted with a passphrase \(encryptionsalt\), and none is set\n[\s\S]*?PULUMI_CONFIG_PASSPHRASE/);
    expect(missing.stderr).not.toContain('secret.key');
    const wrong = await withPassphrase(dir, { PULUMI_CONFIG_PASSPHRASE: 'password123' }, 'validate', '--stack', 'dev');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^Pulumi\.dev\.yaml:1:17: error: the passphrase in PULUMI_CONFIG_PASSPHRASE does not open this stack's secrets/);
    expect(wrong.stderr.match(/error:/g)).toHaveLength(1);
  });

  it.each([
    [
      'secretsprovider: awskms://alias/pulumi?region=us-east-1\n',
      /Pulumi\.dev\.yaml:1:18: error: secrets provider "awskms:\/\/alias\/pulumi\?region=us-east-1" is not supported\n[\s\S]*?change-secrets-provider passphrase/,
    ],
    ['encryptedkey: AQICAHh\n', /Pulumi\.dev\.yaml:1:1: error: encryptedkey \(a data key kept by a cloud KMS or Pulumi Cloud\) is not supported/],
    ['environment:\n  - prod/network\n', /Pulumi\.dev\.yaml:1:1: error: environment: \(Pulumi ESC environments\) is not supported\n[\s\S]*?esc run/],
  ])('refuses %s at its line, saying what to do instead', async (head, expected) => {
    const dir = secretDir('pl-refused', `${head}config:\n  layout-pl-refused:token: plain\n`);
    const result = await withPassphrase(dir, {}, 'validate', '--stack', 'dev');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(expected);
  });

  it('a secure value Pulumi Cloud encrypted (no encryptionsalt) is refused at its line, not blamed on a key file', async () => {
    const dir = secretDir('pl-cloud', 'config:\n  layout-pl-cloud:token:\n    secure: v1:AAABAKx1:c2VjcmV0\n');
    const result = await withPassphrase(dir, {}, 'validate', '--stack', 'dev');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Pulumi\.dev\.yaml:3:13: error: this secure value was encrypted by Pulumi, and the file has no encryptionsalt/);
  });

  it("plumb config set --secret in a passphrase stack file encrypts with Pulumi's scheme", async () => {
    const dir = secretDir('pl-set', `encryptionsalt: ${SALT}\nconfig: {}\n`);
    const env = { PULUMI_CONFIG_PASSPHRASE: 'password' };
    const set = await withPassphrase(dir, env, 'config', 'set', 'token', 'cc-991', '--stack', 'dev');
    expect(set.stdout).toBe('Set layout-pl-set:token in Pulumi.dev.yaml (encrypted: token is declared secret).\n');
    const file = readFileSync(join(dir, 'Pulumi.dev.yaml'), 'utf8');
    expect(file).toMatch(/layout-pl-set:token:\n\s+secure: v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+\n/);
    expect(file).not.toContain('cc-991');
    expect(existsSync(join(dir, '.plumb', 'secret.key'))).toBe(false);
    const got = await withPassphrase(dir, env, 'config', 'get', 'token', '--stack', 'dev', '--show-secrets');
    expect(got.stdout).toBe('cc-991\n');
    const refused = await withPassphrase(dir, {}, 'config', 'set', 'token', 'cc-992', '--stack', 'dev');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('PULUMI_CONFIG_PASSPHRASE');
  });
});

describe('plumb stack ls', () => {
  const db = postgresForFile('pw-stack-ls-5d1');
  const project = `name: layout-pl-ls\nruntime: yaml\n`;
  const listing = (dir: string, env: Record<string, string | undefined>, ...args: string[]) =>
    plumb(['stack', 'ls', ...args], { cwd: dir, env: { ...sandbox.env, PLUMB_STATE: undefined, PLUMB_STACK: undefined, ...env } });

  it.each([
    ['a local state folder', () => ({})],
    ['PostgreSQL', () => ({ PLUMB_STATE: db.url(), PLUMB_PASSPHRASE: 'stack-ls-phrase' })],
  ])("lists the project's stacks at %s: resources, last update, the current one, and stacks that only have settings", async (_where, envOf) => {
    const env = envOf();
    const dir = workdir();
    writeManifest(dir, 'Pulumi.yaml', project);
    writeManifest(dir, 'Main.yaml', secretProgram('pl-ls').replace(/\s+costCentre: .*\n/, '\n'));
    writeManifest(dir, 'Pulumi.prod.yaml', 'config: {}\n');
    const run = (...args: string[]) => plumb(args, { cwd: dir, env: { ...sandbox.env, PLUMB_STATE: undefined, ...env } });
    expect((await run('apply', '--yes', '--stack', 'dev')).code).toBe(0);
    expect((await run('apply', '--yes', '--stack', 'empty')).code).toBe(0);
    expect((await run('destroy', '--yes', '--stack', 'empty')).code).toBe(0);
    const text = await listing(dir, env, '--stack', 'dev');
    expect(text.stderr).toBe('');
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +LAST UPDATE +RESOURCE COUNT$/);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/))).toEqual([
      ['dev*', expect.stringMatching(/^\d{4}-\d\d-\d\dT/), '1'],
      ['empty', expect.stringMatching(/^\d{4}-\d\d-\d\dT/), '0'],
      ['prod', 'n/a', 'n/a'],
    ]);
    const json = JSON.parse((await listing(dir, env, '--json')).stdout) as Array<Record<string, unknown>>;
    expect(json.map((s) => [s.name, s.current, s.resourceCount, s.settings])).toEqual([
      ['dev', false, 1, null],
      ['empty', false, 0, null],
      ['prod', false, null, 'Pulumi.prod.yaml'],
    ]);
    expect((await run('destroy', '--yes', '--stack', 'dev')).code).toBe(0);
  });
});
