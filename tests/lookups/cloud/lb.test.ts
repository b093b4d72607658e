import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRemote } from '../../../src/kernel/errors.js';
import { getLbAttachments } from '../../../src/lookups/cloud/get-lb-attachments.js';
import { getLbListeners } from '../../../src/lookups/cloud/get-lb-listeners.js';
import { getLbRules } from '../../../src/lookups/cloud/get-lb-rules.js';
import { getLbSsls } from '../../../src/lookups/cloud/get-lb-ssls.js';
import { getLbs } from '../../../src/lookups/cloud/get-lbs.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { names, run, runPaged, runToFile } from '../../support/cloud-lookup-kit.js';

let h: Harness;
let webLb: string;
let https: string;
beforeAll(async () => {
  h = await startHarness();
  webLb = (await run(h, getLbs, { nameRegex: '^web-lb$' })).ids[0];
  https = (await run(h, getLbListeners, { loadBalancerId: webLb, nameRegex: '^https$' })).ids[0];
});
afterAll(() => h.close());

describe('getLbs', () => {
  it('lists load balancers, internal or not, with public addresses', async () => {
    const r = await run(h, getLbs);
    expect(names(r.lbs)).toEqual(['internal-api-lb', 'staging-lb', 'web-lb']);
    const web = r.lbs.find((l: { name: string }) => l.name === 'web-lb');
    expect(web).toMatchObject({ internal: false, tag: 'prod' });
    expect(web.ipSet).toHaveLength(1);
    expect(r.lbs.find((l: { name: string }) => l.name === 'staging-lb')).toMatchObject({ internal: true, ipSet: [] });
  });

  it('filters by VPC, subnet, ids and name; pages; writes outputFile', async () => {
    const web = (await run(h, getLbs, { ids: [webLb] })).lbs[0];
    expect(names((await run(h, getLbs, { vpcId: web.vpcId })).lbs)).toEqual(['internal-api-lb', 'web-lb']);
    expect(names((await run(h, getLbs, { subnetId: web.subnetId, nameRegex: 'internal' })).lbs)).toEqual(['internal-api-lb']);
    expect((await runPaged(h, getLbs, {}, 'DescribeULB')).calls).toBe(2);
    const { result, file } = await runToFile(h, getLbs, {}, 'lbs');
    expect(file).toEqual(result.lbs);
  });
});

describe('getLbListeners', () => {
  it('lists the listeners of a balancer with converted values', async () => {
    const r = await run(h, getLbListeners, { loadBalancerId: webLb });
    expect(names(r.lbListeners)).toEqual(['admin', 'http', 'https']);
    const byName = Object.fromEntries(r.lbListeners.map((l: { name: string }) => [l.name, l]));
    expect(byName.http).toMatchObject({
      protocol: 'http',
      port: 80,
      method: 'roundrobin',
      persistenceType: 'none',
      healthCheckType: 'port',
      status: 'allNormal',
      domain: '',
      path: '',
      listenType: 'request_proxy',
    });
    expect(byName.https).toMatchObject({ protocol: 'https', persistenceType: 'server_insert', healthCheckType: 'path', domain: 'www.example.com', path: '/healthz', status: 'partNormal' });
    expect(byName.admin).toMatchObject({ persistenceType: 'user_defined', persistence: 'SESSIONID', status: 'allException' });
  });

  it('filters by ids and name; pages; writes outputFile', async () => {
    expect((await run(h, getLbListeners, { loadBalancerId: webLb, ids: [https] })).ids).toEqual([https]);
    expect(names((await run(h, getLbListeners, { loadBalancerId: webLb, nameRegex: '^http' })).lbListeners)).toEqual(['http', 'https']);
    expect((await runPaged(h, getLbListeners, { loadBalancerId: webLb }, 'DescribeVServer')).calls).toBe(2);
    const { result, file } = await runToFile(h, getLbListeners, { loadBalancerId: webLb }, 'listeners');
    expect(file).toEqual(result.lbListeners);
  });

  it('reports an unknown balancer as not found', async () => {
    const err = await run(h, getLbListeners, { loadBalancerId: 'ulb-nothere' }).catch((e: unknown) => e);
    expect(isRemote(err, 'not-found')).toBe(true);
  });
});

describe('getLbRules', () => {
  it('lists path and domain rules only, and filters by ids', async () => {
    const r = await run(h, getLbRules, { loadBalancerId: webLb, listenerId: https });
    expect(r.totalCount).toBe(3);
    expect(r.lbRules.map((x: { path: string; domain: string }) => x.path || x.domain).sort()).toEqual(['/images/', '/static/', 'api.example.com']);
    expect(r.ids).toHaveLength(3);
    expect((await run(h, getLbRules, { loadBalancerId: webLb, listenerId: https, ids: [r.ids[0]] })).lbRules).toEqual([r.lbRules[0]]);
    const { result, file } = await runToFile(h, getLbRules, { loadBalancerId: webLb, listenerId: https }, 'rules');
    expect(file).toEqual(result.lbRules);
  });

  it('names the balancer and listener when the listener is missing', async () => {
    const err = await run(h, getLbRules, { loadBalancerId: webLb, listenerId: 'vserver-nothere' }).catch((e: unknown) => e);
    expect(isRemote(err, 'not-found')).toBe(true);
    expect((err as Error).message).toBe(`load balancer ${webLb} has no listener vserver-nothere`);
  });
});

describe('getLbAttachments', () => {
  it('lists the backends of a listener with their status, and filters by ids', async () => {
    const r = await run(h, getLbAttachments, { loadBalancerId: webLb, listenerId: https });
    expect(r.totalCount).toBe(3);
    expect(r.lbAttachments.map((a: { status: string }) => a.status)).toEqual(['normalRunning', 'exceptionRunning', 'normalRunning']);
    expect(r.lbAttachments[0]).toMatchObject({ port: 8443 });
    expect(r.lbAttachments[0].resourceId).toMatch(/^uhost-/);
    expect((await run(h, getLbAttachments, { loadBalancerId: webLb, listenerId: https, ids: [r.ids[2]] })).ids).toEqual([r.ids[2]]);
    const { result, file } = await runToFile(h, getLbAttachments, { loadBalancerId: webLb, listenerId: https }, 'attachments');
    expect(file).toEqual(result.lbAttachments);
  });

  it('reports an unknown balancer as not found', async () => {
    const err = await run(h, getLbAttachments, { loadBalancerId: 'ulb-x', listenerId: https }).catch((e: unknown) => e);
    expect(isRemote(err, 'not-found')).toBe(true);
  });
});

describe('getLbSsls', () => {
  it('lists certificates and filters by ids and name; pages; writes outputFile', async () => {
    const r = await run(h, getLbSsls);
    expect(names(r.lbSsls)).toEqual(['api-example-com', 'wildcard-example-net', 'www-example-com']);
    expect(r.lbSsls[0].createTime).toMatch(/Z$/);
    expect((await run(h, getLbSsls, { ids: [r.ids[1]] })).ids).toEqual([r.ids[1]]);
    expect(names((await run(h, getLbSsls, { nameRegex: 'example-com$' })).lbSsls)).toEqual(['api-example-com', 'www-example-com']);
    expect((await runPaged(h, getLbSsls, {}, 'DescribeSSL')).calls).toBe(2);
    const { result, file } = await runToFile(h, getLbSsls, {}, 'ssl');
    expect(file).toEqual(result.lbSsls);
  });
});
