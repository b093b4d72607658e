import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const manifest = `name: seen
variables:
  loc:
    fn::invoke:
      function: interconnect:getLocation
      arguments: { id: 2 }
resources:
  port:
    type: interconnect:Port
    properties:
      productName: p
      portSpeed: 1000
      locationId: \${loc.id}
      contractTermMonths: 1
      marketplaceVisibility: false
  key:
    type: interconnect:ServiceKey
    properties:
      productUid: \${port.productUid}
      active: true
      maxSpeed: 100
      singleUse: false
  other:
    type: interconnect:Port
    properties: { productName: o, portSpeed: 1000, locationId: 3, contractTermMonths: 1, marketplaceVisibility: false }
`;

describe('seeing the system', () => {
  it('plumb graph prints dot, mermaid and json with the same edges', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const json = JSON.parse((await plumb(['graph', '--format', 'json'], { cwd: dir })).stdout);
    expect(json.edges).toEqual(
      expect.arrayContaining([
        { from: 'port', to: 'loc' },
        { from: 'key', to: 'port' },
      ]),
    );
    expect(json.nodes.find((n: { name: string }) => n.name === 'key')).toMatchObject({ kind: 'resource', type: 'interconnect:index/serviceKey:ServiceKey' });
    const dot = (await plumb(['graph'], { cwd: dir })).stdout;
    expect(dot).toMatch(/^digraph plumb \{/);
    expect(dot).toContain('"port" -> "key";');
    const mermaid = (await plumb(['graph', '--format', 'mermaid'], { cwd: dir })).stdout;
    expect(mermaid).toMatch(/^graph LR/);
    expect(mermaid).toContain('n_port --> n_key');
    const bad = await plumb(['graph', '--format', 'svg'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--format svg: expected dot, mermaid or json');
  });

  it('--target plans a resource and what it needs; --exclude leaves out what depends on it', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    const targeted = await plumb(['plan', '--compact', '--target', 'key'], { cwd: dir, env: sandbox.env });
    expect(targeted.stdout).toContain('Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(targeted.stdout).toContain('Warning: the plan is partial: other has changes left out by --target/--exclude');
    const excluded = await plumb(['apply', '--yes', '--exclude', 'port'], { cwd: dir, env: sandbox.env });
    expect(excluded.code).toBe(0);
    expect(excluded.stdout).toContain('Resources: 1 added');
    expect((await plumb(['state', 'list'], { cwd: dir })).stdout).toMatch(/^other\t/);
    const unknown = await plumb(['plan', '--target', 'nope'], { cwd: dir, env: sandbox.env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--target/--exclude nope: no such resource');
  });

  it('plumb lookup prints a result readably and as JSON', async () => {
    const dir = workdir();
    const groups = JSON.parse((await plumb(['lookup', 'pipeline:index/getGroups:getGroups', '--json'], { cwd: dir, env: sandbox.env })).stdout);
    const groupId = groups.groups[0].id as string;
    const pretty = await plumb(['lookup', 'pipeline:index/getConnections:getConnections', '--arg', `groupId=${groupId}`], { cwd: dir, env: sandbox.env });
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toMatch(/^connections:/m);
    expect(pretty.stdout).toContain(`groupId: "${groupId}"`);
    const json = JSON.parse((await plumb(['lookup', 'pipeline:getConnections', '--arg', `groupId=${groupId}`, '--json'], { cwd: dir, env: sandbox.env })).stdout);
    expect(json.connections.length).toBeGreaterThan(0);
    expect(json.connections.every((c: { groupId: string }) => c.groupId === groupId)).toBe(true);
    const missing = await plumb(['lookup', 'pipeline:getConnection', '--arg', 'id=nope'], { cwd: dir, env: sandbox.env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('getConnection: connection "nope" not found');
    const typo = await plumb(['lookup', 'pipeline:getConections'], { cwd: dir, env: sandbox.env });
    expect(typo.stderr).toContain('did you mean pipeline:index/getConnections:getConnections?');
  });
});
