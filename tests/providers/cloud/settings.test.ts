import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/kernel/errors.js';
import { cloudProvider } from '../../../src/providers/cloud/index.js';
import { resolveBaseKeys, SANDBOX_KEYS } from '../../../src/providers/cloud/credentials.js';
import { durationSeconds } from '../../../src/providers/cloud/settings.js';
import { terraformConfig } from '../../../src/lookups/cloud/terraform-config.js';
import { Secret } from '../../../src/kernel/values.js';
import { cloudApi, startSandbox } from '@plumb/sandbox';
import { silent } from '../../support/cloud-harness.js';

const parse = (raw: Record<string, unknown>) => cloudProvider.settings.parse(raw);

describe('cloud provider settings', () => {
  it('applies defaults and coerces strings from the environment', () => {
    const s = parse({ region: 'cn-bj2', projectId: 'org-x', maxRetries: '5', insecure: 'false' });
    expect(s.maxRetries).toBe(5);
    expect(s.insecure).toBe(false);
    expect(parse({ region: 'r', projectId: 'p' })).toMatchObject({ maxRetries: 3, insecure: false });
    expect(parse({ insecure: 'true' }).insecure).toBe(true);
  });

  it('maps the upstream environment variables to settings', () => {
    expect(cloudProvider.envVars).toMatchObject({
      UCLOUD_PUBLIC_KEY: 'publicKey',
      UCLOUD_PRIVATE_KEY: 'privateKey',
      UCLOUD_PROFILE: 'profile',
      UCLOUD_SHARED_CREDENTIAL_FILE: 'sharedCredentialsFile',
      UCLOUD_REGION: 'region',
      UCLOUD_PROJECT_ID: 'projectId',
    });
    expect(cloudProvider.secretSettings).toEqual(['privateKey']);
  });

  it('documents every setting', () => {
    const shape = (cloudProvider.settings as unknown as { shape: Record<string, { description?: string }> }).shape;
    for (const [name, field] of Object.entries(shape)) expect(field.description, name).toBeTruthy();
  });

  it('unwraps a privateKey marked secret in the manifest', () => {
    expect(parse({ privateKey: new Secret('k') }).privateKey).toBe('k');
  });

  it.each([
    ['both missing', {}, 'cloud:region and cloud:projectId are required'],
    ['region missing', { projectId: 'p' }, 'cloud:region is required'],
    ['projectId missing', { region: 'r' }, 'cloud:projectId is required'],
    ['insecure with baseUrl', { region: 'r', projectId: 'p', insecure: true, baseUrl: 'http://x' }, 'cloud:insecure conflicts with cloud:baseUrl'],
  ])('check reports %s without a remote call', (_name, raw, message) => {
    expect(cloudProvider.check!(parse(raw)).join('\n')).toContain(message);
  });

  it('connect refuses settings without region and projectId before any call', async () => {
    let asked = false;
    const rt = { sandboxUrl: async () => ((asked = true), 'http://127.0.0.1:1'), log: silent, env: {} };
    await expect(cloudProvider.connect(parse({}), rt)).rejects.toThrow(/cloud:region and cloud:projectId are required/);
    expect(asked).toBe(false);
  });

  it('rejects a malformed assumeRole block at its field', () => {
    const r = cloudProvider.settings.safeParse({ assumeRole: { roleUrn: 'x', sessionName: 's', duration: 'soon', policy: '[1]' } });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['assumeRole.duration', 'assumeRole.policy']));
    expect(parse({ assumeRole: { roleUrn: 'x', sessionName: 's' } }).assumeRole?.duration).toBe('900s');
    expect(durationSeconds('1h30m')).toBe(5400);
    expect(durationSeconds('900s')).toBe(900);
  });

  it('describes the effective settings with upstream names and the private key masked', async () => {
    const settings = parse({ region: 'cn-bj2', projectId: 'org-x', publicKey: 'pub', privateKey: 'very-secret', assumeRole: { roleUrn: 'u', sessionName: 's' } });
    const out = await terraformConfig.invoke({ client: undefined as never, settings, log: silent, warn: () => {}, workDir: '.' }, {});
    expect(out.result).toEqual({
      public_key: 'pub',
      private_key: '[secret]',
      insecure: false,
      max_retries: 3,
      assume_role: { role_urn: 'u', session_name: 's', duration: '900s' },
      region: 'cn-bj2',
      project_id: 'org-x',
    });
    expect(JSON.stringify(out)).not.toContain('very-secret');
    expect(terraformConfig.token).toBe('cloud:providers:cloud/terraformConfig');
  });
});

describe('cloud credentials', () => {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-cred-'));
  const file = join(dir, 'credential.json');
  writeFileSync(
    file,
    JSON.stringify([
      { public_key: 'pub-default', private_key: 'priv-default', profile: 'default' },
      { public_key: 'pub-ci', private_key: 'priv-ci', profile: 'ci' },
    ]),
  );

  it('loads a profile from the shared credentials file, before keys in settings', () => {
    const { keys, origin } = resolveBaseKeys(parse({ profile: 'ci', sharedCredentialsFile: file, publicKey: 'a', privateKey: 'b' }), {});
    expect(origin).toBe('profile');
    expect(keys).toEqual({ publicKey: 'pub-ci', privateKey: 'priv-ci' });
  });

  it('expands ~/ against HOME', () => {
    writeFileSync(join(dir, 'home.json'), JSON.stringify([{ public_key: 'h', private_key: 'k', profile: 'p' }]));
    expect(resolveBaseKeys(parse({ profile: 'p', sharedCredentialsFile: '~/home.json' }), { HOME: dir }).keys.publicKey).toBe('h');
  });

  it('uses the default profile when only the file is named', () => {
    expect(resolveBaseKeys(parse({ sharedCredentialsFile: file }), {}).keys.publicKey).toBe('pub-default');
  });

  it('names the profile and the known ones when the profile is missing, never a key', () => {
    try {
      resolveBaseKeys(parse({ profile: 'prod', sharedCredentialsFile: file }), {});
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).message).toContain('profile prod is not in the shared credentials file');
      expect((err as UserError).hint).toContain('default, ci');
      expect(JSON.stringify({ m: (err as Error).message, h: (err as UserError).hint })).not.toContain('priv-');
    }
  });

  it('reports a missing credentials file', () => {
    expect(() => resolveBaseKeys(parse({ profile: 'x', sharedCredentialsFile: join(dir, 'nope.json') }), {})).toThrow(/does not exist/);
    expect(() => resolveBaseKeys(parse({ profile: 'x' }), { HOME: dir })).toThrow(/~\/\.ucloud\/credential\.json does not exist/);
  });

  it('uses keys from settings, and the sandbox account when there are none', () => {
    expect(resolveBaseKeys(parse({ publicKey: 'a', privateKey: 'b' }), {})).toEqual({ keys: { publicKey: 'a', privateKey: 'b' }, origin: 'settings' });
    expect(resolveBaseKeys(parse({}), {})).toEqual({ keys: SANDBOX_KEYS, origin: 'sandbox' });
  });
});

describe('PLUMB_SANDBOX_URL', () => {
  it('points the cloud provider at that sandbox even with keys configured, as it does every provider', async () => {
    const sandbox = await startSandbox({ provisioningMs: 0, apis: [cloudApi] });
    try {
      // The sandbox knows only the keys it is given, as the real API knows only its accounts'.
      const keys = { publicKey: 'real-looking-public', privateKey: 'real-looking-private' };
      await fetch(`${sandbox.url}/_sandbox/cloud-keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(keys) });
      let asked = false;
      const rt = { sandboxUrl: async () => ((asked = true), sandbox.url), log: silent, env: { PLUMB_SANDBOX_URL: sandbox.url } };
      const client = await cloudProvider.connect(parse({ region: 'cn-bj2', projectId: 'org-sandbox', ...keys }), rt);
      expect(asked).toBe(true);
      const listed = await client.call<{ ServiceInfo: unknown[] }>('DescribeNapServiceInfo', { NapType: 1 });
      expect(Array.isArray(listed.ServiceInfo)).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
