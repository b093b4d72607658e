/**
 * Plan and drift share one comparison (compareWithRecord): right after a clean apply of every
 * example, `plumb drift` finds every object in sync as `plan` finds no change, so a CI drift check
 * does not alert on defaults the API filled in. The next example added is covered as it is.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { EXAMPLES, exampleManifests } from '../support/examples.js';
import { cloudExampleKit } from '../support/cloud-example.js';

/** Every example manifest, as `provider/file.yaml`. */
const examples = exampleManifests();

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());
const kit = cloudExampleKit(() => sandbox);

/** A copy of an example in a fresh folder, so its state never lands in the repository. */
function copied(example: string): string {
  const dir = workdir('plumb-example-drift-');
  copyFileSync(join(EXAMPLES, example), join(dir, 'plumb.yaml'));
  return dir;
}

describe('drift right after apply', () => {
  it.each(examples)('%s: drift exits 0 with every object in sync, as plan finds no change', async (example) => {
    const dir = copied(example);
    const applied = await kit.run(dir, 'apply', '--yes');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const drift = await kit.run(dir, 'drift', '--json');
    const report = JSON.parse(drift.stdout);
    expect(report.resources.filter((r: { status: string }) => r.status !== 'in-sync')).toEqual([]);
    expect(drift.code).toBe(0);
    const plan = await kit.run(dir, 'plan', '--detailed-exitcode');
    expect(plan.code).toBe(0);
    expect((await kit.run(dir, 'destroy', '--yes')).code).toBe(0);
  });

  it('a rule default changed outside is drift, named as the plan that puts it back names it', async () => {
    const dir = copied('cloud/network.yaml');
    expect((await kit.run(dir, 'apply', '--yes')).code).toBe(0);
    const id = kit.state(dir).resources.webFirewall.id;
    // The first rule leaves its source to the API's default, 0.0.0.0/0; someone narrows it by hand.
    const changed = await signedCloudCall(sandbox.url, {
      Action: 'UpdateFirewall',
      FWId: id,
      'Rule.0': 'TCP|443|10.0.0.0/8|ACCEPT|HIGH',
      'Rule.1': 'TCP|22|203.0.113.0/24|ACCEPT|HIGH|office',
      'Rule.2': 'ICMP||10.20.0.0/16|ACCEPT|LOW',
    });
    expect(changed.RetCode).toBe(0);
    const drift = await plumb(['drift', '--json'], { cwd: dir, env: sandbox.env });
    expect(drift.code).toBe(2);
    const firewall = JSON.parse(drift.stdout).resources.find((r: { address: string }) => r.address === 'webFirewall');
    expect(firewall).toMatchObject({ status: 'drifted', fields: [{ path: 'rules[0].cidrBlock', remote: '10.0.0.0/8' }] });
    const plan = await plumb(['plan', '--json'], { cwd: dir, env: sandbox.env });
    const change = JSON.parse(plan.stdout).changes.find((c: { address: string }) => c.address === 'webFirewall');
    expect(change).toMatchObject({ action: 'update', patch: [{ op: 'remove', path: '/rules/0/cidrBlock' }] });
    expect((await kit.run(dir, 'destroy', '--yes')).code).toBe(0);
  });
});
