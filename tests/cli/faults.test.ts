import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';
import { InterconnectApi } from '../support/interconnect-api.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const PORTS = 30;
const manifest = [
  'name: faults',
  'resources:',
  ...Array.from({ length: PORTS }, (_, i) =>
    `  port${i}:\n    type: interconnect:Port\n    properties: { productName: faulty-${i}, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }`,
  ),
].join('\n');

describe('an unreliable API', () => {
  it('with 20% 429 and 10% 500 replies, applying 30 ports converges on exactly 30 products', async () => {
    const dir = workdir();
    writeManifest(dir, 'plumb.yaml', manifest);
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'interconnect', rates: { '429': 0.2, '500': 0.1 }, retryAfterSeconds: 0.1 }),
    });
    const runs: number[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const result = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
        runs.push(result.code);
        if (result.code === 0) break;
      }
      const calls = await sandbox.calls('interconnect');
      expect(calls.filter((c) => c.status === 429).length).toBeGreaterThan(0);
      expect(calls.filter((c) => c.status === 500).length).toBeGreaterThan(0);
    } finally {
      await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
    }
    expect(runs.at(-1)).toBe(0);
    const live = await new InterconnectApi(sandbox.url).liveProducts('faulty-');
    expect(live.map((p) => p.productName).sort()).toEqual(Array.from({ length: PORTS }, (_, i) => `faulty-${i}`).sort());
    expect((await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env })).code).toBe(0);
    // Retries back off with jitter; on a loaded machine this takes a while.
  }, 240_000);
});
