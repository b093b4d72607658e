/** Lifecycle specs of the anti-DDoS service IP and forwarding rule, and of labels and label attachments. */
import * as z from 'zod';
import { expect } from 'vitest';
import type { CloudClient } from '../../../src/providers/cloud/index.js';
import { antiDdosInstance } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { antiDdosIp } from '../../../src/resources/cloud/anti-ddos-ip.js';
import { antiDdosRule } from '../../../src/resources/cloud/anti-ddos-rule.js';
import { label } from '../../../src/resources/cloud/label.js';
import { labelAttachment } from '../../../src/resources/cloud/label-attachment.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext } from '../../support/lifecycle.js';

const sizing = { area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40, chargeType: 'month', duration: 1 } as const;

async function client(world: LifecycleWorld): Promise<CloudClient> {
  return (await world.ctx('census')).client as CloudClient;
}

/** An anti-DDoS instance bought for the suite. */
async function makeInstance(ctx: MakeContext, name: string): Promise<string> {
  return (await antiDdosInstance.create(await ctx(name), z.parse(antiDdosInstance.inputs, { ...sizing, name }))).id;
}

/** The lifecycle spec of AntiDdosIp: the remark changes in place, another instance replaces it. */
export const antiDdosIpSpec = lifecycleSpec({
  type: antiDdosIp,
  setup: async (ctx) => [await makeInstance(ctx, 'ip-owner'), await makeInstance(ctx, 'ip-owner-2')] as const,
  create: ([instanceId]) => ({ instanceId, remark: 'web' }),
  update: ([instanceId]) => ({ instanceId, remark: 'web and api' }),
  replace: ([, other]) => ({ instanceId: other, remark: 'web' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ instanceId: inputs.instanceId, remark: inputs.remark ?? '', status: 'Success' });
  },
  badImportId: '123.59.200.1',
  ghostId: ([instanceId]) => `${instanceId}/192.0.2.1`,
  createCall: 'Action=CreateBGPServiceIP',
  async census(world, [instanceId]) {
    const ips = await (await client(world)).pageAll<{ DefenceIP: string }>('GetBGPServiceIP', { ResourceId: instanceId }, 'GameIPInfo', { region: false, project: false });
    return ips.map((g) => `${instanceId}/${g.DefenceIP}`);
  },
});

/** An instance and a service IP the rules forward from. */
interface RuleHome {
  instanceId: string;
  ip: string;
  otherIp: string;
}

const backends = [{ address: '10.0.0.1', port: 8080 }];

/** The lifecycle spec of AntiDdosRule: port, back ends and remark change in place; another service IP replaces it. */
export const antiDdosRuleSpec = lifecycleSpec({
  type: antiDdosRule,
  async setup(ctx): Promise<RuleHome> {
    const instanceId = await makeInstance(ctx, 'rule-owner');
    const c = await ctx('rule-ip');
    const ip = (await antiDdosIp.create(c, { instanceId })).outputs.ip;
    const otherIp = (await antiDdosIp.create(await ctx('rule-ip-2'), { instanceId })).outputs.ip;
    return { instanceId, ip, otherIp };
  },
  create: (h: RuleHome) => ({ instanceId: h.instanceId, ip: h.ip, port: 443, realServers: backends, remark: 'https' }),
  update: (h) => ({
    instanceId: h.instanceId,
    ip: h.ip,
    port: 8443,
    realServers: [...backends, { address: '10.0.0.2', port: 8080 }],
    backupServer: { ip: '10.0.0.9', port: 8080 },
    toaId: 100,
    remark: 'https, balanced',
  }),
  replace: (h) => ({ instanceId: h.instanceId, ip: h.otherIp, port: 443, realServers: backends, remark: 'https' }),
  another: (h) => ({ instanceId: h.instanceId, ip: h.ip, realServers: [{ address: '10.0.0.3' }] }),
  reflects(outputs, inputs) {
    expect(outputs.port).toBe(inputs.port);
    expect(outputs).toMatchObject({ instanceId: inputs.instanceId, ip: inputs.ip, realServers: inputs.realServers, toaId: inputs.toaId ?? 200, remark: inputs.remark ?? '', status: 'Success' });
    expect(outputs.backupServer).toEqual(inputs.backupServer);
  },
  badImportId: 'usecure_ghp-1a2b3c4d/123.59.200.1/443',
  ghostId: (h) => `${h.instanceId}/999999`,
  createCall: 'Action=CreateBGPServiceFwdRule',
  async census(world, h) {
    const rules = await (await client(world)).pageAll<{ RuleIndex: number }>('GetBGPServiceFwdRule', { ResourceId: h.instanceId }, 'RuleInfo', { region: false, project: false });
    return rules.map((r) => `${h.instanceId}/${r.RuleIndex}`);
  },
});

/** The account's custom labels as the API lists them, as ids. */
async function customLabels(world: LifecycleWorld): Promise<string[]> {
  const listed = await (await client(world)).pageAll<{ Key: string; Value: string }>('ListLabels', { Category: 'custom' }, 'Labels', { region: false, project: false, pageSize: 100 });
  return listed.map((l) => `${l.Key}#${l.Value}`);
}

/** The lifecycle spec of Label: nothing changes in place (writing the category out is no change). */
export const labelSpec = lifecycleSpec({
  type: label,
  create: () => ({ key: 'suite', value: 'one' }),
  update: () => ({ key: 'suite', value: 'one', category: 'custom' as const }),
  replace: () => ({ key: 'suite', value: 'two' }),
  another: () => ({ key: 'suite', value: 'three' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ key: inputs.key, value: inputs.value, category: 'custom' });
  },
  badImportId: 'no-separator',
  ghostId: () => 'suite#ghost',
  createCall: 'Action=CreateLabels',
  census: customLabels,
});

/** A VPC to label, two more, and the label to bind. */
interface Labelled {
  vpcs: [string, string];
}

/** The lifecycle spec of LabelAttachment: nothing changes in place; another resource replaces the binding. */
export const labelAttachmentSpec = lifecycleSpec({
  type: labelAttachment,
  async setup(ctx): Promise<Labelled> {
    const c = await ctx('labelled');
    await label.create(c, { key: 'tier', value: 'suite' });
    const make = async (name: string, cidr: string) => (await vpc.create(c, { name, cidrBlocks: [cidr] })).id;
    return { vpcs: [await make('labelled-a', '10.120.0.0/16'), await make('labelled-b', '10.121.0.0/16')] };
  },
  create: (l: Labelled) => ({ key: 'tier', value: 'suite', resourceId: l.vpcs[0] }),
  update: (l) => ({ key: 'tier', value: 'suite', resourceId: l.vpcs[0], category: 'custom' as const }),
  replace: (l) => ({ key: 'tier', value: 'suite', resourceId: l.vpcs[1] }),
  another: (l) => ({ key: 'tier', value: 'suite', resourceId: l.vpcs[1] }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ key: inputs.key, value: inputs.value, resourceId: inputs.resourceId });
  },
  badImportId: 'tier#suite',
  ghostId: (l) => `tier#ghost#${l.vpcs[0]}`,
  createCall: 'Action=BindLabels',
  async census(world, l) {
    const bound = await (
      await client(world)
    ).pageAll<{ Key: string; Value: string; ResourceId: string }>('ListLabelsByResourceIds', { ResourceIds: l.vpcs }, 'Labels', { region: false, project: false });
    return bound.map((b) => `${b.Key}#${b.Value}#${b.ResourceId}`);
  },
});

/** Every anti-DDoS IP, rule and label type's spec. */
export const uadsLabelSpecs = [antiDdosIpSpec, antiDdosRuleSpec, labelSpec, labelAttachmentSpec];
