/** examples/cloud/anti-ddos-forwarding.yaml through the CLI against the sandbox: apply, in-place changes, drift, import, destroy. */
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb, testSandbox, workdir } from '../support/cli.js';
import { cloudExampleKit } from '../support/cloud-example.js';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/cloud/anti-ddos-forwarding.yaml');
const ADDRESSES = ['shield', 'serviceIp', 'https', 'network', 'appLabel', 'networkLabel'];

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { writes, state, run, edit, importPlansNoChange } = cloudExampleKit(() => sandbox);

describe('examples/cloud/anti-ddos-forwarding.yaml', () => {
  let dir: string;
  beforeAll(async () => {
    dir = workdir('plumb-cloud-uads-');
    copyFileSync(EXAMPLE, join(dir, 'plumb.yaml'));
    const applied = await run(dir, 'apply', '--yes');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 6 added');
  });

  it('plans no change after the apply', async () => {
    const plan = await run(dir, 'plan', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it("a rule's remark is an update and one call; so are its back ends", async () => {
    edit(dir, 'remark: shop https', 'remark: shop https v2');
    const plan = await run(dir, 'plan');
    expect(plan.stdout).toMatch(/^ {2}~ https \(cloud:index\/antiDdosRule:AntiDdosRule\)/m);
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['SetNapFwdRuleRemark']);

    edit(dir, '- { address: 10.20.1.12, port: 443 }', '- { address: 10.20.1.14, port: 443 }');
    expect((await run(dir, 'plan')).stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['UpdateBGPServiceFwdRule']);
  });

  it("the service IP's remark is an update and one call", async () => {
    edit(dir, 'remark: shop front door', 'remark: shop entrance');
    await sandbox.clearCalls();
    const applied = await run(dir, 'apply', '--yes');
    expect(applied.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 replaced, 0 destroyed.');
    expect(await writes()).toEqual(['SetNapIpRemark']);
  });

  it("a label replaces its attachment, with the API's reason, before any call", async () => {
    edit(dir, 'value: shop', 'value: shop-2');
    await sandbox.clearCalls();
    const plan = await run(dir, 'plan');
    edit(dir, 'value: shop-2', 'value: shop');
    expect(plan.stdout).toContain('no Action changes a label (CreateLabels and DeleteLabels only)');
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 2 to replace, 0 to destroy.');
    expect(await writes()).toEqual([]);
  });

  it('drift shows a rule remark changed through the API, and apply puts it back with one call', async () => {
    const [instanceId, index] = state(dir).resources.https.id.split('/');
    const body = await signedCloudCall(sandbox.url, { Action: 'SetNapFwdRuleRemark', ResourceId: instanceId, RuleIndex: index, Remark: 'changed by hand' }, null);
    expect(body.RetCode).toBe(0);
    const drift = await run(dir, 'drift');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('https');
    expect(drift.stdout).toContain('changed by hand');
    await sandbox.clearCalls();
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    expect(await writes()).toEqual(['SetNapFwdRuleRemark']);
  });

  it('imports every object into a fresh stack, which then plans no change', async () => {
    await importPlansNoChange(dir, ADDRESSES);
  });

  it('destroys in dependency order: the rule before its IP before the instance, the binding before the label', async () => {
    await sandbox.clearCalls();
    const destroyed = await run(dir, 'destroy', '--yes');
    expect(destroyed.code).toBe(0);
    const sent = await writes();
    expect([...sent].sort()).toEqual(['DeleteBGPServiceFwdRule', 'DeleteBGPServiceIP', 'DeleteHighProtectGameService', 'DeleteLabels', 'DeleteVPC', 'UnbindLabels']);
    expect(sent.indexOf('DeleteBGPServiceFwdRule')).toBeLessThan(sent.indexOf('DeleteBGPServiceIP'));
    expect(sent.indexOf('DeleteBGPServiceIP')).toBeLessThan(sent.indexOf('DeleteHighProtectGameService'));
    expect(sent.indexOf('UnbindLabels')).toBeLessThan(sent.indexOf('DeleteLabels'));
    expect(sent.indexOf('UnbindLabels')).toBeLessThan(sent.indexOf('DeleteVPC'));
  });
});
