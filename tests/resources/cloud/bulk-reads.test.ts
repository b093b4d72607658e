/**
 * Anti-DDoS instances and allowed domains are read in bulk: a plan or drift of three instances
 * with two allowed domains each makes one listing of instances (a page of 100) and one allow-list
 * listing per instance, not one call per object. Counted through the sandbox's call log.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudProvider } from '../../../src/providers/cloud/index.js';
import { antiDdosInstance } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { plumb, testSandbox, workdir, writeManifest } from '../../support/cli.js';
import { countActions, startHarness, type Harness } from '../../support/cloud-harness.js';

const SITES = ['alpha', 'beta', 'gamma'];

const MANIFEST = `name: shields
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
${SITES.map(
  (site) => `  ${site}:
    type: cloud:index/antiDdosInstance:AntiDdosInstance
    properties: { name: ${site}-shield, area: EastChina, dataCenter: Yangzhou, bandwidth: 100, baseDefenceValue: 30, maxDefenceValue: 60 }
  ${site}Web:
    type: cloud:index/antiDdosAllowedDomain:AntiDdosAllowedDomain
    properties: { instanceId: "\${${site}.antiDdosInstanceId}", domain: ${site}-web.com }
  ${site}Shop:
    type: cloud:index/antiDdosAllowedDomain:AntiDdosAllowedDomain
    properties: { instanceId: "\${${site}.antiDdosInstanceId}", domain: ${site}-shop.com, comment: shop }`,
).join('\n')}
`;

describe('plan and drift of anti-DDoS instances and allowed domains', () => {
  let sandbox: Awaited<ReturnType<typeof testSandbox>>;
  let dir: string;
  const actions = async () => (await sandbox.calls('cloud')).map((c) => String((c.query as Record<string, unknown>).Action ?? ''));

  beforeAll(async () => {
    sandbox = await testSandbox();
    dir = workdir('plumb-cloud-bulk-');
    writeManifest(dir, 'plumb.yaml', MANIFEST);
    const apply = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
  });
  afterAll(() => sandbox.close());

  it('a no-change plan lists the instances once and each allow list once: 4 calls for 9 objects', async () => {
    await sandbox.clearCalls();
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.stdout).toContain('No changes');
    const seen = await actions();
    expect(countActions(seen, 'DescribeNapServiceInfo')).toBe(1);
    expect(countActions(seen, 'GetNapAllowListDomain')).toBe(3);
    expect(seen).toHaveLength(4);
  });

  it('with PLUMB_READS=one-by-one (the diagnostic) every object is read alone: 9 calls', async () => {
    await sandbox.clearCalls();
    const plan = await plumb(['plan'], { cwd: dir, env: { ...sandbox.env, PLUMB_READS: 'one-by-one' } });
    expect(plan.stdout).toContain('No changes');
    const seen = await actions();
    expect(countActions(seen, 'DescribeNapServiceInfo')).toBe(3);
    expect(countActions(seen, 'GetNapAllowListDomain')).toBe(6);
    const wrong = await plumb(['plan'], { cwd: dir, env: { ...sandbox.env, PLUMB_READS: 'sometimes' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('PLUMB_READS=sometimes: expected bulk (the default) or one-by-one');
  });

  it('drift reads the same way, and an entry the listing left out is read once alone before it is called deleted', async () => {
    await sandbox.clearCalls();
    const clean = await plumb(['drift'], { cwd: dir, env: sandbox.env });
    expect(clean.code).toBe(0);
    // Its price questions (the stack's monthly total) are no reads.
    expect((await actions()).filter((a) => !a.endsWith('Price'))).toHaveLength(4);

    const client = await clientFor(sandbox.url);
    const instanceId = await instanceOf(client, 'beta-shield');
    await client.call('DeleteNapAllowListDomain', { ResourceId: instanceId, Domain: ['beta-shop.com'] });
    await sandbox.clearCalls();
    const drift = await plumb(['drift'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(2);
    expect(drift.stdout).toMatch(/betaShop[\s\S]*deleted/);
    const seen = await actions();
    expect(countActions(seen, 'DescribeNapServiceInfo')).toBe(1);
    expect(countActions(seen, 'GetNapAllowListDomain')).toBe(4);
  });
});

describe('the bulk read of instances', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('pages through the listing, and leaves out an instance of another project, which is read alone', async () => {
    const sizing = { area: 'EastChina' as const, dataCenter: 'Yangzhou' as const, bandwidth: 100, baseDefenceValue: 30, maxDefenceValue: 60, chargeType: 'month' as const, duration: 1 };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await antiDdosInstance.create(h.resourceCtx(`shield${i}`), { ...sizing, name: `paged-${i}` })).id);
    const edge = { ...h.resourceCtx('edge'), client: await clientFor(h.sandbox.url, 'org-edge') };
    const elsewhere = (await antiDdosInstance.create(edge, { ...sizing, name: 'other-project' })).id;
    h.client.pageSize = 2;
    const listed = (await h.client.pageAll('DescribeNapServiceInfo', { NapType: 1 }, 'ServiceInfo')).length;
    await h.clearCalls();
    const seen = await antiDdosInstance.readMany!(
      h.resourceCtx(),
      [...ids, elsewhere].map((id) => ({ id, warn: () => {} })),
    );
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
    expect(seen.get(ids[3])).toMatchObject({ name: 'paged-3', dataCenter: 'Yangzhou', bandwidth: 100 });
    // Ours and the seeded ones of this project, two a page: fewer calls than objects.
    expect(countActions(await h.actions(), 'DescribeNapServiceInfo')).toBe(Math.ceil(listed / 2));
    expect(await antiDdosInstance.read(h.resourceCtx(), elsewhere)).toMatchObject({ name: 'other-project' });
  });
});

/** A cloud client of a project against a sandbox that is already running. */
async function clientFor(url: string, projectId = 'org-sandbox') {
  const settings = cloudProvider.settings.parse({ region: 'cn-bj2', projectId });
  return cloudProvider.connect(settings, { sandboxUrl: async () => url, log: pino({ level: 'silent' }), env: {} });
}

/** The id of the instance of that name. */
async function instanceOf(client: Harness['client'], name: string): Promise<string> {
  const all = await client.pageAll<{ ResourceId: string; Name: string }>('DescribeNapServiceInfo', { NapType: 1 }, 'ServiceInfo');
  const found = all.find((i) => i.Name === name);
  if (!found) throw new Error(`no instance named ${name}`);
  return found.ResourceId;
}
