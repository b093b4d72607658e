import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/server.js';
import { Api, SANDBOX_KEY, SANDBOX_SECRET, basic, getToken, http, setProvisioningMs, sleep, startWithClient, vxcOrder, waitForStatus } from './helpers.js';

const MS = 400;

describe('time-based provisioning', () => {
  let sandbox: Sandbox;
  let api: Api;

  beforeAll(async () => {
    ({ sandbox, api } = await startWithClient({ provisioningMs: MS }));
  });
  afterAll(() => sandbox.close());

  it('moves a Port DEPLOYABLE -> CONFIGURED (and no further), an MCR on to LIVE', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    expect((await api.product(port)).provisioningStatus).toBe('DEPLOYABLE');
    expect((await api.product(mcr)).provisioningStatus).toBe('DEPLOYABLE');
    expect((await api.product(port)).liveDate).toBeNull();
    expect(await waitForStatus(api, mcr, (s) => s === 'LIVE')).toBe('LIVE');
    await sleep(MS / 2);
    const p = await api.product(port);
    expect(p.provisioningStatus).toBe('CONFIGURED');
    expect(p.liveDate).toEqual(expect.any(Number));
  });

  it('drops briefly to a not-ready state after a modify, then returns to ready', async () => {
    const mcr = await api.buyMcr();
    await waitForStatus(api, mcr, (s) => s === 'LIVE');
    await api.put(`/v2/product/mcr2/${mcr}`, { name: 'renamed', costCentre: '', asn: 65123 });
    const right = await api.product(mcr);
    expect(right.provisioningStatus).toBe('DEPLOYABLE');
    expect(right.resources.virtual_router.mcrAsn).toBe(65123);
    expect(await waitForStatus(api, mcr, (s) => s === 'CONFIGURED' || s === 'LIVE')).toMatch(/CONFIGURED|LIVE/);
  });

  it('keeps a VXC not ready until the products it lands on are provisioned', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    const vxc = await api.buyVxc(port, mcr);
    expect((await api.product(vxc)).provisioningStatus).toBe('DEPLOYABLE');
    expect(await waitForStatus(api, vxc, (s) => s === 'LIVE')).toBe('LIVE');
  });

  it('takes VXCs of a cancelled parent through CANCELLED_PARENT to DECOMMISSIONED', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    const vxc = await api.buyVxc(port, mcr);
    await waitForStatus(api, vxc, (s) => s === 'LIVE');
    await api.post(`/v3/product/${port}/action/CANCEL_NOW`);
    expect((await api.product(port)).provisioningStatus).toBe('DECOMMISSIONED');
    expect((await api.product(vxc)).provisioningStatus).toBe('CANCELLED_PARENT');
    expect(await waitForStatus(api, vxc, (s) => s === 'DECOMMISSIONED')).toBe('DECOMMISSIONED');
  });

  it('shows a cancelled VXC DECOMMISSIONING, then DECOMMISSIONED, and holds its VLAN a while longer', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    const vxc = await api.buyVxc(port, mcr, {}, { vlan: 700 });
    await api.post(`/v3/product/${vxc}/action/CANCEL_NOW`);
    expect((await api.product(vxc)).provisioningStatus).toBe('DECOMMISSIONING');
    const held = await api.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, {}, { vlan: 700 })]);
    expect(held.status).toBe(400);
    expect(held.body.data[0].error).toMatch(/VLAN 700 is not available/);
    expect(await waitForStatus(api, vxc, (s) => s === 'DECOMMISSIONED')).toBe('DECOMMISSIONED');
    const stillHeld = await api.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, {}, { vlan: 700 })]);
    expect(stillHeld.status).toBe(400);
    await sleep(MS + 50);
    expect((await api.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, {}, { vlan: 700 })])).status).toBe(200);
  });

  it('holds the old VLAN after a VXC moves to a new one', async () => {
    const port = await api.buyPort();
    const mcr = await api.buyMcr();
    const vxc = await api.buyVxc(port, mcr, {}, { vlan: 800 });
    await api.put(`/v3/product/vxc/${vxc}`, { aEndVlan: 801 });
    expect((await api.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, {}, { vlan: 800 })])).body.data[0].error).toMatch(/still held/);
  });

  it('follows provisioning-speed changes made through the settings endpoint', async () => {
    await setProvisioningMs(sandbox.url, 0);
    const mcr = await api.buyMcr();
    expect((await api.product(mcr)).provisioningStatus).toBe('LIVE');
    await setProvisioningMs(sandbox.url, MS);
  });
});

describe('persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-interconnect-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps products, keys, prefix lists and tokens across a restart with the same data folder', async () => {
    const first = await startSandbox({ dataDir: dir, provisioningMs: 0 });
    const api1 = new Api(first.url, await getToken(first.url));
    const port = await api1.buyPort({ productName: 'durable' });
    const mcr = await api1.buyMcr();
    const vxc = await api1.buyVxc(port, mcr, {}, { vlan: 123 });
    const listId = (await api1.post(`/v2/product/mcr2/${mcr}/prefixList`, { id: 0, description: 'kept', addressFamily: 'IPv4', entries: [{ action: 'permit', prefix: '10.0.0.0/8' }] })).body.data.id;
    const key = (await api1.post('/v2/service/key', { productUid: port, singleUse: false, maxSpeed: 100 })).body.data.key;
    await api1.put(`/v2/product/${port}/tags`, { resourceTags: [{ key: 'k', value: 'v' }] });
    await api1.admin('token-settings', { expiresIn: 7200 });
    await first.close();

    const second = await startSandbox({ dataDir: dir, provisioningMs: 0 });
    const api2 = new Api(second.url, api1.token);
    try {
      expect((await api2.product(port)).productName).toBe('durable');
      expect((await api2.product(vxc)).aEnd.vlan).toBe(123);
      expect((await api2.get(`/v2/product/mcr2/${mcr}/prefixList/${listId}`)).body.data.description).toBe('kept');
      expect((await api2.get(`/v2/service/key?key=${key}`)).body.data.productUid).toBe(port);
      expect((await api2.get(`/v2/product/${port}/tags`)).body.data.resourceTags).toEqual([{ key: 'k', value: 'v' }]);
      expect((await api2.post('/v3/networkdesign/validate', [vxcOrder(port, mcr, {}, { vlan: 123 })])).status).toBe(400);
      const reply = await http(`${second.url}/interconnect/oauth2/token?grant_type=client_credentials`, { method: 'POST', headers: { authorization: basic(SANDBOX_KEY, SANDBOX_SECRET) } });
      expect(reply.body.expires_in).toBe(7200);
    } finally {
      await second.close();
    }
  });
});
