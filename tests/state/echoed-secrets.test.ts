import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashAfterRecords, plumb, testSandbox, workdir, writeManifest } from '../support/cli.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(async () => sandbox.close());

const PORT_NAME = 'port-name-secret-7d41';
const VXC_NAME = 'vxc-name-secret-0be9';

/** A port named by a secret, and a VXC from it (whose A-end the API reports by the port's name). */
const ECHO_MANIFEST = `name: echoes
resources:
  port:
    type: interconnect:Port
    properties:
      productName: { fn::secret: ${PORT_NAME} }
      portSpeed: 1000
      locationId: 2
      contractTermMonths: 1
      marketplaceVisibility: false
  far:
    type: interconnect:Port
    properties: { productName: echo-far-port, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }
  link:
    type: interconnect:Vxc
    properties:
      productName: { fn::secret: ${VXC_NAME} }
      rateLimit: 100
      contractTermMonths: 1
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 301 }
      bEnd: { requestedProductUid: "\${far.productUid}", vlan: 302 }
`;

/** The text of every file in the stack's state folder. */
function stateTexts(dir: string): Array<[string, string]> {
  const stack = join(dir, '.plumb', 'echoes', 'default');
  return readdirSync(stack).map((f) => [f, readFileSync(join(stack, f), 'utf8')]);
}

describe('a secret the API echoes back in another field', () => {
  it('is sealed in the journal and the snapshot, and plans and drift after it show no change', async () => {
    const dir = workdir('plumb-echo-');
    writeManifest(dir, 'plumb.yaml', ECHO_MANIFEST);
    // Killed once the VXC's outcome is journaled (three records per create), before the snapshot is written.
    const killed = await plumb(['apply', '--yes', '--parallelism', '1'], { cwd: dir, env: { ...sandbox.env, ...crashAfterRecords(9) } });
    expect(killed.code).not.toBe(0);
    const journal = stateTexts(dir).find(([f]) => f === 'journal.jsonl')![1];
    expect(journal).toContain('"interface":');
    expect(journal).toContain('"aEndCurrent":');
    for (const secret of [PORT_NAME, VXC_NAME]) expect(journal).not.toContain(secret);

    // A replacement makes the apply write the snapshot (the journal folded in).
    const applied = await plumb(['apply', '--yes', '--replace', 'far'], { cwd: dir, env: sandbox.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(
      stateTexts(dir)
        .map(([f]) => f)
        .sort(),
    ).toEqual(['journal.id', 'state.json', 'state.json.backup']);
    for (const [file, text] of stateTexts(dir)) {
      for (const secret of [PORT_NAME, VXC_NAME]) expect(text, `${secret} in ${file}`).not.toContain(secret);
    }
    const plan = await plumb(['plan', '--detailed-exitcode'], { cwd: dir, env: sandbox.env });
    expect(plan.code, plan.stdout).toBe(0);
    const drift = await plumb(['drift'], { cwd: dir, env: sandbox.env });
    expect(drift.code, drift.stdout).toBe(0);
    const again = await plumb(['apply', '--yes'], { cwd: dir, env: sandbox.env });
    expect(again.stdout).toContain('No changes.');
    expect(again.stdout).not.toContain('Apply complete');
  });
});
