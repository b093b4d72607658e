/** A load balancer certificate through the CLI against the sandbox: its private key is `[secret]` in plans, sealed in state, never echoed; a rename is one call; an import plans no change. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

const KEY_BODY = 'c2FuZGJveC1vbmx5LXRscy1rZXk';
const MANIFEST = `name: cloud-tls
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  shopCert:
    type: cloud:index/lbSsl:LbSsl
    properties:
      name: shop-cert
      # Written out here (not a secret config value): the type itself keeps it secret.
      privateKey: "-----BEGIN PRIVATE KEY-----\\n${KEY_BODY}\\n-----END PRIVATE KEY-----"
      userCert: "-----BEGIN CERTIFICATE-----\\nc2hvcC1jZXJ0\\n-----END CERTIFICATE-----"
outputs:
  certId: \${shopCert.sslId}
`;

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const run = (dir: string, ...args: string[]) => plumb(args, { cwd: dir, env: sandbox.env });
const writes = async () => (await sandbox.calls('cloud')).map((c) => String(c.query.Action)).filter((a) => !/^(Describe|Get)/.test(a));

/** Every file under a folder, as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('an LB certificate', () => {
  let dir: string;
  beforeAll(() => {
    dir = workdir('plumb-cloud-tls-');
    writeFileSync(join(dir, 'plumb.yaml'), MANIFEST);
  });

  it('plans its key as [secret], applies, keeps the key only sealed in state, and plans no change', async () => {
    const plan = await run(dir, 'plan', '--out', 'tls.plan');
    expect(plan.stdout).toMatch(/privateKey\s+=\s+\[secret\]/);
    expect(plan.stdout + plan.stderr).not.toContain(KEY_BODY);
    const applied = await run(dir, 'apply', '--yes');
    expect(applied.code).toBe(0);
    expect(applied.stdout + applied.stderr).not.toContain(KEY_BODY);
    expect(allText(dir).replace(MANIFEST, '')).not.toContain(KEY_BODY);
    const again = await run(dir, 'plan', '--detailed-exitcode');
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('a new name is one UpdateSSLAttribute call, not a replacement', async () => {
    writeFileSync(join(dir, 'plumb.yaml'), MANIFEST.replace('name: shop-cert', 'name: shop-cert-2026'));
    const plan = await run(dir, 'plan');
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['UpdateSSLAttribute']);
  });

  it('imports into a fresh stack taking the key from the manifest, with no change planned and no key in state', async () => {
    const id = (JSON.parse(readFileSync(stateFile(dir, 'default'), 'utf8')) as { resources: Record<string, { id: string }> }).resources.shopCert.id;
    const imported = await run(dir, 'import', 'shopCert', 'cloud:index/lbSsl:LbSsl', id, '--stack', 'adopted');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).not.toContain(KEY_BODY);
    const plan = await run(dir, 'plan', '--stack', 'adopted', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect(readFileSync(stateFile(dir, 'adopted'), 'utf8')).not.toContain(KEY_BODY);
  });
});
