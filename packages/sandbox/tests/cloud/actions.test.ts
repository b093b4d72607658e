import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApi } from '../../src/cloud/index.js';
import { startSandbox, type Sandbox } from '../../src/server.js';

let sb: Sandbox;
let slow: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ provisioningMs: 0, apis: [cloudApi] });
  slow = await startSandbox({ provisioningMs: 400, apis: [cloudApi] });
});
afterAll(async () => {
  await sb.close();
  await slow.close();
});

/** Signs the way the API documentation describes, independently of the client. */
function signed(params: Record<string, string>, privateKey = 'sandbox-private-key'): Record<string, string> {
  const all = { PublicKey: 'sandbox-public-key', Region: 'cn-bj2', ProjectId: 'org-sandbox', ...params };
  const text =
    Object.keys(all)
      .sort()
      .map((k) => k + all[k as keyof typeof all])
      .join('') + privateKey;
  return { ...all, Signature: createHash('sha1').update(text).digest('hex') };
}

async function post(params: Record<string, string>, target = sb, path = '/cloud/'): Promise<{ status: number; headers: Headers; body: Record<string, any> }> {
  const res = await fetch(`${target.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

describe('cloud sandbox endpoint', () => {
  it('answers a signed call in the RetCode envelope with a request id', async () => {
    const res = await post(signed({ Action: 'DescribeVPC' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ RetCode: 0, Action: 'DescribeVPCResponse' });
    expect(res.body.TotalCount).toBe(3);
    expect(res.headers.get('x-ucloud-request-uuid')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ['a missing Action', { Region: 'cn-bj2' }, 160],
    ['a missing signature', { Action: 'GetRegion', PublicKey: 'sandbox-public-key' }, 170],
    ['an unknown public key', { ...signed({ Action: 'GetRegion' }), PublicKey: 'nobody' }, 172],
    ['a wrong signature', signed({ Action: 'GetRegion' }, 'not-the-key'), 171],
    ['an unknown Action', signed({ Action: 'LaunchRocket' }), 161],
    ['an unknown project', signed({ Action: 'DescribeVPC', ProjectId: 'org-none' }), 292],
    ['an unknown region', signed({ Action: 'DescribeVPC', Region: 'mars-1' }), 230],
  ])('answers %s with HTTP 200 and RetCode %i', async (_name, params, code) => {
    const res = await post(params as Record<string, string>);
    expect(res.status).toBe(200);
    expect(res.body.RetCode).toBe(code);
    expect(res.body.Message).toBeTruthy();
  });

  it('reads Action from the query string when the body has none, on any path', async () => {
    const params = signed({});
    const res = await fetch(`${sb.url}/cloud/any/path?Action=GetRegion`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
    // Action is outside the signed body here, so the signature still matches the body alone.
    expect(((await res.json()) as { RetCode: number }).RetCode).toBe(0);
  });

  it('accepts JSON bodies, flattened (JS SDK) or nested (Go JSON encoder)', async () => {
    const flat = signed({ Action: 'DescribeEIP', 'EIPIds.0': 'x' });
    const res1 = await fetch(`${sb.url}/cloud/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...flat, Limit: undefined }) });
    expect(((await res1.json()) as { RetCode: number }).RetCode).toBe(0);
    const nested: Record<string, unknown> = { Action: 'DescribeEIP', EIPIds: ['x', 'y'], Limit: 5, PublicKey: 'sandbox-public-key', Region: 'cn-bj2', ProjectId: 'org-sandbox' };
    const text =
      Object.keys(nested)
        .sort()
        .map((k) => k + (Array.isArray(nested[k]) ? (nested[k] as string[]).join('') : String(nested[k])))
        .join('') + 'sandbox-private-key';
    nested.Signature = createHash('sha1').update(text).digest('hex');
    const res2 = await fetch(`${sb.url}/cloud/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(nested) });
    expect(((await res2.json()) as { RetCode: number }).RetCode).toBe(0);
  });

  it('accepts GET with the parameters in the query string', async () => {
    const res = await fetch(`${sb.url}/cloud/?${new URLSearchParams(signed({ Action: 'GetRegion' }))}`);
    expect(((await res.json()) as { RetCode: number }).RetCode).toBe(0);
  });

  it('slices pages with Offset/Limit and reports the full TotalCount', async () => {
    const all = await post(signed({ Action: 'DescribeUHostInstance', Limit: '100' }));
    const page = await post(signed({ Action: 'DescribeUHostInstance', Offset: '2', Limit: '3' }));
    expect(page.body.TotalCount).toBe(all.body.TotalCount);
    expect(page.body.UHostSet.map((h: { UHostId: string }) => h.UHostId)).toEqual(all.body.UHostSet.slice(2, 5).map((h: { UHostId: string }) => h.UHostId));
    const beyond = await post(signed({ Action: 'DescribeUHostInstance', Limit: '101' }));
    expect(beyond.body.RetCode).toBe(230);
  });

  it('seeds data in more than one region', async () => {
    const bj = await post(signed({ Action: 'DescribeVPC' }));
    const sh = await post(signed({ Action: 'DescribeVPC', Region: 'cn-sh2' }));
    expect(bj.body.TotalCount).toBeGreaterThan(0);
    expect(sh.body.TotalCount).toBeGreaterThan(0);
    expect(sh.body.DataSet[0].VPCId).not.toBe(bj.body.DataSet[0].VPCId);
  });

  it("reports what a used EIP is bound to as Resource.ResourceID, the API's spelling, naming a seeded NAT gateway", async () => {
    const eips = (await post(signed({ Action: 'DescribeEIP' }))).body.EIPSet as Array<{ Name: string; Status: string; Resource: Record<string, string> }>;
    const nat = eips.find((e) => e.Name === 'nat-egress-1')!;
    const gateways = (await post(signed({ Action: 'DescribeNATGW' }))).body.DataSet as Array<{ NATGWId: string; NATGWName: string }>;
    expect(nat.Resource).toMatchObject({ ResourceType: 'natgw', ResourceID: gateways.find((g) => g.NATGWName === 'prod-nat')!.NATGWId, ResourceName: 'prod-nat' });
    expect(nat.Resource).not.toHaveProperty('ResourceId');
    for (const used of eips.filter((e) => e.Status === 'used')) expect(used.Resource.ResourceID, used.Name).toMatch(/^\w+-/);
  });

  it('seeds anti-DDoS instances that are Started, Stopped and Expired', async () => {
    const res = await post(signed({ Action: 'DescribeNapServiceInfo', NapType: '1' }));
    expect(res.body.ServiceInfo.map((s: { DefenceStatus: string }) => s.DefenceStatus).sort()).toEqual(['Expired', 'Started', 'Stopped']);
  });

  it('makes a bought instance visible, and a domain move from Adding to Success, over time', async () => {
    const buy = await post(
      signed({
        Action: 'BuyHighProtectGameService',
        HighProtectGameServiceName: 'slow-one',
        AreaLine: 'NorthChina',
        'EngineRoom.0': 'Shijiazhuang',
        SrcBandwidth: '50',
        'DefenceDDosBaseFlowArr.0': '30',
        'DefenceDDosMaxFlowArr.0': '30',
      }),
      slow,
    );
    const id = buy.body.ResourceInfo.ResourceId as string;
    expect(id).toMatch(/^usecure_ghp-/);
    const describe = () => post(signed({ Action: 'DescribeNapServiceInfo', ResourceId: id }), slow);
    expect((await describe()).body.ServiceInfo).toEqual([]);
    await new Promise((r) => setTimeout(r, 450));
    expect((await describe()).body.ServiceInfo[0].DefenceStatus).toBe('Started');

    await post(signed({ Action: 'AddNapAllowListDomain', ResourceId: id, 'Domain.0': 'example.com' }), slow);
    const status = async () => (await post(signed({ Action: 'GetNapAllowListDomain', ResourceId: id, Domain: 'example.com' }), slow)).body.DomainList[0]?.Status;
    expect(await status()).toBe(1);
    await new Promise((r) => setTimeout(r, 450));
    expect(await status()).toBe(2);
    await post(signed({ Action: 'DeleteNapAllowListDomain', ResourceId: id, 'Domain.0': 'example.com' }), slow);
    expect(await status()).toBe(3);
    await new Promise((r) => setTimeout(r, 450));
    expect(await status()).toBeUndefined();
  });

  it('rejects a data centre outside the area when buying', async () => {
    const res = await post(
      signed({
        Action: 'BuyHighProtectGameService',
        HighProtectGameServiceName: 'x',
        AreaLine: 'EastChina',
        'EngineRoom.0': 'Shijiazhuang',
        SrcBandwidth: '50',
        'DefenceDDosBaseFlowArr.0': '30',
        'DefenceDDosMaxFlowArr.0': '30',
      }),
    );
    expect(res.body.RetCode).toBe(230);
    expect(res.body.Message).toContain('Zaozhuang, Yangzhou, Taizhou');
  });

  it('answers an injected fault in its own error shape', async () => {
    expect(cloudApi.faultBody?.(503)).toMatchObject({ RetCode: 150 });
    expect(cloudApi.faultBody?.(429)).toMatchObject({ RetCode: 153 });
  });
});
