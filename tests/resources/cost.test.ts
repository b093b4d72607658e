/**
 * Every registered resource type says what its objects cost: a quote, or why it has none. Each
 * priced type quotes from the sandbox a positive monthly amount in a currency for minimal inputs;
 * where the price has a driver (speed, size, bandwidth) the bigger value quotes more, and where the
 * API has terms, 24 and 36 months quote 5% and 10% less than month to month.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import type { Quote, QuoteContext, ResourceType } from '../../src/engine/contracts/resource-type.js';
import { loadResourceTypes } from '../../src/cli/catalog.js';
import { Secret, Unknown } from '../../src/kernel/values.js';
import type { CloudClient } from '../../src/providers/cloud/client.js';
import { port } from '../../src/resources/interconnect/port.js';
import { mcr } from '../../src/resources/interconnect/mcr.js';
import { serviceKey } from '../../src/resources/interconnect/service-key.js';
import type { InterconnectClient } from '../../src/providers/interconnect/client.js';
import { interconnectContext } from '../support/interconnect-context.js';
import { antiDdosInstance } from '../../src/resources/cloud/anti-ddos-instance.js';
import { antiDdosIp } from '../../src/resources/cloud/anti-ddos-ip.js';
import { startHarness, type Harness } from '../support/cloud-harness.js';

const types = await loadResourceTypes();

/** What the priced cases need made first: ports and an MCR to connect, a zone's image. */
interface World {
  sydney: string;
  sydney2: string;
  melbourne: string;
  mcr: string;
  image: string;
  /** An anti-DDoS instance whose free IP quota is used up: a new IP on it is charged. */
  fullNap: string;
}

/** A priced type's case: minimal inputs, and the driver that makes it cost more (`path` set to `small` then `big`). */
interface Case {
  provider: 'interconnect' | 'cloud';
  inputs(w: World): Record<string, unknown>;
  driver?: { set(inputs: Record<string, unknown>, value: unknown): Record<string, unknown>; small: unknown; big: unknown };
  /** The field holding the contract term, where the API has terms. */
  term?: string;
  basis?: RegExp;
}

const field = (name: string) => (inputs: Record<string, unknown>, value: unknown) => ({ ...inputs, [name]: value });

const CASES: Record<string, Case> = {
  'interconnect:index/port:Port': {
    provider: 'interconnect',
    inputs: () => ({ productName: 'p', portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }),
    driver: { set: field('portSpeed'), small: 1000, big: 10000 },
    term: 'contractTermMonths',
  },
  'interconnect:index/lagPort:LagPort': {
    provider: 'interconnect',
    inputs: () => ({ productName: 'l', portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false, lagCount: 2 }),
    driver: { set: field('lagCount'), small: 2, big: 4 },
    term: 'contractTermMonths',
    basis: /^estimate: 2 × one port's price$/,
  },
  'interconnect:index/mcr:Mcr': {
    provider: 'interconnect',
    inputs: () => ({ productName: 'm', portSpeed: 1000, locationId: 2, contractTermMonths: 1 }),
    driver: { set: field('portSpeed'), small: 1000, big: 10000 },
    term: 'contractTermMonths',
  },
  'interconnect:index/mve:Mve': {
    provider: 'interconnect',
    inputs: () => ({ productName: 'v', locationId: 2, contractTermMonths: 1, vendorConfig: { vendor: 'Cisco', imageId: 1, productSize: 'SMALL' } }),
    driver: { set: (i, size) => ({ ...i, vendorConfig: { ...(i.vendorConfig as object), productSize: size } }), small: 'SMALL', big: 'LARGE' },
    term: 'contractTermMonths',
  },
  'interconnect:index/vxc:Vxc': {
    provider: 'interconnect',
    inputs: (w) => ({ productName: 'x', rateLimit: 100, contractTermMonths: 1, aEnd: { requestedProductUid: w.sydney }, bEnd: { requestedProductUid: w.melbourne } }),
    driver: { set: field('rateLimit'), small: 100, big: 1000 },
    term: 'contractTermMonths',
    basis: /^at constant speed$/,
  },
  'interconnect:index/ix:Ix': {
    provider: 'interconnect',
    // From a Melbourne port to the Sydney exchange: a remote IX, charged at VXC rates (a local one is free).
    inputs: (w) => ({ productName: 'i', requestedProductUid: w.melbourne, networkServiceType: 'Sydney IX', rateLimit: 100, vlan: 2001, macAddress: '00:11:22:33:44:55' }),
    driver: { set: field('rateLimit'), small: 100, big: 1000 },
  },
  'interconnect:index/mcrIpsecAddon:McrIpsecAddon': {
    provider: 'interconnect',
    inputs: (w) => ({ mcrId: w.mcr, tunnelCount: 10 }),
    driver: { set: field('tunnelCount'), small: 10, big: 30 },
  },
  'cloud:index/instance:Instance': {
    provider: 'cloud',
    inputs: (w) => ({
      availabilityZone: 'cn-bj2-02',
      imageId: w.image,
      cpu: 1,
      memory: 2048,
      bootDisk: { type: 'cloud_ssd', size: 40 },
      vpcId: 'uvnet-x',
      subnetId: 'subnet-x',
      password: 'Cost-pass-1',
    }),
    driver: { set: field('cpu'), small: 1, big: 8 },
    basis: /with its disks/,
  },
  'cloud:index/disk:Disk': {
    provider: 'cloud',
    inputs: () => ({ availabilityZone: 'cn-bj2-02', size: 20, chargeType: 'month' }),
    driver: { set: field('size'), small: 20, big: 200 },
  },
  'cloud:index/eip:Eip': {
    provider: 'cloud',
    inputs: () => ({ internetType: 'bgp', bandwidth: 2 }),
    driver: { set: field('bandwidth'), small: 2, big: 20 },
  },
  'cloud:index/vpnGateway:VpnGateway': {
    provider: 'cloud',
    inputs: () => ({ vpcId: 'uvnet-x', eipId: 'eip-x', grade: 'standard' }),
    driver: { set: field('grade'), small: 'standard', big: 'enhanced' },
  },
  'cloud:index/antiDdosInstance:AntiDdosInstance': {
    provider: 'cloud',
    inputs: () => ({ area: 'EastChina', dataCenter: 'Taizhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 30 }),
    driver: { set: field('bandwidth'), small: 50, big: 200 },
  },
  'cloud:index/antiDdosIp:AntiDdosIp': {
    provider: 'cloud',
    inputs: (w) => ({ instanceId: w.fullNap }),
    basis: /^beyond the instance's free IP quota \(\d+\)$/,
  },
};

const priced = [...types.values()].filter((t) => t.cost && 'quote' in t.cost);

describe('every resource type says what it costs', () => {
  it.each([...types.keys()])('%s has a quote or the reason it has none', (token) => {
    const cost = types.get(token)!.cost;
    expect(cost, `${token} has no cost group`).toBeDefined();
    if ('unpriced' in cost!) expect(cost.unpriced).toMatch(/\w{4}/);
    else expect(typeof cost!.quote).toBe('function');
  });

  it.each([...types.keys()])('%s holds its rule groups in the order the contract lists them (cost after the replace rules)', (token) => {
    const groups = ['secrets', 'diff', 'replace', 'notes', 'provisioning', 'cost', 'crossCheck', 'importId'];
    const present = Object.keys(types.get(token)!).filter((k) => groups.includes(k));
    expect(present).toEqual(groups.filter((g) => present.includes(g)));
  });

  it('every priced type has a case below, and the ones the API cannot price say why', () => {
    expect(priced.map((t) => t.token).sort()).toEqual(Object.keys(CASES).sort());
    const reason = (token: string) => (types.get(token)!.cost as { unpriced: string }).unpriced;
    expect(reason('pipeline:index/connection:Connection')).toBe('usage-priced: monthly active rows');
    expect(reason('cloud:index/lb:Lb')).toMatch(/^no price action/);
    expect(reason('cloud:index/natGateway:NatGateway')).toMatch(/^no price action/);
  });
});

/** An anti-DDoS instance holding as many IPs as it has free. */
async function fullAntiDdosInstance(cloud: Harness): Promise<string> {
  const sizing = { area: 'EastChina', dataCenter: 'Taizhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 30 };
  const { id } = await antiDdosInstance.create(cloud.resourceCtx('nap'), z.parse(antiDdosInstance.inputs, sizing));
  const { FreeIPQuota } = await (cloud.client as CloudClient).call<{ FreeIPQuota: number }>('DescribeUpgradeHighProtectGameServicePrice', { ResourceId: id });
  for (let i = 0; i < FreeIPQuota; i++) await antiDdosIp.create(cloud.resourceCtx(`ip${i}`), { instanceId: id });
  return id;
}

describe('quotes from the sandbox', () => {
  let sandbox: Sandbox;
  let cloud: Harness;
  let ctx: Record<Case['provider'], QuoteContext>;
  let world: World;

  beforeAll(async () => {
    [sandbox, cloud] = await Promise.all([startSandbox({ provisioningMs: 0 }), startHarness()]);
    const ic = await interconnectContext(sandbox.url);
    const make = async (locationId: number, name: string) =>
      (await port.create({ ...ic, address: name }, { productName: name, portSpeed: 10000, locationId, contractTermMonths: 1, marketplaceVisibility: false })).id;
    const images = await (cloud.client as CloudClient).pageAll<{ ImageId: string }>('DescribeImage', { Zone: 'cn-bj2-02', ImageType: 'Base' }, 'ImageSet');
    world = {
      sydney: await make(2, 'syd'),
      sydney2: await make(3, 'syd2'),
      melbourne: await make(7, 'mel'),
      mcr: (await mcr.create({ ...ic, address: 'mcr' }, { productName: 'mcr', portSpeed: 1000, locationId: 2, contractTermMonths: 1 })).id,
      image: images[0].ImageId,
      fullNap: await fullAntiDdosInstance(cloud),
    };
    ctx = { interconnect: ic, cloud: cloud.resourceCtx() };
  }, 60_000);
  afterAll(async () => {
    await Promise.all([sandbox?.close(), cloud?.close()]);
  });

  const quote = (token: string, inputs: Record<string, unknown>): Promise<Quote> => {
    const type = types.get(token) as ResourceType;
    const c = CASES[token];
    return (type.cost as { quote: (i: unknown, x: QuoteContext) => Promise<Quote> }).quote(z.parse(type.inputs, inputs), ctx[c.provider]);
  };

  it.each(Object.keys(CASES))('%s: a positive monthly amount in a currency, more for a bigger driver, less for a longer term', async (token) => {
    const c = CASES[token];
    const base = c.inputs(world);
    const q = await quote(token, base);
    expect(q.monthly).toBeGreaterThan(0);
    expect(q.currency).toMatch(/^[A-Z]{3}$/);
    expect(q.oneOff).toBeGreaterThanOrEqual(0);
    if (c.basis) expect(q.basis).toMatch(c.basis);
    if (c.driver) {
      const [small, big] = await Promise.all([quote(token, c.driver.set(base, c.driver.small)), quote(token, c.driver.set(base, c.driver.big))]);
      expect(big.monthly).toBeGreaterThan(small.monthly);
    }
    if (c.term) {
      const [m1, m24, m36] = await Promise.all([1, 24, 36].map((months) => quote(token, { ...base, [c.term!]: months })));
      expect(m24.monthly).toBeCloseTo(m1.monthly * 0.95, 1);
      expect(m36.monthly).toBeCloseTo(m1.monthly * 0.9, 1);
    }
  });

  it('interconnect quotes are in the location currency; the cloud quotes in CNY', async () => {
    expect((await quote('interconnect:index/port:Port', CASES['interconnect:index/port:Port'].inputs(world))).currency).toBe('AUD');
    expect((await quote('cloud:index/eip:Eip', CASES['cloud:index/eip:Eip'].inputs(world))).currency).toBe('CNY');
  });

  it('a LAG is quoted as its member ports, marked as an estimate', async () => {
    const { lagCount: _count, ...lag } = CASES['interconnect:index/lagPort:LagPort'].inputs(world);
    const one = await quote('interconnect:index/port:Port', lag);
    const both = await quote('interconnect:index/lagPort:LagPort', { ...lag, lagCount: 2 });
    expect(both.monthly).toBeCloseTo(one.monthly * 2, 2);
  });

  it('an IX at an exchange in its port metro is free: a local IX costs nothing', async () => {
    const local = await quote('interconnect:index/ix:Ix', { ...CASES['interconnect:index/ix:Ix'].inputs(world), requestedProductUid: world.sydney2 });
    expect(local.monthly).toBe(0);
  });

  it('an MVE whose vendor config state holds sealed is quoted at its size', async () => {
    const token = 'interconnect:index/mve:Mve';
    const inputs = CASES[token].inputs(world);
    const large = { ...(inputs.vendorConfig as object), productSize: 'LARGE' };
    const type = types.get(token)!;
    const quoteOf = (type.cost as { quote: (i: unknown, x: QuoteContext) => Promise<Quote> }).quote;
    const sealed = await quoteOf({ ...inputs, vendorConfig: new Secret(large) }, ctx.interconnect);
    expect(sealed.monthly).toBe((await quote(token, { ...inputs, vendorConfig: large })).monthly);
  });

  it("a VXC to a partner port is priced from that port's location, one made with a service key from the key's port", async () => {
    const ic = ctx.interconnect as QuoteContext<InterconnectClient>;
    const partners = (await ic.client.get<Array<{ productUid: string; locationId: number }>>('/v2/dropdowns/partner/megaports')).data;
    const token = 'interconnect:index/vxc:Vxc';
    const inputs = CASES[token].inputs(world);
    const toPartner = await quote(token, { ...inputs, bEnd: { requestedProductUid: partners[0].productUid } });
    expect(toPartner.monthly).toBeGreaterThan(0);
    // A key for the Melbourne port: priced as the VXC to it, the key being a secret as state holds it.
    const key = (await serviceKey.create(await interconnectContext(sandbox.url, 'key'), { productUid: world.melbourne, active: true, maxSpeed: 1000, singleUse: true, vlan: 100, description: 'cost' }))
      .id;
    const type = types.get(token)!;
    const quoteOf = (type.cost as { quote: (i: unknown, x: QuoteContext) => Promise<Quote> }).quote;
    const keyed = await quoteOf({ ...z.parse(type.inputs, { ...inputs, bEnd: {} }), serviceKey: new Secret(key) }, ic);
    expect(keyed.monthly).toBe((await quote(token, inputs)).monthly);
  });

  it('inputs known only after apply (a plan of a new stack) are no question for the API: the quote says which', async () => {
    await cloud.clearCalls();
    const quoteOf = (token: string) => (types.get(token)!.cost as { quote: (i: unknown, x: QuoteContext) => Promise<Quote> }).quote;
    const vxc = CASES['interconnect:index/vxc:Vxc'].inputs(world);
    await expect(quoteOf('interconnect:index/vxc:Vxc')({ ...vxc, aEnd: { requestedProductUid: new Unknown('port.productUid') } }, ctx.interconnect)).rejects.toThrow(
      /the A-End is known only after apply/,
    );
    const disk = CASES['cloud:index/disk:Disk'].inputs(world);
    await expect(quoteOf('cloud:index/disk:Disk')({ ...disk, size: new Unknown('config.size') }, ctx.cloud)).rejects.toThrow(/the price depends on Size, known only after apply/);
    expect(await cloud.actions()).toEqual([]);
  });

  it('the same question within a run is one call', async () => {
    const shared = new Map<string, Promise<unknown>>();
    const once: QuoteContext = { ...ctx.cloud, shared: (key, make) => (shared.get(key) ?? shared.set(key, make()).get(key)) as never };
    await cloud.clearCalls();
    const type = types.get('cloud:index/eip:Eip')!;
    const inputs = z.parse(type.inputs, CASES['cloud:index/eip:Eip'].inputs(world));
    const quoteOf = (type.cost as { quote: (i: unknown, x: QuoteContext) => Promise<Quote> }).quote;
    await Promise.all([quoteOf(inputs, once), quoteOf(inputs, once)]);
    expect((await cloud.actions()).filter((a) => a === 'GetEIPPrice')).toHaveLength(1);
  });
});
