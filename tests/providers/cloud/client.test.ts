import * as z from 'zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isRemote, RemoteError } from '../../../src/kernel/errors.js';
import { cloudProvider } from '../../../src/providers/cloud/index.js';
import { AssumedRoleCredentials } from '../../../src/providers/cloud/assume-role.js';
import { CloudClient, type CloudClientOptions } from '../../../src/providers/cloud/client.js';
import { SANDBOX_KEYS, StaticCredentials } from '../../../src/providers/cloud/credentials.js';
import { isSafeAction, kindForRetCode } from '../../../src/providers/cloud/retcodes.js';
import { antiDdosAllowedDomain } from '../../../src/resources/cloud/anti-ddos-allowed-domain.js';
import { antiDdosInstance } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { countActions, silent, startHarness, type Harness } from '../../support/cloud-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.admin('faults', 'DELETE');
  await h.clearCalls();
});

function client(options: Partial<CloudClientOptions> = {}): CloudClient {
  return new CloudClient({
    baseUrl: `${h.sandbox.url}/cloud/`,
    region: 'cn-bj2',
    projectId: 'org-sandbox',
    credentials: new StaticCredentials(SANDBOX_KEYS),
    maxRetries: 3,
    log: silent,
    retry: { baseMs: 1, maxBackoffMs: 1 },
    ...options,
  });
}

async function failure(p: Promise<unknown>): Promise<RemoteError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof RemoteError) return err;
    throw err;
  }
  throw new Error('expected a RemoteError');
}

describe('cloud client against the sandbox', () => {
  it('signs form calls and repeats Action in the query string', async () => {
    const body = await h.client.call<{ Regions: unknown[] }>('GetRegion');
    expect(body.RetCode).toBe(0);
    expect(body.Regions.length).toBeGreaterThan(3);
    expect(await h.actions()).toEqual(['GetRegion']);
  });

  it('sends JSON bodies with flattened keys when asked', async () => {
    const body = await client({ encoding: 'json' }).call<{ DataSet: unknown[] }>('DescribeVPC', { VPCIds: [] });
    expect(body.DataSet.length).toBeGreaterThan(0);
  });

  it('classifies a bad signature as unauthorized, does not retry it, and never shows the key', async () => {
    const err = await failure(client({ credentials: new StaticCredentials({ publicKey: 'sandbox-public-key', privateKey: 'wrong-private-key' }) }).call('GetRegion'));
    expect(err.kind).toBe('unauthorized');
    expect(err.message).toContain('RetCode 171');
    expect(err.message).not.toContain('wrong-private-key');
    expect(await h.actions()).toEqual(['GetRegion']);
  });

  it('classifies an unknown public key (172) and an unknown project (292)', async () => {
    expect((await failure(client({ credentials: new StaticCredentials({ publicKey: 'who', privateKey: 'x' }) }).call('GetRegion'))).message).toContain('RetCode 172');
    const err = await failure(client({ projectId: 'org-nope' }).call('DescribeVPC'));
    expect(err.kind).toBe('invalid');
    expect(err.message).toContain('org-nope');
  });

  it('accepts a key pair registered through the admin endpoint', async () => {
    await h.admin('cloud-keys', 'POST', { publicKey: 'team-pub', privateKey: 'team-priv' });
    const body = await client({ credentials: new StaticCredentials({ publicKey: 'team-pub', privateKey: 'team-priv' }) }).call('GetRegion');
    expect(body.RetCode).toBe(0);
  });

  it('sends a read answered 500 again until it succeeds', async () => {
    const fault = { match: 'Action=DescribeNapServiceInfo', status: 500 };
    await h.admin('faults', 'POST', { provider: 'cloud', next: [fault, fault] });
    const body = await client().call<{ ServiceInfo: unknown[] }>('DescribeNapServiceInfo', { NapType: 1 });
    expect(body.ServiceInfo.length).toBeGreaterThan(0);
    expect(countActions(await h.actions(), 'DescribeNapServiceInfo')).toBe(3);
  });

  it('sends a read whose answer was lost again', async () => {
    await h.admin('faults', 'POST', { provider: 'cloud', next: [{ match: 'Action=DescribeVPC', drop: 'reply' }] });
    expect((await client().call('DescribeVPC')).RetCode).toBe(0);
    expect(countActions(await h.actions(), 'DescribeVPC')).toBe(2);
  });

  it('sends a failing read maxRetries + 1 times, then reports it as unavailable', async () => {
    await h.admin('faults', 'POST', { provider: 'cloud', rates: { '500': 1 } });
    const err = await failure(client({ maxRetries: 2 }).call('DescribeVPC'));
    expect(err.kind).toBe('unavailable');
    expect(err.details.status).toBe(500);
    expect(err.message).toContain('gave up after 3 attempts');
    expect(countActions(await h.actions(), 'DescribeVPC')).toBe(3);
  });

  it('waits for Retry-After on 429 and succeeds once the fault clears', async () => {
    await h.admin('faults', 'POST', {
      provider: 'cloud',
      next: [
        { status: 429, retryAfter: '0' },
        { status: 429, retryAfter: 'Thu, 01 Jan 1970 00:00:00 GMT' },
      ],
    });
    expect((await client().call('GetRegion')).RetCode).toBe(0);
    expect(countActions(await h.actions(), 'GetRegion')).toBe(3);
  });

  it('sends AddNapAllowListDomain answered 429 again: the API carried out nothing', async () => {
    const c = client();
    const bought = await c.call<{ ResourceInfo: { ResourceId: string } }>('BuyHighProtectGameService', {
      HighProtectGameServiceName: 'throttled-shield',
      AreaLine: 'EastChina',
      EngineRoom: ['Yangzhou'],
      SrcBandwidth: 50,
      DefenceDDosBaseFlowArr: ['30'],
      DefenceDDosMaxFlowArr: ['40'],
    });
    const id = bought.ResourceInfo.ResourceId;
    await h.admin('faults', 'POST', { provider: 'cloud', next: [{ match: 'Action=AddNapAllowListDomain', status: 429, retryAfter: '0' }] });
    await c.call('AddNapAllowListDomain', { ResourceId: id, Domain: ['throttled.example'] });
    expect(countActions(await h.actions(), 'AddNapAllowListDomain')).toBe(2);
    const listed = await c.call<{ DomainList: { Domain: string }[] }>('GetNapAllowListDomain', { ResourceId: id });
    expect(listed.DomainList.map((d) => d.Domain)).toEqual(['throttled.example']);
  });

  it('never sends buy or add Actions again blindly after a 5xx', async () => {
    await h.admin('faults', 'POST', { provider: 'cloud', rates: { '503': 1 } });
    await failure(client().call('BuyHighProtectGameService', {}));
    await failure(client().call('AddNapAllowListDomain', {}));
    const actions = await h.actions();
    expect(countActions(actions, 'BuyHighProtectGameService')).toBe(1);
    expect(countActions(actions, 'AddNapAllowListDomain')).toBe(1);
  });

  it('does not retry request errors', async () => {
    const err = await failure(client().call('DescribeUDisk', { DiskType: 'Floppy' }));
    expect(err.kind).toBe('invalid');
    expect(err.message).toContain('RetCode 230');
    expect(countActions(await h.actions(), 'DescribeUDisk')).toBe(1);
  });

  it('reports an unreachable endpoint as unavailable after retrying', async () => {
    const err = await failure(client({ baseUrl: 'http://127.0.0.1:9/', maxRetries: 1 }).call('GetRegion'));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain('network error');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('pages through every page with Offset/Limit', async () => {
    const all = await client().pageAll<{ ImageId: string }>('DescribeImage', {}, 'ImageSet', { pageSize: 1000 });
    await h.clearCalls();
    const paged = await client().pageAll<{ ImageId: string }>('DescribeImage', {}, 'ImageSet', { pageSize: 7 });
    expect(paged.map((i) => i.ImageId)).toEqual(all.map((i) => i.ImageId));
    expect(countActions(await h.actions(), 'DescribeImage')).toBe(Math.ceil(all.length / 7));
  });

  it('stops when an Action ignores paging and repeats the same page', async () => {
    const groups = await client().pageAll('ListGroups', {}, 'Groups', { pageSize: 2 });
    expect(groups).toHaveLength(6);
    expect(countActions(await h.actions(), 'ListGroups')).toBe(1);
  });
});

describe('orders whose answer is lost', () => {
  const sizing = { area: 'EastChina', dataCenter: 'Taizhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40 } as const;
  const listNamed = async (name: string) => (await client().pageAll<{ Name: string; ResourceId: string }>('DescribeNapServiceInfo', { NapType: 1 }, 'ServiceInfo')).filter((i) => i.Name === name);

  it('a buy whose reply is dropped is sent once, and the instance it bought is adopted', async () => {
    await h.admin('faults', 'POST', { provider: 'cloud', next: [{ match: 'Action=BuyHighProtectGameService', drop: 'reply' }] });
    const ctx = h.resourceCtx('lost.shield');
    const created = await antiDdosInstance.create(ctx, z.parse(antiDdosInstance.inputs, sizing));
    expect(countActions(await h.actions(), 'BuyHighProtectGameService')).toBe(1);
    expect((await listNamed(created.outputs.name)).map((i) => i.ResourceId)).toEqual([created.id]);
  });

  it('a named instance whose buy reply is dropped is found by name, area and data centre', async () => {
    await h.admin('faults', 'POST', { provider: 'cloud', next: [{ match: 'Action=BuyHighProtectGameService', drop: 'reply' }] });
    const created = await antiDdosInstance.create(h.resourceCtx('named.shield'), z.parse(antiDdosInstance.inputs, { ...sizing, name: 'lost-reply-shield' }));
    expect(countActions(await h.actions(), 'BuyHighProtectGameService')).toBe(1);
    expect((await listNamed('lost-reply-shield')).map((i) => i.ResourceId)).toEqual([created.id]);
  });

  it('a buy answered 500 is not sent again on a guess: an instance listed only once provisioned may still show up, so the create is left unknown for the next apply', async () => {
    await h.admin('faults', 'POST', { provider: 'cloud', next: [{ match: 'Action=BuyHighProtectGameService', status: 500 }] });
    const failed = await antiDdosInstance.create(h.resourceCtx('retried.shield', 500), z.parse(antiDdosInstance.inputs, { ...sizing, name: 'rebought-shield' })).catch((err: unknown) => err);
    expect(failed).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('it is looked for again by the next apply') });
    expect(countActions(await h.actions(), 'BuyHighProtectGameService')).toBe(1);
    expect(await listNamed('rebought-shield')).toEqual([]);
  });

  it('an allowed domain whose add reply is dropped is added once and adopted', async () => {
    const ctx = h.resourceCtx('domain.shield');
    const shield = await antiDdosInstance.create(ctx, z.parse(antiDdosInstance.inputs, sizing));
    await h.clearCalls();
    await h.admin('faults', 'POST', { provider: 'cloud', next: [{ match: 'Action=AddNapAllowListDomain', drop: 'reply' }] });
    const added = await antiDdosAllowedDomain.create(h.resourceCtx('allowed'), { instanceId: shield.id, domain: 'lost-reply.example' });
    expect(added.outputs).toMatchObject({ domain: 'lost-reply.example', status: 'Success' });
    expect(countActions(await h.actions(), 'AddNapAllowListDomain')).toBe(1);
  });
});

describe('assume role', () => {
  const role = { roleUrn: 'ucs:iam::50001234:role/deployer', sessionName: 'plumb-test', duration: '15m' };

  it('signs later calls with the temporary keys of one AssumeRole call', async () => {
    const settings = cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox', assumeRole: role });
    const c = await cloudProvider.connect(settings, { sandboxUrl: async () => h.sandbox.url, log: silent, env: {} });
    await Promise.all([c.call('GetRegion'), c.call('DescribeVPC'), c.call('DescribeEIP')]);
    const actions = await h.actions();
    expect(actions[0]).toBe('AssumeRole');
    expect(countActions(actions, 'AssumeRole')).toBe(1);
    const sessions = (await (await h.admin('cloud-sessions', 'GET')).json()) as { roleUrn: string; sessionName: string; uses: number }[];
    const mine = sessions.find((s) => s.sessionName === 'plumb-test');
    expect(mine).toMatchObject({ roleUrn: role.roleUrn, uses: 3 });
    expect(JSON.stringify(sessions)).not.toMatch(/privateKey|securityToken/);
  });

  it('renews the temporary keys before they expire', async () => {
    const c = client();
    let now = Date.now();
    c.useCredentials(new AssumedRoleCredentials(c, SANDBOX_KEYS, { ...role, sessionName: 'renewing' }, () => now));
    await c.call('GetRegion');
    now += 14 * 60_000 + 30_000; // 30 s before the 15 min expiry: inside the renewal margin
    await c.call('GetRegion');
    expect(countActions(await h.actions(), 'AssumeRole')).toBe(2);
  });

  it('reports a refused AssumeRole clearly', async () => {
    const c = client();
    c.useCredentials(new AssumedRoleCredentials(c, SANDBOX_KEYS, { ...role, roleUrn: 'not-a-urn' }));
    const err = await failure(c.call('GetRegion'));
    expect(err.kind).toBe('invalid');
    expect(err.message).toMatch(/AssumeRole: Params \[RoleUrn\]/);
  });
});

describe('RetCode classification', () => {
  it.each([
    [153, 'DescribeVPC', 'rate-limited'],
    [150, 'DescribeVPC', 'unavailable'],
    [160, 'DescribeVPC', 'invalid'],
    [171, 'DescribeVPC', 'unauthorized'],
    [172, 'DescribeVPC', 'unauthorized'],
    [174, 'DescribeVPC', 'unauthorized'],
    [292, 'DescribeVPC', 'invalid'],
    [299, 'DescribeVPC', 'unauthorized'],
    [230, 'DescribeUDBInstance', 'not-found'],
    [230, 'DescribeUDisk', 'invalid'],
    [4103, 'DescribeULB', 'not-found'],
    [15010, 'DescribeBucket', 'not-found'],
    [11217, 'GetIAMPolicy', 'not-found'],
    [54002, 'DescribeNATGW', 'not-found'],
    [8000, 'DescribeUHostInstance', 'unavailable'],
    [1999, 'DescribeUHostInstance', 'invalid'],
  ] as const)('RetCode %i from %s is %s', (code, action, kind) => {
    expect(kindForRetCode(code, action)).toBe(kind);
  });

  it.each([
    ['BuyHighProtectGameService', false],
    ['AddNapAllowListDomain', false],
    ['CreateBGPServiceIP', false],
    ['DescribeNapServiceInfo', true],
    ['UpgradeHighProtectGameService', true],
    ['DeleteNapAllowListDomain', true],
  ])('%s is safe to send again after a 5xx: %s', (action, expected) => {
    expect(isSafeAction(action)).toBe(expected);
  });

  it('isRemote sees the classified kind', () => {
    expect(isRemote(new RemoteError('not-found', 'x'), 'not-found')).toBe(true);
  });
});
