/**
 * `plumb cost`: the stack's bill of materials from state, priced by the sandbox's price calls. The
 * amounts are judged against the sandbox's own answer to the price call, asked here directly.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudProvider } from '../../src/providers/cloud/index.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

type TestSandbox = Awaited<ReturnType<typeof testSandbox>>;

const MANIFEST = `name: bill
config:
  interconnect:cancelAtEndOfTerm: false
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  port:
    type: interconnect:index/port:Port
    properties: { productName: bill-port, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
  lag:
    type: interconnect:index/lagPort:LagPort
    properties: { productName: bill-lag, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false, lagCount: 2 }
  network:
    type: cloud:index/vpc:Vpc
    properties: { cidrBlocks: [10.41.0.0/16] }
  app:
    type: cloud:index/subnet:Subnet
    properties: { vpcId: "\${network.vpcId}", cidrBlock: 10.41.1.0/24 }
  ip:
    type: cloud:index/eip:Eip
    properties: { internetType: bgp, bandwidth: 10 }
  balancer:
    type: cloud:index/lb:Lb
    properties: { vpcId: "\${network.vpcId}", subnetId: "\${app.subnetId}" }
`;

describe('plumb cost', () => {
  let sandbox: TestSandbox;
  let dir: string;
  let env: Record<string, string>;
  /** What the sandbox's own price calls say, asked directly. */
  let expected: { port: { monthlyRate: number; currency: string }; lagPort: { monthlyRate: number; currency: string }; eip: number };

  const faults = (body?: unknown) =>
    fetch(`${sandbox.url}/_sandbox/faults`, { method: body ? 'POST' : 'DELETE', headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });

  beforeAll(async () => {
    sandbox = await testSandbox();
    env = sandbox.env;
    dir = workdir('plumb-cost-');
    writeManifest(dir, 'plumb.yaml', MANIFEST);
    const applied = await plumb(['apply', '-y'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    const api = new InterconnectApi(sandbox.url);
    const book = async (term: number) => await api.call('POST', '/v4/pricebook/product', { productType: 'MEGAPORT', locationId: 2, speed: 10000, term });
    const settings = cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox' });
    const cloud = await cloudProvider.connect(settings, { sandboxUrl: async () => sandbox.url, log: pino({ level: 'silent' }), env: {} });
    const eip = await cloud.call<{ PriceSet: Array<{ ChargeType: string; Price: number }> }>('GetEIPPrice', { OperatorName: 'Bgp', Bandwidth: 10, ChargeType: 'Month', Quantity: 1 });
    expected = { port: await book(12), lagPort: await book(1), eip: eip.PriceSet.find((p) => p.ChargeType === 'Month')!.Price };
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('prints each resource at the price the sandbox quotes, the reason for those it cannot price, and a total per provider and currency', async () => {
    const r = await plumb(['cost'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith('What stack default costs, as ordered now (from state):\n')).toBe(true);
    const line = (address: string) => r.stdout.split('\n').find((l) => l.trimStart().startsWith(`${address} `)) ?? '';
    const { port, lagPort, eip } = expected;
    expect(line('port')).toContain(`${port.currency} ${port.monthlyRate.toFixed(2)}/month`);
    expect(line('lag')).toContain(`${lagPort.currency} ${(lagPort.monthlyRate * 2).toFixed(2)}/month`);
    expect(line('lag')).toContain("estimate: 2 × one port's price");
    expect(line('ip')).toContain(`CNY ${eip.toFixed(2)}/month`);
    expect(line('balancer')).toMatch(/unpriced\s+no price action/);
    expect(line('network')).toMatch(/unpriced\s+not billed on its own/);
    expect(r.stdout).toContain(`interconnect: ${port.currency} ${(port.monthlyRate + lagPort.monthlyRate * 2).toFixed(2)}/month`);
    expect(r.stdout).toContain(`cloud: CNY ${eip.toFixed(2)}/month`);
    expect(r.stderr).not.toMatch(/Warning/);
  });

  it('--json gives every resource with its amount or reason, and the totals', async () => {
    const r = await plumb(['cost', '--json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const bill = JSON.parse(r.stdout);
    const by = (address: string) => bill.resources.find((x: { address: string }) => x.address === address);
    expect(by('port')).toMatchObject({ type: 'interconnect:index/port:Port', provider: 'interconnect', monthly: expected.port.monthlyRate, currency: expected.port.currency, oneOff: 0 });
    expect(by('ip')).toMatchObject({ provider: 'cloud', monthly: expected.eip, currency: 'CNY' });
    expect(by('balancer')).toEqual({ address: 'balancer', type: 'cloud:index/lb:Lb', provider: 'cloud', unpriced: 'no price action: the API has none for classic load balancers' });
    expect(bill.totals).toEqual(
      expect.arrayContaining([{ provider: 'cloud', currency: 'CNY', monthly: expected.eip, oneOff: 0 }, expect.objectContaining({ provider: 'interconnect', currency: expected.port.currency })]),
    );
  });

  it('a price call that fails leaves that resource "price unavailable", never a zero, and the rest is still priced', async () => {
    await faults({ provider: 'cloud', next: [{ match: 'Action=GetEIPPrice', status: 400 }] });
    try {
      const r = await plumb(['cost'], { cwd: dir, env });
      expect(r.code, r.stderr).toBe(0);
      const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith('ip ')) ?? '';
      expect(line).toContain('price unavailable');
      expect(line).not.toMatch(/CNY 0\.00/);
      expect(r.stdout).toContain(`${expected.port.currency} ${expected.port.monthlyRate.toFixed(2)}/month`);
      expect(r.stdout).not.toMatch(/cloud: CNY/);
      expect(r.stderr).toMatch(/Warning: the price of ip could not be fetched; the totals leave it out/);
    } finally {
      await faults();
    }
  });

  it('asks each distinct price once', async () => {
    await sandbox.clearCalls();
    const r = await plumb(['cost'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const pricebook = (await sandbox.calls('interconnect')).filter((c) => c.path.endsWith('/pricebook/product'));
    // The port (12 months) and one LAG member (month to month): two questions, two calls.
    expect(pricebook).toHaveLength(2);
  });
});
