import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

/** Two VPCs: one through the default provider (config), one through a provider resource in another region, project and account. */
const manifest = `name: two-regions
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
  analyticsKey:
    type: string
    secret: true
    default: demo-private-key
resources:
  shanghai:
    type: pulumi:providers:cloud
    properties:
      region: cn-sh2
      projectId: org-analytics
      publicKey: demo-public-key
      privateKey: \${analyticsKey}
  unused:
    type: pulumi:providers:cloud
    properties: { region: hk, projectId: org-edge }
  north:
    type: cloud:index/vpc:Vpc
    properties: { name: north-vpc, cidrBlocks: [10.20.0.0/16] }
  south:
    type: cloud:index/vpc:Vpc
    properties: { name: south-vpc, cidrBlocks: [10.30.0.0/16] }
    options: { provider: "\${shanghai}" }
`;

/** The cloud Actions since the last clear that write. */
async function writes(): Promise<string[]> {
  return (await sandbox.calls('cloud')).map((c) => String(c.query.Action)).filter((a) => !/^(Describe|Get)/.test(a));
}

/** The VPCs of one region and project, as a person listing them with a signed call sees them: `id name`. */
async function vpcsIn(region: string, project: string): Promise<string[]> {
  const body = await signedCloudCall(sandbox.url, { Action: 'DescribeVPC', ProjectId: project }, region);
  expect(body.RetCode).toBe(0);
  return (body.DataSet as Array<{ VPCId: string; Name: string }>).filter((v) => v.Name.endsWith('-vpc')).map((v) => `${v.VPCId} ${v.Name}`);
}

describe('pulumi:providers: one manifest, two regions, projects and accounts', () => {
  it('makes each object through its own provider, plans no change after, and destroys each where it is', async () => {
    const dir = workdir('plumb-providers-');
    writeManifest(dir, 'plumb.yaml', manifest);
    const env = sandbox.env;
    const json = await plumb(['plan', '--json'], { cwd: dir, env });
    const changes = (JSON.parse(json.stdout) as { changes: Array<{ address: string; provider?: string }> }).changes;
    expect(changes.map((c) => [c.address, c.provider])).toEqual([
      ['north', undefined],
      ['south', 'shanghai'],
    ]);
    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    // The provider resources are settings, not objects: only the two VPCs are planned.
    expect(applied.stdout).toContain('Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(applied.stdout).not.toContain('shanghai');
    expect(await writes()).toEqual(['CreateVPC', 'CreateVPC']);
    const text = readFileSync(stateFile(dir), 'utf8');
    const state = JSON.parse(text) as { resources: Record<string, { id: string; provider?: string }> };
    const { north, south } = state.resources;
    expect(await vpcsIn('cn-bj2', 'org-sandbox')).toEqual([`${north.id} north-vpc`]);
    expect(await vpcsIn('cn-sh2', 'org-analytics')).toEqual([`${south.id} south-vpc`]);
    expect(await vpcsIn('hk', 'org-edge')).toEqual([]);
    expect(state.resources.north.provider).toBeUndefined();
    expect(state.resources.south.provider).toBe('shanghai');
    expect(Object.keys(state.resources).sort()).toEqual(['north', 'south']);
    expect(text).not.toContain('demo-private-key');
    expect(applied.stdout).not.toContain('demo-private-key');

    const planned = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(planned.stdout).toContain('No changes.');
    expect(planned.code).toBe(0);

    await sandbox.clearCalls();
    const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env });
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toContain('Plan: 0 to add, 0 to change, 0 to replace, 2 to destroy.');
    expect(await writes()).toEqual(['DeleteVPC', 'DeleteVPC']);
    expect([...(await vpcsIn('cn-bj2', 'org-sandbox')), ...(await vpcsIn('cn-sh2', 'org-analytics'))]).toEqual([]);
    expect(JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources).toEqual({});
  });

  it('moving a resource to another provider replaces it, saying so, and deletes the old one where it was made', async () => {
    const dir = workdir('plumb-providers-');
    writeManifest(dir, 'plumb.yaml', manifest);
    const env = sandbox.env;
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const old = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.south.id as string;
    writeManifest(dir, 'plumb.yaml', manifest.replace('    options: { provider: "${shanghai}" }\n', ''));
    const planned = await plumb(['plan'], { cwd: dir, env });
    expect(planned.stdout).toContain('# south must be replaced (create first, then delete): provider: moved from `shanghai` to default');
    await sandbox.clearCalls();
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect(await writes()).toEqual(['CreateVPC', 'DeleteVPC']);
    const moved = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.south as { id: string; provider?: string };
    expect(moved.provider).toBeUndefined();
    expect(await vpcsIn('cn-sh2', 'org-analytics')).toEqual([]);
    expect(await vpcsIn('cn-bj2', 'org-sandbox')).toEqual(expect.arrayContaining([`${moved.id} south-vpc`]));
    expect(moved.id).not.toBe(old);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env })).code).toBe(0);
  });

  it('a provider option naming a provider of another kind is an error at its place, before any call', async () => {
    const dir = workdir('plumb-providers-');
    writeManifest(
      dir,
      'plumb.yaml',
      manifest.replace('type: pulumi:providers:cloud\n    properties:\n      region: cn-sh2', 'type: pulumi:providers:interconnect\n    properties:\n      environment: staging'),
    );
    await sandbox.clearCalls();
    const planned = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(planned.code).not.toBe(0);
    expect(planned.stderr).toContain('plumb.yaml:26:26: error: ${shanghai} is an interconnect provider; south is a cloud resource');
    // Every problem in one pass: the cloud settings the interconnect provider does not have, too.
    expect(planned.stderr).toContain('plumb.yaml:14:7: error: shanghai: unknown setting "projectId" of the interconnect provider');
    expect(planned.stderr).not.toMatch(/\n\s+at /);
    expect(await sandbox.calls()).toEqual([]);
  });
});
