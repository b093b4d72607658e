/** Lifecycle specs of what attaches to another product: IXs, service keys, an MCR's prefix filter lists and IPsec add-on. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { ix } from '../../../src/resources/interconnect/ix.js';
import { mcrIpsecAddon } from '../../../src/resources/interconnect/mcr-ipsec-addon.js';
import { mcrPrefixFilterList } from '../../../src/resources/interconnect/mcr-prefix-filter-list.js';
import { serviceKey } from '../../../src/resources/interconnect/service-key.js';
import { InterconnectApi } from '../../support/interconnect-api.js';
import { lifecycleSpec } from '../../support/lifecycle.js';
import { BUY, liveProducts, makePort, twoMcrs, type TwoMcrs } from './fixtures.js';

/** Two ports in Sydney (the IX can move between them) and one in Melbourne (another exchange). */
type IxPorts = { sydney: string; sydneyOther: string; melbourne: string };

/** An IX's fixture, without the port it attaches to. */
export const ixBase = { productName: 'life-ix', networkServiceType: 'Sydney IX', rateLimit: 1000, vlan: 2001, macAddress: '00:11:22:33:44:55', asn: 64496 };

/** The lifecycle spec of Ix. */
export const ixSpec = lifecycleSpec({
  type: ix,
  setup: async (ctx): Promise<IxPorts> => ({
    sydney: await makePort(await ctx('ix-syd-1'), 'ix-syd-1', 2),
    sydneyOther: await makePort(await ctx('ix-syd-3'), 'ix-syd-3', 3),
    melbourne: await makePort(await ctx('ix-mel-1'), 'ix-mel-1', 7),
  }),
  create: (ports) => ({ ...ixBase, requestedProductUid: ports.sydney }),
  // Every in-place field at once, including a move to another port in the same metro.
  update: (ports) => ({
    ...ixBase,
    requestedProductUid: ports.sydneyOther,
    productName: 'life-ix-renamed',
    rateLimit: 2000,
    vlan: 2002,
    macAddress: '00:11:22:33:44:66',
    asn: 64497,
    costCentre: 'cc-ix',
    publicGraph: false,
    reverseDns: 'peer.example.net',
    shutdown: true,
  }),
  replace: (ports) => ({ ...ixBase, requestedProductUid: ports.melbourne, networkServiceType: 'Melbourne IX' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      productName: inputs.productName,
      requestedProductUid: inputs.requestedProductUid,
      networkServiceType: inputs.networkServiceType,
      rateLimit: inputs.rateLimit,
      vlan: inputs.vlan,
      macAddress: inputs.macAddress,
      asn: inputs.asn,
      shutdown: inputs.shutdown ?? false,
    });
    if (inputs.costCentre) expect(outputs.costCentre).toBe(inputs.costCentre);
    if (inputs.publicGraph !== undefined) expect(outputs.publicGraph).toBe(inputs.publicGraph);
    if (inputs.reverseDns) expect(outputs.reverseDns).toBe(inputs.reverseDns);
    expect(outputs.provisioningStatus).toMatch(/CONFIGURED|LIVE/);
    expect(outputs.createDate).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
    expect(outputs.ixPeerMacro).toBe(`AS${inputs.asn}`);
  },
  badImportId: 'x',
  ghostId: () => randomUUID(),
  createCall: BUY,
  census: async (world) => (await liveProducts(world)).ixs.map((p) => p.productUid),
});

/** A service key's fixture, without its port. */
export const keyBase = { active: true, maxSpeed: 1000, singleUse: true, vlan: 100, description: 'for partner A' };

/** The lifecycle spec of ServiceKey. */
export const serviceKeySpec = lifecycleSpec({
  type: serviceKey,
  setup: async (ctx) => ({ portUid: await makePort(await ctx('key-port'), 'key-port') }),
  create: ({ portUid }) => ({ ...keyBase, productUid: portUid }),
  // The same instants written with an offset are no change on the next read.
  update: ({ portUid }) => ({ ...keyBase, productUid: portUid, validFor: { startTime: '2030-01-01T10:00:00+10:00', endTime: '2030-06-30T10:00:00+10:00' } }),
  replace: ({ portUid }) => ({ ...keyBase, productUid: portUid, maxSpeed: 2000 }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ productUid: inputs.productUid, active: inputs.active, maxSpeed: inputs.maxSpeed, singleUse: inputs.singleUse, vlan: inputs.vlan, description: inputs.description });
    expect(outputs.key).toMatch(/^[0-9a-f-]{36}$/);
    if (inputs.validFor) {
      const v = outputs.validFor as { startTime: string; endTime: string };
      expect(Date.parse(v.startTime)).toBe(Date.parse(inputs.validFor.startTime));
      expect(Date.parse(v.endTime)).toBe(Date.parse(inputs.validFor.endTime));
    }
  },
  badImportId: 'not-a-key',
  ghostId: () => randomUUID(),
  createCall: 'POST /v2/service/key',
  census: async (world) => (await new InterconnectApi(world.sandbox.url).call<Array<{ key: string; active: boolean }>>('GET', '/v2/service/key')).filter((k) => k.active).map((k) => k.key),
});

/** A prefix filter list's fixture on an MCR. */
export const prefixList = (mcrId: string) => ({
  mcrId,
  description: 'customer-routes',
  addressFamily: 'IPv4',
  entries: [
    { action: 'permit', prefix: '10.0.0.0/8', le: 24 },
    { action: 'deny', prefix: '0.0.0.0/0' },
  ],
});

/** The lifecycle spec of McrPrefixFilterList. */
export const prefixListSpec = lifecycleSpec({
  type: mcrPrefixFilterList,
  setup: (ctx) => twoMcrs(ctx, 'pfl'),
  create: (env: TwoMcrs) => prefixList(env.mcrA),
  update: (env) => ({ ...prefixList(env.mcrA), description: 'customer-routes-v2', entries: [{ action: 'permit', prefix: '172.16.0.0/12', ge: 16, le: 32 }] }),
  replace: (env) => prefixList(env.mcrB),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ mcrId: inputs.mcrId, description: inputs.description, addressFamily: inputs.addressFamily });
    expect(outputs.entries).toEqual(inputs.entries);
    expect(typeof outputs.prefixFilterListId).toBe('number');
  },
  badImportId: '11111111-1111-1111-1111-111111111111:-3',
  ghostId: (env) => `${env.mcrA}:999999`,
  createCall: 'POST /v2/product/mcr2/',
  async census(world, env) {
    const api = new InterconnectApi(world.sandbox.url);
    const lists = async (mcrId: string) => (await api.call<Array<{ id: number }>>('GET', `/v2/product/mcr2/${mcrId}/prefixLists`)).map((l) => `${mcrId}:${l.id}`);
    return [...(await lists(env.mcrA)), ...(await lists(env.mcrB))];
  },
});

/** The lifecycle spec of McrIpsecAddon. */
export const ipsecSpec = lifecycleSpec({
  type: mcrIpsecAddon,
  setup: (ctx) => twoMcrs(ctx, 'ipsec'),
  create: (env: TwoMcrs) => ({ mcrId: env.mcrA, tunnelCount: 10 }),
  update: (env) => ({ mcrId: env.mcrA, tunnelCount: 30 }),
  replace: (env) => ({ mcrId: env.mcrB, tunnelCount: 10 }),
  // An MCR carries one IPsec add-on: a second lives on the other MCR.
  another: (env) => ({ mcrId: env.mcrB, tunnelCount: 20 }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ mcrId: inputs.mcrId, tunnelCount: inputs.tunnelCount });
    expect(outputs.addOnUid).toMatch(/^[0-9a-f-]{36}$/);
  },
  badImportId: 'no-colon-here',
  ghostId: (env) => `${env.mcrA}:${randomUUID()}`,
  createCall: '/addon',
  async census(world, env) {
    const api = new InterconnectApi(world.sandbox.url);
    const addOns = async (mcrId: string) => ((await api.call<{ addOns?: Array<{ addOnUid: string }> }>('GET', `/v2/product/${mcrId}`)).addOns ?? []).map((a) => `${mcrId}:${a.addOnUid}`);
    return [...(await addOns(env.mcrA)), ...(await addOns(env.mcrB))];
  },
});
