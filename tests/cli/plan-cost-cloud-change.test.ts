/**
 * A cloud update that changes the price shows, beside its monthly difference, what the API's own
 * upgrade-price Action charges now for the rest of the paid period (or refunds); an hourly object,
 * with nothing prepaid, and an update that changes no price driver ask no such call; a failed call
 * still plans, saying the charge now is unavailable. Amounts are judged against the sandbox's own
 * answer to the same Action, asked here directly before the change is applied.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

type TestSandbox = Awaited<ReturnType<typeof testSandbox>>;
type Line = { address: string; action: string; now?: { amount: number; currency: string; basis?: string } | { unavailable: string } };

const stack = (image: string, size: { cpu: number; memory: number; ip: number; hourly: number; name?: string }) => `name: cloudchange
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  network:
    type: cloud:index/vpc:Vpc
    properties: { cidrBlocks: [10.43.0.0/16] }
  app:
    type: cloud:index/subnet:Subnet
    properties: { vpcId: "\${network.vpcId}", cidrBlock: 10.43.1.0/24 }
  host:
    type: cloud:index/instance:Instance
    properties:
      availabilityZone: cn-bj2-02
      imageId: ${image}
      cpu: ${size.cpu}
      memory: ${size.memory}
      bootDisk: { type: cloud_ssd, size: 40 }
      vpcId: \${network.vpcId}
      subnetId: \${app.subnetId}
      password: Passw0rd-change
      chargeType: month
  ip:
    type: cloud:index/eip:Eip
    properties: { internetType: bgp, bandwidth: ${size.ip}, chargeType: year${size.name ? `, name: ${size.name}` : ''} }
  hourly:
    type: cloud:index/eip:Eip
    properties: { internetType: bgp, bandwidth: ${size.hourly}, chargeType: dynamic }
`;

const money = (n: number) => Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('a cloud update priced by its upgrade-price Action', () => {
  let sandbox: TestSandbox;
  let dir: string;
  let env: Record<string, string>;
  let image: string;
  let ids: Record<string, string>;

  const cloud = async (params: Record<string, string | number>) => {
    const body = await signedCloudCall(sandbox.url, { Region: 'cn-bj2', ProjectId: 'org-sandbox', ...params });
    expect(body.RetCode, String(body.Message)).toBe(0);
    return body;
  };
  const faults = (body?: unknown) =>
    fetch(`${sandbox.url}/_sandbox/faults`, { method: body ? 'POST' : 'DELETE', headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const upgradeCalls = async () => (await sandbox.calls('cloud')).map((c) => String(c.query.Action)).filter((a) => a.endsWith('UpgradePrice'));
  const planJson = async (): Promise<Line[]> => {
    const r = await plumb(['plan', '--json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).cost.resources as Line[];
  };
  const line = (lines: Line[], address: string) => lines.find((l) => l.address === address);

  beforeAll(async () => {
    sandbox = await testSandbox();
    env = sandbox.env;
    dir = workdir('plumb-cloud-change-');
    image = ((await cloud({ Action: 'DescribeImage', Zone: 'cn-bj2-02', ImageType: 'Base' })).ImageSet as Array<{ ImageId: string }>)[0].ImageId;
    writeManifest(dir, 'plumb.yaml', stack(image, { cpu: 2, memory: 4096, ip: 10, hourly: 10 }));
    const applied = await plumb(['apply', '-y'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    const { resources } = JSON.parse(readFileSync(stateFile(dir), 'utf8')) as { resources: Record<string, { id: string }> };
    ids = Object.fromEntries(Object.entries(resources).map(([address, r]) => [address, r.id]));
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('a resize and a bandwidth increase plan with what the API charges now; an hourly EIP asks nothing', async () => {
    writeManifest(dir, 'plumb.yaml', stack(image, { cpu: 4, memory: 8192, ip: 20, hourly: 20 }));
    const host = (await cloud({ Action: 'GetUHostUpgradePrice', Zone: 'cn-bj2-02', UHostId: ids.host, CPU: 4, Memory: 8192 })).Price as number;
    const ip = (await cloud({ Action: 'GetEIPUpgradePrice', EIPId: ids.ip, Bandwidth: 20 })).Price as number;
    expect(host).toBeGreaterThan(0);
    expect(ip).toBeGreaterThan(0);
    await sandbox.clearCalls();
    const lines = await planJson();
    expect(line(lines, 'host')).toMatchObject({ action: 'update', now: { amount: host, currency: 'CNY', basis: 'for the rest of the paid period' } });
    expect(line(lines, 'ip')).toMatchObject({ action: 'update', now: { amount: ip, currency: 'CNY' } });
    // Paid for a year: what it is charged now covers the rest of that year, not one month.
    const ipLine = line(lines, 'ip') as unknown as { before: { monthly: number }; after: { monthly: number } };
    expect(ip).toBeGreaterThan((ipLine.after.monthly - ipLine.before.monthly) * 11);
    expect(line(lines, 'hourly')?.action).toBe('update');
    expect(line(lines, 'hourly')?.now).toBeUndefined();
    expect((await upgradeCalls()).sort()).toEqual(['GetEIPUpgradePrice', 'GetUHostUpgradePrice']);

    const r = await plumb(['plan'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^ +host: \\+CNY [\\d,.]+/month; CNY ${money(host).replace('.', '\\.')} now for the rest of the paid period$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^ +ip: \\+CNY [\\d,.]+/month; CNY ${money(ip).replace('.', '\\.')} now for the rest of the paid period$`, 'm'));
    expect(r.stdout).not.toMatch(/^ +hourly: .* now/m);
  });

  it('a bandwidth decrease plans with the refund', async () => {
    writeManifest(dir, 'plumb.yaml', stack(image, { cpu: 2, memory: 4096, ip: 5, hourly: 10 }));
    const refund = (await cloud({ Action: 'GetEIPUpgradePrice', EIPId: ids.ip, Bandwidth: 5 })).Price as number;
    expect(refund).toBeLessThan(0);
    expect(line(await planJson(), 'ip')).toMatchObject({ now: { amount: refund, currency: 'CNY' } });
    const r = await plumb(['plan'], { cwd: dir, env });
    expect(r.stdout).toMatch(new RegExp(`^ +ip: −CNY [\\d,.]+/month; CNY ${money(refund).replace('.', '\\.')} refunded now for the rest of the paid period$`, 'm'));
  });

  it('an update that changes no price driver (a name) asks no upgrade price', async () => {
    writeManifest(dir, 'plumb.yaml', stack(image, { cpu: 2, memory: 4096, ip: 10, hourly: 10, name: renamed }));
    await sandbox.clearCalls();
    const r = await plumb(['plan', '--json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).changes.map((c: { address: string; action: string }) => [c.address, c.action])).toContainEqual(['ip', 'update']);
    expect(await upgradeCalls()).toEqual([]);
  });

  it('an upgrade-price call that fails still plans, and says the charge now is unavailable', async () => {
    writeManifest(dir, 'plumb.yaml', stack(image, { cpu: 2, memory: 4096, ip: 20, hourly: 10 }));
    await faults({ provider: 'cloud', next: [{ match: 'Action=GetEIPUpgradePrice', status: 400 }] });
    try {
      expect(line(await planJson(), 'ip')).toMatchObject({ action: 'update', now: { unavailable: expect.any(String) } });
      await faults({ provider: 'cloud', next: [{ match: 'Action=GetEIPUpgradePrice', status: 400 }] });
      const r = await plumb(['plan'], { cwd: dir, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^ +ip: \+CNY [\d,.]+\/month; the charge now is unavailable \(.+\)$/m);
    } finally {
      await faults();
    }
  });

  it('an anti-DDoS IP keeps its place in the free quota: a new remark is no price change, a resize of its instance is charged now', async () => {
    const shield = workdir('plumb-cloud-shield-');
    const ips = (first: string) =>
      Array.from(
        { length: 6 },
        (_, i) => `  ip${i}:\n    type: cloud:index/antiDdosIp:AntiDdosIp\n    properties: { instanceId: "\${shield.antiDdosInstanceId}", remark: ${i ? `ip${i}` : first} }\n`,
      ).join('');
    const write = (bandwidth: number, first: string) =>
      writeManifest(
        shield,
        'plumb.yaml',
        `name: shieldcost\nconfig:\n  cloud:region: cn-bj2\n  cloud:projectId: org-sandbox\nresources:\n  shield:\n    type: cloud:index/antiDdosInstance:AntiDdosInstance\n    properties: { name: priced-shield, area: EastChina, dataCenter: Yangzhou, bandwidth: ${bandwidth}, baseDefenceValue: 30, maxDefenceValue: 40 }\n${ips(first)}`,
      );
    write(50, 'first');
    const applied = await plumb(['apply', '-y'], { cwd: shield, env });
    expect(applied.code, applied.stderr).toBe(0);
    const { resources } = JSON.parse(readFileSync(stateFile(shield), 'utf8')) as { resources: Record<string, { id: string }> };

    write(50, 'renamed');
    const r = await plumb(['plan', '--json'], { cwd: shield, env });
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { changes: Array<{ address: string; action: string }>; cost?: { resources: Line[] } };
    expect(plan.changes.find((c) => c.address === 'ip0')?.action).toBe('update');
    // Its price is the same before and after (it stays one of the free ones), so the plan prices nothing.
    expect(line(plan.cost?.resources ?? [], 'ip0')).toBeUndefined();

    write(150, 'first');
    const asked = (await cloud({ Action: 'DescribeUpgradeHighProtectGameServicePrice', ResourceId: resources.shield.id, SrcBandwidth: 150 })).Price as number;
    const resized = await plumb(['plan', '--json'], { cwd: shield, env });
    expect(line(JSON.parse(resized.stdout).cost.resources, 'shield')).toMatchObject({ action: 'update', now: { amount: asked, currency: 'CNY' } });
  });
});

const renamed = 'renamed-ip';
