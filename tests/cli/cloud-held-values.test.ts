/**
 * Values the cloud API lets one object hold at a time, beyond EIP bindings and subnet ranges: a
 * listener's port on its balancer, an instance's port on a listener. A replacement keeping one is
 * ordered delete-first, and the world ends with the one new object. Judged against the sandbox's
 * world, not plumb's state.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { testSandbox, workdir } from '../support/cli.js';
import { cloudExampleKit, cloudManifest } from '../support/cloud-example.js';

let sandbox: Awaited<ReturnType<typeof testSandbox>>;
beforeAll(async () => {
  sandbox = await testSandbox();
});
afterAll(() => sandbox.close());

const { state, run, apply, edit } = cloudExampleKit(() => sandbox);

const BALANCER = cloudManifest(
  'held-values',
  { name: 'held-vpc', cidr: '10.30.0.0/16' },
  `  web:
    type: cloud:index/subnet:Subnet
    properties:
      vpcId: \${network.vpcId}
      cidrBlock: 10.30.1.0/24
  balancer:
    type: cloud:index/lb:Lb
    properties:
      vpcId: \${network.vpcId}
      subnetId: \${web.subnetId}
      name: held-lb
  front:
    type: cloud:index/lbListener:LbListener
    properties:
      lbId: \${balancer.lbId}
      protocol: tcp
      port: 8443
      name: front
`,
);

async function applied(manifest: string): Promise<string> {
  const dir = workdir('plumb-cloud-held-');
  writeFileSync(join(dir, 'plumb.yaml'), manifest);
  await apply(dir);
  return dir;
}

type Plan = { changes: Array<{ address: string; action: string; replaceOrder?: string }> };

/** What `plumb plan ARGS` in `dir` would change: each address, its action and the order of a replacement. */
async function changes(dir: string, ...args: string[]): Promise<Array<[string, string, string | undefined]>> {
  const plan = JSON.parse((await run(dir, 'plan', '--json', ...args)).stdout) as Plan;
  return plan.changes.filter((c) => c.action !== 'noop').map((c) => [c.address, c.action, c.replaceOrder]);
}

describe('replacements keeping a value the cloud API holds unique', () => {
  it("a listener's protocol changed keeping its port is replaced delete-first, and the balancer has the one new listener on the port", async () => {
    const dir = await applied(BALANCER);
    const old = state(dir).resources.front.id;
    edit(dir, 'protocol: tcp', 'protocol: https');
    expect(await changes(dir)).toEqual([['front', 'replace', 'delete-first']]);
    await apply(dir);
    const body = await signedCloudCall(sandbox.url, { Action: 'DescribeVServer', ULBId: state(dir).resources.balancer.id });
    expect(body.RetCode).toBe(0);
    const listeners = body.DataSet as Array<Record<string, unknown>>;
    expect(listeners.map((v) => [v.VServerName, v.Protocol, v.FrontendPort])).toEqual([['front', 'HTTPS', 8443]]);
    expect(listeners[0].VServerId).not.toBe(old.split('/')[1]);
    const after = await run(dir, 'plan', '--detailed-exitcode');
    expect(after.code).toBe(0);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });

  it('a listener left at its default port, its protocol changed between two that default to the same port, is replaced delete-first', async () => {
    const dir = await applied(BALANCER.replace('      port: 8443\n', ''));
    edit(dir, 'protocol: tcp', 'protocol: http\n      port: 1024');
    expect(await changes(dir)).toEqual([['front', 'replace', 'delete-first']]);
    await apply(dir);
    const body = await signedCloudCall(sandbox.url, { Action: 'DescribeVServer', ULBId: state(dir).resources.balancer.id });
    expect((body.DataSet as Array<Record<string, unknown>>).map((v) => [v.Protocol, v.FrontendPort])).toEqual([['HTTP', 1024]]);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });

  it("a label's value changed, with an attachment binding it, leaves the account the new label alone, bound where the old one was", async () => {
    const dir = await applied(
      cloudManifest(
        'held-label',
        { name: 'label-vpc', cidr: '10.31.0.0/16' },
        `  tier:
    type: cloud:index/label:Label
    properties: { key: held-tier, value: one }
  onVpc:
    type: cloud:index/labelAttachment:LabelAttachment
    properties: { key: "\${tier.key}", value: "\${tier.value}", resourceId: "\${network.vpcId}" }
`,
      ),
    );
    edit(dir, 'value: one', 'value: two');
    await apply(dir);
    const labels = await signedCloudCall(sandbox.url, { Action: 'ListLabels', Category: 'custom', Limit: 100 });
    expect((labels.Labels as Array<{ Key: string; Value: string }>).filter((l) => l.Key === 'held-tier').map((l) => l.Value)).toEqual(['two']);
    const bound = await signedCloudCall(sandbox.url, { Action: 'ListLabelsByResourceIds', 'ResourceIds.0': state(dir).resources.network.id });
    expect((bound.Labels as Array<{ Key: string; Value: string }>).map((l) => `${l.Key}:${l.Value}`)).toEqual(['held-tier:two']);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
    const after = await signedCloudCall(sandbox.url, { Action: 'ListLabels', Category: 'custom', Limit: 100 });
    expect((after.Labels as Array<{ Key: string }>).filter((l) => l.Key === 'held-tier')).toEqual([]);
  });

  it('examples/cloud/compute.yaml: a backend no rule uses and a NAT gateway rule replaced as they are (--replace) are deleted first, and the world has one of each on the port', async () => {
    const dir = workdir('plumb-cloud-held-');
    copyFileSync(resolve(import.meta.dirname, '../../examples/cloud/compute.yaml'), join(dir, 'plumb.yaml'));
    await apply(dir);
    const args = ['--replace', 'dbBehindLb', '--replace', 'sshToWeb'];
    const replaced = (await changes(dir, ...args)).filter(([, action]) => action === 'replace').map(([address, , order]) => [address, order]);
    expect(replaced).toContainEqual(['dbBehindLb', 'delete-first']);
    expect(replaced).toContainEqual(['sshToWeb', 'delete-first']);
    await apply(dir, ...args);
    const resources = state(dir).resources;
    const [lbId, listenerId] = resources.shopHttp.id.split('/');
    const listener = (await signedCloudCall(sandbox.url, { Action: 'DescribeVServer', ULBId: lbId, VServerId: listenerId })).DataSet[0];
    expect((listener.BackendSet as Array<Record<string, unknown>>).filter((b) => b.ResourceId === resources.dbHost.id).map((b) => [b.Port, b.IsBackup])).toEqual([[8080, 1]]);
    const rules = (await signedCloudCall(sandbox.url, { Action: 'DescribeNATGWPolicy', NATGWId: resources.nat.id, Limit: 100 })).DataSet as Array<Record<string, unknown>>;
    expect(rules.map((r) => [r.PolicyName, r.SrcPort])).toEqual([['ssh-to-web', '2222']]);
    expect((await run(dir, 'destroy', '--yes')).code).toBe(0);
  });
});
