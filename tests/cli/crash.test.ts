import { copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudProvider } from '../../src/providers/cloud/index.js';
import { APPEARS_WITHIN_MS } from '../../src/resources/cloud/kit.js';
import { crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { ageState } from '../support/cloud-time.js';
import { InterconnectApi } from '../support/interconnect-api.js';
import { pipelineCall } from '../support/pipeline-sandbox.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox();
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

const PORTS = 30;
const manifest = (prefix: string, ports = PORTS) =>
  [
    'name: crash',
    'resources:',
    ...Array.from({ length: ports }, (_, i) =>
      [
        `  port${i}:`,
        '    type: interconnect:Port',
        '    properties:',
        `      productName: ${prefix}-${i}`,
        '      portSpeed: 10000',
        `      locationId: ${[2, 3, 4][i % 3]}`,
        '      contractTermMonths: 1',
        '      marketplaceVisibility: false',
      ].join('\n'),
    ),
  ].join('\n');

// Each create journals three records (intent, accepted id, outcome): spreading the kill points
// over the first 60 records hits every gap — before an order, after it was accepted, after
// its outcome — across the parallel creates.
const KILL_POINTS = Array.from({ length: 20 }, (_, i) => i * 3 + (i % 3));

describe('a killed apply loses nothing and duplicates nothing', () => {
  for (const [n, after] of KILL_POINTS.entries()) {
    it(`killed after ${after} journal records, the next apply converges`, async () => {
      const dir = workdir();
      const prefix = `crash${n}`;
      writeManifest(dir, 'plumb.yaml', manifest(prefix));
      const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(after) } });
      expect(killed.code).not.toBe(0);

      const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      const live = await api.liveProducts(`${prefix}-`);
      const names = live.map((p) => p.productName).sort();
      expect(names).toEqual(Array.from({ length: PORTS }, (_, i) => `${prefix}-${i}`).sort());

      const settled = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
      expect(settled.code).toBe(0);
    });
  }
});

describe('a kill in the middle of a batched order', () => {
  it('after the design was bought and only some of its ids were recorded, the next apply adopts every product bought and buys none twice', async () => {
    const dir = workdir();
    const ports = 10;
    const prefix = 'midbatch';
    writeManifest(dir, 'plumb.yaml', manifest(prefix, ports));
    await sandbox.clearCalls();
    // Ten intents, then the ten ports are bought together: killed once three of their ids are recorded.
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(ports + 3) } });
    expect(killed.code).not.toBe(0);
    // Ordered together (two designs at most, should a slow disk part the steps), every intent
    // before the buy, and no product's outcome recorded before the kill.
    const buys = (await sandbox.calls('interconnect')).filter((c) => c.path === '/v4/networkdesign/buy');
    expect(buys.length).toBeLessThanOrEqual(2);
    const bought = await api.liveProducts(`${prefix}-`);
    expect(bought.length).toBeGreaterThan(3);

    const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout.match(/an interrupted create had ordered \S+; it is adopted/g)).toHaveLength(bought.length);
    const live = await api.liveProducts(`${prefix}-`);
    expect(live.map((p) => p.productName).sort()).toEqual(Array.from({ length: ports }, (_, i) => `${prefix}-${i}`).sort());
    for (const p of bought) expect(live.map((l) => l.productUid)).toContain(p.productUid);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(state.pending).toEqual([]);
    expect(
      Object.values(state.resources)
        .map((r) => (r as { id: string }).id)
        .sort(),
    ).toEqual(live.map((p) => p.productUid).sort());
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});

describe('an interrupted create of an object that carries no ownership tags', () => {
  const IX = { productName: 'crash-ix', networkServiceType: 'Sydney IX', asn: 64496, macAddress: '00:11:22:33:44:55', rateLimit: 500, vlan: 2002 };
  const manifest = `name: crash-ix
resources:
  port:
    type: interconnect:index/port:Port
    properties: { productName: crash-ix-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  ix:
    type: interconnect:index/ix:Ix
    properties:
      productName: ${IX.productName}
      requestedProductUid: \${port.productUid}
      networkServiceType: ${IX.networkServiceType}
      asn: ${IX.asn}
      macAddress: "${IX.macAddress}"
      rateLimit: ${IX.rateLimit}
      vlan: ${IX.vlan}
`;

  it('an IX ordered just before the crash is found by its port, VLAN and name, adopted, and not ordered again', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    // The port's intent, id and outcome, then the IX's intent: killed before its order is sent.
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(4) } });
    expect(killed.code).not.toBe(0);
    const portUid = (await api.liveProducts('crash-ix-port'))[0].productUid as string;
    // The order reaches the API, but its reply never reaches plumb: nothing records the IX's id.
    await api.call('POST', '/v4/networkdesign/buy', { networkDesign: [{ productUid: portUid, associatedIxs: [{ ...IX, shutdown: false }] }], discountCodes: [] });

    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/ix: an interrupted create had ordered [0-9a-f-]+; it is adopted/);
    expect(plan.stdout).toContain('No changes.');

    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const port = (await api.call<Array<Record<string, any>>>('GET', '/v2/products')).find((p) => p.productUid === portUid);
    const live = (port?.associatedIxs ?? []).filter((i: Record<string, any>) => !['CANCELLED', 'DECOMMISSIONED'].includes(i.provisioningStatus));
    expect(live).toHaveLength(1);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(state.resources.ix.id).toBe(live[0].productUid);
    expect(state.pending).toEqual([]);
  });
});

describe('an interrupted create of something an MCR holds only one of by that identity', () => {
  const cases = [
    {
      what: 'a prefix filter list, by its description',
      child: `  routes:
    type: interconnect:McrPrefixFilterList
    properties:
      mcrId: \${router.productUid}
      description: crash-routes
      addressFamily: IPv4
      entries:
        - { action: permit, prefix: 10.0.0.0/8 }
`,
      address: 'routes',
      // Made directly, as the interrupted create would have; returns the id plumb records.
      async make(mcrUid: string) {
        const made = await api.call<{ id: number }>('POST', `/v2/product/mcr2/${mcrUid}/prefixList`, {
          id: 0,
          description: 'crash-routes',
          addressFamily: 'IPv4',
          entries: [{ action: 'permit', prefix: '10.0.0.0/8' }],
        });
        return `${mcrUid}:${made.id}`;
      },
      async count(mcrUid: string) {
        const lists = await api.call<Array<{ description: string }>>('GET', `/v2/product/mcr2/${mcrUid}/prefixLists`);
        return lists.filter((l) => l.description === 'crash-routes').length;
      },
    },
    {
      what: 'an IPsec add-on, the only one an MCR has',
      child: `  ipsec:
    type: interconnect:McrIpsecAddon
    properties:
      mcrId: \${router.productUid}
      tunnelCount: 10
`,
      address: 'ipsec',
      async make(mcrUid: string) {
        await api.call('POST', `/v3/product/${mcrUid}/addon`, { addOnType: 'IP_SEC', tunnelCount: 10 });
        const mcr = await api.call<{ addOns?: Array<{ addOnUid: string; addOnType: string }> }>('GET', `/v2/product/${mcrUid}`);
        return `${mcrUid}:${mcr.addOns?.find((a) => a.addOnType === 'IP_SEC')?.addOnUid}`;
      },
      async count(mcrUid: string) {
        const mcr = await api.call<{ addOns?: Array<{ addOnType: string }> }>('GET', `/v2/product/${mcrUid}`);
        return (mcr.addOns ?? []).filter((a) => a.addOnType === 'IP_SEC').length;
      },
    },
  ];

  for (const [n, c] of cases.entries()) {
    it(`${c.what}: made just before the crash, it is found and adopted, not refused as a clash`, async () => {
      const dir = workdir();
      const mcrName = `crash-mcr-${n}`;
      writeManifest(
        dir,
        'plumb.yaml',
        `name: crash-mcr
resources:
  router:
    type: interconnect:Mcr
    properties: { productName: ${mcrName}, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
${c.child}`,
      );
      // The MCR's intent, id and outcome, then the child's intent: killed before it is made.
      const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(4) } });
      expect(killed.code).not.toBe(0);
      const mcrUid = (await api.liveProducts(mcrName))[0].productUid as string;
      // It is made, but the reply never reaches plumb.
      const id = await c.make(mcrUid);

      const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain(`${c.address}: an interrupted create had ordered ${id}; it is adopted`);
      expect(await c.count(mcrUid)).toBe(1);
      const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
      expect(state.resources[c.address].id).toBe(id);
      expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    });
  }
});

describe('an interrupted buy of an anti-DDoS instance named in the manifest', () => {
  const config = 'config:\n  cloud:region: cn-bj2\n  cloud:projectId: org-sandbox\n';
  const manifest = (name: string, area: string, dataCenter: string) => `name: crash-shield
${config}resources:
  shield:
    type: cloud:AntiDdosInstance
    properties: { name: ${name}, area: ${area}, dataCenter: ${dataCenter}, bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 50 }
`;
  const cloud = async () => {
    const settings = cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox' });
    return cloudProvider.connect(settings, { sandboxUrl: async () => sandbox.url, log: pino({ level: 'silent' }), env: {} });
  };
  const named = async (name: string) => {
    const listed = await (await cloud()).call<{ ServiceInfo: Array<{ ResourceId: string; Name: string }> }>('DescribeNapServiceInfo', { NapType: 1, Limit: 100 });
    return listed.ServiceInfo.filter((i) => i.Name === name).map((i) => i.ResourceId);
  };

  it('bought just before the crash, it is the only one of its name since the order: adopted, not bought twice', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest('crash-shield', 'EastChina', 'Yangzhou'));
    // Killed after the intent, before the buy is sent.
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(1) } });
    expect(killed.code).not.toBe(0);
    expect(await named('crash-shield')).toEqual([]);
    // The buy reaches the API, but its reply never reaches plumb.
    const { ResourceInfo } = await (
      await cloud()
    ).call<{ ResourceInfo: { ResourceId: string } }>('BuyHighProtectGameService', {
      HighProtectGameServiceName: 'crash-shield',
      AreaLine: 'EastChina',
      EngineRoom: ['Yangzhou'],
      SrcBandwidth: 50,
      DefenceDDosBaseFlowArr: ['30'],
      DefenceDDosMaxFlowArr: ['50'],
      LineType: 'BGP',
      DefenceType: 'TypeDynamic',
      ChargeType: 'Month',
      Quantity: 1,
    });

    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`shield: an interrupted create had ordered ${ResourceInfo.ResourceId}; it is adopted`);
    expect(await named('crash-shield')).toEqual([ResourceInfo.ResourceId]);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });

  it('one of that name bought long before the order is not taken for it: once the order would have been listed, a new one is bought', async () => {
    const dir = workdir();
    // The sandbox's account has held an instance named north-shield there since 2024.
    const before = await named('north-shield');
    expect(before).toHaveLength(1);
    writeManifest(dir, 'plumb.yaml', manifest('north-shield', 'NorthChina', 'Shijiazhuang'));
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(1) } });
    expect(killed.code).not.toBe(0);

    // The API lists a bought instance only once provisioned: at once, the order may still show up.
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/shield: a create interrupted at \S+ may have ordered an object that is not listed yet/);
    expect(plan.stdout).not.toContain('it is adopted');
    // Once it would have been listed, nothing it made can still show up.
    ageState(dir, APPEARS_WITHIN_MS);
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('shield: an interrupted create left nothing behind; it will be created');
    const after = await named('north-shield');
    expect(after).toHaveLength(2);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(state.resources.shield.id).not.toBe(before[0]);
    expect(after).toContain(state.resources.shield.id);
  });
});

describe('an interrupted create of a service key', () => {
  it('made just before the crash, it is the only new key of that use and VLAN on its port: adopted, never shown, not made twice', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: crash-key
resources:
  port:
    type: interconnect:Port
    properties: { productName: crash-key-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  key:
    type: interconnect:ServiceKey
    properties: { productUid: "\${port.productUid}", active: true, maxSpeed: 1000, singleUse: true, vlan: 300, description: crash key }
`,
    );
    // The port's intent, id and outcome, then the key's intent: killed before the key is made.
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(4) } });
    expect(killed.code).not.toBe(0);
    const portUid = (await api.liveProducts('crash-key-port'))[0].productUid as string;
    // It is made, but the reply never reaches plumb.
    const made = await api.call<{ key: string }>('POST', '/v2/service/key', { productUid: portUid, active: true, maxSpeed: 1000, singleUse: true, vlan: 300, description: 'crash key' });

    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/key: an interrupted create had ordered \S+; it is adopted/);
    expect(applied.stdout).not.toContain(made.key);
    const keys = await api.call<Array<{ key: string; active: boolean }>>('GET', `/v2/service/key?productIdOrUid=${portUid}`);
    expect(keys.filter((k) => k.active).map((k) => k.key)).toEqual([made.key]);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});

describe('an interrupted create that may have made any of several objects', () => {
  it('service keys: plan and apply --yes stop, naming each by when it was made (never its value), and order nothing; state rm lets the user go on deliberately', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: crash-keys
resources:
  port:
    type: interconnect:Port
    properties: { productName: crash-keys-port, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  key:
    type: interconnect:ServiceKey
    properties: { productUid: "\${port.productUid}", active: true, maxSpeed: 1000, singleUse: true, vlan: 301, description: crash keys }
`,
    );
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(4) } })).code).not.toBe(0);
    const portUid = (await api.liveProducts('crash-keys-port'))[0].productUid as string;
    const body = { productUid: portUid, active: true, maxSpeed: 1000, singleUse: true, vlan: 301, description: 'crash keys' };
    const made = [await api.call<{ key: string }>('POST', '/v2/service/key', body), await api.call<{ key: string }>('POST', '/v2/service/key', body)];
    const activeKeys = async () => (await api.call<Array<{ key: string; active: boolean }>>('GET', `/v2/service/key?productIdOrUid=${portUid}`)).filter((k) => k.active);

    for (const args of [['plan'], ['apply', '--yes']]) {
      const stopped = await plumb(args, { cwd: dir, env: sandbox.env });
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toMatch(
        /key: the create interrupted at \S+ may have made any of 2 active service key on \S+s: one made at \S+, one made at \S+; plumb cannot tell which, so it adopts none and orders nothing/,
      );
      expect(stopped.stderr).toContain('plumb state rm key (forgets the interrupted create), then give key "import: <id>" in its options');
      for (const m of made) expect(stopped.stdout + stopped.stderr).not.toContain(m.key);
    }
    expect(await activeKeys()).toHaveLength(2);

    const forgot = await plumb(['state', 'rm', 'key'], { cwd: dir, env: sandbox.env });
    expect(forgot.code).toBe(0);
    expect(forgot.stdout).toContain('forgot an interrupted create of key');
    expect((await plumb(['plan'], { cwd: dir, env: sandbox.env })).stdout).toContain('key will be created');
  });

  it('VPCs of the name the manifest gives: the run stops naming them, and orders nothing', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: crash-vpcs
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  network:
    type: cloud:Vpc
    properties: { name: twin-vpc, cidrBlocks: [10.61.0.0/16] }
`,
    );
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(1) } })).code).not.toBe(0);
    const settings = cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox' });
    const cloud = await cloudProvider.connect(settings, { sandboxUrl: async () => sandbox.url, log: pino({ level: 'silent' }), env: {} });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await cloud.call<{ VPCId: string }>('CreateVPC', { Name: 'twin-vpc', Network: ['10.61.0.0/16'] })).VPCId);
    await sandbox.clearCalls();

    const stopped = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`network: the create interrupted at`);
    for (const id of ids) expect(stopped.stderr).toContain(id);
    expect((await sandbox.calls('cloud')).map((c) => String(c.query.Action)).filter((a) => a.startsWith('Create'))).toEqual([]);
  });
});

describe('a killed apply of the example pipeline', () => {
  const example = resolve(import.meta.dirname, '../../examples/pipeline/pipeline.yaml');
  const pipeline = async (path: string) => (await pipelineCall(sandbox.url, 'GET', path)).body.data;
  const items = async (path: string) => (await pipeline(path)).items as Array<Record<string, any>>;

  /** The ids of every live object the example declares, found by what identifies each, not by state. */
  async function live(): Promise<string[]> {
    const group = (await items('/groups')).filter((g) => g.name === 'analytics_core');
    if (group.length !== 1) return group.map((g) => g.id);
    const groupId = group[0].id as string;
    const projects = (await items('/transformation-projects')).filter((p) => p.group_id === groupId);
    return [
      groupId,
      ...(await items('/destinations')).filter((d) => d.id === groupId).map((d) => d.id),
      ...(await items(`/connections?group_id=${groupId}`)).map((c) => c.id),
      ...(await items('/private-links')).filter((l) => l.name === 'orders_db_core').map((l) => l.id),
      ...(await items('/proxy')).filter((a) => a.display_name === 'onprem-nyc-erp').map((a) => a.id),
      ...projects.map((p) => p.id),
      ...(await items('/transformations')).filter((t) => projects.some((p) => p.id === t.transformation_config.project_id)).map((t) => t.id),
      ...(await items('/teams')).filter((t) => t.name === 'Pipeline Owners').map((t) => t.id),
      ...(await items('/users')).filter((u) => u.email === 'nadia.core@acme-data.io').map((u) => u.id),
      ...(await items('/webhooks')).filter((w) => w.group_id === groupId).map((w) => w.id),
    ];
  }

  // Spread over the 18 creates' records (intent, accepted id, outcome), across the parallel waves.
  for (const after of [1, 5, 11, 19, 28, 40]) {
    it(`killed after ${after} journal records, the next apply makes every object exactly once`, async () => {
      const dir = workdir();
      copyFileSync(example, join(dir, 'plumb.yaml'));
      const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(after) } });
      expect(killed.code).not.toBe(0);

      const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
      expect(state.pending).toEqual([]);
      // A schedule and the memberships are parts of objects or pairs: their ids repeat others'.
      const own = ['analytics', 'warehouse', 'orders', 'erp', 'payments', 'ordersLink', 'nycProxy', 'dbtProject', 'paymentsModels', 'pipelineOwners', 'analyst', 'syncAlerts'];
      const recorded = own.map((address) => state.resources[address].id as string);
      expect((await live()).sort()).toEqual(recorded.sort());
      expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);

      const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env });
      expect(destroyed.code).toBe(0);
      expect(await live()).toEqual([]);
    });
  }

  it('a private link made just before the crash is found by its name, adopted and not made twice', async () => {
    const dir = workdir();
    const link = { name: 'crash_link', region: 'AWS_US_EAST_1', service: 'SOURCE_AWS', config: { connection_service_name: 'com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f6aaaa' } };
    writeManifest(dir, 'plumb.yaml', `name: crash-link\nresources:\n  link:\n    type: pipeline:index/privateLink:PrivateLink\n    properties: ${JSON.stringify(link)}\n`);
    const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(1) } });
    expect(killed.code).not.toBe(0);
    // It is made, but the answer never reaches plumb.
    const made = (await pipelineCall(sandbox.url, 'POST', '/private-links', link)).body.data.id as string;

    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`link: an interrupted create had ordered ${made}; it is adopted`);
    expect((await items('/private-links')).filter((l) => l.name === 'crash_link').map((l) => l.id)).toEqual([made]);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});
