/**
 * PLUMB_READS=one-by-one, the diagnostic the benchmark compares with: every interconnect product
 * is ordered alone, waited for by reading it alone, and read back alone — as Terraform's providers
 * do — where plumb otherwise batches orders and lists products.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

const MANIFEST = `name: alone
resources:
${[0, 1, 2]
  .map(
    (i) => `  port${i}:
    type: interconnect:Port
    properties: { productName: alone-port${i}, portSpeed: 10000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }`,
  )
  .join('\n')}
  router:
    type: interconnect:Mcr
    properties: { productName: alone-mcr, portSpeed: 1000, locationId: 2, contractTermMonths: 1 }
`;

describe('PLUMB_READS=one-by-one', () => {
  let sandbox: Awaited<ReturnType<typeof testSandbox>>;
  beforeAll(async () => {
    sandbox = await testSandbox(300);
  });
  afterAll(() => sandbox.close());

  const calls = async (method: string, pattern: RegExp) => (await sandbox.calls('interconnect')).filter((c) => c.method === method && pattern.test(c.path)).length;

  it('orders each product alone, polls each alone while it provisions, and reads each back alone', async () => {
    const dir = workdir('plumb-alone-');
    writeManifest(dir, 'plumb.yaml', MANIFEST);
    const env = { ...sandbox.env, PLUMB_READS: 'one-by-one' };
    await sandbox.clearCalls();
    const apply = await plumb(['apply', '--yes'], { cwd: dir, env });
    expect(apply.code).toBe(0);
    expect(await calls('POST', /^\/v4\/networkdesign\/buy$/)).toBe(4);
    expect(await calls('POST', /^\/v3\/networkdesign\/validate$/)).toBe(4);
    expect(await calls('GET', /^\/v2\/products$/)).toBe(0);
    expect(await calls('GET', /^\/v2\/product\/[^/]+$/)).toBeGreaterThanOrEqual(4);

    await sandbox.clearCalls();
    const plan = await plumb(['plan'], { cwd: dir, env });
    expect(plan.stdout).toContain('No changes');
    expect(await calls('GET', /^\/v2\/products$/)).toBe(0);
    expect(await calls('GET', /^\/v2\/product\/[^/]+$/)).toBe(4);

    // The same state read as plumb reads: one list.
    await sandbox.clearCalls();
    await plumb(['plan'], { cwd: dir, env: sandbox.env });
    expect(await calls('GET', /^\/v2\/products$/)).toBe(1);
    expect(await calls('GET', /^\/v2\/product\/[^/]+$/)).toBe(0);
  });
});
