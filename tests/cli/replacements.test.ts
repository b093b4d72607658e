import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudProvider } from '../../src/providers/cloud/index.js';
import { APPEARS_WITHIN_MS } from '../../src/resources/cloud/kit.js';
import { crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { ageState } from '../support/cloud-time.js';
import { InterconnectApi } from '../support/interconnect-api.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox();
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

const settings = (body: Record<string, unknown>) => fetch(`${sandbox.url}/_sandbox/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The state a finished command left on disk (its journal folded in). */
function recorded(dir: string): { resources: Record<string, { id: string; status: string }>; pending: unknown[] } {
  return JSON.parse(readFileSync(stateFile(dir), 'utf8'));
}

/** The state as `plumb state pull` prints it. */
async function stateOf(dir: string): Promise<{ resources: Record<string, { id: string; status: string }>; pending: unknown[] }> {
  const pulled = await plumb(['state', 'pull'], { cwd: dir, env: sandbox.env });
  expect(pulled.code).toBe(0);
  return JSON.parse(pulled.stdout);
}

const livePorts = async (prefix: string) => (await api.liveProducts(prefix)).filter((p) => p.productType === 'MEGAPORT').map((p) => p.productUid as string);

describe('a create-first replacement that times out', () => {
  it('keeps the new port as still provisioning and the old one set aside: the next apply waits for the new one and deletes the old by a real call; none stays billed untracked, none is bought twice', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: slow-replace
resources:
  port:
    type: interconnect:Port
    properties: { productName: slow-replace, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
    options:
      customTimeouts: { create: 2s }
`,
    );
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const [first] = await livePorts('slow-replace');

    await settings({ provisioningMs: 60_000 });
    try {
      const timedOut = await plumb(['apply', '--yes', '--replace', 'port'], { cwd: dir, env: sandbox.env });
      expect(timedOut.code).toBe(1);
      expect(timedOut.stdout).toMatch(
        /timed out after 2(?:\.\d)? s waiting for port (\S+) to be ready \(last status: DEPLOYABLE\); \1 is recorded as still provisioning, and the next apply waits for it/,
      );
    } finally {
      await settings({ provisioningMs: 0 });
    }
    const second = (await stateOf(dir)).resources.port;
    expect(second.status).toBe('provisioning');
    expect((await stateOf(dir)).resources[`port~${first}`]).toMatchObject({ id: first });
    expect((await livePorts('slow-replace')).sort()).toEqual([first, second.id].sort());

    const converged = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(converged.code).toBe(0);
    expect(converged.stdout).toContain(`port (deposed ${first}) will be destroyed`);
    expect(converged.stdout).toMatch(new RegExp(`port \\(deposed ${first}\\): Destruction complete .*\\[id=${first}\\]`));
    expect(converged.stdout).not.toMatch(/will be replaced|Creating/);
    expect(await livePorts('slow-replace')).toEqual([second.id]);
    expect(Object.keys((await stateOf(dir)).resources)).toEqual(['port']);
    expect((await stateOf(dir)).resources.port).toMatchObject({ id: second.id, status: 'ok' });
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});

describe('how long a create waits', () => {
  it("is the provider's waitTime unless customTimeouts says otherwise", async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: wait-time
config:
  interconnect:waitTime: 0.03
resources:
  port:
    type: interconnect:Port
    properties: { productName: wait-time, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
`,
    );
    await settings({ provisioningMs: 60_000 });
    try {
      const timedOut = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(timedOut.code).toBe(1);
      // 0.03 min: 1.8 s, and the look under way when it runs out.
      expect(timedOut.stdout).toMatch(/timed out after (?:1\.[89]|2(?:\.\d)?) s waiting for port \S+ to be ready/);
    } finally {
      await settings({ provisioningMs: 0 });
    }
  });
});

describe('kill -9 during apply --replace', () => {
  const cloud = async () => {
    const parsed = cloudProvider.settings.parse({ region: 'cn-bj2', projectId: 'org-sandbox' });
    return cloudProvider.connect(parsed, { sandboxUrl: async () => sandbox.url, log: pino({ level: 'silent' }), env: {} });
  };
  const liveShields = async (name: string) => {
    const listed = await (await cloud()).call<{ ServiceInfo: Array<{ ResourceId: string; Name: string }> }>('DescribeNapServiceInfo', { NapType: 1, Limit: 100 });
    return listed.ServiceInfo.filter((i) => i.Name === name).map((i) => i.ResourceId);
  };
  const cases = [
    {
      what: 'a port with VXCs',
      parent: 'port',
      kills: [1, 2, 3, 4, 5, 6, 8],
      manifest: (p: string) => `name: ${p}
resources:
  port:
    type: interconnect:Port
    properties: { productName: ${p}-a, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  far:
    type: interconnect:Port
    properties: { productName: ${p}-b, portSpeed: 10000, locationId: 3, contractTermMonths: 1, marketplaceVisibility: false }
  one:
    type: interconnect:Vxc
    properties:
      productName: ${p}-one
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 100 }
      bEnd: { requestedProductUid: "\${far.productUid}", vlan: 200 }
  two:
    type: interconnect:Vxc
    properties:
      productName: ${p}-two
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 101 }
      bEnd: { requestedProductUid: "\${far.productUid}", vlan: 201 }
`,
      live: async (p: string) => (await api.liveProducts(p)).filter((x) => x.productType === 'MEGAPORT' && x.productName === `${p}-a`).map((x) => x.productUid as string),
      kept: ['one', 'two', 'far'],
    },
    {
      what: 'an MCR with prefix lists',
      parent: 'router',
      kills: [1, 2, 3, 5, 7, 9, 11],
      manifest: (p: string) => `name: ${p}
resources:
  router:
    type: interconnect:Mcr
    properties: { productName: ${p}-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
  inbound:
    type: interconnect:McrPrefixFilterList
    properties: { mcrId: "\${router.productUid}", description: inbound, addressFamily: IPv4, entries: [{ action: permit, prefix: 10.0.0.0/8, le: 24 }] }
  outbound:
    type: interconnect:McrPrefixFilterList
    properties: { mcrId: "\${router.productUid}", description: outbound, addressFamily: IPv4, entries: [{ action: deny, prefix: 192.168.0.0/16 }] }
`,
      live: async (p: string) => (await api.liveProducts(p)).filter((x) => x.productType === 'MCR2').map((x) => x.productUid as string),
      kept: [],
    },
    {
      what: 'an anti-DDoS instance with allowed domains',
      parent: 'shield',
      kills: [1, 2, 3, 4, 6, 8],
      manifest: (p: string) => `name: ${p}
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  shield:
    type: cloud:AntiDdosInstance
    properties: { name: ${p}, area: EastChina, dataCenter: Yangzhou, bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 50 }
  site:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "\${shield.antiDdosInstanceId}", domain: ${p}.com }
  shop:
    type: cloud:AntiDdosAllowedDomain
    properties: { instanceId: "\${shield.antiDdosInstanceId}", domain: shop-${p}.com }
`,
      live: liveShields,
      kept: [],
      // The API lists a bought instance only once provisioned: a buy interrupted before it was
      // sent is waited for until it would have been listed. Each next apply runs as if that long after.
      listedLate: true,
    },
  ];
  for (const c of cases) {
    // One stack per case, each kill point starting from the state the last one converged to.
    it(`${c.what}, killed after each of ${c.kills.join(', ')} journal records: every next apply converges, nothing live the manifest wants is deleted, nothing billed is untracked`, async () => {
      const dir = workdir();
      const prefix = `kill-${c.parent}`;
      writeManifest(dir, 'plumb.yaml', c.manifest(prefix));
      expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
      for (const after of c.kills) {
        const before = recorded(dir);
        const killed = await plumb(['apply', '--yes', '--replace', c.parent], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(after) } });
        expect(killed.code, `killed after ${after}`).not.toBe(0);
        if (c.listedLate) ageState(dir, APPEARS_WITHIN_MS);

        const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
        expect(again.stderr, `killed after ${after}`).toBe('');
        expect(again.code, `killed after ${after}: ${again.stdout}`).toBe(0);
        const state = recorded(dir);
        expect(Object.keys(state.resources).sort(), `killed after ${after}`).toEqual(Object.keys(before.resources).sort());
        expect(state.pending, `killed after ${after}`).toEqual([]);
        // The one object of the replaced kind that is live is the one state records.
        expect(await c.live(prefix), `killed after ${after}`).toEqual([state.resources[c.parent].id]);
        // What moves with the replacement in place is never replaced.
        for (const address of c.kept) expect(state.resources[address].id, `killed after ${after}`).toBe(before.resources[address].id);
        expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code, `killed after ${after}`).toBe(0);
      }
    });
  }
});
