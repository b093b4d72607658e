/**
 * Replacements whose halves must be ordered around each other: a delete-first replacement with a
 * dependent that would be replaced create-first. Every step the report counts ran its calls.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

// A world of its own for each test: the examples' names are the account's.
let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeEach(async () => {
  sandbox = await testSandbox();
});
afterEach(async () => sandbox.close());

const EXAMPLES = resolve(import.meta.dirname, '../../examples');

/** The events and report of `apply --json`. */
function events(stdout: string): Array<Record<string, any>> {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

/** Every result the report calls done had its step started. */
function expectEveryDoneStepStarted(stream: Array<Record<string, any>>): void {
  const started = new Set(stream.filter((e) => e.type === 'step-start').map((e) => `${e.address} ${e.action}`));
  const report = stream.find((e) => e.type === 'report')!;
  const done = report.results.filter((r: { status: string }) => r.status === 'done').map((r: { address: string; action: string }) => `${r.address} ${r.action}`);
  expect(done.length).toBeGreaterThan(0);
  for (const step of done) expect(started).toContain(step);
}

describe('a delete-first replacement whose dependent would be replaced create-first', () => {
  it("examples/pipeline: a dbt project's new git remote replaces the project and its transformation, each by real calls", async () => {
    const dir = workdir();
    const file = join(dir, 'plumb.yaml');
    copyFileSync(join(EXAMPLES, 'pipeline/pipeline.yaml'), file);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    writeFileSync(file, readFileSync(file, 'utf8').replace('acme-data/analytics-dbt.git', 'acme-data/analytics-dbt-next.git'));
    await sandbox.clearCalls();

    const applied = await plumb(['apply', '--yes', '--json'], { cwd: dir, env: sandbox.env });
    expect(applied.code).toBe(0);
    const stream = events(applied.stdout);
    expectEveryDoneStepStarted(stream);
    const writes = (await sandbox.calls('pipeline')).filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path.replace(/\/[a-z]+_[a-z]+$/, '/{id}')}`);
    expect(writes).toEqual(['DELETE /v1/transformations/{id}', 'DELETE /v1/transformation-projects/{id}', 'POST /v1/transformation-projects', 'POST /v1/transformations']);

    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('examples/cloud/network: a NAT gateway replaced delete-first, beside objects an earlier replacement set aside, takes its rule with it', async () => {
    const dir = workdir();
    const file = join(dir, 'plumb.yaml');
    copyFileSync(join(EXAMPLES, 'cloud/network.yaml'), file);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    // A VPC rename whose subnets' deletes fail: the old VPC and subnets stay, set aside.
    writeFileSync(file, readFileSync(file, 'utf8').replace('name: shop-vpc', 'name: shop-vpc-2'));
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        provider: 'cloud',
        next: [
          { match: 'DeleteSubnet', status: 400 },
          { match: 'DeleteSubnet', status: 400 },
        ],
      }),
    });
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(1);
    await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    const listed = await plumb(['state', 'list'], { cwd: dir, env: sandbox.env });
    expect(listed.stdout).toMatch(/^network~/m);

    writeFileSync(file, readFileSync(file, 'utf8').replace('      name: shop-nat\n      tag: shop\n', '      name: shop-nat\n      tag: shop\n    options:\n      deleteBeforeReplace: true\n'));
    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes', '--json', '--replace', 'nat'], { cwd: dir, env: sandbox.env });
    expect(applied.code).toBe(0);
    expectEveryDoneStepStarted(events(applied.stdout));
    const actions = (await sandbox.calls('cloud')).map((c) => String(c.query.Action ?? '')).filter((a) => /^(Create|Delete)(NATGW|NATGWPolicy|Subnet|VPC)$/.test(a));
    expect(actions).toEqual(expect.arrayContaining(['DeleteNATGWPolicy', 'DeleteNATGW', 'CreateNATGW', 'CreateNATGWPolicy', 'DeleteSubnet', 'DeleteSubnet', 'DeleteVPC']));
    expect(actions.indexOf('DeleteNATGWPolicy')).toBeLessThan(actions.indexOf('DeleteNATGW'));
    expect(actions.indexOf('DeleteNATGW')).toBeLessThan(actions.indexOf('CreateNATGW'));
    expect(actions.indexOf('CreateNATGW')).toBeLessThan(actions.indexOf('CreateNATGWPolicy'));

    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.stdout).toContain('No changes.');
  });
});

describe('a replacement that keeps what its successor needs', () => {
  it('examples/interconnect/ix: --replace cancels the IX, waits until its VLAN is let go, then orders the new one on it', async () => {
    const dir = workdir();
    copyFileSync(join(EXAMPLES, 'interconnect/ix.yaml'), join(dir, 'plumb.yaml'));
    // A cancelled IX holds its VLAN for a provisioning time after it is decommissioned.
    await sandbox.settings({ provisioningMs: 1500 });
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    const replaced = await plumb(['apply', '--yes', '--replace', 'exchange'], { cwd: dir, env: sandbox.env });
    expect(replaced.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 1 replaced, 0 destroyed.');
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toMatch(/exchange must be replaced \(delete first, then create\)/);
    expect(replaced.stdout).toContain('deleted first: the new object needs the VLAN on a port');
    // One IX on the port, on its VLAN: the old one cancelled, the new one live.
    const ports = (await new InterconnectApi(sandbox.url).liveProducts('syd-ix-port')).filter((p) => p.productType === 'MEGAPORT');
    const live = ports.flatMap((p) => (p.associatedIxs ?? []) as Array<Record<string, any>>).filter((i) => ['CONFIGURED', 'LIVE', 'DEPLOYABLE'].includes(i.provisioningStatus));
    expect(live.map((i) => i.vlan)).toEqual([2001]);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});

describe('an address renamed without an alias', () => {
  const renamed = (text: string, displayName?: string) => {
    let out = text.replace(/\bnycProxy\b/g, 'nycProxyX');
    if (displayName) out = out.replace('displayName: onprem-nyc-erp', `displayName: ${displayName}`);
    return out;
  };

  it('examples/pipeline: a proxy agent keeping its name while the connection through it stays is refused before any call, saying to give the alias', async () => {
    const dir = workdir();
    const file = join(dir, 'plumb.yaml');
    copyFileSync(join(EXAMPLES, 'pipeline/pipeline.yaml'), file);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    writeFileSync(file, renamed(readFileSync(file, 'utf8')));
    await sandbox.clearCalls();
    const refused = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/nycProxyX would take over the proxy agent name: onprem-nyc-erp that nycProxy holds/);
    expect(refused.stderr).toContain('say so with "aliases: [nycProxy]" in its options (or run plumb state mv nycProxy nycProxyX)');
    expect((await sandbox.calls('pipeline')).filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('examples/pipeline: a proxy agent under a new name: made first, the connection moves to it, then the old one goes; destroy keeps that order', async () => {
    const dir = workdir();
    const file = join(dir, 'plumb.yaml');
    copyFileSync(join(EXAMPLES, 'pipeline/pipeline.yaml'), file);
    expect((await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    writeFileSync(file, renamed(readFileSync(file, 'utf8'), 'onprem-nyc-erp-2'));
    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code).toBe(0);
    const writes = (await sandbox.calls('pipeline')).filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path.replace(/\/[a-z]+_[a-z]+(?=\/|$)/g, '/{id}')}`);
    expect(writes).toEqual(['POST /v1/proxy', 'PATCH /v1/connections/{id}', 'DELETE /v1/proxy/{id}']);
    const erp = JSON.parse((await plumb(['state', 'show', 'erp', '--json'], { cwd: dir, env: sandbox.env })).stdout);
    expect(erp.dependencies).toContain('nycProxyX');

    await sandbox.clearCalls();
    const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env });
    expect(destroyed.code).toBe(0);
    const deletes = (await sandbox.calls('pipeline')).filter((c) => c.method === 'DELETE').map((c) => c.path);
    expect(deletes.findIndex((p) => p.startsWith('/v1/proxy/'))).toBeGreaterThan(deletes.findIndex((p) => p.startsWith('/v1/connections/')));
  });
});
