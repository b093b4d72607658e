import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server.js';
import { Api, http, mcrOrder, portOrder, startWithClient } from './helpers.js';

let sandbox: Sandbox;
let api: Api;

beforeAll(async () => {
  ({ sandbox, api } = await startWithClient());
});
afterAll(() => sandbox.close());

describe('validate', () => {
  it.each([
    ['a term outside 1/12/24/36/48/60', { term: 37 }, /Invalid term 37/],
    ['a speed the zone does not offer', { portSpeed: 400000 }, /Port speed 400000 Mbps is not available at Equinix SY1 \(diversity zone red\)/],
    ['a location that is not Active', { locationId: 6 }, /not available for ordering: status Restricted/],
    ['an unknown location', { locationId: 99999 }, /Location 99999 does not exist/],
    ['a LAG slower than 10 Gbps', { portSpeed: 1000, lagPortCount: 2 }, /LAG ports must be 10000 Mbps or faster/],
  ])('refuses %s with 400 Validation failed', async (_why, over, message) => {
    const r = await api.post('/v3/networkdesign/validate', [portOrder(over)]);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Validation failed');
    expect(r.body.data.map((e: any) => e.error).join('\n')).toMatch(message);
  });

  it('reports every broken rule together', async () => {
    const r = await api.post('/v3/networkdesign/validate', [portOrder({ term: 5, productName: '' })]);
    expect(r.body.data.length).toBe(2);
  });

  it('checks MCR speeds against mcrSpeedMbps of the zone', async () => {
    const r = await api.post('/v3/networkdesign/validate', [mcrOrder({ locationId: 3, portSpeed: 25000, config: { diversityZone: 'red' } })]);
    expect(r.status).toBe(400);
    expect(r.body.data[0].error).toMatch(/MCR speed 25000 Mbps is not available at Equinix SY3 \(diversity zone red\)/);
    const [auto] = await api.order([mcrOrder({ locationId: 3, portSpeed: 25000 })]);
    expect((await api.product(auto.technicalServiceUid)).diversityZone).toBe('blue');
  });

  it('takes the bare array; buy takes the networkDesign envelope', async () => {
    expect((await api.post('/v3/networkdesign/validate', { networkDesign: [portOrder()] })).status).toBe(400);
    expect((await api.post('/v4/networkdesign/buy', [portOrder()])).status).toBe(400);
  });
});

describe('a Port from order to decommissioning', () => {
  it('buys, reads, modifies, tags and cancels a Port', async () => {
    const data = await api.order([portOrder({ costCentre: 'net-ops', resourceTags: [{ key: 'env', value: 'prod' }] })]);
    expect(data).toHaveLength(1);
    const uid = data[0].technicalServiceUid;

    const got = await api.get(`/v2/product/${uid}`);
    expect(got.body.message).toBe(`Found Product ${uid}`);
    const port = got.body.data;
    expect(port).toMatchObject({
      productUid: uid,
      productType: 'MEGAPORT',
      provisioningStatus: 'CONFIGURED',
      portSpeed: 10000,
      locationId: 2,
      diversityZone: 'red',
      vxcPermitted: true,
      contractTermMonths: 12,
      costCentre: 'net-ops',
      locationDetail: { name: 'Equinix SY1', metro: 'Sydney' },
      associatedVxcs: [],
      associatedIxs: [],
    });
    expect(typeof port.createDate).toBe('number');
    expect(new Date(port.contractEndDate).getUTCFullYear() - new Date(port.contractStartDate).getUTCFullYear()).toBe(1);
    expect(port.terminateDate).toBeNull();

    const modified = await api.put(`/v2/product/megaport/${uid}`, { name: 'syd-port-renamed', costCentre: 'finance', marketplaceVisibility: true, term: 24, ProductID: uid, ProductType: 'megaport' });
    expect(modified.status).toBe(200);
    expect(modified.body.message).toBe(`Product [${uid}] has been updated`);
    const after = await api.product(uid);
    expect(after).toMatchObject({ productName: 'syd-port-renamed', costCentre: 'finance', marketplaceVisibility: true, contractTermMonths: 24 });

    expect((await api.get(`/v2/product/${uid}/tags`)).body.data).toEqual({ resourceTags: [{ key: 'env', value: 'prod' }] });
    expect((await api.put(`/v2/product/${uid}/tags`, { resourceTags: [{ key: 'team', value: 'neteng' }] })).status).toBe(200);
    expect((await api.get(`/v2/product/${uid}/tags`)).body.data.resourceTags).toEqual([{ key: 'team', value: 'neteng' }]);
    await api.put(`/v2/product/${uid}/tags`, { resourceTags: [] });
    expect((await api.get(`/v2/product/${uid}/tags`)).body.data.resourceTags).toEqual([]);

    const cancel = await api.post(`/v3/product/${uid}/action/CANCEL_NOW`);
    expect(cancel.body.message).toBe(`Action [CANCEL_NOW Service ${uid}] has been done.`);
    const gone = await api.product(uid);
    expect(gone.provisioningStatus).toBe('DECOMMISSIONED');
    expect(gone.terminateDate).toEqual(expect.any(Number));
    expect((await api.post(`/v3/product/${uid}/action/CANCEL_NOW`)).status).toBe(409);
    expect((await api.put(`/v2/product/megaport/${uid}`, { name: 'x', costCentre: '' })).status).toBe(400);
  });

  it('lists top-level products, decommissioned ones included', async () => {
    const uid = await api.buyPort({ productName: 'listed' });
    await api.post(`/v3/product/${uid}/action/CANCEL_NOW`);
    const list = await api.get('/v2/products');
    expect(list.body.message).toMatch(/^Found \d+ Products$/);
    expect(list.body.data.find((p: any) => p.productUid === uid).provisioningStatus).toBe('DECOMMISSIONED');
  });

  it('answers unknown UIDs with the not-found text: 400 on GET, 404 elsewhere', async () => {
    const uid = '00000000-0000-4000-8000-000000000000';
    const get = await api.get(`/v2/product/${uid}`);
    expect(get.status).toBe(400);
    expect(get.body.message).toBe(`Could not find a service with UID ${uid}`);
    const tags = await api.get(`/v2/product/${uid}/tags`);
    expect(tags.status).toBe(404);
    expect(tags.body.message).toBe(`Could not find a service with UID ${uid}`);
    expect((await api.post(`/v3/product/${uid}/action/CANCEL_NOW`)).status).toBe(404);
  });

  it('refuses a modify through the wrong product-type path', async () => {
    const uid = await api.buyPort();
    expect((await api.put(`/v2/product/mcr2/${uid}`, { name: 'x', costCentre: '' })).status).toBe(400);
  });

  it('orders a LAG as member ports sharing an aggregationId', async () => {
    const data = await api.order([portOrder({ productName: 'syd-lag', lagPortCount: 3, portSpeed: 100000 })]);
    expect(data).toHaveLength(3);
    const members = await Promise.all(data.map((d: any) => api.product(d.technicalServiceUid)));
    const agg = members[0].aggregationId;
    expect(agg).toBeGreaterThan(0);
    expect(members.every((m) => m.aggregationId === agg)).toBe(true);
    expect(members.map((m) => m.lagPrimary)).toEqual([true, false, false]);
    await api.post(`/v3/product/${members[0].productUid}/action/CANCEL_NOW?safeDelete=true`);
    const after = await Promise.all(members.map((m) => api.product(m.productUid)));
    expect(after.every((m) => m.provisioningStatus === 'DECOMMISSIONED')).toBe(true);
  });

  it('pre-orders a Port at a site in Deployment: it stays NEW, and VXCs on it stay DEPLOYABLE', async () => {
    const uid = await api.buyPort({ locationId: 78, config: {} });
    const port = await api.product(uid);
    expect(port.provisioningStatus).toBe('NEW');
    expect(port.liveDate).toBeNull();
    const vxc = await api.buyVxc(uid, await api.buyMcr());
    expect((await api.product(vxc)).provisioningStatus).toBe('DEPLOYABLE');
    const mcr = await api.post('/v3/networkdesign/validate', [mcrOrder({ locationId: 78 })]);
    expect(mcr.status).toBe(400);
  });
});

describe('cancelling at the end of term', () => {
  const setting = (value: unknown) => api.admin('settings', { refuseEndOfTermCancel: value });

  it('refuses CANCEL for a Port and for a LAG Port, as the API has since 2026-05, leaving them live', async () => {
    const uid = await api.buyPort({ term: 1 });
    const r = await api.post(`/v3/product/${uid}/action/CANCEL`);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(new RegExp(`^Port ${uid} cannot be cancelled at the end of its term: .*CANCEL_NOW`));
    expect((await api.product(uid)).provisioningStatus).toBe('CONFIGURED');
    const lag = await api.order([portOrder({ lagPortCount: 2 })]);
    const refused = await api.post(`/v3/product/${lag[1].technicalServiceUid}/action/CANCEL`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^LAG Port /);
    for (const d of lag) expect((await api.product(d.technicalServiceUid)).provisioningStatus).toBe('CONFIGURED');
    expect((await api.post(`/v3/product/${uid}/action/CANCEL_NOW`)).status).toBe(200);
  });

  describe('with refuseEndOfTermCancel false (the API before 2026-05)', () => {
    beforeAll(async () => {
      expect((await setting(false)).body).toMatchObject({ refuseEndOfTermCancel: false });
    });
    afterAll(async () => {
      await setting(true);
    });

    it('accepts CANCEL for a Port: CANCELLED until the contract end, then UN_CANCEL restores it', async () => {
      const uid = await api.buyPort({ term: 1 });
      const before = await api.product(uid);
      const r = await api.post(`/v3/product/${uid}/action/CANCEL`);
      expect(r.status).toBe(200);
      expect(r.body.message).toBe(`Action [CANCEL Service ${uid}] has been done.`);
      const cancelled = await api.product(uid);
      expect(cancelled.provisioningStatus).toBe('CANCELLED');
      expect(cancelled.terminateDate).toBe(before.contractEndDate);
      expect((await api.post(`/v3/product/${uid}/action/UN_CANCEL`)).body.message).toBe(`Action [UN_CANCEL Service ${uid}] has been done.`);
      const restored = await api.product(uid);
      expect(restored.provisioningStatus).toBe('CONFIGURED');
      expect(restored.terminateDate).toBeNull();
      expect((await api.post(`/v3/product/${uid}/action/UN_CANCEL`)).status).toBe(400);
    });

    it('accepts CANCEL for a LAG, cancelling every member', async () => {
      const data = await api.order([portOrder({ lagPortCount: 2 })]);
      await api.post(`/v3/product/${data[1].technicalServiceUid}/action/CANCEL`);
      for (const d of data) expect((await api.product(d.technicalServiceUid)).provisioningStatus).toBe('CANCELLED');
    });

    it('still refuses CANCEL for an MCR', async () => {
      const uid = await api.buyMcr();
      const r = await api.post(`/v3/product/${uid}/action/CANCEL`);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/CANCEL_NOW/);
      expect((await api.product(uid)).provisioningStatus).toBe('LIVE');
    });
  });

  it('reports its settings, and refuses an unknown setting or a wrong value, naming each and changing nothing', async () => {
    const now = await http(`${api.url}/_sandbox/settings`);
    expect(now.body).toEqual({ provisioningMs: 0, refuseEndOfTermCancel: true });
    const bad = await api.admin('settings', { refuseEndOfTermCancel: 'no', provisioningMs: -1, cancelLater: true });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('refuseEndOfTermCancel must be true or false');
    expect(bad.body.message).toContain('provisioningMs must be a number >= 0');
    expect(bad.body.message).toContain('unknown setting cancelLater; settings are provisioningMs, refuseEndOfTermCancel');
    expect((await http(`${api.url}/_sandbox/settings`)).body).toEqual(now.body);
  });
});

describe('locks', () => {
  it('locks and unlocks; a locked product cannot be changed or cancelled', async () => {
    const uid = await api.buyPort();
    const locked = await api.post(`/v2/product/${uid}/lock`);
    expect(locked.body).toMatchObject({ message: 'Service locked', data: { locked: true } });
    expect((await api.post(`/v2/product/${uid}/lock`)).status).toBe(400);
    expect((await api.put(`/v2/product/megaport/${uid}`, { name: 'x', costCentre: '' })).status).toBe(409);
    expect((await api.post(`/v3/product/${uid}/action/CANCEL_NOW`)).status).toBe(409);
    const unlocked = await api.delete(`/v2/product/${uid}/lock`);
    expect(unlocked.body).toMatchObject({ message: 'Service unlocked', data: { locked: false } });
    expect((await api.delete(`/v2/product/${uid}/lock`)).status).toBe(400);
  });
});
