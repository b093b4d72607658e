import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server.js';
import { Api, http, startWithClient, vxcOrder } from './helpers.js';

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await startWithClient());
});
afterAll(() => sandbox.close());

const list = (description: string) => ({
  id: 0,
  description,
  addressFamily: 'IPv4',
  entries: [
    { action: 'permit', prefix: '10.0.1.0/24', ge: 24, le: 32 },
    { action: 'deny', prefix: '10.0.2.0/24' },
  ],
});

const bgpWith = (key: string, id: number) => ({
  interfaces: [{ ipAddresses: ['10.9.0.1/30'], bgpConnections: [{ peerAsn: 65001, localIpAddress: '10.9.0.1', peerIpAddress: '10.9.0.2', [key]: id }] }],
});

describe('MCR prefix filter lists', () => {
  it('creates, lists, reads (ge/le as strings), updates and deletes a list', async () => {
    const mcr = await api.buyMcr();
    const created = await api.post(`/v2/product/mcr2/${mcr}/prefixList`, list('allow-lan'));
    expect(created.status).toBe(200);
    expect(created.body.message).toBe('Created a new prefix list for MCR');
    const id = created.body.data.id;
    expect(Number.isInteger(id)).toBe(true);

    const summary = await api.get(`/v2/product/mcr2/${mcr}/prefixLists?`);
    expect(summary.body.data).toEqual([{ id, description: 'allow-lan', addressFamily: 'IPv4' }]);

    const got = await api.get(`/v2/product/mcr2/${mcr}/prefixList/${id}`);
    expect(got.body.data.entries).toEqual([
      { action: 'permit', prefix: '10.0.1.0/24', ge: '24', le: '32' },
      { action: 'deny', prefix: '10.0.2.0/24' },
    ]);

    const updated = await api.put(`/v2/product/mcr2/${mcr}/prefixList/${id}`, { ...list('allow-lan-v2'), entries: [{ action: 'permit', prefix: '192.168.0.0/16', le: 24 }] });
    expect(updated.status).toBe(200);
    const after = (await api.get(`/v2/product/mcr2/${mcr}/prefixList/${id}`)).body.data;
    expect(after).toMatchObject({ description: 'allow-lan-v2', entries: [{ prefix: '192.168.0.0/16', le: '24' }] });

    expect((await api.delete(`/v2/product/mcr2/${mcr}/prefixList/${id}`)).status).toBe(200);
    expect((await api.get(`/v2/product/mcr2/${mcr}/prefixList/${id}`)).status).toBe(404);
    expect((await api.delete(`/v2/product/mcr2/${mcr}/prefixList/${id}`)).status).toBe(404);
  });

  it('answers create and update with the entries as GET gives them, ge/le as strings (the SDK decodes all three alike)', async () => {
    const mcr = await api.buyMcr();
    const created = (await api.post(`/v2/product/mcr2/${mcr}/prefixList`, list('echo'))).body.data;
    const expected = [
      { action: 'permit', prefix: '10.0.1.0/24', ge: '24', le: '32' },
      { action: 'deny', prefix: '10.0.2.0/24' },
    ];
    expect(created).toEqual({ id: created.id, description: 'echo', addressFamily: 'IPv4', entries: expected });
    const updated = (await api.put(`/v2/product/mcr2/${mcr}/prefixList/${created.id}`, { ...list('echo-v2'), entries: [{ action: 'permit', prefix: '192.168.0.0/16', ge: 20, le: 24 }] })).body.data;
    expect(updated.entries).toEqual([{ action: 'permit', prefix: '192.168.0.0/16', ge: '20', le: '24' }]);
  });

  it('validates family, prefixes and ge/le', async () => {
    const mcr = await api.buyMcr();
    const r = await api.post(`/v2/product/mcr2/${mcr}/prefixList`, {
      id: 0,
      description: 'bad',
      addressFamily: 'IPv4',
      entries: [
        { action: 'allow', prefix: '2001:db8::/32' },
        { action: 'permit', prefix: '10.0.0.0/24', ge: 16 },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.data.map((e: any) => e.error)).toEqual([
      'entries[0].action must be permit or deny',
      'entries[0].prefix 2001:db8::/32 is not an IPv4 prefix',
      'entries[1].ge must be between the prefix length and 32',
    ]);
  });

  it('answers 409 on DELETE while a VXC BGP connection references the list', async () => {
    const mcr = await api.buyMcr();
    const port = await api.buyPort();
    const id = (await api.post(`/v2/product/mcr2/${mcr}/prefixList`, list('import-only'))).body.data.id;
    const unknownRef = await api.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, {}, {}, { partnerConfig: bgpWith('importWhitelist', 999999) })]);
    expect(unknownRef.body.data[0].error).toMatch(/prefix filter list 999999 does not exist/);
    const vxc = await api.buyVxc(port, mcr, {}, {}, { partnerConfig: bgpWith('importWhitelist', id) });
    const refused = await api.delete(`/v2/product/mcr2/${mcr}/prefixList/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(vxc);
    await api.post(`/v3/product/${vxc}/action/CANCEL_NOW`);
    expect((await api.delete(`/v2/product/mcr2/${mcr}/prefixList/${id}`)).status).toBe(200);
  });
});

describe('MCR IPsec add-on', () => {
  const tunnel = (n: number) => ({
    interfaces: Array.from({ length: n }, (_, i) => ({
      interfaceType: 'ipSecTunnel',
      ipAddresses: [`169.254.${i}.1/30`],
      ipSecTunnelOptions: { sourceIpAddress: '203.0.113.1', destinationIpAddress: '198.51.100.1', preSharedKey: 'psk-secret-123' },
    })),
  });

  it('appears in the MCR addOns, limits tunnels and refuses disabling while tunnels exist', async () => {
    const mcr = await api.buyMcr();
    const transit = (await api.get('/v2/dropdowns/partner/megaports?connectType=TRANSIT')).body.data.find((p: any) => p.locationId === 2);
    const order = (n: number) => vxcOrder(mcr, transit.productUid, {}, { partnerConfig: tunnel(n) }, { partnerConfig: { connectType: 'TRANSIT' } });
    const noAddOn = await api.post('/v3/networkdesign/validate', [order(1)]);
    expect(noAddOn.body.data[0].error).toMatch(/no IPsec add-on/);

    expect((await api.post(`/v3/product/${mcr}/addon`, { addOnType: 'IP_SEC', tunnelCount: 15 })).status).toBe(400);
    expect((await api.post(`/v3/product/${mcr}/addon`, { addOnType: 'IP_SEC', tunnelCount: 10 })).status).toBe(200);
    const addOns = (await api.product(mcr)).addOns;
    expect(addOns).toEqual([expect.objectContaining({ addOnType: 'IP_SEC', tunnelCount: 10, addOnUid: expect.any(String) })]);
    const addOnUid = addOns[0].addOnUid;
    expect((await api.post(`/v3/product/${mcr}/addon`, { addOnType: 'IP_SEC', tunnelCount: 10 })).status).toBe(400);

    expect((await api.post('/v3/networkdesign/validate', [order(11)])).status).toBe(400);
    const [entry] = await api.order([order(2)]);
    const vxc = await api.product(entry.vxcJTechnicalServiceUid);
    const csp = [vxc.resources.csp_connection].flat().find((c: any) => c.connectType === 'VROUTER');
    expect(csp.interfaces).toHaveLength(2);
    expect(csp.interfaces[0].ipSecTunnelOptions.preSharedKey).toBeUndefined();

    const refused = await api.put(`/v3/product/${mcr}/addon/${addOnUid}`, { addOnType: 'IP_SEC', tunnelCount: 0 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Invalid ipsec_tunnels. Requested limit is less than number of configured tunnels.');
    expect((await api.put(`/v3/product/${mcr}/addon/${addOnUid}`, { addOnType: 'IP_SEC', tunnelCount: 20 })).status).toBe(200);
    expect((await api.product(mcr)).addOns[0].tunnelCount).toBe(20);

    await api.post(`/v3/product/${entry.vxcJTechnicalServiceUid}/action/CANCEL_NOW`);
    expect((await api.put(`/v3/product/${mcr}/addon/${addOnUid}`, { addOnType: 'IP_SEC', tunnelCount: 0 })).status).toBe(200);
    expect((await api.product(mcr)).addOns).toEqual([]);
    expect((await api.put(`/v3/product/${mcr}/addon/${addOnUid}`, { tunnelCount: 10 })).status).toBe(404);
  });

  it('rejects IPsec options sent as an array, as the real API does', async () => {
    const mcr = await api.buyMcr({ addOns: [{ addOnType: 'IP_SEC', tunnelCount: 10, packCount: 1 }] });
    const port = await api.buyPort();
    const r = await api.post('/v3/networkdesign/validate', [
      vxcOrder(mcr, port, {}, { partnerConfig: { interfaces: [{ interfaceType: 'ipSecTunnel', ipSecTunnelOptions: [{ sourceIpAddress: '203.0.113.1' }] }] } }),
    ]);
    expect(r.body.data[0].error).toBe('Interfaces could not be parsed for DHCP validation');
  });
});

describe('service keys', () => {
  it('creates a key, reads it with ?key= and the escaped %3Fkey= path, lists by product and retires it', async () => {
    const port = await api.buyPort();
    const created = await api.post('/v2/service/key', {
      productUid: port,
      singleUse: true,
      maxSpeed: 500,
      vlan: 321,
      description: 'for partner',
      validFor: { start: Date.now() - 1000, end: Date.now() + 86_400_000 },
      ValidFor: { StartTime: '2024-01-01T00:00:00Z' },
    });
    expect(created.status).toBe(200);
    const key = created.body.data.key;
    expect(created.body.message).toBe(`New service key [${key}] generated`);
    expect(created.body.data).toMatchObject({ productUid: port, singleUse: true, maxSpeed: 500, vlan: 321, active: true, valid: true, expired: false });

    expect((await api.get(`/v2/service/key?key=${key}`)).body.data.key).toBe(key);
    const escaped = await http(`${api.url}/interconnect/v2/service/key%3Fkey=${key}`, { headers: { authorization: `Bearer ${api.token}` } });
    expect(escaped.status).toBe(200);
    expect(escaped.body.data.key).toBe(key);

    const byProduct = await api.get(`/v2/service/key?productIdOrUid=${port}`);
    expect(byProduct.body.message).toMatch(/^Found \[1\] service keys for company \[\d+\]$/);
    expect(byProduct.body.data.map((k: any) => k.key)).toEqual([key]);

    const mcr = await api.buyMcr();
    const vxc = await api.buyVxc(mcr, '', { serviceKey: key, rateLimit: 100 });
    const read = await api.product(vxc);
    expect(read.bEnd).toMatchObject({ productUid: port, vlan: 321 });
    const reused = await api.post('/v3/networkdesign/validate', [vxcOrder(mcr, '', { serviceKey: key })]);
    expect(reused.body.data[0].error).toMatch(/single-use and has already been used/);

    const retired = await api.put('/v2/service/key', { key, active: false, singleUse: true, productUid: port });
    expect(retired.body).toMatchObject({ message: `Service key [${key}] updated`, data: { active: false, valid: false } });
    expect((await api.delete('/v2/service/key')).status).toBe(405);
    expect((await api.get('/v2/service/key?key=00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('refuses a single-use key without a VLAN and a speed above the port', async () => {
    const port = await api.buyPort({ portSpeed: 1000 });
    expect((await api.post('/v2/service/key', { productUid: port, singleUse: true, maxSpeed: 100 })).status).toBe(400);
    expect((await api.post('/v2/service/key', { productUid: port, singleUse: false, maxSpeed: 5000 })).status).toBe(400);
  });
});
