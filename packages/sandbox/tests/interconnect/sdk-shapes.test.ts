/**
 * The sandbox's replies have the shape the vendor's Go SDK (megaportgo) decodes: for each endpoint
 * the SDK calls, every field its response struct declares is there, with the JSON type it
 * declares (or null, which Go takes for any type), under its name in any letter case, as Go matches keys. A value of another type fails the SDK's whole
 * decode; a missing field is an empty value the SDK's user would act on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server.js';
import { type Api, startWithClient } from './helpers.js';
import { MAY_BE_ABSENT, SDK_RESPONSES, type JsonType, type ResponseFields } from '../support/interconnect-sdk-facts.js';

let sandbox: Sandbox;
let api: Api;
beforeAll(async () => {
  ({ sandbox, api } = await startWithClient());
});
afterAll(() => sandbox.close());

type Struct = keyof typeof SDK_RESPONSES;

/** Whether a JSON value is of the declared type; null is any type. */
function isType(value: unknown, type: JsonType): boolean {
  if (value === null) return true;
  if (type === 'time' || type === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && !Array.isArray(value);
  return typeof value === type;
}

/** What in `value` differs from the struct `fields`: `missing <path>` or `<path>: <type> expected, got <json>`. */
function mismatches(value: unknown, fields: ResponseFields, absent: string[], at = ''): string[] {
  if (value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) return [`${at || '.'}: object expected, got ${JSON.stringify(value)}`];
  const record = value as Record<string, unknown>;
  return Object.entries(fields).flatMap(([name, type]) => {
    const path = `${at}${name}`;
    // Go matches a key to a field without regard to case (vxcPermitted fills vxcpermitted).
    const key = name in record ? name : Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
    if (key === undefined) return absent.includes(path) ? [] : [`missing ${path}`];
    const v = record[key];
    if (typeof type === 'string') return isType(v, type) ? [] : [`${path}: ${type} expected, got ${JSON.stringify(v)}`];
    if (!Array.isArray(type)) return mismatches(v, type, absent, `${path}.`);
    if (v === null) return [];
    if (!Array.isArray(v)) return [`${path}: array expected, got ${JSON.stringify(v)}`];
    const [item] = type;
    return v.flatMap((element, i) =>
      typeof item === 'string' ? (isType(element, item) ? [] : [`${path}[${i}]: ${item} expected, got ${JSON.stringify(element)}`]) : mismatches(element, item, absent, `${path}[].`),
    );
  });
}

/** The mismatches of every item of `items` against a struct, without repeats. */
function against(struct: Struct, ...items: unknown[]): string[] {
  expect(items.length, `no ${struct} to check`).toBeGreaterThan(0);
  return [...new Set(items.flatMap((item) => mismatches(item, SDK_RESPONSES[struct], MAY_BE_ABSENT[struct] ?? [])))];
}

/** The envelope's data of a GET that must succeed. */
async function data(path: string): Promise<any> {
  const reply = await api.get(path);
  expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body.data;
}

describe("the sandbox's replies decode as megaportgo's response structs", () => {
  it('the comparison finds a value of another type, a missing field and a bad list item; null and a key in other case pass', () => {
    const reply = { ...Object.fromEntries(Object.keys(SDK_RESPONSES.mveSize).map((k) => [k, null])), cpuCoreCount: '2', RAMGB: 8 };
    expect(mismatches(reply, SDK_RESPONSES.mveSize, [])).toEqual(['cpuCoreCount: number expected, got "2"']);
    expect(mismatches({ resourceTags: [{ key: 'k' }, 'v'] }, SDK_RESPONSES.tags, [])).toEqual(['missing resourceTags[].value', 'resourceTags[].: object expected, got "v"']);
  });

  it('catalogue: locations and their diversity zones, partner ports, MVE images and sizes, exchanges', async () => {
    const locations = await data('/v3/locations');
    expect.soft(against('location', ...locations)).toEqual([]);
    expect.soft(against('diversityZone', ...locations.flatMap((l: any) => Object.values(l.diversityZones ?? {})))).toEqual([]);
    expect.soft(against('partnerPort', ...(await data('/v2/dropdowns/partner/megaports')))).toEqual([]);
    expect.soft(against('mveImageProduct', ...(await data('/v4/product/mve/images')).mveImages)).toEqual([]);
    expect.soft(against('mveSize', ...(await data('/v3/product/mve/variants')))).toEqual([]);
    expect.soft(against('ixp', ...(await data('/v2/ixp')))).toEqual([]);
  });

  it('products: a port, an MCR with an IPsec add-on, an MVE, a VXC and an IX, alone and in the product list', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    expect((await api.post(`/v3/product/${mcr}/addon`, { addOnType: 'IP_SEC', tunnelCount: 10 })).status).toBe(200);
    const [mveEntry] = await api.order([
      { productName: 'shape-mve', term: 1, productType: 'MVE', locationId: 2, vendorConfig: { vendor: 'Cisco', imageId: 83, productSize: 'SMALL' }, vnics: [{ description: 'Data Plane', vlan: 0 }] },
    ]);
    expect.soft(against('orderConfirmation', mveEntry)).toEqual([]);
    const vxc = await api.buyVxc(port, mcr);
    const [ixEntry] = await api.order([
      { productUid: port, associatedIxs: [{ productName: 'shape-ix', networkServiceType: 'Sydney IX', asn: 64600, macAddress: '00:11:22:33:44:55', rateLimit: 500, vlan: 2001, shutdown: false }] },
    ]);
    expect.soft(against('port', await data(`/v2/product/${port}`))).toEqual([]);
    expect.soft(against('mcr', await data(`/v2/product/${mcr}`))).toEqual([]);
    expect.soft(against('mve', await data(`/v2/product/${mveEntry.technicalServiceUid}`))).toEqual([]);
    expect.soft(against('vxc', await data(`/v2/product/${vxc}`))).toEqual([]);
    expect.soft(against('ix', await data(`/v2/product/${ixEntry.technicalServiceUid}`))).toEqual([]);
    const list = await data('/v2/products');
    const byType = (type: string) => list.filter((p: any) => String(p.productType).toUpperCase() === type);
    expect.soft(against('port', ...byType('MEGAPORT'))).toEqual([]);
    expect.soft(against('mcr', ...byType('MCR2'))).toEqual([]);
    expect.soft(against('mve', ...byType('MVE'))).toEqual([]);
    expect.soft(against('vxc', ...list.flatMap((p: any) => p.associatedVxcs))).toEqual([]);
    expect.soft(against('ix', ...list.flatMap((p: any) => p.associatedIxs))).toEqual([]);
    expect.soft(against('tags', await data(`/v2/product/${port}/tags`))).toEqual([]);
  });

  it("an MCR's prefix filter lists, and service keys", async () => {
    const mcr = await api.buyMcr();
    const body = { id: 0, description: 'shape', addressFamily: 'IPv4', entries: [{ action: 'permit', prefix: '10.0.1.0/24', ge: 24, le: 32 }] };
    const { id } = (await api.post(`/v2/product/mcr2/${mcr}/prefixList`, body)).body.data;
    expect.soft(against('prefixListSummary', ...(await data(`/v2/product/mcr2/${mcr}/prefixLists?`)))).toEqual([]);
    expect.soft(against('prefixList', await data(`/v2/product/mcr2/${mcr}/prefixList/${id}`))).toEqual([]);
    const port = await api.buyPort();
    const { key } = (
      await api.post('/v2/service/key', { productUid: port, singleUse: true, maxSpeed: 500, vlan: 321, description: 'shape', validFor: { start: Date.now(), end: Date.now() + 86_400_000 } })
    ).body.data;
    expect.soft(against('serviceKey', await data(`/v2/service/key?key=${key}`))).toEqual([]);
    expect.soft(against('serviceKey', ...(await data(`/v2/service/key?productIdOrUid=${port}`)))).toEqual([]);
  });
});
