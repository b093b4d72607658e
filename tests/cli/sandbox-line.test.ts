/**
 * The line between a real account and the built-in sandbox: the sandbox serves only a command
 * with nothing real configured, and says so; a real environment, endpoint or credentials
 * without the rest stop the command before any call, at the setting, naming what to set.
 * PLUMB_SANDBOX_URL is the user's own choice of a sandbox and serves whatever account is named,
 * refusing only credentials given in part.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providers } from '../../src/cli/catalog.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { signsInAlone, valueFor, variableOf } from '../support/real-settings.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

/** No running sandbox: what a user (or a CI job) without one runs against. */
const BUILT_IN = { PLUMB_SANDBOX_URL: undefined, PLUMB_SANDBOX_PROVISIONING_MS: '0' };
/** No provider's own variables from the machine running the tests. */
const NO_CREDENTIALS = Object.fromEntries(providers.flatMap((p) => Object.keys(p.envVars)).map((v) => [v, undefined]));

const NOTICE = 'the built-in sandbox serves';
/** What a command's JSON says when the built-in sandbox serves it. */
const NOTE = 'the built-in sandbox: nothing real is ordered';
const FIELD = { providers: ['interconnect'], note: NOTE };

const PORT = `  port:
    type: interconnect:Port
    properties: { productName: line-port, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
`;

describe('a manifest aimed at the real API without credentials is refused before any call', () => {
  it('interconnect:environment production: apply --yes stops at the setting, records nothing and starts no sandbox', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(dir, 'm.yaml', `name: prod\nconfig:\n  interconnect:environment: production\nresources:\n${PORT}`);
    const applied = await plumb(['apply', 'm.yaml', '--yes'], { cwd: dir, env: { ...BUILT_IN, ...NO_CREDENTIALS } });
    expect(applied.code).toBe(1);
    expect(applied.stdout).not.toContain('Apply complete');
    expect(applied.stderr).toContain('m.yaml:3:3: error: interconnect:environment (INTERCONNECT_ENVIRONMENT) aims at the real interconnect API, but no credentials are set');
    expect(applied.stderr).toContain('set interconnect:accessKey (INTERCONNECT_ACCESS_KEY) and interconnect:secretKey (INTERCONNECT_SECRET_KEY)');
    expect(applied.stderr).not.toContain(NOTICE);
    expect(existsSync(join(dir, '.plumb')), 'state or a sandbox world was made').toBe(false);
  });

  it('an explicit pipeline:apiUrl is not served by the sandbox: refused, and nothing is called there', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(
      dir,
      'm.yaml',
      `name: pipe\nconfig:\n  pipeline:apiUrl: ${sandbox.url}/pipeline/v1\nresources:\n  team:\n    type: pipeline:index/group:Group\n    properties: { name: line_team }\n`,
    );
    await sandbox.clearCalls();
    const applied = await plumb(['apply', 'm.yaml', '--yes'], { cwd: dir, env: { ...BUILT_IN, ...NO_CREDENTIALS } });
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('m.yaml:3:3: error: pipeline:apiUrl (FIVETRAN_API_URL) aims at the real pipeline API, but no credentials are set');
    expect(applied.stderr).toContain('set pipeline:apiKey (FIVETRAN_APIKEY) and pipeline:apiSecret (FIVETRAN_APISECRET)');
    expect(await sandbox.calls()).toEqual([]);
    expect(existsSync(join(dir, '.plumb'))).toBe(false);
  });

  it('an explicit cloud:baseUrl is never called with the sandbox account', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(
      dir,
      'm.yaml',
      `name: net\nconfig:\n  cloud:region: cn-bj2\n  cloud:projectId: org-sandbox\n  cloud:baseUrl: ${sandbox.url}/cloud/\nresources:\n  vpc:\n    type: cloud:index/vpc:Vpc\n    properties: { name: line-vpc, cidrBlocks: [10.40.0.0/16] }\n`,
    );
    await sandbox.clearCalls();
    const planned = await plumb(['apply', 'm.yaml', '--yes'], { cwd: dir, env: { ...BUILT_IN, ...NO_CREDENTIALS } });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('m.yaml:5:3: error: cloud:baseUrl (UCLOUD_API_BASE_URL) aims at the real cloud API, but no credentials are set');
    expect(await sandbox.calls('cloud')).toEqual([]);
  });

  it('an explicit cloud:baseUrl with a key pair is called at that address with those keys, never the sandbox account', async () => {
    const keys = { publicKey: 'line-public-7731', privateKey: 'line-private-7731' };
    await fetch(`${sandbox.url}/_sandbox/cloud-keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(keys) });
    const dir = workdir('plumb-line-');
    const manifest = (name: string) =>
      `name: ${name}\nconfig:\n  cloud:region: cn-bj2\n  cloud:projectId: org-sandbox\n  cloud:baseUrl: ${sandbox.url}/cloud/\nresources:\n  vpc:\n    type: cloud:index/vpc:Vpc\n    properties: { name: ${name}, cidrBlocks: [10.41.0.0/16] }\n`;
    writeManifest(dir, 'm.yaml', manifest('line-keyed'));
    await sandbox.clearCalls();
    const env = { ...BUILT_IN, ...NO_CREDENTIALS, UCLOUD_PUBLIC_KEY: keys.publicKey, UCLOUD_PRIVATE_KEY: keys.privateKey };
    const applied = await plumb(['apply', 'm.yaml', '--yes'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).not.toContain(NOTICE);
    expect((await sandbox.calls('cloud')).map((c) => c.status)).toContain(200);
    // The address given serves it: no built-in sandbox was started beside the manifest.
    expect(existsSync(join(dir, '.plumb', 'sandbox'))).toBe(false);
    // Signed with the keys given: the same public key with another private key is refused there.
    writeManifest(dir, 'wrong.yaml', manifest('line-wrong'));
    const wrong = await plumb(['apply', 'wrong.yaml', '--yes'], { cwd: dir, env: { ...env, UCLOUD_PRIVATE_KEY: 'not-the-private-key' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout + wrong.stderr).toMatch(/signature/i);
  });

  it('an explicit pipeline:apiUrl with a key and secret is called at that address with them', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(
      dir,
      'm.yaml',
      `name: pipe-real\nconfig:\n  pipeline:apiUrl: ${sandbox.url}/pipeline/v1\nresources:\n  team:\n    type: pipeline:index/group:Group\n    properties: { name: line_keyed_team }\n`,
    );
    await sandbox.clearCalls();
    const env = { ...BUILT_IN, ...NO_CREDENTIALS, FIVETRAN_APIKEY: 'sandbox-key', FIVETRAN_APISECRET: 'sandbox-secret' };
    const applied = await plumb(['apply', 'm.yaml', '--yes'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(await sandbox.calls('pipeline')).toContainEqual(expect.objectContaining({ method: 'POST', path: '/v1/groups', status: 201 }));
    // Another secret is the API's 401 there: the secret given is the one sent.
    const refused = await plumb(['plan', 'm.yaml'], { cwd: dir, env: { ...env, FIVETRAN_APISECRET: 'not-the-secret' } });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/401|unauthori[sz]ed/i);
  });

  it('a provider left without credentials beside one with them is refused: its secrets may have failed to load', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(dir, 'm.yaml', `name: both\nresources:\n${PORT}  team:\n    type: pipeline:index/group:Group\n    properties: { name: line_team }\n`);
    const env = { ...BUILT_IN, ...NO_CREDENTIALS, INTERCONNECT_ACCESS_KEY: 'ak', INTERCONNECT_SECRET_KEY: 'sk', INTERCONNECT_ACCEPT_PURCHASE_TERMS: 'true' };
    const planned = await plumb(['plan', 'm.yaml'], { cwd: dir, env });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('error: the pipeline provider has no credentials, while the interconnect provider reaches a real account');
    expect(planned.stderr).toContain('set pipeline:apiKey (FIVETRAN_APIKEY) and pipeline:apiSecret (FIVETRAN_APISECRET)');
  });

  it('lookup without a manifest: credentials half given in the environment are refused, naming the variables', async () => {
    const looked = await plumb(['lookup', 'pipeline:getGroups'], { cwd: workdir('plumb-line-'), env: { ...BUILT_IN, ...NO_CREDENTIALS, FIVETRAN_APIKEY: 'key' } });
    expect(looked.code).toBe(1);
    expect(looked.stderr).toContain('FIVETRAN_APIKEY: error: pipeline:apiKey (FIVETRAN_APIKEY) is set without pipeline:apiSecret (FIVETRAN_APISECRET)');
  });
});

/** A manifest that only configures one setting of a provider (and what the provider needs anyway). */
function configuring(provider: string, lines: string[]): string {
  const needed = provider === 'cloud' ? ['  cloud:region: cn-bj2', '  cloud:projectId: org-sandbox'] : [];
  return ['name: one-setting', 'config:', ...needed, ...lines].join('\n').concat('\n');
}

describe.each(providers.map((p) => [p.name, p] as const))('every real setting of %s, given without whole credentials, is refused', (_name, provider) => {
  const refused = () => provider.real.settings.filter((name) => !signsInAlone(provider, name));

  it('in the manifest: at its line and column, naming the setting and its variable', async () => {
    const dir = workdir('plumb-line-');
    for (const name of refused()) {
      const lines = [`  ${provider.name}:${name}: ${JSON.stringify(valueFor(provider, name))}`];
      const file = writeManifest(dir, `${name}.yaml`, configuring(provider.name, lines));
      const line = configuring(provider.name, lines).split('\n').indexOf(lines[0]) + 1;
      const result = await plumb(['plan', file], { cwd: dir, env: { ...BUILT_IN, ...NO_CREDENTIALS } });
      expect(result.code, `${name}: ${result.stdout}`).toBe(1);
      const variable = variableOf(provider, name);
      expect(result.stderr, name).toContain(`${file}:${line}:3: error: ${provider.name}:${name}${variable ? ` (${variable})` : ''} `);
      expect(result.stderr, name).toContain('to use the built-in sandbox, where nothing real is ordered');
    }
    expect(existsSync(join(dir, '.plumb'))).toBe(false);
  });

  it('by its environment variable: naming the variable', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(dir, 'plumb.yaml', configuring(provider.name, [`  ${provider.name}:maxConcurrency: 2`]));
    for (const name of refused().filter((n) => variableOf(provider, n))) {
      const variable = variableOf(provider, name)!;
      const value = valueFor(provider, name);
      const result = await plumb(['plan'], { cwd: dir, env: { ...BUILT_IN, ...NO_CREDENTIALS, [variable]: String(value) } });
      expect(result.code, name).toBe(1);
      expect(result.stderr, name).toContain(`${variable}: error: ${provider.name}:${name} (${variable}) `);
    }
  });
});

describe('the built-in sandbox says so, once, where output is not a document', () => {
  it('apply, plan --json, apply --json and drift: the notice on stderr once; output, validate and graph call nothing and say nothing', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(dir, 'plumb.yaml', `name: tried\nresources:\n${PORT}outputs:\n  uid: \${port.productUid}\n`);
    const env = { ...BUILT_IN, ...NO_CREDENTIALS };
    const notice = 'Note: the built-in sandbox serves interconnect: nothing real is ordered (no credentials are configured).\n';
    // First, and once; plan --json also shows its refresh there, after it.
    const toldOnce = (stderr: string) => stderr.startsWith(notice) && stderr.split(NOTICE).length === 2;
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toBe(notice);
    expect(applied.stdout).not.toContain(NOTICE);
    const planned = await plumb(['plan', '--json'], { cwd: dir, env });
    expect(toldOnce(planned.stderr), planned.stderr).toBe(true);
    expect(JSON.parse(planned.stdout)).toMatchObject({ formatVersion: 1, sandbox: FIELD });
    const streamed = await plumb(['apply', '--yes', '--json', '--replace', 'port'], { cwd: dir, env });
    expect(streamed.code, streamed.stderr).toBe(0);
    expect(streamed.stderr).toBe(notice);
    const lines = streamed.stdout.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    // The stream's first line, and only it.
    expect(JSON.parse(lines[0])).toEqual({ type: 'sandbox', ...FIELD });
    expect(lines.filter((line) => line.includes(NOTE))).toHaveLength(1);
    const drift = await plumb(['drift'], { cwd: dir, env });
    expect(toldOnce(drift.stderr), drift.stderr).toBe(true);
    const driftJson = await plumb(['drift', '--json'], { cwd: dir, env });
    expect(JSON.parse(driftJson.stdout)).toMatchObject({ sandbox: FIELD, stack: 'default' });
    for (const quiet of [['output', 'uid', '--raw'], ['validate'], ['graph'], ['state', 'list']]) {
      const result = await plumb(quiet, { cwd: dir, env });
      expect(result.code, quiet.join(' ')).toBe(0);
      expect(result.stderr, quiet.join(' ')).toBe('');
    }
  });

  it('a running sandbox the user names (PLUMB_SANDBOX_URL) serves whatever is set, without the notice', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(dir, 'm.yaml', `name: rehearsal\nconfig:\n  interconnect:environment: production\nresources:\n${PORT}`);
    const applied = await plumb(['apply', 'm.yaml', '--yes'], { cwd: dir, env: { ...NO_CREDENTIALS, ...sandbox.env } });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('Apply complete! Resources: 1 added');
    const planned = await plumb(['plan', 'm.yaml', '--json'], { cwd: dir, env: { ...NO_CREDENTIALS, ...sandbox.env } });
    expect(JSON.parse(planned.stdout).sandbox).toBeUndefined();
  });

  it('a running sandbox the user names still refuses credentials given in part, as any account would', async () => {
    const dir = workdir('plumb-line-');
    writeManifest(dir, 'm.yaml', `name: half\nconfig:\n  pipeline:apiKey: only-the-key\nresources:\n  team:\n    type: pipeline:index/group:Group\n    properties: { name: half_team }\n`);
    await sandbox.clearCalls();
    const planned = await plumb(['plan', 'm.yaml'], { cwd: dir, env: { ...NO_CREDENTIALS, ...sandbox.env } });
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('m.yaml:3:3: error: pipeline:apiKey (FIVETRAN_APIKEY) is set without pipeline:apiSecret (FIVETRAN_APISECRET)');
    expect(await sandbox.calls()).toEqual([]);
  });
});
