import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { stateFile } from '../support/state-file.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const port = `name: owner
resources:
  port:
    type: interconnect:Port
    properties: { productName: shared-port, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
`;

const reader = (uid: string) => `name: reader
resources:
  shared:
    type: interconnect:Port
    get:
      id: ${uid}
outputs:
  name: \${shared.productName}
  uid: \${shared.productUid}
`;

describe('get: a port another project manages', () => {
  it('is read into the program, shown as read, never recorded, and left alone by destroy', async () => {
    const owner = workdir();
    const env = sandbox.env;
    writeManifest(owner, 'plumb.yaml', port);
    expect((await plumb(['apply', '--yes'], { cwd: owner, env })).code).toBe(0);
    const uid = JSON.parse(readFileSync(stateFile(owner), 'utf8')).resources.port.id as string;

    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', reader(uid));
    await sandbox.clearCalls();
    const applied = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('# shared will be read (get:), not managed');
    expect(applied.stdout).toContain(`<= shared (interconnect:index/port:Port) id=${uid}`);
    expect(applied.stdout).toContain('Plan: 1 to read, 0 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(applied.stdout).toContain('name = "shared-port"');
    expect(applied.stdout).toContain(`uid = "${uid}"`);
    const writes = async () => (await sandbox.calls('interconnect')).filter((c) => c.method !== 'GET' && c.path !== '/oauth2/token');
    expect(await writes()).toEqual([]);

    const destroyed = await plumb(['destroy', '--yes'], { cwd: dir, env });
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toContain('No changes. No objects need to be destroyed.');
    expect(await writes()).toEqual([]);
    const again = await plumb(['plan'], { cwd: owner, env });
    expect(again.stdout).toContain('No changes.');
  });

  it('an id with no port is an error naming the resource and the id', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', reader('11111111-2222-4333-8444-555555555555'));
    const planned = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(planned.code).not.toBe(0);
    expect(planned.stderr).toContain('shared: there is no interconnect:index/port:Port with id "11111111-2222-4333-8444-555555555555" to read');
    expect(planned.stderr).toContain('plumb.yaml:3:3');
    expect(planned.stderr).not.toMatch(/\n\s+at /);
  });
});
