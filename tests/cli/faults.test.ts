/**
 * Convergence under faults: a 45-resource manifest of every interconnect type, the anti-DDoS
 * resources and the core pipeline ones is applied while every provider of the sandbox answers
 * 429 to a fifth of the calls, 500 to a tenth, and loses one in twenty before handling it and one
 * in twenty after (its answer lost). That apply may fail; one re-apply must succeed, a plan then shows no changes, and every
 * live object the run made is in state exactly once. Ten seeded runs, each reproducible.
 *
 * The re-apply runs with the faults cleared. At these rates about one send in three fails, so a
 * budget of six sends is used up by about one call in four hundred (the cloud API's default
 * four, one in fifty), and a re-apply makes a hundred or more calls: with the faults still on,
 * whether it succeeded would measure the retry budget, not whether the first apply left
 * anything it cannot settle.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { cloudProvider } from '../../src/providers/cloud/index.js';
import { APPEARS_WITHIN_MS } from '../../src/resources/cloud/kit.js';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { ageState } from '../support/cloud-time.js';
import { InterconnectApi } from '../support/interconnect-api.js';
import { TEST_KEY, TEST_SECRET } from '../support/pipeline-sandbox.js';

type TestSandbox = Awaited<ReturnType<typeof testSandbox>>;

const FAULTS = { rates: { '429': 0.2, '500': 0.1 }, dropRate: 0.05, dropReplyRate: 0.05, retryAfterSeconds: 0.05 };
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** Resources by name: type and properties (and options). */
type Resources = Record<string, { type: string; properties: Record<string, unknown>; options?: Record<string, unknown> }>;

/** Ten ports, two LAGs, and three MCRs each with two prefix filter lists, an IPsec add-on and a vrouter VXC from a port. */
function routingResources(): Resources {
  const r: Resources = {};
  const term = { contractTermMonths: 1 };
  for (let i = 0; i < 10; i++) r[`port${i}`] = { type: 'interconnect:Port', properties: { productName: `ft-port-${i}`, portSpeed: 10000, locationId: 2, marketplaceVisibility: false, ...term } };
  for (let i = 0; i < 2; i++)
    r[`lag${i}`] = { type: 'interconnect:LagPort', properties: { productName: `ft-lag-${i}`, portSpeed: 10000, locationId: 2, marketplaceVisibility: false, lagCount: 2, ...term } };
  for (let i = 0; i < 3; i++) {
    const mcrId = `\${mcr${i}.productUid}`;
    r[`mcr${i}`] = { type: 'interconnect:Mcr', properties: { productName: `ft-mcr-${i}`, portSpeed: 1000, locationId: 2, ...term } };
    r[`routes${i}`] = {
      type: 'interconnect:McrPrefixFilterList',
      properties: {
        mcrId,
        description: `routes-${i}`,
        addressFamily: 'IPv4',
        entries: [
          { action: 'permit', prefix: '10.0.0.0/8', le: 24 },
          { action: 'deny', prefix: '0.0.0.0/0', le: 32 },
        ],
      },
    };
    r[`routesV6${i}`] = {
      type: 'interconnect:McrPrefixFilterList',
      properties: { mcrId, description: `routes-v6-${i}`, addressFamily: 'IPv6', entries: [{ action: 'permit', prefix: '2001:db8::/32', le: 48 }] },
    };
    r[`ipsec${i}`] = { type: 'interconnect:McrIpsecAddon', properties: { mcrId, tunnelCount: 10 } };
    const bgp = { peerAsn: 65000 + i, localIpAddress: `10.${i}.0.1`, peerIpAddress: `10.${i}.0.2`, importWhitelist: `routes-${i}` };
    r[`toMcr${i}`] = {
      type: 'interconnect:Vxc',
      properties: {
        productName: `ft-to-mcr-${i}`,
        rateLimit: 100,
        aEnd: { requestedProductUid: `\${port${i}.productUid}`, vlan: 100 + i },
        bEnd: { requestedProductUid: mcrId },
        bEndPartnerConfig: { partner: 'vrouter', interfaces: [{ ipAddresses: [`10.${i}.0.1/30`], bgpConnections: [bgp] }] },
        ...term,
      },
      // The list is named, not referenced.
      options: { dependsOn: [`\${routes${i}}`] },
    };
  }
  return r;
}

/** Two MVEs, VXCs to AWS and between two ports, two IX connections and three service keys, on the ports above. */
function edgeResources(): Resources {
  const r: Resources = {};
  const term = { contractTermMonths: 1 };
  const vendorConfig = {
    vendor: '${images.mveImages[0].vendor}',
    imageId: '${images.mveImages[0].id}',
    productSize: '${sizes.mveSizes[0].size}',
    adminSshPublicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIexample admin@example',
    manageLocally: true,
  };
  for (let i = 0; i < 2; i++) r[`mve${i}`] = { type: 'interconnect:Mve', properties: { productName: `ft-mve-${i}`, locationId: 2, vendorConfig, vnics: [{ description: 'Data Plane' }], ...term } };
  for (let i = 0; i < 2; i++) {
    r[`toAws${i}`] = {
      type: 'interconnect:Vxc',
      properties: {
        productName: `ft-to-aws-${i}`,
        rateLimit: 100,
        aEnd: { requestedProductUid: `\${port${3 + i}.productUid}`, vlan: 200 },
        bEnd: { requestedProductUid: '${aws.productUid}' },
        bEndPartnerConfig: { partner: 'aws', type: 'private', ownerAccount: '123456789012', asn: 64555, name: `ft-vif-${i}` },
        ...term,
      },
    };
  }
  r.portToPort = {
    type: 'interconnect:Vxc',
    properties: {
      productName: 'ft-port-to-port',
      rateLimit: 100,
      aEnd: { requestedProductUid: '${port5.productUid}', vlan: 300 },
      bEnd: { requestedProductUid: '${port6.productUid}', vlan: 300 },
      ...term,
    },
  };
  for (let i = 0; i < 2; i++) {
    r[`ix${i}`] = {
      type: 'interconnect:Ix',
      properties: {
        productName: `ft-ix-${i}`,
        requestedProductUid: `\${port${7 + i}.productUid}`,
        networkServiceType: 'Sydney IX',
        asn: 64496,
        macAddress: `00:11:22:33:44:5${i}`,
        rateLimit: 1000,
        vlan: 2001,
        shutdown: false,
      },
    };
  }
  for (let i = 0; i < 3; i++) {
    r[`key${i}`] = { type: 'interconnect:ServiceKey', properties: { productUid: '${port9.productUid}', active: true, singleUse: true, vlan: 400 + i, maxSpeed: 1000, description: `partner ${i}` } };
  }
  return r;
}

function cloudResources(): Resources {
  const instanceId = '${shield.antiDdosInstanceId}';
  return {
    shield: {
      type: 'cloud:AntiDdosInstance',
      properties: { name: 'ft-shield', area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 100, baseDefenceValue: 30, maxDefenceValue: 60, chargeType: 'month', duration: 1 },
      // A buy whose answer is lost is looked for until the instance shows, at most this long; the
      // sandbox lists one at once, so a minute of looking would only find nothing more slowly.
      options: { customTimeouts: { create: '10s' } },
    },
    mainSite: { type: 'cloud:AntiDdosAllowedDomain', properties: { instanceId, domain: 'example.com', comment: 'main web site' } },
    shop: { type: 'cloud:AntiDdosAllowedDomain', properties: { instanceId, domain: 'example-shop.com.cn', comment: 'online shop' } },
  };
}

function pipelineResources(): Resources {
  return {
    ftGroup: { type: 'pipeline:Group', properties: { name: 'ft_group' } },
    ftWarehouse: {
      type: 'pipeline:Destination',
      properties: {
        groupId: '${ftGroup.id}',
        service: 'snowflake',
        region: 'AWS_US_EAST_1',
        timeZoneOffset: '0',
        config: { host: 'ft.snowflakecomputing.com', port: 443, database: 'FT', auth: 'PASSWORD', user: 'FT_USER', password: 'ft-pass', role: 'FT_ROLE' },
      },
    },
    ftOrders: {
      type: 'pipeline:Connection',
      properties: {
        service: 'postgres',
        groupId: '${ftWarehouse.id}',
        destinationSchema: { prefix: 'ft_orders' },
        config: { host: 'ft-db.example.com', port: '5432', database: 'orders', user: 'ft', password: 'ft-db-pass', update_method: 'XMIN' },
      },
    },
    ftTeam: { type: 'pipeline:Team', properties: { name: 'ft-team', description: 'looks after the faults run', role: 'Account Reviewer' } },
    ftHook: { type: 'pipeline:Webhook', properties: { groupId: '${ftGroup.id}', url: 'https://hooks.example.com/ft', events: ['sync_end'], secret: 'ft-hook-secret' } },
  };
}

const invoke = (fn: string, args: Record<string, unknown>) => ({ 'fn::invoke': { function: fn, arguments: args } });

/** The manifest: 45 resources of every provider, and lookups of each. */
function manifest(): string {
  // A 429 halves a provider's limits (at most once a second) and they climb back a tenth of the
  // way per quiet second; with 429s at random a fifth of the time and nothing to climb back to,
  // that would settle near a few calls a second. Explicit limits give it a way back.
  const limits = Object.fromEntries(
    ['interconnect', 'cloud', 'pipeline'].flatMap((p) => [
      [`${p}:requestsPerSecond`, 1000],
      [`${p}:maxConcurrency`, 50],
    ]),
  );
  return stringify({
    name: 'faults',
    config: { 'cloud:region': 'cn-bj2', 'cloud:projectId': 'org-sandbox', ...limits },
    variables: {
      aws: invoke('interconnect:index/getPartner:getPartner', { connectType: 'AWS', locationId: 2, diversityZone: 'blue' }),
      images: invoke('interconnect:index/getMveImages:getMveImages', { vendorFilter: 'Cisco', productCodeFilter: 'c8000v', versionFilter: '17.12.02', releaseImageFilter: true }),
      sizes: invoke('interconnect:index/getMveSizes:getMveSizes', {}),
      group: invoke('pipeline:index/getGroup:getGroup', { id: 'decent_dropsy' }),
    },
    resources: { ...routingResources(), ...edgeResources(), ...cloudResources(), ...pipelineResources() },
    outputs: { group: '${group.name}' },
  });
}

/** Every live object of the run's kinds, by kind, each as the id state gives it. */
type Inventory = Record<string, string[]>;

const GONE = ['CANCELLED', 'CANCELLED_PARENT', 'DECOMMISSIONING', 'DECOMMISSIONED'];

/** What the sandbox holds, read through its APIs as another tool would. Service keys are `<port>/<vlan>/<created>`. */
async function inventory(sandbox: TestSandbox): Promise<Inventory> {
  const api = new InterconnectApi(sandbox.url);
  const all = await api.call<Array<Record<string, any>>>('GET', '/v2/products');
  const products = all.filter((p) => !GONE.includes(p.provisioningStatus));
  const everNested = all.flatMap((p) => [...(p.associatedVxcs ?? []), ...(p.associatedIxs ?? [])] as Array<Record<string, any>>);
  const nested = (key: string) => [
    ...new Set(products.flatMap((p) => ((p[key] ?? []) as Array<Record<string, any>>).filter((x) => !GONE.includes(x.provisioningStatus)).map((x) => x.productUid as string))),
  ];
  const mcrs = products.filter((p) => p.productType === 'MCR2');
  const lists = [];
  for (const m of mcrs) lists.push(...(await api.call<Array<{ id: number }>>('GET', `/v2/product/mcr2/${m.productUid}/prefixLists`)).map((l) => `${m.productUid}:${l.id}`));
  const keys = (await api.call<Array<Record<string, any>>>('GET', '/v2/service/key')).filter((k) => k.active);
  const cloud = await cloudProvider.connect(cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox' }), {
    sandboxUrl: async () => sandbox.url,
    log: pino({ level: 'silent' }),
    env: {},
  });
  const instances = await cloud.pageAll<{ ResourceId: string }>('DescribeNapServiceInfo', { NapType: 1 }, 'ServiceInfo');
  const domains = [];
  for (const { ResourceId } of instances) {
    const listed = await cloud.pageAll<{ Domain: string; Status: number }>('GetNapAllowListDomain', { ResourceId }, 'DomainList');
    domains.push(...listed.filter((d) => d.Status !== 3 && d.Status !== 5).map((d) => `${ResourceId}/${d.Domain}`));
  }
  const pipeline = async (path: string) => {
    const answer = await fetch(`${sandbox.url}/pipeline/v1/${path}?limit=1000`, { headers: { authorization: `Basic ${Buffer.from(`${TEST_KEY}:${TEST_SECRET}`).toString('base64')}` } });
    return ((await answer.json()) as { data: { items: Array<{ id: string }> } }).data.items.map((i) => i.id);
  };
  return {
    group: await pipeline('groups'),
    destination: await pipeline('destinations'),
    connection: await pipeline('connections'),
    team: await pipeline('teams'),
    webhook: await pipeline('webhooks'),
    product: products.map((p) => p.productUid as string),
    vxc: nested('associatedVxcs'),
    ix: nested('associatedIxs'),
    prefixList: lists,
    addOn: mcrs.flatMap((m) => ((m.addOns ?? []) as Array<{ addOnUid: string }>).map((a) => `${m.productUid}:${a.addOnUid}`)),
    serviceKey: keys.map((k) => `${k.productUid}/${k.vlan}/${new Date(k.createDate).toISOString()}`),
    instance: instances.map((i) => i.ResourceId),
    domain: domains,
    // Products, VXCs and IXs cancelled: one bought twice would leave one of them here.
    cancelled: [...new Set([...all, ...everNested].filter((p) => GONE.includes(p.provisioningStatus)).map((p) => p.productUid as string))],
  };
}

/** The kind of inventory each resource type's ids fall in. */
const KIND: Record<string, string> = {
  Port: 'product',
  LagPort: 'product',
  Mcr: 'product',
  Mve: 'product',
  Vxc: 'vxc',
  Ix: 'ix',
  McrPrefixFilterList: 'prefixList',
  McrIpsecAddon: 'addOn',
  ServiceKey: 'serviceKey',
  AntiDdosInstance: 'instance',
  AntiDdosAllowedDomain: 'domain',
  Group: 'group',
  Destination: 'destination',
  Connection: 'connection',
  Team: 'team',
  Webhook: 'webhook',
};

/** What state records, in the inventory's terms; a LAG counts its member ports too. */
async function recorded(dir: string, env: Record<string, string>): Promise<{ inventory: Inventory; pending: unknown[] }> {
  const pulled = await plumb(['state', 'pull'], { cwd: dir, env });
  expect(pulled.code, pulled.stderr).toBe(0);
  const state = JSON.parse(pulled.stdout) as { resources: Record<string, { type: string; id: string; outputs: Record<string, any> }>; pending: unknown[] };
  const found: Inventory = Object.fromEntries([...Object.values(KIND), 'cancelled'].map((k) => [k, []]));
  for (const r of Object.values(state.resources)) {
    const kind = KIND[r.type.split(':').at(-1) as string];
    if (kind === 'serviceKey') found[kind].push(`${r.outputs.productUid}/${r.outputs.vlan}/${r.outputs.createDate}`);
    else if (r.type.endsWith(':LagPort')) found[kind].push(...(r.outputs.lagPortUids as string[]));
    else found[kind].push(r.id);
  }
  return { inventory: found, pending: state.pending };
}

/** What `after` holds that `before` did not, per kind. */
function made(before: Inventory, after: Inventory): Inventory {
  return Object.fromEntries(Object.entries(after).map(([kind, ids]) => [kind, ids.filter((id) => !before[kind].includes(id))]));
}

const sorted = (inv: Inventory) => Object.fromEntries(Object.entries(inv).map(([k, ids]) => [k, [...ids].sort()]));

async function setFaults(sandbox: TestSandbox, body: unknown): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/faults`, { method: body ? 'POST' : 'DELETE', headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
}

/** One seeded run: the faulted apply, the re-apply, the plan and the inventory, in a sandbox of its own. */
async function run(seed: number) {
  const sandbox = await testSandbox();
  try {
    const dir = workdir('plumb-faults-');
    writeManifest(dir, 'plumb.yaml', manifest());
    const before = await inventory(sandbox);
    await setFaults(sandbox, { ...FAULTS, seed });
    const first = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    const statuses = new Map<string, Set<number>>();
    for (const c of (await sandbox.calls()) as unknown as Array<{ provider: string; status: number }>) {
      if (!statuses.has(c.provider)) statuses.set(c.provider, new Set());
      statuses.get(c.provider)?.add(c.status);
    }
    await setFaults(sandbox, undefined);
    // A buy of the anti-DDoS instance whose fate the first apply could not learn is looked for
    // until the instance would have been listed (the API lists one only once provisioned): the
    // re-apply runs as if that long after. The sandbox lists what a buy made at once, so nothing
    // bought is missed.
    ageState(dir, APPEARS_WITHIN_MS);
    const second = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    const live = made(before, await inventory(sandbox));
    const state = await recorded(dir, sandbox.env);
    return { seed, first, second, plan, live, state, statuses };
  } finally {
    await sandbox.close();
  }
}

describe('a 45-resource manifest of every provider under faults', () => {
  it('converges by the first re-apply in 10 of 10 seeded runs, with every object made in state exactly once', async () => {
    const runs = await Promise.all(SEEDS.map(run));
    for (const r of runs) {
      const where = `seed ${r.seed}: first apply exit ${r.first.code}\n${r.first.stderr}\nre-apply:\n${r.second.stdout}\n${r.second.stderr}\nplan:\n${r.plan.stdout}`;
      expect(r.second.code, where).toBe(0);
      // What the first apply made is settled, never bought again: the re-apply adds what is missing
      // and may finish in place what a create left undone (an allowed domain's comment), no more.
      expect(r.second.stdout, where).toMatch(/Apply complete! Resources: \d+ added, \d+ changed, 0 replaced, 0 destroyed\.|No changes\./);
      expect(r.plan.code, where).toBe(0);
      expect(r.state.pending, where).toEqual([]);
      // Nothing made twice, nothing made and forgotten, nothing recorded that is not there.
      expect(sorted(r.live), where).toEqual(sorted(r.state.inventory));
      // 45 resources, each LAG counted as its two member ports.
      expect(Object.values(r.state.inventory).flat().length, where).toBe(47);
    }
    // The runs left work for settling: creates whose outcome the first apply could not learn.
    expect(runs.filter((r) => /^Settled: /m.test(r.second.stdout)).length).toBeGreaterThan(0);
    // Every provider met every fault: 429, 500 and closed connections (logged as 0).
    for (const provider of ['interconnect', 'cloud', 'pipeline']) {
      const seen = new Set(runs.flatMap((r) => [...(r.statuses.get(provider) ?? [])]));
      expect([...seen].filter((s) => s === 429 || s === 500 || s === 0).sort(), provider).toEqual([0, 429, 500]);
    }
  }, 110_000);
});
