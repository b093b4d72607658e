import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server.js';
import { Api, partnerPort, startWithClient, vxcOrder } from './helpers.js';

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await startWithClient());
});
afterAll(() => sandbox.close());

const vrouter = (peerAsn = 65001) => ({
  interfaces: [
    {
      ipAddresses: ['10.0.0.1/30'],
      bgpConnections: [{ peerAsn, localIpAddress: '10.0.0.1', peerIpAddress: '10.0.0.2', password: 's3cret', shutdown: false, bfdEnabled: false }],
    },
  ],
});

describe('a VXC between a Port and an MCR', () => {
  it('is bought, read with both ends, and nested under both products', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    const data = await api.order([vxcOrder(port, mcr, { productName: 'port-to-mcr', rateLimit: 500 }, { vlan: 100 }, { partnerConfig: vrouter() })]);
    expect(data[0]).toMatchObject({ vxcJTechnicalServiceUid: expect.any(String), vxc: { provisioningStatus: 'DEPLOYABLE' } });
    const uid = data[0].vxcJTechnicalServiceUid;
    const vxc = await api.product(uid);
    expect(vxc).toMatchObject({
      productType: 'VXC',
      productName: 'port-to-mcr',
      rateLimit: 500,
      provisioningStatus: 'LIVE',
      aEnd: { productUid: port, vlan: 100, innerVlan: null, locationId: 2 },
      bEnd: { productUid: mcr, vlan: expect.any(Number) },
      resources: { vll: { a_vlan: 100, rate_limit_mbps: 500 }, virtual_router: { mcrAsn: 64512 } },
    });
    const csp = vxc.resources.csp_connection;
    expect(csp.connectType).toBe('VROUTER');
    expect(csp.interfaces[0].bgpConnections[0]).toMatchObject({ peerAsn: 65001, peerIpAddress: '10.0.0.2' });
    expect(csp.interfaces[0].bgpConnections[0].password).toBeUndefined();

    const list: any[] = (await api.get('/v2/products')).body.data;
    expect(list.some((p) => p.productType === 'VXC')).toBe(false);
    for (const parent of [port, mcr]) {
      expect(list.find((p) => p.productUid === parent).associatedVxcs.map((v: any) => v.productUid)).toContain(uid);
    }
  });

  it('refuses a VLAN already used on the port, also within one design', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    await api.buyVxc(port, mcr, {}, { vlan: 200 });
    const clash = await api.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, {}, { vlan: 200 })]);
    expect(clash.status).toBe(400);
    expect(clash.body).toMatchObject({ message: 'Validation failed', data: [{ error: expect.stringMatching(/VLAN 200 is not available on .* in use by service/) }] });
    const twice = await api.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, {}, { vlan: 300 }), vxcOrder(port, mcr, {}, { vlan: 300 })]);
    expect(twice.status).toBe(400);
    expect((await api.get(`/v2/product/port/${port}/vlan?vlan=200`)).body.data).toEqual([]);
    expect((await api.get(`/v2/product/port/${port}/vlan?vlan=201`)).body.data).toEqual([201]);
    expect((await api.get(`/v2/product/port/${port}/vlan`)).body.data).not.toContain(200);
  });

  it('refuses unknown ends and a rate above the port speed', async () => {
    const port = await api.buyPort({ portSpeed: 1000 });
    const unknown = await api.post('/v3/networkdesign/validate', [vxcOrder(port, '11111111-2222-4333-8444-555555555555')]);
    expect(unknown.body.data[0].error).toBe('Valid B-End is required');
    const mcr = await api.buyMcr();
    const fast = await api.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, { rateLimit: 5000 })]);
    expect(fast.body.data[0].error).toMatch(/exceeds the A-End capacity of 1000 Mbps/);
  });

  it('echoes every updated field after PUT /v3/product/vxc, including a moved end', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    const otherMcr = await api.buyMcr({ productName: 'mcr-2' });
    const uid = await api.buyVxc(port, mcr, {}, { vlan: 400 });
    const put = await api.put(`/v3/product/vxc/${uid}`, {
      name: 'renamed',
      rateLimit: 250,
      costCentre: 'cc-9',
      shutdown: true,
      term: 12,
      aEndVlan: 401,
      aEndInnerVlan: 55,
      bEndProductUid: otherMcr,
      bEndConfig: vrouter(65010),
    });
    expect(put.status).toBe(200);
    expect(put.body.message).toBe(`Product [${uid}] has been updated`);
    const expected = { productName: 'renamed', rateLimit: 250, costCentre: 'cc-9', shutdown: true, contractTermMonths: 12, aEnd: { vlan: 401, innerVlan: 55 }, bEnd: { productUid: otherMcr } };
    expect(put.body.data).toMatchObject(expected);
    const read = await api.product(uid);
    expect(read).toMatchObject(expected);
    expect(read.resources.csp_connection.interfaces[0].bgpConnections[0].peerAsn).toBe(65010);
    const untag = await api.put(`/v3/product/vxc/${uid}`, { aEndVlan: -1 });
    expect(untag.body.data.aEnd.vlan).toBeNull();
  });
});

describe('cancelling with VXCs attached', () => {
  it('refuses CANCEL_NOW?safeDelete=true while a live VXC is attached', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    const vxc = await api.buyVxc(port, mcr);
    const refused = await api.post(`/v3/product/${port}/action/CANCEL_NOW?safeDelete=true`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(vxc);
    expect((await api.product(port)).provisioningStatus).toBe('CONFIGURED');
    await api.post(`/v3/product/${vxc}/action/CANCEL_NOW`);
    expect((await api.post(`/v3/product/${port}/action/CANCEL_NOW?safeDelete=true`)).status).toBe(200);
  });

  it('takes attached VXCs down with a CANCEL_NOW without safeDelete', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    const vxc = await api.buyVxc(port, mcr);
    await api.post(`/v3/product/${mcr}/action/CANCEL_NOW`);
    expect((await api.product(mcr)).provisioningStatus).toBe('DECOMMISSIONED');
    const after = await api.product(vxc);
    expect(after.provisioningStatus).toBe('DECOMMISSIONED');
    expect(after.resources.vll).toEqual([]);
  });
});

describe('partner ports', () => {
  it('orders an AWS hosted VIF, stores its partner config and refuses B VLAN changes (403)', async () => {
    const aws = await partnerPort(api, (p) => p.connectType === 'AWS' && p.locationId === 2 && p.vxcPermitted);
    const port = await api.buyPort();
    const missing = await api.post('/v3/networkdesign/validate', [vxcOrder(port, aws.productUid)]);
    expect(missing.body.data[0].error).toMatch(/partnerConfig is required for a AWS connection/);
    const cfg = { connectType: 'AWS', type: 'private', ownerAccount: '123456789012', asn: 65000, amazonAsn: 64512, name: 'vif-1' };
    const uid = await api.buyVxc(port, aws.productUid, {}, {}, { partnerConfig: cfg });
    const vxc = await api.product(uid);
    expect(vxc.bEnd).toMatchObject({ productUid: aws.productUid, ownerUid: aws.companyUid, productName: aws.title });
    expect(vxc.resources.csp_connection).toMatchObject({ connectType: 'AWS', ownerAccount: '123456789012', type: 'private', resource_name: 'b_csp_connection' });
    const forbidden = await api.put(`/v3/product/vxc/${uid}`, { bEndVlan: 999 });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe('Only B end owner can change B VLAN');
    const later = await api.post(`/v3/product/${uid}/action/CANCEL`);
    expect(later.status).toBe(200);
    expect((await api.product(uid)).provisioningStatus).toBe('CANCELLED');
  });

  it("reads an AWS end back under the keys of the SDK's CSPConnectionAWS", async () => {
    const aws = await partnerPort(api, (p) => p.connectType === 'AWS' && p.locationId === 2 && p.vxcPermitted);
    const port = await api.buyPort();
    const cfg = {
      connectType: 'AWS',
      type: 'private',
      ownerAccount: '123456789012',
      asn: 65000,
      amazonAsn: 64600,
      authKey: 'bgp-auth-1',
      customerIpAddress: '169.254.10.1/30',
      amazonIpAddress: '169.254.10.2/30',
      name: 'vif-2',
    };
    const uid = await api.buyVxc(port, aws.productUid, {}, {}, { partnerConfig: cfg });
    const csp = (await api.product(uid)).resources.csp_connection;
    expect(csp).toMatchObject({
      connectType: 'AWS',
      ownerAccount: '123456789012',
      account: '123456789012',
      asn: 65000,
      peerAsn: 65000,
      amazonAsn: 64600,
      authKey: 'bgp-auth-1',
      customerIpAddress: '169.254.10.1/30',
      customer_address: '169.254.10.1/30',
      amazon_address: '169.254.10.2/30',
      name: 'vif-2',
      type: 'private',
      vif_id: expect.stringMatching(/^dxvif-/),
    });
    for (const key of ['owner_account', 'peer_asn', 'auth_key', 'customer_ip_address']) expect(csp, key).not.toHaveProperty(key);
  });

  it('reads Azure peerings back with peer_asn a number, though the SDK orders it as a string', async () => {
    const azure = await partnerPort(api, (p) => p.connectType === 'AZURE' && p.locationId === 2 && p.vxcPermitted);
    const port = await api.buyPort();
    const peers = [{ type: 'private', peer_asn: '64512', primary_subnet: '192.168.100.0/30', secondary_subnet: '192.168.100.4/30', vlan: 300 }];
    const uid = await api.buyVxc(port, azure.productUid, {}, {}, { partnerConfig: { connectType: 'AZURE', serviceKey: '5c2f0b1e-7a11-4c2f-9f0a-3e2480b21c4b', peers } });
    const csp = (await api.product(uid)).resources.csp_connection;
    expect(csp.peers).toEqual([{ type: 'private', peer_asn: 64512, primary_subnet: '192.168.100.0/30', secondary_subnet: '192.168.100.4/30', vlan: 300 }]);
    const bad = await api.post('/v3/networkdesign/validate', [
      vxcOrder(port, azure.productUid, {}, {}, { partnerConfig: { connectType: 'AZURE', serviceKey: '5c2f0b1e-7a11-4c2f-9f0a-3e2480b21c4b', peers: [{ type: 'private', peer_asn: 'sixty' }] } }),
    ]);
    expect(bad.body.data[0].error).toMatch(/peers\[0\]\.peer_asn must be an ASN/);
  });

  it('refuses partner ports closed to VXCs', async () => {
    const closed = await partnerPort(api, (p) => !p.vxcPermitted && p.connectType === 'GOOGLE');
    const port = await api.buyPort();
    const r = await api.post('/v3/networkdesign/validate', [vxcOrder(port, closed.productUid, {}, {}, { partnerConfig: { connectType: 'GOOGLE', pairingKey: 'k/europe-west2/2' } })]);
    expect(r.body.data[0].error).toMatch(/VXCs are not permitted to partner port/);
  });

  it('refuses CANCEL for a Transit VXC', async () => {
    const transit = await partnerPort(api, (p) => p.connectType === 'TRANSIT' && p.locationId === 2);
    const port = await api.buyPort();
    const uid = await api.buyVxc(port, transit.productUid, {}, {}, { partnerConfig: { connectType: 'TRANSIT' } });
    expect((await api.product(uid)).resources.csp_connection.connectType).toBe('TRANSIT');
    expect((await api.post(`/v3/product/${uid}/action/CANCEL`)).status).toBe(400);
  });

  it('rotates a VXC B-End to another partner port of the same type, location and zone', async () => {
    const azure = await partnerPort(api, (p) => p.connectType === 'AZURE' && p.locationId === 2 && p.diversityZone === 'red');
    const port = await api.buyPort();
    const uid = await api.buyVxc(port, azure.productUid, {}, {}, { partnerConfig: { connectType: 'AZURE', serviceKey: '3e2480b2-1c4b-4c2f-9f0a-6c8f2b1e7a11' } });
    const r = await api.admin('rotate-partner-port', { productUid: uid });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ productUid: uid, previousBEndUid: azure.productUid, newBEndUid: expect.any(String) });
    expect(r.body.newBEndUid).not.toBe(azure.productUid);
    const vxc = await api.product(uid);
    expect(vxc.bEnd.productUid).toBe(r.body.newBEndUid);
    const ports: any[] = (await api.get('/v2/dropdowns/partner/megaports')).body.data;
    expect(ports.find((p) => p.productUid === r.body.newBEndUid)).toMatchObject({ connectType: 'AZURE', locationId: 2, diversityZone: 'red' });

    const aws = await partnerPort(api, (p) => p.connectType === 'AWS' && p.locationId === 2 && p.diversityZone === 'red');
    const awsVxc = await api.buyVxc(port, aws.productUid, {}, {}, { partnerConfig: { connectType: 'AWS', type: 'private', ownerAccount: '123456789012' } });
    const moved = await api.admin('rotate-partner-port', { productUid: awsVxc });
    expect(ports.some((p) => p.productUid === moved.body.newBEndUid)).toBe(true);

    const mcr = await api.buyMcr();
    const plain = await api.buyVxc(port, mcr);
    expect((await api.admin('rotate-partner-port', { productUid: plain })).status).toBe(400);
  });
});

describe('IX connections', () => {
  it('orders an IX in the port metro, nests it under the port and echoes updates', async () => {
    const port = await api.buyPort();
    const order = {
      productUid: port,
      associatedIxs: [{ productName: 'syd-ix', networkServiceType: 'Sydney IX', asn: 64600, macAddress: '00:11:22:33:44:55', rateLimit: 500, vlan: 2001, shutdown: false }],
    };
    const [entry] = await api.order([order]);
    const ix = await api.product(entry.technicalServiceUid);
    expect(ix).toMatchObject({ productType: 'IX', networkServiceType: 'Sydney IX', vlan: 2001, asn: 64600, provisioningStatus: 'LIVE', locationId: 2 });
    expect(ix.resources.vpls_interface).toMatchObject({ vlan: 2001, mac_address: '00:11:22:33:44:55', rate_limit_mbps: 500 });
    expect((await api.product(port)).associatedIxs.map((i: any) => i.productUid)).toEqual([entry.technicalServiceUid]);
    const put = await api.put(`/v2/product/ix/${entry.technicalServiceUid}`, { name: 'syd-ix-2', vlan: 2002, rateLimit: 1000 });
    expect(put.body.data).toMatchObject({ productName: 'syd-ix-2', vlan: 2002, rateLimit: 1000 });
    // Public graphs and reverse DNS are the update's alone: the order has no field for them.
    const [other] = await api.order([{ productUid: port, associatedIxs: [{ ...order.associatedIxs[0], productName: 'syd-ix-3', vlan: 2004, publicGraph: false, reverseDns: 'x.example.net' }] }]);
    const ordered = await api.product(other.technicalServiceUid);
    expect([ordered.publicGraph, ordered.resources.ip_address.map((a: any) => a.reverse_dns)]).toEqual([true, [null, null]]);
    const graphs = await api.put(`/v2/product/ix/${other.technicalServiceUid}`, { publicGraph: false, reverseDns: 'x.example.net' });
    expect([graphs.body.data.publicGraph, graphs.body.data.resources.ip_address.map((a: any) => a.reverse_dns)]).toEqual([false, ['x.example.net', 'x.example.net']]);
    const elsewhere = await api.post('/v3/networkdesign/validate', [{ productUid: port, associatedIxs: [{ ...order.associatedIxs[0], networkServiceType: 'Los Angeles IX', vlan: 2003 }] }]);
    expect(elsewhere.body.data[0].error).toMatch(/Los Angeles IX is not available in Sydney/);
  });
});

describe('MVEs', () => {
  it('buys an MVE with vendorConfig and vnics, connects a VXC to a vNIC and modifies it', async () => {
    const order = {
      productName: 'syd-mve',
      term: 12,
      productType: 'MVE',
      locationId: 2,
      vendorConfig: { vendor: 'Cisco', imageId: 83, productSize: 'SMALL', adminSshPublicKey: 'ssh-rsa AAAA', manageLocally: true },
      vnics: [
        { description: 'Management', vlan: 0 },
        { description: 'Data Plane', vlan: 0 },
      ],
    };
    const [entry] = await api.order([order]);
    const mve = await api.product(entry.technicalServiceUid);
    expect(mve).toMatchObject({ productType: 'MVE', vendor: 'CISCO', mveSize: 'SMALL', mveLabel: 'MVE 2/8', vnics: [{ description: 'Management' }, { description: 'Data Plane' }] });
    expect(mve.vendorConfig).toEqual({ vendor: 'Cisco', imageId: 83, productSize: 'SMALL', mveLabel: 'MVE 2/8' });
    const port = await api.buyPort();
    const vxc = await api.buyVxc(entry.technicalServiceUid, port, {}, { vNicIndex: 1 });
    expect((await api.product(vxc)).aEnd.vNicIndex).toBe(1);
    const bad = await api.post('/v3/networkdesign/validate', [vxcOrder(entry.technicalServiceUid, port, {}, { vNicIndex: 5 })]);
    expect(bad.status).toBe(400);
    // The modify renames vNICs by position; their number and VLANs are fixed at order time.
    const put = await api.put(`/v2/product/mve/${entry.technicalServiceUid}`, { name: 'syd-mve-2', costCentre: '', vnics: [{ description: 'Mgmt' }, { description: 'Data', vlan: 7 }] });
    expect(put.status).toBe(200);
    expect((await api.product(entry.technicalServiceUid)).vnics).toEqual([
      { description: 'Mgmt', vlan: 0 },
      { description: 'Data', vlan: 0 },
    ]);
    const more = await api.put(`/v2/product/mve/${entry.technicalServiceUid}`, { costCentre: '', vnics: [{ description: 'a' }, { description: 'b' }, { description: 'c' }] });
    expect([more.status, more.body.message]).toEqual([400, expect.stringMatching(/the MVE has 2, and vNICs are only added when an MVE is ordered/)]);
    const blank = await api.put(`/v2/product/mve/${entry.technicalServiceUid}`, { costCentre: '', vnics: [{ description: '' }] });
    expect([blank.status, blank.body.message]).toEqual([400, expect.stringMatching(/vnics\[0\]\.description must be a non-empty string/)]);
    const wrongImage = await api.post('/v3/networkdesign/validate', [{ ...order, vendorConfig: { vendor: 'Fortinet', imageId: 83, productSize: 'SMALL' } }]);
    expect(wrongImage.body.data[0].error).toMatch(/does not match image 83/);
  });
});
