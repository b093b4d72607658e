import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const manifest = (address: string, options = '') => `name: edge
resources:
  ${address}:
    type: interconnect:Port
    properties:
      productName: syd-port-1
      portSpeed: 10000
      locationId: 2
      contractTermMonths: 12
      marketplaceVisibility: false
${options}
`;

describe('aliases: renaming a port in the manifest', () => {
  it('moves its record: the plan says "moved from", apply buys nothing and cancels nothing', async () => {
    const dir = workdir();
    const env = sandbox.env;
    writeManifest(dir, 'plumb.yaml', manifest('port'));
    expect((await plumb(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    const uid = JSON.parse(readFileSync(stateFile(dir), 'utf8')).resources.port.id as string;

    writeManifest(dir, 'plumb.yaml', manifest('edgePort', '    options:\n      aliases: [port]'));
    const planned = await plumb(['plan'], { cwd: dir, env });
    expect(planned.stderr).toBe('');
    expect(planned.stdout).toContain('# edgePort has moved from port');
    expect(planned.stdout).toContain('Plan: 1 to move, 0 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(planned.stdout).not.toContain('will be destroyed');

    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    // Only reads: no order, no cancellation, no change of the port.
    const writes = (await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && c.path !== '/oauth2/token');
    expect(writes).toEqual([]);
    const state = JSON.parse(readFileSync(stateFile(dir), 'utf8'));
    expect(Object.keys(state.resources)).toEqual(['edgePort']);
    expect(state.resources.edgePort.id).toBe(uid);

    const again = await plumb(['plan'], { cwd: dir, env });
    expect(again.stdout).toContain('No changes.');
  });

  it('an alias naming another declared resource is refused at the alias, naming both, before any call', async () => {
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `${manifest('edgePort', '    options:\n      aliases: [port]')}  port:\n    type: interconnect:Port\n    properties: { productName: other, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }\n`,
    );
    await sandbox.clearCalls();
    const planned = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(planned.code).not.toBe(0);
    expect(planned.stderr).toContain('plumb.yaml:12:17: error: alias "port" of edgePort names a resource the manifest declares: port');
    expect(planned.stderr).not.toMatch(/\n\s+at /);
  });
});
