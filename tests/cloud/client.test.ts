import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isRemote, RemoteError } from '../../src/errors.js';
import { cloudProvider } from '../../src/providers/cloud/index.js';
import { AssumedRoleCredentials } from '../../src/providers/cloud/assume-role.js';
import { CloudClient, type CloudClientOptions } from '../../src/providers/cloud/client.js';
import { SANDBOX_KEYS, StaticCredentials } from '../../src/providers/cloud/credentials.js';
import { isRetryableAction, isRetryableRetCode, kindForRetCode } from '../../src/providers/cloud/retcodes.js';
import { countActions, silent, startHarness, type Harness } from './harness.js';

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
    backoff: () => 1,
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

  it('retries a retryable HTTP failure up to maxRetries, then reports it', async () => {
    await h.admin('faults', 'POST', { provider: 'cloud', rates: { '503': 1 } });
    const err = await failure(client({ maxRetries: 2 }).call('DescribeVPC'));
    expect(err.kind).toBe('unavailable');
    expect(err.details.status).toBe(503);
    expect(countActions(await h.actions(), 'DescribeVPC')).toBe(3);
  });

  it('waits for Retry-After on 429 and succeeds once the fault clears', async () => {
    await h.admin('faults', 'POST', { provider: 'cloud', rates: { '429': 1 }, retryAfterSeconds: 0 });
    const c = client({ maxRetries: 5, backoff: () => 50 });
    const pending = c.call('GetRegion');
    setTimeout(() => void h.admin('faults', 'DELETE'), 30);
    expect((await pending).RetCode).toBe(0);
    expect(countActions(await h.actions(), 'GetRegion')).toBeGreaterThanOrEqual(2);
  });

  it('never retries buy or add Actions', async () => {
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
    [153, 'DescribeVPC', 'rate-limited', true],
    [150, 'DescribeVPC', 'unavailable', true],
    [160, 'DescribeVPC', 'invalid', false],
    [171, 'DescribeVPC', 'unauthorized', false],
    [172, 'DescribeVPC', 'unauthorized', false],
    [174, 'DescribeVPC', 'unauthorized', false],
    [292, 'DescribeVPC', 'invalid', false],
    [299, 'DescribeVPC', 'unauthorized', false],
    [230, 'DescribeUDBInstance', 'not-found', false],
    [230, 'DescribeUDisk', 'invalid', false],
    [4103, 'DescribeULB', 'not-found', false],
    [15010, 'DescribeBucket', 'not-found', false],
    [11217, 'GetIAMPolicy', 'not-found', false],
    [54002, 'DescribeNATGW', 'not-found', false],
    [8000, 'DescribeUHostInstance', 'unavailable', true],
    [1999, 'DescribeUHostInstance', 'invalid', false],
  ] as const)('RetCode %i from %s is %s (retryable: %s)', (code, action, kind, retryable) => {
    expect(kindForRetCode(code, action)).toBe(kind);
    expect(isRetryableRetCode(code, action)).toBe(retryable);
  });

  it.each([
    ['BuyHighProtectGameService', false],
    ['AddNapAllowListDomain', false],
    ['CreateBGPServiceIP', false],
    ['DescribeNapServiceInfo', true],
    ['UpgradeHighProtectGameService', true],
    ['DeleteNapAllowListDomain', true],
  ])('%s may be retried: %s', (action, expected) => {
    expect(isRetryableAction(action)).toBe(expected);
  });

  it('isRemote sees the classified kind', () => {
    expect(isRemote(new RemoteError('not-found', 'x'), 'not-found')).toBe(true);
  });
});
