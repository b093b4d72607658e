import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server.js';
import { Api, startWithClient } from './helpers.js';

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await startWithClient());
});
afterAll(() => sandbox.close());

describe('locations', () => {
  it('lists at least 20 locations in at least 5 metros, Equinix SY1 as id 2', async () => {
    const r = await api.get('/v3/locations');
    const locations: any[] = r.body.data;
    expect(locations.length).toBeGreaterThanOrEqual(20);
    expect(new Set(locations.map((l) => l.metro)).size).toBeGreaterThanOrEqual(5);
    const sy1 = locations.find((l) => l.id === 2);
    expect(sy1).toMatchObject({ name: 'Equinix SY1', metro: 'Sydney', market: 'AU', status: 'Active', address: { suburb: 'Mascot' } });
    expect(sy1.diversityZones.red.megaportSpeedMbps).toContain(10000);
    expect(sy1.diversityZones.blue.mcrSpeedMbps).toContain(100000);
  });

  it('filters by repeated locationStatuses and reports non-active sites', async () => {
    const all: any[] = (await api.get('/v3/locations')).body.data;
    expect(new Set(all.map((l) => l.status))).toEqual(new Set(['Active', 'Deployment', 'Restricted', 'Extended', 'New', 'Expired']));
    const some: any[] = (await api.get('/v3/locations?locationStatuses=Restricted&locationStatuses=Expired')).body.data;
    expect(some.length).toBeGreaterThan(0);
    expect(some.every((l) => l.status === 'Restricted' || l.status === 'Expired')).toBe(true);
  });

  it('lists market codes by network region', async () => {
    const regions: any[] = (await api.get('/v2/networkRegions')).body.data;
    const mp1 = regions.find((r) => r.networkRegion === 'MP1');
    expect(mp1.countries.map((c: any) => c.prefix)).toEqual(expect.arrayContaining(['AU', 'SG', 'US']));
  });

  it("gives each country every field of the SDK's Country: an ISO alpha-3 code, prefix, name and site count", async () => {
    const regions: any[] = (await api.get('/v2/networkRegions')).body.data;
    const countries: any[] = regions.find((r) => r.networkRegion === 'MP1').countries;
    expect(countries.find((c) => c.prefix === 'AU')).toEqual({ code: 'AUS', prefix: 'AU', name: 'Australia', siteCount: expect.any(Number) });
    for (const c of countries) expect(c.code, c.prefix).toMatch(/^[A-Z]{3}$/);
  });
});

describe('partner ports', () => {
  it('covers every connect type in several metros, a few closed to VXCs', async () => {
    const ports: any[] = (await api.get('/v2/dropdowns/partner/megaports')).body.data;
    for (const type of ['AWS', 'AWSHC', 'AZURE', 'GOOGLE', 'ORACLE', 'OUTSCALE', 'IBM', 'TRANSIT', 'FRANCEIX']) {
      expect(
        ports.some((p) => p.connectType === type),
        type,
      ).toBe(true);
    }
    const awsLocations = new Set(ports.filter((p) => p.connectType === 'AWS').map((p) => p.locationId));
    expect(awsLocations.size).toBeGreaterThanOrEqual(5);
    expect(ports.some((p) => p.vxcPermitted === false)).toBe(true);
    expect(ports[0]).toEqual(
      expect.objectContaining({
        productUid: expect.any(String),
        title: expect.any(String),
        companyName: expect.any(String),
        rank: expect.any(Number),
        speed: expect.any(Number),
        diversityZone: expect.stringMatching(/red|blue/),
      }),
    );
  });

  it('keeps seeded partner port UIDs stable across sandboxes', async () => {
    const other = await startWithClient();
    const a = (await api.get('/v2/dropdowns/partner/megaports')).body.data.map((p: any) => p.productUid);
    const b = (await other.api.get('/v2/dropdowns/partner/megaports')).body.data.map((p: any) => p.productUid);
    await other.sandbox.close();
    expect(b).toEqual(a);
  });

  it('honours the optional connectType and vxcPermitted filters', async () => {
    const ports: any[] = (await api.get('/v2/dropdowns/partner/megaports?connectType=TRANSIT&vxcPermitted=true')).body.data;
    expect(ports.length).toBeGreaterThan(0);
    expect(ports.every((p) => p.connectType === 'TRANSIT' && p.vxcPermitted)).toBe(true);
  });

  it('looks up Azure service keys: primary and secondary ports in one metro', async () => {
    const r = await api.get('/v2/secure/azure/3e2480b2-1c4b-4c2f-9f0a-6c8f2b1e7a11');
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Successful lookup');
    expect(r.body.data.connectType).toBe('AZURE');
    const types = r.body.data.megaports.map((m: any) => m.type).sort();
    expect(types).toEqual(['primary', 'secondary']);
    expect(r.body.data.peers.length).toBe(2);
  });

  it('looks up Google pairing keys by region and zone', async () => {
    const r = await api.get('/v2/secure/google/7e51371e-72a3-40b5-b844-2e3efefaee59/australia-southeast1/2');
    expect(r.status).toBe(200);
    expect(r.body.data.megaports.length).toBeGreaterThan(0);
    expect(r.body.data.megaports.every((m: any) => m.vxc === null && m.locationId === 3)).toBe(true);
  });

  it('looks up Oracle virtual circuits by region, and refuses malformed keys', async () => {
    const r = await api.get('/v2/secure/oracle/ocid1.virtualcircuit.oc1.ap-sydney-1.aaaabbbbcccc');
    expect(r.body.data.megaports.length).toBeGreaterThan(0);
    expect((await api.get('/v2/secure/oracle/not-an-ocid')).status).toBe(400);
    expect((await api.get('/v2/secure/azure/not-a-uuid')).status).toBe(400);
    expect((await api.get('/v2/secure/aws/anything')).status).toBe(404);
  });
});

describe('MVE catalogue and IX points', () => {
  it('lists images of at least four vendors with available sizes', async () => {
    const r = await api.get('/v4/product/mve/images');
    const products: any[] = r.body.data.mveImages;
    expect(new Set(products.map((p) => p.vendor)).size).toBeGreaterThanOrEqual(4);
    const image = products[0].images[0];
    expect(image).toEqual(expect.objectContaining({ id: expect.any(Number), version: expect.any(String), releaseImage: expect.any(Boolean) }));
    expect(image.availableSizes).toContain('MVE 2/8');
  });

  it('lists the four MVE sizes', async () => {
    const sizes: any[] = (await api.get('/v3/product/mve/variants')).body.data;
    expect(sizes.map((s) => s.size)).toEqual(['SMALL', 'MEDIUM', 'LARGE', 'X_LARGE_12']);
    expect(sizes[3]).toEqual({ size: 'X_LARGE_12', label: 'MVE 12/48', cpuCoreCount: 12, ramGB: 48 });
  });

  it('lists IX points with their networks', async () => {
    const ixps: any[] = (await api.get('/v2/ixp')).body.data;
    expect(ixps.find((i) => i.name === 'Sydney IX')).toMatchObject({ metro: 'Sydney', asn: expect.any(Number), ipv4_network: expect.any(String), ipv6_network: expect.any(String) });
  });
});
