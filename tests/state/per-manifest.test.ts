import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

const EXAMPLES = resolve(import.meta.dirname, '../../examples');

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

/** Copies examples into one fresh folder, as a user keeping several manifests together would. */
function folderWith(...examples: string[]): string {
  const dir = workdir('plumb-per-manifest-');
  for (const example of examples) copyFileSync(join(EXAMPLES, example), join(dir, example.split('/').pop()!));
  return dir;
}

const stateOf = (dir: string, project: string, stack = 'default') => JSON.parse(readFileSync(join(dir, '.plumb', project, stack, 'state.json'), 'utf8'));

describe('state belongs to its manifest', () => {
  it('the two cloud examples in one folder keep their own state: applying the second destroys nothing of the first', async () => {
    const dir = folderWith('cloud/anti-ddos.yaml', 'cloud/lookups.yaml');
    const env = sandbox.env;
    const first = await plumb(['apply', 'anti-ddos.yaml', '--yes'], { cwd: dir, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Resources: 3 added');
    const second = await plumb(['apply', 'lookups.yaml', '--yes'], { cwd: dir, env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Resources: 2 added, 0 changed, 0 replaced, 0 destroyed');
    expect(Object.keys(stateOf(dir, 'cloud-anti-ddos').resources).sort()).toEqual(['mainSite', 'shield', 'shop']);
    expect(stateOf(dir, 'cloud-anti-ddos').project).toBe('cloud-anti-ddos');
    expect(Object.keys(stateOf(dir, 'cloud-lookups').resources).sort()).toEqual(['site', 'standby']);
    const again = await plumb(['plan', 'anti-ddos.yaml', '--detailed-exitcode'], { cwd: dir, env });
    expect(again.code, again.stdout).toBe(0);
  });

  it('the interconnect port and IX examples in one folder keep their own state', async () => {
    const dir = folderWith('interconnect/port.yaml', 'interconnect/ix.yaml');
    const env = sandbox.env;
    expect((await plumb(['apply', 'port.yaml', '--yes'], { cwd: dir, env })).code).toBe(0);
    const ix = await plumb(['apply', 'ix.yaml', '--yes'], { cwd: dir, env });
    expect(ix.code, ix.stderr).toBe(0);
    expect(ix.stdout).toContain('Resources: 2 added, 0 changed, 0 replaced, 0 destroyed');
    const port = await plumb(['plan', 'port.yaml', '--detailed-exitcode'], { cwd: dir, env });
    expect(port.code, port.stdout).toBe(0);
    expect(stateOf(dir, 'sydney-port').resources.port.id).not.toBe(stateOf(dir, 'sydney-ix').resources.port.id);
  });

  it('a manifest without a name keeps its state under its file name; state commands and drift find it with -f', async () => {
    const dir = workdir('plumb-per-manifest-');
    const port = (name: string) =>
      `resources:\n  port:\n    type: interconnect:Port\n    properties: { productName: ${name}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }\n`;
    writeManifest(dir, 'edge.yaml', port('nameless-edge'));
    writeManifest(dir, 'core.yml', port('nameless-core'));
    const env = sandbox.env;
    expect((await plumb(['apply', 'edge.yaml', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect((await plumb(['apply', 'core.yml', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect(stateOf(dir, 'edge').resources.port.inputs.productName).toBe('nameless-edge');
    expect(stateOf(dir, 'core').resources.port.inputs.productName).toBe('nameless-core');
    const listed = await plumb(['state', 'list', '-f', 'core.yml'], { cwd: dir, env });
    expect(listed.stdout).toContain(stateOf(dir, 'core').resources.port.id);
    expect(listed.stdout).not.toContain(stateOf(dir, 'edge').resources.port.id);
    const drift = await plumb(['drift', 'edge.yaml', '--all', '--json'], { cwd: dir, env });
    expect(drift.code, drift.stderr).toBe(0);
    expect(JSON.parse(drift.stdout).stacks.map((s: { resources: Array<{ id: string }> }) => s.resources[0].id)).toEqual([stateOf(dir, 'edge').resources.port.id]);
  });

  it('state commands without a manifest say they need one, or --project', async () => {
    const dir = workdir('plumb-per-manifest-');
    const listed = await plumb(['state', 'list'], { cwd: dir, env: sandbox.env });
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain('plumb.yaml not found');
    expect(listed.stderr).toContain('-f MANIFEST or --project NAME');
    const byName = await plumb(['state', 'list', '--project', 'nothing-here'], { cwd: dir, env: sandbox.env });
    expect(byName.code).toBe(0);
    expect(byName.stdout).toBe('');
  });

  it('a manifest name that cannot name a state folder is refused at its line and column', async () => {
    const dir = workdir('plumb-per-manifest-');
    writeManifest(dir, 'plumb.yaml', '# edge\nname: "../escape"\nresources: {}\n');
    const refused = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('plumb.yaml:2:7');
    expect(refused.stderr).toContain('"../escape"');
    expect(refused.stderr).toMatch(/letters, digits/);
    expect(existsSync(join(dir, '.plumb'))).toBe(false);
  });
});
