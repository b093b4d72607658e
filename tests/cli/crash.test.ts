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

const PORTS = 30;
const manifest = (prefix: string) =>
  [
    'name: crash',
    'resources:',
    ...Array.from({ length: PORTS }, (_, i) =>
      [`  port${i}:`, '    type: interconnect:Port', '    properties:', `      productName: ${prefix}-${i}`, '      portSpeed: 10000', `      locationId: ${[2, 3, 4][i % 3]}`, '      contractTermMonths: 1', '      marketplaceVisibility: false'].join('\n'),
    ),
  ].join('\n');

// Each create journals three records (intent, accepted id, outcome): spreading the kill points
// over the first 60 records hits every gap — before an order, after it was accepted, after
// its outcome — across the parallel creates.
const KILL_POINTS = Array.from({ length: 20 }, (_, i) => i * 3 + (i % 3));

describe('a killed apply loses nothing and duplicates nothing', () => {
  for (const [n, after] of KILL_POINTS.entries()) {
    it(`killed after ${after} journal records, the next apply converges`, async () => {
      const dir = workdir();
      const prefix = `crash${n}`;
      writeManifest(dir, 'plumb.yaml', manifest(prefix));
      const killed = await plumb(['apply', '--yes'], { cwd: dir, env: { ...sandbox.env, PLUMB_TEST_CRASH_AFTER_RECORDS: String(after) } });
      expect(killed.code).not.toBe(0);

      const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      const live = await api.liveProducts(`${prefix}-`);
      const names = live.map((p) => p.productName).sort();
      expect(names).toEqual(Array.from({ length: PORTS }, (_, i) => `${prefix}-${i}`).sort());

      const settled = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
      expect(settled.code).toBe(0);
    });
  }
});
