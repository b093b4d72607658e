import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const PORTS = 8;
const MCRS = 4;

/**
 * A small graph in the proportions of a large network: ports (half with user tags), MCRs with two
 * prefix filter lists each, and VXCs from every port to an MCR and between neighbouring ports.
 */
function manifest(name: string): { yaml: string; resources: number } {
  const lines = [`name: ${name}`, 'resources:'];
  for (let i = 0; i < PORTS; i++) {
    const tags = i % 2 === 0 ? ', resourceTags: { team: edge }' : '';
    lines.push(
      `  port${i}:`,
      '    type: interconnect:Port',
      `    properties: { productName: ${name}-port${i}, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false${tags} }`,
    );
  }
  for (let m = 0; m < MCRS; m++) {
    lines.push(`  mcr${m}:`, '    type: interconnect:Mcr', `    properties: { productName: ${name}-mcr${m}, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }`);
    for (let l = 0; l < 2; l++) {
      lines.push(
        `  list${m}x${l}:`,
        '    type: interconnect:McrPrefixFilterList',
        `    properties: { mcrId: "\${mcr${m}.productUid}", description: list-${l}, addressFamily: IPv4, entries: [{ action: permit, prefix: "10.${l}.0.0/16" }] }`,
      );
    }
  }
  const vxc = (address: string, a: string, vlan: number, b: string) =>
    lines.push(
      `  ${address}:`,
      '    type: interconnect:Vxc',
      `    properties: { productName: ${name}-${address}, rateLimit: 100, contractTermMonths: 1, aEnd: { requestedProductUid: "\${${a}.productUid}", vlan: ${vlan} }, bEnd: { requestedProductUid: "\${${b}.productUid}" } }`,
    );
  for (let i = 0; i < PORTS; i++) vxc(`toMcr${i}`, `port${i}`, 100, `mcr${i % MCRS}`);
  for (let i = 0; i < PORTS; i += 2) vxc(`pair${i}`, `port${i}`, 200, `port${i + 1}`);
  return { yaml: lines.join('\n'), resources: PORTS + MCRS * 3 + PORTS + PORTS / 2 };
}

/** The interconnect calls since the log was last cleared, counted by method and path shape (ids as `{uid}`), the token exchange left out. */
async function counted(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const c of await sandbox.calls('interconnect')) {
    if (c.path.includes('oauth2')) continue;
    const shape = `${c.method} ${c.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{uid}').replace(/\/prefixList\/\d+/, '/prefixList/{id}')}`;
    out[shape] = (out[shape] ?? 0) + 1;
  }
  return out;
}

/** A manifest of `count` ports named `<name>-<i>`, with `config` lines (`key: value`) if given. */
function portsManifest(name: string, count: number, config: string[] = []): string {
  const ports = Array.from(
    { length: count },
    (_, i) => `  p${i}:\n    type: interconnect:Port\n    properties: { productName: ${name}-${i}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }`,
  );
  return [`name: ${name}`, ...(config.length ? ['config:', ...config.map((c) => `  ${c}`)] : []), 'resources:', ...ports].join('\n');
}

/** `plumb apply --yes` in `dir` from an empty call log, every product taking `provisioningMs` to provision. */
async function applyProvisioning(dir: string, provisioningMs: number): Promise<void> {
  await sandbox.settings({ provisioningMs });
  try {
    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
  } finally {
    await sandbox.settings({ provisioningMs: 0 });
  }
}

const sum = (calls: Record<string, number>, keep: (shape: string) => boolean = () => true) =>
  Object.entries(calls)
    .filter(([shape]) => keep(shape))
    .reduce((n, [, count]) => n + count, 0);

describe('remote calls under the API rate limit', () => {
  const { yaml, resources } = manifest('calls');
  const dir = workdir();
  writeManifest(dir, 'plumb.yaml', yaml);
  const taggedPorts = PORTS / 2;
  const lists = MCRS * 2;
  // What no list carries and the manifest manages: the tagged ports' tags and each list's entries.
  const lowerBound = { 'GET /v2/products': 1, 'GET /v2/product/{uid}/tags': taggedPorts, 'GET /v2/product/mcr2/{uid}/prefixList/{id}': lists };

  it('an apply from nothing orders each dependency level together and reads back with the list', async () => {
    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const calls = await counted();
    // Nothing is read object by object: provisioning and the read back come from the product list.
    expect(calls['GET /v2/product/{uid}'] ?? 0).toBe(0);
    expect(calls['GET /v2/product/{uid}/tags'] ?? 0).toBe(0);
    expect(calls['POST /v3/networkdesign/validate']).toBe(calls['POST /v4/networkdesign/buy']);
    expect(calls['POST /v2/product/mcr2/{uid}/prefixList']).toBe(lists);
    const excludingPolls = sum(calls, (shape) => shape !== 'GET /v2/products');
    expect(excludingPolls).toBeLessThanOrEqual(0.6 * resources);
  });

  it('a plan with no change reads each type with one list call, and per object only what the manifest manages that no list carries', async () => {
    await sandbox.clearCalls();
    const planned = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(planned.stdout).toContain('No changes.');
    expect(planned.code).toBe(0);
    expect(await counted()).toEqual(lowerBound);
  });

  it('a drift check reads as the plan does', async () => {
    await sandbox.clearCalls();
    const drift = await plumb(['drift', '--no-cost'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(0);
    expect(await counted()).toEqual(lowerBound);
  });

  it("the stack's monthly total adds only price questions, each asked once: a VXC end's location comes from the product list drift read", async () => {
    await sandbox.clearCalls();
    const drift = await plumb(['drift'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(0);
    const { 'POST /v4/pricebook/product': prices = 0, ...reads } = await counted();
    expect(reads).toEqual(lowerBound);
    // Ports, MCRs and VXCs share a handful of price drivers (location, speed, term): far fewer questions than objects.
    expect(prices).toBeGreaterThan(0);
    expect(prices).toBeLessThan(resources / 4);
  });

  it('drift --all reads once for every stack of the state location', async () => {
    const other = await plumb(['apply', '--yes', '--stack', 'second'], { cwd: dir, env: sandbox.env });
    expect(other.code).toBe(0);
    await sandbox.clearCalls();
    const drift = await plumb(['drift', '--all', '--json', '--no-cost'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(0);
    expect(JSON.parse(drift.stdout).stacks).toHaveLength(2);
    expect(await counted()).toEqual({ ...lowerBound, 'GET /v2/product/{uid}/tags': taggedPorts * 2, 'GET /v2/product/mcr2/{uid}/prefixList/{id}': lists * 2 });
  });
});

describe('orders', () => {
  it('60 ports apply from nothing in two orders: one of 50, the most an order takes, and one of the rest', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', portsManifest('fill', 60));
    await applyProvisioning(dir, 0);
    const calls = await counted();
    expect(calls['POST /v3/networkdesign/validate']).toBe(2);
    expect(calls['POST /v4/networkdesign/buy']).toBe(2);
  });

  it('120 ports that take 3 s to provision are all ordered before the first is ready: steps are not held to a fixed number at once', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', portsManifest('wide', 120));
    const provisioningMs = 3000;
    await applyProvisioning(dir, provisioningMs);
    const buys = (await sandbox.calls('interconnect')).filter((c) => c.path === '/v4/networkdesign/buy').map((c) => Date.parse(c.at));
    expect(buys).toHaveLength(3);
    // Held to 50 at once, the third order would wait for one of the first fifty ports to provision.
    expect(Math.max(...buys) - Math.min(...buys)).toBeLessThan(provisioningMs);
  });
});

describe('reads outside a plan', () => {
  it('refresh records what its drift report read, without reading again', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: refreshed
resources:
  tagged:
    type: interconnect:Port
    properties: { productName: refreshed-a, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false, resourceTags: { team: edge } }
  plain:
    type: interconnect:Port
    properties: { productName: refreshed-b, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
`,
    );
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const api = new InterconnectApi(sandbox.url);
    const [plain] = await api.liveProducts('refreshed-b');
    await api.call('PUT', `/v2/product/megaport/${plain.productUid}`, { name: 'refreshed-b-renamed', costCentre: '' });
    await sandbox.clearCalls();
    const refreshed = await plumb(['refresh', '--yes'], { cwd: dir, env: sandbox.env });
    expect(refreshed.code).toBe(0);
    expect(refreshed.stdout).toContain('Refreshed 2 resources');
    expect(await counted()).toEqual({ 'GET /v2/products': 1, 'GET /v2/product/{uid}/tags': 1 });
  });

  it("import --discover lists the products once and reads each one's tags once, for its manifest and its owner alike", async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', 'name: discovering\nresources: {}\n');
    await sandbox.clearCalls();
    const found = await plumb(['import', '--discover', 'interconnect:Port', '--force'], { cwd: dir, env: sandbox.env });
    expect(found.code).toBe(0);
    const calls = (await sandbox.calls('interconnect')).filter((c) => !c.path.includes('oauth2'));
    expect(calls.filter((c) => c.path === '/v2/products')).toHaveLength(1);
    const tagReads = calls.filter((c) => c.path.endsWith('/tags')).map((c) => c.path);
    expect(tagReads.length).toBeGreaterThan(0);
    expect(new Set(tagReads).size).toBe(tagReads.length);
    expect(calls.length).toBe(1 + tagReads.length);
  });
});

describe('provisioning waits', () => {
  it('are served by one list call per round for every product waiting, never one call per product', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', portsManifest('waits', 6));
    const provisioningMs = 1500;
    await applyProvisioning(dir, provisioningMs);
    const calls = await counted();
    expect(calls['GET /v2/product/{uid}'] ?? 0).toBe(0);
    // A round every 250 ms at most while products provision: at most one more round than that.
    expect(calls['GET /v2/products']).toBeLessThanOrEqual(provisioningMs / 250 + 2);
  });

  it('list at most every 250 ms, however many orders their products came in', async () => {
    const dir = workdir();
    // Three orders (50, 50 and 20 ports), each answered at its own moment: a round for each as
    // soon as the one before ended would list the account three times in a few milliseconds.
    writeManifest(dir, 'plumb.yaml', portsManifest('spaced', 120));
    await applyProvisioning(dir, 0);
    const rounds = (await sandbox.calls('interconnect')).filter((c) => c.path === '/v2/products').map((c) => Date.parse(c.at));
    expect(rounds.length).toBeGreaterThan(0);
    // Measured where the sandbox received them: a busy machine can hold one request back by tens of
    // milliseconds, so the bound is half the interval; rounds back to back arrive under 20 ms apart.
    for (let i = 1; i < rounds.length; i++) expect(rounds[i] - rounds[i - 1]).toBeGreaterThanOrEqual(125);
  });

  it('look at the products of orders sent together in one round, once all of those orders are answered', async () => {
    const dir = workdir();
    // Three orders (50, 50 and 20 ports) answered a few milliseconds apart, every port ready at
    // once: a round started on the first answer would need a second for the ports of the others.
    writeManifest(dir, 'plumb.yaml', portsManifest('together', 120));
    await applyProvisioning(dir, 0);
    expect((await counted())['GET /v2/products']).toBe(1);
  });

  it('under a rate limit take at most a quarter of the calls it allows, leaving the rest to steps with work to do', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', portsManifest('paced', 2, ['interconnect:requestsPerSecond: 4']));
    const provisioningMs = 4000;
    await applyProvisioning(dir, provisioningMs);
    // 4 calls a second: a round a second at most (at 250 ms, this wait would take 12 or more).
    expect((await counted())['GET /v2/products']).toBeLessThanOrEqual(provisioningMs / 1000 + 2);
  });
});

describe('the pipeline API', () => {
  it('a no-change plan of the example pipeline lists each type once, and reads alone only what no list carries', async () => {
    const dir = workdir();
    copyFileSync(resolve(import.meta.dirname, '../../examples/pipeline/pipeline.yaml'), join(dir, 'plumb.yaml'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    await sandbox.clearCalls();
    const planned = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(planned.stdout).toContain('No changes.');
    const calls = await sandbox.calls('pipeline');
    const shapes: Record<string, number> = {};
    for (const c of calls) {
      const shape = `${c.method} ${c.path.replace(/^(\/v1\/metadata\/connector-types\/).+/, '$1{service}').replace(/\/[a-z]+_[a-z]+(?=\/|$)/g, '/{id}')}`;
      shapes[shape] = (shapes[shape] ?? 0) + 1;
    }
    expect(shapes).toEqual({
      // One list call per type (one page each here), memberships per team and user.
      ...Object.fromEntries(
        [
          'groups',
          'destinations',
          'connections',
          'teams',
          'users',
          'proxy',
          'webhooks',
          'transformations',
          'teams/{id}/groups',
          'teams/{id}/users',
          'teams/{id}/connections',
          'users/{id}/groups',
          'users/{id}/connections',
        ].map((list) => [`GET /v1/${list}`, 1]),
      ),
      // The config no list carries, of each connection, destination, private link and dbt project; a connection's tables.
      'GET /v1/connections/{id}': 3,
      'GET /v1/destinations/{id}': 1,
      'GET /v1/private-links/{id}': 1,
      'GET /v1/transformation-projects/{id}': 1,
      'GET /v1/connections/{id}/schemas': 1,
      // Which config fields are secret, once per service (stripe, postgres, sql_server) for the refresh and the plan together.
      'GET /v1/metadata/connector-types/{service}': 3,
    });
  });
});
