/** Lifecycle specs of the cloud network types (VPC, subnet, security group, EIP, EIP association). */
import { expect } from 'vitest';
import type { CloudClient } from '../../../src/providers/cloud/index.js';
import { eip } from '../../../src/resources/cloud/eip.js';
import { eipAssociation } from '../../../src/resources/cloud/eip-association.js';
import { securityGroup } from '../../../src/resources/cloud/security-group.js';
import { subnet } from '../../../src/resources/cloud/subnet.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext } from '../../support/lifecycle.js';

/** The ids an Action lists, as the API reports them to anyone. */
async function listed(world: LifecycleWorld, action: string, listKey: string, idOf: (r: Record<string, any>) => string | undefined): Promise<string[]> {
  const client = (await world.ctx('census')).client as CloudClient;
  return (await client.pageAll<Record<string, any>>(action, {}, listKey)).map(idOf).filter((id): id is string => id !== undefined);
}

/** The lifecycle spec of Vpc: ranges change in place, a new name replaces it. */
export const vpcSpec = lifecycleSpec({
  type: vpc,
  create: () => ({ name: 'suite-vpc', cidrBlocks: ['10.100.0.0/16'] }),
  update: () => ({ name: 'suite-vpc', cidrBlocks: ['10.101.0.0/16', '10.102.0.0/16'] }),
  replace: () => ({ name: 'suite-vpc-renamed', cidrBlocks: ['10.100.0.0/16'] }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name, tag: inputs.tag ?? 'Default' });
    expect([...(outputs.cidrBlocks as string[])].sort()).toEqual([...inputs.cidrBlocks].sort());
  },
  badImportId: 'vpc-123',
  ghostId: () => 'uvnet-00000000',
  createCall: 'Action=CreateVPC',
  census: (world) => listed(world, 'DescribeVPC', 'DataSet', (v) => v.VPCId),
});

/** A VPC for the types that live in one. */
async function makeVpc(ctx: MakeContext, name: string): Promise<string> {
  return (await vpc.create(await ctx(name), { name, cidrBlocks: ['10.110.0.0/16'] })).id;
}

/** The lifecycle spec of Subnet: renamed and retagged in place, a new range replaces it. */
export const subnetSpec = lifecycleSpec({
  type: subnet,
  setup: (ctx) => makeVpc(ctx, 'subnet-home'),
  create: (vpcId: string) => ({ vpcId, cidrBlock: '10.110.1.0/24', name: 'suite-subnet' }),
  update: (vpcId) => ({ vpcId, cidrBlock: '10.110.1.0/24', name: 'suite-subnet-renamed', tag: 'blue' }),
  replace: (vpcId) => ({ vpcId, cidrBlock: '10.110.2.0/24', name: 'suite-subnet' }),
  another: (vpcId) => ({ vpcId, cidrBlock: '10.110.3.0/24', name: 'suite-subnet-2' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ vpcId: inputs.vpcId, cidrBlock: inputs.cidrBlock, name: inputs.name, tag: inputs.tag ?? 'Default' });
  },
  badImportId: 'uvnet-1a2b3c4d',
  ghostId: () => 'subnet-00000000',
  createCall: 'Action=CreateSubnet',
  census: (world, vpcId) => listed(world, 'DescribeSubnet', 'DataSet', (s) => (s.VPCId === vpcId ? s.SubnetId : undefined)),
});

const web = [{ protocol: 'tcp', port: '443' }] as const;

/** The lifecycle spec of SecurityGroup: rules, name, tag and remark change in place. */
export const securityGroupSpec = lifecycleSpec({
  type: securityGroup,
  create: () => ({ name: 'suite-sg', rules: [...web], remark: 'first' }),
  update: () => ({ name: 'suite-sg-2', rules: [...web, { protocol: 'icmp', cidrBlock: '10.0.0.0/8', priority: 'low' } as const], tag: 'edge', remark: 'second' }),
  replace: () => ({ name: 'suite-sg', rules: [...web] }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name, tag: inputs.tag ?? 'Default', remark: inputs.remark ?? '' });
    expect((outputs.rules as unknown[]).length).toBe(inputs.rules.length);
  },
  badImportId: 'sg-1',
  ghostId: () => 'firewall-00000000',
  createCall: 'Action=CreateFirewall',
  census: (world) => listed(world, 'DescribeFirewall', 'DataSet', (f) => (f.Type === 'user defined' ? f.FWId : undefined)),
});

/** The lifecycle spec of Eip: bandwidth, charge mode, weight and name change in place; the line replaces it. */
export const eipSpec = lifecycleSpec({
  type: eip,
  create: () => ({ name: 'suite-eip', internetType: 'bgp' as const, bandwidth: 2 }),
  update: () => ({ name: 'suite-eip-2', internetType: 'bgp' as const, bandwidth: 5, chargeMode: 'traffic' as const, weight: 70, remark: 'edge' }),
  replace: () => ({ name: 'suite-eip', internetType: 'international' as const, bandwidth: 2 }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name, internetType: inputs.internetType, bandwidth: inputs.bandwidth, chargeMode: inputs.chargeMode ?? 'bandwidth', remark: inputs.remark ?? '' });
    if (inputs.weight !== undefined) expect(outputs.weight).toBe(inputs.weight);
  },
  badImportId: '1.2.3.4',
  ghostId: () => 'eip-00000000',
  createCall: 'Action=AllocateEIP',
  census: (world) => listed(world, 'DescribeEIP', 'EIPSet', (e) => e.EIPId),
});

/** Two EIPs of the suite's own and two seeded hosts to bind them to. */
interface Binding {
  eips: [string, string];
  hosts: [string, string];
}

/** The lifecycle spec of EipAssociation: nothing changes in place (writing the inferred type out is no change). */
export const eipAssociationSpec = lifecycleSpec({
  type: eipAssociation,
  async setup(ctx): Promise<Binding> {
    const c = await ctx('binding-setup');
    const allocate = async (name: string) => (await eip.create(c, { name, internetType: 'bgp' as const, bandwidth: 1 })).id;
    const hosts = await (c.client as CloudClient).pageAll<{ UHostId: string }>('DescribeUHostInstance', {}, 'UHostSet');
    return { eips: [await allocate('bind-a'), await allocate('bind-b')], hosts: [hosts[0].UHostId, hosts[1].UHostId] };
  },
  create: (b: Binding) => ({ eipId: b.eips[0], resourceId: b.hosts[0] }),
  update: (b) => ({ eipId: b.eips[0], resourceId: b.hosts[0], resourceType: 'uhost' as const }),
  replace: (b) => ({ eipId: b.eips[0], resourceId: b.hosts[1] }),
  another: (b) => ({ eipId: b.eips[1], resourceId: b.hosts[0] }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ eipId: inputs.eipId, resourceId: inputs.resourceId, resourceType: 'uhost' as const });
  },
  badImportId: 'eip-1a2b3c4d',
  ghostId: (b) => `${b.eips[1]}:uhost-00000000`,
  createCall: 'Action=BindEIP',
  census: (world) => listed(world, 'DescribeEIP', 'EIPSet', (e) => (e.Status === 'used' && e.EIPId.startsWith('eip-') && e.Resource?.ResourceID ? `${e.EIPId}:${e.Resource.ResourceID}` : undefined)),
});

/** Every network type's spec. */
export const networkSpecs = [vpcSpec, subnetSpec, securityGroupSpec, eipSpec, eipAssociationSpec];
