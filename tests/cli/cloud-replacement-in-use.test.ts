/**
 * A replacement the API refuses in either order: an LbAttachment a rule forwards to, replaced
 * keeping its instance's port on the listener. Deleting first is refused while the rule uses the
 * backend (4110), creating first because the listener takes the port once (4109). The plan is
 * refused before any call, and the runs it names work. Judged against the sandbox's world.
 */
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { testSandbox, workdir } from '../support/cli.js';
import { cloudExampleKit } from '../support/cloud-example.js';

const EXAMPLES = resolve(import.meta.dirname, '../../examples/cloud');

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { writes, state, run, edit } = cloudExampleKit(() => sandbox);

/** The HTTP listener's backends and the rule's, as the sandbox's world has them. */
async function balancer(lbId: string): Promise<{ backends: Array<[string, string, number]>; rule: string[] }> {
  const body = await signedCloudCall(sandbox.url, { Action: 'DescribeULB', ULBId: lbId });
  expect(body.RetCode).toBe(0);
  const vs = body.DataSet[0].VServerSet[0];
  return {
    backends: vs.BackendSet.map((b: Record<string, any>) => [b.BackendId, b.ResourceId, b.Port]),
    rule: vs.PolicySet.filter((p: Record<string, any>) => p.PolicyType !== 'Default').flatMap((p: Record<string, any>) => p.BackendSet.map((b: Record<string, any>) => b.BackendId)),
  };
}

async function converged(dir: string): Promise<void> {
  const plan = await run(dir, 'plan', '--detailed-exitcode');
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);
}

describe('a replacement a dependant blocks in either order', () => {
  it('examples/cloud/compute.yaml: the backend the rule forwards to, replaced keeping its port, is refused before any call; the runs it names work', async () => {
    const dir = workdir('plumb-cloud-in-use-');
    copyFileSync(join(EXAMPLES, 'compute.yaml'), join(dir, 'plumb.yaml'));
    const first = await run(dir, 'apply', '--yes');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const lbId = state(dir).resources.shopLb.id;
    const web = state(dir).resources.webHost.id;
    const before = await balancer(lbId);
    const old = before.backends.find((b) => b[1] === web)![0];
    expect(before.rule).toEqual([old]);

    await sandbox.clearCalls();
    for (const command of [['plan'], ['apply', '--yes']]) {
      const refused = await run(dir, ...command, '--replace', 'webBehindLb');
      expect(refused.code).toBe(1);
      const text = refused.stdout + refused.stderr;
      expect(text).toMatch(/plumb\.yaml:\d+:\d+: error: webBehindLb cannot be replaced \(--replace\) in either order while staticToWeb uses it/);
      expect(text).toContain('4110');
      expect(text).toContain('first take webBehindLb out of staticToWeb.backendIds');
      expect(text).not.toMatch(/\n\s+at /);
    }
    expect(await writes()).toEqual([]);
    expect(await balancer(lbId)).toEqual(before);

    // Another port: the new backend is made first, the rule moves to it, the old one goes.
    edit(dir, '      resourceId: ${webHost.instanceId}\n      port: 8080\n', '      resourceId: ${webHost.instanceId}\n      port: 8081\n');
    const moved = await run(dir, 'apply', '--yes', '--replace', 'webBehindLb');
    expect(moved.stderr).toBe('');
    expect(moved.code).toBe(0);
    await converged(dir);
    const after = await balancer(lbId);
    const fresh = after.backends.find((b) => b[1] === web)!;
    expect(fresh[0]).not.toBe(old);
    expect(fresh[2]).toBe(8081);
    expect(after.backends.filter((b) => b[1] === web)).toHaveLength(1);
    expect(after.rule).toEqual([fresh[0]]);

    // Two runs: the rule leaves the backend, then the backend is replaced and the rule comes back.
    edit(dir, 'backendIds: [ "${webBehindLb.backendId}" ]', 'backendIds: [ "${dbBehindLb.backendId}" ]');
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    edit(dir, 'backendIds: [ "${dbBehindLb.backendId}" ]', 'backendIds: [ "${webBehindLb.backendId}" ]');
    const second = await run(dir, 'apply', '--yes', '--replace', 'webBehindLb');
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    await converged(dir);
    const last = await balancer(lbId);
    const again = last.backends.filter((b) => b[1] === web);
    expect(again.map((b) => b[2])).toEqual([8081]);
    expect(again[0][0]).not.toBe(fresh[0]);
    expect(last.rule).toEqual([again[0][0]]);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });

  it('examples/cloud/network.yaml: a subnet the NAT gateway serves, replaced on request (--replace), is refused before any call', async () => {
    const dir = workdir('plumb-cloud-in-use-');
    copyFileSync(join(EXAMPLES, 'network.yaml'), join(dir, 'plumb.yaml'));
    expect((await run(dir, 'apply', '--yes')).code).toBe(0);
    const old = state(dir).resources.data.id;
    await sandbox.clearCalls();
    const refused = await run(dir, 'plan', '--replace', 'data');
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toMatch(/plumb\.yaml:\d+:\d+: error: data cannot be replaced \(--replace\) in either order while nat uses it \(nat\.subnetIds\)/);
    expect(refused.stdout + refused.stderr).toContain('(4411)');
    expect(await writes()).toEqual([]);
    const subnets = await signedCloudCall(sandbox.url, { Action: 'DescribeSubnet', VPCId: state(dir).resources.network.id });
    expect(subnets.DataSet.map((s: { SubnetId: string }) => s.SubnetId)).toContain(old);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });
});
