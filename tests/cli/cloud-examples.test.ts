import { copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

const EXAMPLES = resolve(import.meta.dirname, '../../examples/cloud');

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

/** A copy of an example in a fresh folder, so its state never lands in the repository. */
function example(name: string): string {
  const dir = workdir('plumb-cloud-example-');
  copyFileSync(join(EXAMPLES, name), join(dir, 'plumb.yaml'));
  return dir;
}

function state(dir: string): { resources: Record<string, { id: string; outputs: Record<string, unknown> }> } {
  return JSON.parse(readFileSync(stateFile(dir), 'utf8'));
}

describe('examples/cloud', () => {
  it('anti-ddos.yaml applies cleanly, plans no change after, and destroys', async () => {
    const dir = example('anti-ddos.yaml');
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 3 added');
    const s = state(dir);
    const id = s.resources.shield.id;
    expect(id).toMatch(/^usecure_ghp-/);
    expect(s.resources.mainSite.id).toBe(`${id}/example.com`);
    expect(s.resources.shop.outputs.status).toBe('Success');

    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');

    const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env });
    expect(destroyed.code).toBe(0);
  });

  it('lookups.yaml feeds lookup results into resources and applies cleanly', async () => {
    const dir = example('lookups.yaml');
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const s = state(dir);
    expect(s.resources.standby.outputs).toMatchObject({ name: 'Default-standby', area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 100, maxDefenceValue: 100 });
    expect(s.resources.site.outputs.comment).toMatch(/^served by web-lb on port 443 \(\d+\.\d+\.\d+\.\d+\)$/);
    expect(JSON.parse(readFileSync(join(dir, '.plumb/zones.json'), 'utf8'))).toHaveLength(4);
    expect(applied.stdout).toContain('zoneCount = 4');

    const again = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(again.code).toBe(0);
    expect((await plumb(['destroy', '--yes'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });

  it('reports every input mistake at its position before any call', async () => {
    const dir = workdir('plumb-cloud-bad-');
    writeManifest(
      dir,
      'plumb.yaml',
      `name: bad
config:
  cloud:region: cn-bj2
  cloud:projectId: org-sandbox
resources:
  shield:
    type: cloud:index/antiDdosInstance:AntiDdosInstance
    properties:
      area: NorthChina
      dataCenter: Yangzhou
      bandwidth: 100
      baseDefenceValue: 50
      maxDefenceValue: 40
  site:
    type: cloud:index/antiDdosAllowedDomain:AntiDdosAllowedDomain
    properties:
      instanceId: \${shield.antiDdosInstanceId}
      domain: www.example.com
`,
    );
    await sandbox.clearCalls();
    const checked = await plumb(['validate'], { cwd: dir, env: sandbox.env });
    expect(checked.code).toBe(1);
    const text = checked.stdout + checked.stderr;
    expect(text).toContain('plumb.yaml:10:19: error: dataCenter "Yangzhou" is not valid: data centre Yangzhou is not in NorthChina; valid data centres for NorthChina: Shijiazhuang');
    expect(text).toContain('plumb.yaml:13:24: error: maxDefenceValue 40 is not valid: maxDefenceValue (40) must not be less than baseDefenceValue (50)');
    expect(text).toContain('plumb.yaml:18:15: error: domain "www.example.com" is not valid: domain must be the registrable parent domain: use example.com');
    expect(await sandbox.calls('cloud')).toEqual([]);
  });
});
