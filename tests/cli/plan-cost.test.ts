/**
 * `plumb plan` prices what it changes: a create at what the order costs, an update that changes
 * the price by the difference, a delete by what stops; what cannot be priced named with its reason;
 * a failed price call still plans; `--no-cost` asks nothing. Amounts are judged against the
 * sandbox's own answer to the price call, asked here directly.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { pricedManifest, pricedNetwork, pricedPort } from '../support/priced-stack.js';
import { InterconnectApi } from '../support/interconnect-api.js';

type TestSandbox = Awaited<ReturnType<typeof testSandbox>>;

const manifest = (resources: string) => pricedManifest('planprice', resources);

const PORT = (speed: number, term = 12) => pricedPort('port', 'priced-port', speed, term);
const OLD = pricedPort('old', 'old-port', 1000, 1);
const NETWORK = pricedNetwork(42);

const money = (currency: string, n: number) => `${currency} ${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('plan prices what it changes', () => {
  let sandbox: TestSandbox;
  let dir: string;
  let env: Record<string, string>;
  let book: (speed: number, term: number) => Promise<{ monthlyRate: number; currency: string }>;

  const faults = (body?: unknown) =>
    fetch(`${sandbox.url}/_sandbox/faults`, { method: body ? 'POST' : 'DELETE', headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const pricebookCalls = async () => (await sandbox.calls('interconnect')).filter((c) => c.path.endsWith('/pricebook/product'));

  beforeAll(async () => {
    sandbox = await testSandbox();
    env = sandbox.env;
    dir = workdir('plumb-plan-cost-');
    const api = new InterconnectApi(sandbox.url);
    book = async (speed, term) => await api.call('POST', '/v4/pricebook/product', { productType: 'MEGAPORT', locationId: 2, speed, term });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('a create is priced at what the order costs, in the API currency, with a total per provider; an unpriceable type is named with its reason', async () => {
    writeManifest(dir, 'plumb.yaml', manifest(PORT(1000) + OLD + NETWORK));
    const r = await plumb(['plan'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const port = await book(1000, 12);
    const old = await book(1000, 1);
    const total = port.monthlyRate + old.monthlyRate;
    expect(r.stdout).toContain('\nCost:\n');
    expect(r.stdout).toContain(`interconnect: +${money(port.currency, total)}/month`);
    expect(r.stdout).toContain(`port +${money('', port.monthlyRate).trim()}`);
    expect(r.stdout).toMatch(/Not priced: Lb \(no price action/);
    expect(r.stdout).not.toMatch(/CNY 0\.00/);

    const j = await plumb(['plan', '--json'], { cwd: dir, env });
    expect(j.code, j.stderr).toBe(0);
    const { cost } = JSON.parse(j.stdout);
    const by = (a: string) => cost.resources.find((l: { address: string }) => l.address === a);
    expect(by('port')).toMatchObject({ action: 'create', provider: 'interconnect', after: { monthly: port.monthlyRate, currency: port.currency, oneOff: 0 } });
    expect(by('port').before).toBeUndefined();
    expect(by('balancer')).toMatchObject({ after: { unpriced: expect.stringMatching(/no price action/) } });
    expect(cost.totals).toContainEqual({ provider: 'interconnect', currency: port.currency, before: 0, after: total, change: total, oneOff: 0 });
  });

  it('a VXC between two ports the same plan orders is priced from their locations in the manifest, though their UIDs are known only after apply', async () => {
    const vxcDir = workdir('plumb-plan-cost-vxc-');
    const end = (name: string, location: number) => `  ${name}:
    type: interconnect:index/port:Port
    properties: { productName: ${name}, portSpeed: 1000, locationId: ${location}, contractTermMonths: 1, marketplaceVisibility: false }
`;
    const link = `  link:
    type: interconnect:index/vxc:Vxc
    properties:
      productName: link
      rateLimit: 500
      contractTermMonths: 12
      aEnd: { requestedProductUid: "\${east.productUid}" }
      bEnd: { requestedProductUid: "\${west.productUid}" }
`;
    writeManifest(vxcDir, 'plumb.yaml', manifest(end('east', 2) + end('west', 3) + link));
    const j = await plumb(['plan', '--json'], { cwd: vxcDir, env });
    expect(j.code, j.stderr).toBe(0);
    const vxc = JSON.parse(j.stdout).cost.resources.find((l: { address: string }) => l.address === 'link');
    const api = new InterconnectApi(sandbox.url);
    const asked = await api.call<{ monthlyRate: number; currency: string }>('POST', '/v4/pricebook/product', { productType: 'VXC', aLocationId: 2, bLocationId: 3, speed: 500, term: 12 });
    expect(vxc.after).toEqual({ monthly: asked.monthlyRate, oneOff: 0, currency: asked.currency, basis: 'at constant speed' });
  });

  it('an MVE is priced at the size its vendor config names, though the plan shows that config only as [secret]', async () => {
    const mveDir = workdir('plumb-plan-cost-mve-');
    const example = readFileSync(resolve(import.meta.dirname, '../../examples/interconnect/mve.yaml'), 'utf8');
    writeManifest(mveDir, 'plumb.yaml', example.replace('productSize: ${sizes.mveSizes[0].size}', 'productSize: LARGE'));
    const j = await plumb(['plan', '--json'], { cwd: mveDir, env });
    expect(j.code, j.stderr).toBe(0);
    const plan = JSON.parse(j.stdout);
    expect(plan.changes.find((c: { address: string }) => c.address === 'edge').after.vendorConfig).toBe('[secret]');
    const api = new InterconnectApi(sandbox.url);
    const large = await api.call<{ monthlyRate: number; currency: string }>('POST', '/v4/pricebook/product', { productType: 'MVE', locationId: 2, size: 'LARGE', term: 1 });
    const small = await api.call<{ monthlyRate: number }>('POST', '/v4/pricebook/product', { productType: 'MVE', locationId: 2, size: 'SMALL', term: 1 });
    expect(large.monthlyRate).not.toBe(small.monthlyRate);
    expect(plan.cost.resources.find((l: { address: string }) => l.address === 'edge').after).toEqual({ monthly: large.monthlyRate, oneOff: 0, currency: large.currency });
  });

  it('an update that changes the contract term shows the difference, and a delete shows what stops', async () => {
    const applied = await plumb(['apply', '-y'], { cwd: dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    writeManifest(dir, 'plumb.yaml', manifest(PORT(1000, 24) + NETWORK));
    const j = await plumb(['plan', '--json'], { cwd: dir, env });
    expect(j.code, j.stderr).toBe(0);
    const { cost } = JSON.parse(j.stdout);
    const [slow, fast, old] = [await book(1000, 12), await book(1000, 24), await book(1000, 1)];
    const by = (a: string) => cost.resources.find((l: { address: string }) => l.address === a);
    expect(by('port')).toMatchObject({ action: 'update', before: { monthly: slow.monthlyRate }, after: { monthly: fast.monthlyRate } });
    expect(by('old')).toMatchObject({ action: 'delete', before: { monthly: old.monthlyRate } });
    expect(by('old').after).toBeUndefined();
    const change = Math.round((fast.monthlyRate - slow.monthlyRate - old.monthlyRate) * 100) / 100;
    expect(cost.totals).toContainEqual(expect.objectContaining({ provider: 'interconnect', change }));

    const r = await plumb(['plan'], { cwd: dir, env });
    expect(r.stdout).toContain(`old −${money('', old.monthlyRate).trim()}`);
    expect(r.stdout).toContain(`port −${money('', slow.monthlyRate - fast.monthlyRate).trim()}`);
  });

  it('a price call that fails still plans, and says "price unavailable" for that resource', async () => {
    await faults({ provider: 'interconnect', next: [{ match: '/pricebook/product', status: 400 }] });
    try {
      const r = await plumb(['plan'], { cwd: dir, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Plan: /);
      expect(r.stdout).toMatch(/Price unavailable: /);
    } finally {
      await faults();
    }
  });

  it('--no-cost asks no price and shows none; a plan with nothing to change asks none either', async () => {
    await sandbox.clearCalls();
    const r = await plumb(['plan', '--no-cost'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('Cost:');
    expect(await pricebookCalls()).toHaveLength(0);

    writeManifest(dir, 'plumb.yaml', manifest(PORT(1000) + OLD + NETWORK));
    await sandbox.clearCalls();
    const same = await plumb(['plan'], { cwd: dir, env });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).not.toContain('Cost:');
    expect(await pricebookCalls()).toHaveLength(0);
  });
});
