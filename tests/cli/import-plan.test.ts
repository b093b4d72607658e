import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
let api: InterconnectApi;
beforeAll(async () => {
  sandbox = await testSandbox();
  api = new InterconnectApi(sandbox.url);
});
afterAll(async () => sandbox.close());

describe('options.import of a product that differs from the manifest', () => {
  it('plans "import, then update" with the field shown and counted, and applies exactly that', async () => {
    const uid = await api.orderPort('imported-old-name');
    const dir = workdir();
    writeManifest(
      dir,
      'plumb.yaml',
      `name: import-differs
resources:
  port:
    type: interconnect:Port
    properties: { productName: imported-new-name, portSpeed: 10000, locationId: 2, contractTermMonths: 12, marketplaceVisibility: false }
    options: { import: ${uid} }
`,
    );
    const plan = await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('# port will be imported, then updated in place');
    expect(plan.stdout).toContain('~ productName = "imported-old-name" -> "imported-new-name"');
    expect(plan.stdout).toContain('Plan: 1 to import, 0 to add, 1 to change, 0 to replace, 0 to destroy.');

    const applied = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(applied.code).toBe(0);
    expect((await api.liveProducts('imported-')).map((p) => [p.productUid, p.productName])).toEqual([[uid, 'imported-new-name']]);
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
  });
});
