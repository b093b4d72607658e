import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupFunction } from '../../../src/engine/contracts/lookup.js';
import { getMcrPrefixFilterLists } from '../../../src/lookups/interconnect/get-mcr-prefix-filter-lists.js';
import { getMcrs } from '../../../src/lookups/interconnect/get-mcrs.js';
import { getPartner } from '../../../src/lookups/interconnect/get-partner.js';
import { getVxcs } from '../../../src/lookups/interconnect/get-vxcs.js';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { mcrPrefixFilterList } from '../../../src/resources/interconnect/mcr-prefix-filter-list.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { vxc } from '../../../src/resources/interconnect/vxc.js';
import { startSandbox, type Sandbox } from '@plumb/sandbox';
import { interconnectContext, lookupContext } from '../../support/interconnect-context.js';

let sandbox: Sandbox;
let mcrUid: string;
let portUid: string;
let vxcUids: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ provisioningMs: 0 });
  const ctx = await interconnectContext(sandbox.url);
  mcrUid = (await mcr.create(ctx, { productName: 'lookup-mcr', portSpeed: 1000, locationId: 2, contractTermMonths: 1, asn: 65100 })).id;
  portUid = (await port.create(ctx, { productName: 'lookup-port', portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false })).id;
  await mcrPrefixFilterList.create(ctx, { mcrId: mcrUid, description: 'v4-in', addressFamily: 'IPv4', entries: [{ action: 'permit', prefix: '10.0.0.0/8', ge: 16, le: 24 }] });
  await mcrPrefixFilterList.create(ctx, { mcrId: mcrUid, description: 'v6-in', addressFamily: 'IPv6', entries: [{ action: 'deny', prefix: '2001:db8::/32' }] });
  vxcUids = [];
  for (const vlan of [700, 701]) {
    const created = await vxc.create(ctx, {
      productName: `lookup-vxc-${vlan}`,
      rateLimit: 100,
      contractTermMonths: 1,
      aEnd: { requestedProductUid: portUid, vlan },
      bEnd: { requestedProductUid: mcrUid },
      resourceTags: { vlan: String(vlan) },
    });
    vxcUids.push(created.id);
  }
});
afterAll(async () => sandbox.close());

async function run<R = any>(fn: LookupFunction, raw: Record<string, unknown>): Promise<{ result: R; warnings: string[] }> {
  const ctx = await lookupContext(sandbox.url);
  const result = await fn.invoke(ctx, fn.args.parse(raw));
  const checked = fn.result.safeParse(result);
  expect(checked.success, checked.success ? '' : JSON.stringify(checked.error.issues.slice(0, 3))).toBe(true);
  return { result: result as R, warnings: ctx.warnings };
}

async function calls(): Promise<Array<{ method: string; path: string }>> {
  return (await (await fetch(`${sandbox.url}/_sandbox/calls?provider=interconnect`)).json()) as never;
}

describe('getMcrs', () => {
  it('lists every active MCR when productUid is omitted', async () => {
    const { result } = await run(getMcrs, {});
    expect(result.id).toBe('all');
    expect(result.mcrs.map((m: { productUid: string }) => m.productUid)).toContain(mcrUid);
    expect(result.mcrs.find((m: { productUid: string }) => m.productUid === mcrUid)).toMatchObject({ productName: 'lookup-mcr', asn: 65100, portSpeed: 1000, createDate: expect.stringMatching(/T/) });
  });

  it('one MCR by productUid; a port UID is not an MCR', async () => {
    expect((await run(getMcrs, { productUid: mcrUid })).result).toMatchObject({ id: mcrUid, productUid: mcrUid, mcrs: [{ productUid: mcrUid }] });
    expect((await run(getMcrs, { productUid: portUid })).result.mcrs).toEqual([]);
    expect((await run(getMcrs, { productUid: '00000000-0000-0000-0000-000000000000' })).result.mcrs).toEqual([]);
  });
});

describe('getMcrPrefixFilterLists', () => {
  it('returns every list of the MCR with numeric ge/le', async () => {
    const { result } = await run(getMcrPrefixFilterLists, { mcrId: mcrUid });
    expect(result).toMatchObject({ id: mcrUid, mcrId: mcrUid });
    expect(result.prefixFilterLists).toEqual([
      { id: expect.any(Number), description: 'v4-in', addressFamily: 'IPv4', entries: [{ action: 'permit', prefix: '10.0.0.0/8', ge: 16, le: 24 }] },
      { id: expect.any(Number), description: 'v6-in', addressFamily: 'IPv6', entries: [{ action: 'deny', prefix: '2001:db8::/32' }] },
    ]);
  });

  it('needs mcrId', () => {
    expect(getMcrPrefixFilterLists.args.safeParse({}).success).toBe(false);
  });
});

describe('getVxcs', () => {
  it('lists every active VXC once, without tags by default', async () => {
    await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
    const { result } = await run(getVxcs, {});
    expect(result.vxcs.map((v: { productUid: string }) => v.productUid).sort()).toEqual([...vxcUids].sort());
    expect(result.vxcs[0].resourceTags).toBeUndefined();
    expect(result.vxcs[0].aEndCurrent).toMatchObject({ productUid: portUid });
    expect((await calls()).filter((c) => c.path.endsWith('/tags'))).toHaveLength(0);
  });

  it('includeResourceTags costs one tags call per VXC', async () => {
    await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
    const { result } = await run(getVxcs, { includeResourceTags: true });
    expect(result.includeResourceTags).toBe(true);
    expect(result.vxcs.map((v: { resourceTags: Record<string, string> }) => v.resourceTags.vlan).sort()).toEqual(['700', '701']);
    expect(result.vxcs[0].resourceTags).not.toHaveProperty('plumb-token');
    expect((await calls()).filter((c) => c.method === 'GET' && c.path.endsWith('/tags'))).toHaveLength(vxcUids.length);
  });

  it('productUid picks one VXC, or the VXCs attached to a product', async () => {
    expect((await run(getVxcs, { productUid: vxcUids[0] })).result.vxcs.map((v: { productUid: string }) => v.productUid)).toEqual([vxcUids[0]]);
    expect((await run(getVxcs, { productUid: mcrUid })).result.vxcs).toHaveLength(2);
  });
});

describe('getPartner', () => {
  it('one match: no warning, with rank, speed and vxcPermitted', async () => {
    const { result, warnings } = await run(getPartner, { connectType: 'AWS', locationId: 2, diversityZone: 'blue' });
    expect(result).toMatchObject({ connectType: 'AWS', locationId: 2, diversityZone: 'blue', vxcPermitted: true, rank: expect.any(Number), speed: expect.any(Number) });
    expect(result.id).toBe(result.productUid);
    expect(warnings).toEqual([]);
  });

  it('several matches: the lowest rank, then name, wins and a warning says so', async () => {
    const { result, warnings } = await run(getPartner, { connectType: 'aws', locationId: 2, diversityZone: 'red' });
    const again = await run(getPartner, { companyName: 'aws', connectType: 'AWS', locationId: 2, diversityZone: 'RED' });
    expect(again.result.productUid).toBe(result.productUid);
    expect(warnings).toEqual([expect.stringMatching(/^getPartner: 2 partner ports match; using ".+" \(.+, rank 10\)/)]);
  });

  it('no match is an error naming the filters; an unknown connect type is refused', async () => {
    await expect(run(getPartner, { connectType: 'GOOGLE', locationId: 2 })).rejects.toThrow(/no partner port matches connectType=GOOGLE, locationId=2/);
    expect(getPartner.args.safeParse({ connectType: 'NOPE' }).success).toBe(false);
  });

  it('a port closed to new VXCs is chosen only when nothing open matches, with a warning', async () => {
    const { result, warnings } = await run(getPartner, { connectType: 'AWS', locationId: 130, diversityZone: 'blue' });
    expect(result.vxcPermitted).toBe(false);
    expect(warnings.join('\n')).toMatch(/does not accept new VXCs/);
  });
});
