import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { mcrPrefixFilterList } from '../../../src/resources/interconnect/mcr-prefix-filter-list.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { ROTATED_WARNING, partnerConfigReplace, vxc } from '../../../src/resources/interconnect/vxc.js';
import { wirePartnerConfig } from '../../../src/resources/interconnect/vxc-partner-config.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { Secret, Unknown } from '../../../src/kernel/values.js';
import { interconnectContext } from '../../support/interconnect-context.js';
import { makePort } from './fixtures.js';
import { aws, awsPort } from './vxc-spec.js';

const vrouter = (peerAsn = 64512, importWhitelist?: string) => ({
  partner: 'vrouter' as const,
  interfaces: [{ ipAddresses: ['10.1.0.1/30'], bgpConnections: [{ peerAsn, localIpAddress: '10.1.0.1', peerIpAddress: '10.1.0.2', ...(importWhitelist ? { importWhitelist } : {}) }] }],
});
const google = { partner: 'google' as const, pairingKey: '00000000-0000-0000-0000-000000000000/australia-southeast1/1' };

describe('partner config replace rule', () => {
  const R = /the VXC is deleted and ordered again/;
  const cases: Array<[string, unknown, unknown, RegExp | undefined]> = [
    [
      'a CSP config added to a VXC ordered without one replaces: the update carries none',
      undefined,
      aws(),
      /^a aws partner config cannot be added after ordering .*; the VXC is deleted and ordered again$/,
    ],
    ['a router config added is in place', undefined, vrouter(), undefined],
    ["the A-End's router config added is in place", undefined, { partner: 'a-end', interfaces: vrouter().interfaces }, undefined],
    ["the A-End's router config changed or removed is in place", { partner: 'a-end', interfaces: vrouter().interfaces }, undefined, undefined],
    ['an unchanged aws config is no change', aws(), aws(), undefined],
    ['an aws config change replaces', aws(), aws('210987654321'), /^a aws partner config cannot change after ordering; the VXC is deleted and ordered again$/],
    ['aws to azure replaces', aws(), { partner: 'azure', serviceKey: 'k' }, /switching a partner config from aws to azure/],
    ['a CSP to vrouter switch replaces', google, vrouter(), /from google to vrouter/],
    ['a vrouter to CSP switch replaces', vrouter(), aws(), /from vrouter to aws/],
    ['a vrouter change is in place', vrouter(64512), vrouter(64513), undefined],
    ['removing a vrouter config is in place', vrouter(), undefined, undefined],
    ['removing a CSP config replaces', aws(), undefined, /cannot be removed/],
    ['a transit config is fixed too', { partner: 'transit' }, { partner: 'vrouter', interfaces: [] }, R],
    ['secrets compare by value', { partner: 'azure', serviceKey: new Secret('k1') }, { partner: 'azure', serviceKey: 'k1' }, undefined],
    ['an unknown value in a CSP config replaces', aws(), { ...aws(), ownerAccount: new Unknown('acct') }, R],
  ];
  for (const [name, prior, desired, reason] of cases) {
    it(name, () => {
      const decision = partnerConfigReplace('bEndPartnerConfig', prior as never, desired as never);
      if (!reason) expect(decision).toBeUndefined();
      else expect(decision).toEqual({ path: 'bEndPartnerConfig', reason: expect.stringMatching(reason) });
    });
  }

  it('replace.when names the field; a B-End VLAN change at a cloud end replaces too', () => {
    const base = { productName: 'v', rateLimit: 1, contractTermMonths: 1, aEnd: { requestedProductUid: 'a' }, bEnd: { requestedProductUid: 'b', vlan: 10 }, bEndPartnerConfig: aws() };
    expect(vxc.replace.when!.rules(base, { ...base, bEndPartnerConfig: aws('210987654321') }).map((d) => d.path)).toEqual(['bEndPartnerConfig']);
    expect(vxc.replace.when!.rules(base, { ...base, bEnd: { requestedProductUid: 'b', vlan: 11 } }).map((d) => d.path)).toEqual(['bEnd.vlan']);
    // An inner VLAN of -1 is the documented "none": writing it down is no change.
    expect(vxc.replace.when!.rules(base, { ...base, bEnd: { requestedProductUid: 'b', vlan: 10, innerVlan: -1 } })).toEqual([]);
    expect(vxc.replace.when!.rules(base, { ...base, aEnd: { requestedProductUid: 'a2', vlan: 7 } })).toEqual([]);
    expect(vxc.replace.when!.rules({ ...base, aEndPartnerConfig: aws() }, base).map((d) => d.path)).toEqual(['aEndPartnerConfig']);
    // The docs' "on change" column says a change to each of these may replace.
    expect(vxc.replace.when?.inputs).toEqual(['aEndPartnerConfig', 'bEndPartnerConfig', 'bEnd']);
    expect(vxc.replace.deleteFirst).toBe(true);
    expect(vxc.secrets?.paths).toEqual(expect.arrayContaining(['serviceKey', 'bEndPartnerConfig.interfaces[*].bgpConnections[*].password', 'aEndPartnerConfig.peers[*].sharedKey']));
  });
});

describe("a VXC's recorded inputs in the manifest's terms (asDeclared)", () => {
  const base = { productName: 'v', rateLimit: 100, contractTermMonths: 1 as const, aEnd: { requestedProductUid: 'port-a', vlan: 100 } };
  const awsAt = (side: string) => [{ connectType: 'AWS', resource_name: `${side}_csp_connection`, ownerAccount: '123456789012' }];
  const routerAt = (interfaces: unknown[]) => [{ connectType: 'VROUTER', resource_name: 'b_csp_connection', interfaces }];
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]> = [
    ['a VLAN the manifest leaves to the API is whatever it chose', { bEnd: { requestedProductUid: 'p', vlan: 7 } }, {}, { bEnd: { requestedProductUid: 'p' } }, { bEnd: { requestedProductUid: 'p' } }],
    ['a VLAN of 0 asks the API to choose', { bEnd: { requestedProductUid: 'p', vlan: 7 } }, {}, { bEnd: { requestedProductUid: 'p', vlan: 0 } }, { bEnd: { requestedProductUid: 'p', vlan: 0 } }],
    ['another VLAN is a change', { bEnd: { requestedProductUid: 'p', vlan: 7 } }, {}, { bEnd: { requestedProductUid: 'p', vlan: 9 } }, { bEnd: { requestedProductUid: 'p', vlan: 7 } }],
    ["a B-End left out (found by a key) is the API's", { bEnd: { requestedProductUid: 'p', vlan: 7 } }, {}, {}, {}],
    [
      'inner VLAN -1 and vNIC 0 are the defaults',
      { aEnd: { requestedProductUid: 'port-a', vlan: 100, vnicIndex: 0 } },
      {},
      { aEnd: { requestedProductUid: 'port-a', vlan: 100, innerVlan: -1 } },
      { aEnd: { requestedProductUid: 'port-a', vlan: 100, innerVlan: -1 } },
    ],
    ['vNIC 1 left out is a change', { aEnd: { requestedProductUid: 'port-a', vlan: 100, vnicIndex: 1 } }, {}, {}, { aEnd: { requestedProductUid: 'port-a', vlan: 100, vnicIndex: 1 } }],
    ['shutdown false is the default', {}, {}, { shutdown: false }, { shutdown: false }],
    ["a partner config of the kind the API reports at that end is the manifest's", {}, { cspConnections: awsAt('b') }, { bEndPartnerConfig: aws() }, { bEndPartnerConfig: aws() }],
    ['one the API reports at the other end is not', {}, { cspConnections: awsAt('a') }, { bEndPartnerConfig: aws() }, {}],
    [
      "router interfaces the API reports make the manifest's router config the VXC's",
      {},
      { cspConnections: routerAt([{ ipAddresses: ['10.1.0.1/30'] }]) },
      { bEndPartnerConfig: vrouter() },
      { bEndPartnerConfig: vrouter() },
    ],
    ['a router end without interfaces has no config: a first one is a change', {}, { cspConnections: routerAt([]) }, { bEndPartnerConfig: vrouter() }, {}],
  ];
  it.each(cases)('%s', (_name, recorded, outputs, desired, expected) => {
    const declared = vxc.diff!.asDeclared!({ ...base, ...recorded } as never, outputs as never, { ...base, ...desired } as never);
    expect(declared).toEqual({ ...base, ...expected });
  });
});

describe('partner configs on the wire', () => {
  it("sends an Azure peering's peer_asn as a string, as the vendor SDK's PartnerOrderAzurePeeringConfig does", async () => {
    const cfg = { partner: 'azure' as const, serviceKey: 'k', peers: [{ type: 'private' as const, peerAsn: 64512, primarySubnet: '192.168.100.0/30', vlan: 300 }] };
    const wire = await wirePartnerConfig({} as never, cfg, undefined);
    expect(wire).toEqual({ connectType: 'AZURE', serviceKey: 'k', peers: [{ type: 'private', peer_asn: '64512', primary_subnet: '192.168.100.0/30', vlan: 300 }] });
  });
});

describe('Vxc against the sandbox', () => {
  let sandbox: Sandbox;
  let ctx: Awaited<ReturnType<typeof interconnectContext>>;
  let portUid: string;
  let mcrUid: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ provisioningMs: 0 });
    ctx = await interconnectContext(sandbox.url);
    portUid = await makePort(ctx, 'vxc-port');
    mcrUid = (await mcr.create(ctx, { productName: 'vxc-mcr', portSpeed: 1000, locationId: 2, contractTermMonths: 1 })).id;
    await mcrPrefixFilterList.create(ctx, { mcrId: mcrUid, description: 'from-peer', addressFamily: 'IPv4', entries: [{ action: 'permit', prefix: '10.0.0.0/8', le: 24 }] });
  });
  afterAll(async () => sandbox.close());

  const toMcr = (cfg = vrouter()) => ({
    productName: 'port-to-mcr',
    rateLimit: 100,
    contractTermMonths: 1,
    aEnd: { requestedProductUid: portUid, vlan: 200 },
    bEnd: { requestedProductUid: mcrUid },
    bEndPartnerConfig: cfg,
  });

  it('a vrouter change resolves prefix list names to ids and is one modify call', async () => {
    const created = await vxc.create(ctx, toMcr());
    const desired = toMcr(vrouter(64600, 'from-peer'));
    expect(vxc.replace.when!.rules(toMcr(), desired)).toEqual([]);
    const puts: unknown[] = [];
    const put = ctx.client.put.bind(ctx.client);
    ctx.client.put = (async (path: string, body: unknown) => {
      puts.push({ path, body });
      return put(path, body);
    }) as typeof ctx.client.put;
    try {
      await vxc.update(ctx, created.id, { inputs: toMcr(), outputs: created.outputs }, desired);
    } finally {
      ctx.client.put = put;
    }
    expect(puts).toHaveLength(1);
    const body = (puts[0] as { path: string; body: { bEndConfig: { interfaces: Array<{ bgpConnections: Array<Record<string, unknown>> }> } } }).body;
    expect((puts[0] as { path: string }).path).toBe(`/v3/product/vxc/${created.id}`);
    expect(body.bEndConfig.interfaces[0].bgpConnections[0]).toMatchObject({ peerAsn: 64600, importWhitelist: expect.any(Number) });
    const current = await ctx.client.get<{ resources: { csp_connection: unknown } }>(`/v2/product/${created.id}`);
    expect(JSON.stringify(current.data.resources.csp_connection)).toContain('64600');
    await vxc.delete(ctx, created.id, { inputs: desired, outputs: created.outputs });
  });

  /** Runs `run` counting the PUTs it sends, and the partner config keys they carry. */
  async function countingPuts<T>(run: () => Promise<T>): Promise<{ result: T; puts: Array<Record<string, unknown>> }> {
    const put = ctx.client.put.bind(ctx.client);
    const puts: Array<Record<string, unknown>> = [];
    ctx.client.put = (async (path: string, body: unknown) => {
      puts.push(body as Record<string, unknown>);
      return put(path, body);
    }) as typeof ctx.client.put;
    try {
      return { result: await run(), puts };
    } finally {
      ctx.client.put = put;
    }
  }

  it('a first router config, on a VXC made without one, is sent in one modify call', async () => {
    const { bEndPartnerConfig: _, ...bare } = toMcr();
    const created = await vxc.create(ctx, bare);
    const desired = toMcr(vrouter(64999));
    expect(vxc.replace.when!.rules(bare, desired)).toEqual([]);
    expect(vxc.diff!.asDeclared!(bare, created.outputs, desired).bEndPartnerConfig).toBeUndefined();
    const { result: updated, puts } = await countingPuts(() => vxc.update(ctx, created.id, { inputs: bare, outputs: created.outputs }, desired));
    expect(puts).toHaveLength(1);
    const interfaces = (updated.cspConnections ?? []).flatMap((c) => (c.interfaces as Array<{ bgpConnections: Array<{ peerAsn: number }> }> | undefined) ?? []);
    expect(interfaces.flatMap((i) => i.bgpConnections.map((b) => b.peerAsn))).toEqual([64999]);
    await vxc.delete(ctx, created.id, { inputs: desired, outputs: created.outputs });
  });

  it("the A-End's router config, added to a VXC made without one, is sent and lands on the VXC", async () => {
    const bare = { productName: 'mcr-to-port', rateLimit: 100, contractTermMonths: 1 as const, aEnd: { requestedProductUid: mcrUid }, bEnd: { requestedProductUid: portUid, vlan: 210 } };
    const created = await vxc.create(ctx, bare);
    const desired = { ...bare, aEndPartnerConfig: { partner: 'a-end' as const, interfaces: vrouter(64777).interfaces } };
    expect(vxc.replace.when!.rules(bare, desired)).toEqual([]);
    const { puts } = await countingPuts(() => vxc.update(ctx, created.id, { inputs: bare, outputs: created.outputs }, desired));
    expect(puts).toHaveLength(1);
    const current = await ctx.client.get<{ resources: { csp_connection: unknown } }>(`/v2/product/${created.id}`);
    expect(JSON.stringify(current.data.resources.csp_connection)).toContain('64777');
    await vxc.delete(ctx, created.id, { inputs: desired, outputs: created.outputs });
  });

  it("a router config the API reports, on a VXC recorded without one (imported), is the manifest's: a rename sends no config", async () => {
    const created = await vxc.create(ctx, toMcr());
    const imported = (await vxc.read(ctx, created.id))!;
    expect(imported.bEndPartnerConfig).toBeUndefined();
    const { bEndPartnerConfig: _, ...recorded } = { ...toMcr(), aEnd: imported.aEnd, bEnd: imported.bEnd };
    expect(vxc.diff!.asDeclared!(recorded, imported, toMcr()).bEndPartnerConfig).toEqual(toMcr().bEndPartnerConfig);
    const renamed = { ...toMcr(), productName: 'port-to-mcr-2' };
    const { puts } = await countingPuts(() => vxc.update(ctx, created.id, { inputs: recorded, outputs: imported }, renamed));
    expect(puts).toEqual([expect.objectContaining({ name: 'port-to-mcr-2' })]);
    expect(puts[0]).not.toHaveProperty('bEndConfig');
    expect(puts[0]).not.toHaveProperty('bEndVlan');
    await vxc.delete(ctx, created.id, { inputs: renamed, outputs: created.outputs });
  });

  it('a shutdown change is sent, and an unknown prefix list name is a clear error', async () => {
    const created = await vxc.create(ctx, toMcr());
    const down = await vxc.update(ctx, created.id, { inputs: toMcr(), outputs: created.outputs }, { ...toMcr(), shutdown: true });
    expect(down.shutdown).toBe(true);
    expect((await ctx.client.get<{ shutdown: boolean }>(`/v2/product/${created.id}`)).data.shutdown).toBe(true);
    await expect(vxc.update(ctx, created.id, { inputs: toMcr(), outputs: created.outputs }, toMcr(vrouter(64512, 'no-such-list')))).rejects.toThrow(/prefix filter list "no-such-list" does not exist/);
    await vxc.delete(ctx, created.id, { inputs: toMcr(), outputs: created.outputs });
  });

  it('an end left to the API (allocated VLAN) reads back without a change; an import reports it', async () => {
    const inputs = { ...toMcr(), aEnd: { requestedProductUid: portUid } };
    const created = await vxc.create(ctx, inputs);
    const read = await vxc.read(ctx, created.id, { inputs, outputs: created.outputs });
    expect(read!.aEnd).toEqual({ requestedProductUid: portUid });
    const imported = await vxc.read(ctx, created.id);
    expect(imported!.aEnd).toEqual({ requestedProductUid: portUid, vlan: expect.any(Number) });
    expect(imported!.bEndPartnerConfig).toBeUndefined();
    await vxc.delete(ctx, created.id, { inputs, outputs: created.outputs });
  });

  it('a rotated partner port keeps the requested B-End and warns', async () => {
    const awsUid = await awsPort(ctx);
    const inputs = { productName: 'to-aws', rateLimit: 50, contractTermMonths: 1, aEnd: { requestedProductUid: portUid, vlan: 300 }, bEnd: { requestedProductUid: awsUid }, bEndPartnerConfig: aws() };
    const created = await vxc.create(ctx, inputs);
    await fetch(`${sandbox.url}/_sandbox/rotate-partner-port`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ productUid: created.id }) });
    ctx.warnings.length = 0;
    const read = await vxc.read(ctx, created.id, { inputs, outputs: created.outputs });
    expect(read!.bEnd!.requestedProductUid).toBe(awsUid);
    expect((read!.bEndCurrent as { productUid: string }).productUid).not.toBe(awsUid);
    expect(ctx.warnings).toEqual([ROTATED_WARNING]);
    await vxc.delete(ctx, created.id, { inputs, outputs: created.outputs });
  });

  it('a delete-first replacement on the same VLAN waits for the VLAN to be released', async () => {
    await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provisioningMs: 400 }) });
    try {
      const inputs = { ...toMcr(), aEnd: { requestedProductUid: portUid, vlan: 400 } };
      const first = await vxc.create(ctx, inputs);
      await vxc.delete(ctx, first.id, { inputs, outputs: first.outputs });
      await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
      const second = await vxc.create(ctx, inputs);
      const calls = (await (await fetch(`${sandbox.url}/_sandbox/calls?provider=interconnect`)).json()) as Array<{ path: string; status: number }>;
      expect(calls.filter((c) => c.path === '/v3/networkdesign/validate' && c.status === 400).length).toBeGreaterThan(0);
      expect(second.id).not.toBe(first.id);
      expect((second.outputs.aEndCurrent as { vlan: number }).vlan).toBe(400);
      await vxc.delete(ctx, second.id, { inputs, outputs: second.outputs });
    } finally {
      await fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provisioningMs: 0 }) });
    }
  });

  it('a VLAN held by a live VXC fails at once instead of waiting', async () => {
    const inputs = { ...toMcr(), aEnd: { requestedProductUid: portUid, vlan: 500 } };
    const first = await vxc.create(ctx, inputs);
    const started = Date.now();
    await expect(vxc.create(await interconnectContext(sandbox.url, 'clash', 20_000), inputs)).rejects.toThrow(/VLAN 500 is not available/);
    expect(Date.now() - started).toBeLessThan(5_000);
    await vxc.delete(ctx, first.id, { inputs, outputs: first.outputs });
  });
});
