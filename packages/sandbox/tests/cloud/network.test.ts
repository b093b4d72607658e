/** The cloud sandbox's network write Actions, called as the API documentation describes them (signed form posts, `.N` lists). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApi } from '../../src/cloud/index.js';
import { startSandbox, type Sandbox } from '../../src/server.js';
import { cloudActions } from '../support/cloud-api.js';

let sb: Sandbox;
let slow: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ provisioningMs: 0, apis: [cloudApi] });
  slow = await startSandbox({ provisioningMs: 300, apis: [cloudApi] });
});
afterAll(async () => {
  await sb.close();
  await slow.close();
});

/** Signed form POSTs to the sandbox (`sb` unless another is given). */
const { call, ok } = cloudActions(() => sb);

describe('VPCs and subnets', () => {
  it('creates a VPC from Network.N, lists it by VPCIds.N with its subnet counts, and reports no remark', async () => {
    const { VPCId } = await ok({ Action: 'CreateVPC', Name: 'net-a', 'Network.0': '10.20.0.0/16', 'Network.1': '10.21.0.0/16', Remark: 'kept but unreported' });
    expect(VPCId).toMatch(/^uvnet-[0-9a-f]{8}$/);
    await ok({ Action: 'CreateSubnet', VPCId, Subnet: '10.21.3.0', Netmask: 24, SubnetName: 'a' });
    const listed = await ok({ Action: 'DescribeVPC', 'VPCIds.0': VPCId });
    expect(listed.TotalCount).toBe(1);
    expect(listed.DataSet[0]).toMatchObject({ VPCId, Name: 'net-a', Tag: 'Default', Network: ['10.20.0.0/16', '10.21.0.0/16'], SubnetCount: 1 });
    expect(listed.DataSet[0].NetworkInfo).toEqual([
      { Network: '10.20.0.0/16', SubnetCount: 0 },
      { Network: '10.21.0.0/16', SubnetCount: 1 },
    ]);
    expect(listed.DataSet[0]).not.toHaveProperty('Remark');
  });

  it('refuses a public range, a subnet outside the VPC or overlapping another, and names the parameter', async () => {
    expect((await call({ Action: 'CreateVPC', Name: 'pub', 'Network.0': '8.8.0.0/16' })).RetCode).toBe(230);
    const { VPCId } = await ok({ Action: 'CreateVPC', Name: 'net-b', 'Network.0': '10.30.0.0/16' });
    await ok({ Action: 'CreateSubnet', VPCId, Subnet: '10.30.0.0', Netmask: 24 });
    const outside = await call({ Action: 'CreateSubnet', VPCId, Subnet: '10.31.0.0', Netmask: 24 });
    expect(outside).toMatchObject({ RetCode: 230, Message: expect.stringContaining('outside the ranges') });
    const overlap = await call({ Action: 'CreateSubnet', VPCId, Subnet: '10.30.0.0', Netmask: 23 });
    expect(overlap).toMatchObject({ RetCode: 230, Message: expect.stringContaining('overlaps subnet') });
  });

  it('renames and retags a subnet with UpdateSubnetAttribute, which needs Name or Tag', async () => {
    const { VPCId } = await ok({ Action: 'CreateVPC', Name: 'net-c', 'Network.0': '10.40.0.0/16' });
    const { SubnetId } = await ok({ Action: 'CreateSubnet', VPCId, Subnet: '10.40.1.0', Netmask: 24, SubnetName: 'old', Remark: 'r' });
    expect((await call({ Action: 'UpdateSubnetAttribute', SubnetId })).RetCode).toBe(230);
    await ok({ Action: 'UpdateSubnetAttribute', SubnetId, Name: 'new', Tag: 'blue' });
    const { DataSet } = await ok({ Action: 'DescribeSubnet', 'SubnetIds.0': SubnetId });
    expect(DataSet).toEqual([expect.objectContaining({ SubnetId, SubnetName: 'new', Tag: 'blue', Remark: 'r', Subnet: '10.40.1.0', Netmask: '24', VPCId })]);
  });

  it('adds a range, removes one only when no subnet uses it, and deletes a VPC only once its subnets are gone', async () => {
    const { VPCId } = await ok({ Action: 'CreateVPC', Name: 'net-d', 'Network.0': '10.50.0.0/16' });
    await ok({ Action: 'AddVPCNetwork', VPCId, 'Network.0': '10.51.0.0/16' });
    const { SubnetId } = await ok({ Action: 'CreateSubnet', VPCId, Subnet: '10.51.0.0', Netmask: 24 });
    // UpdateVPCNetwork is sent the ranges to keep.
    expect((await call({ Action: 'UpdateVPCNetwork', VPCId, 'Network.0': '10.50.0.0/16' })).RetCode).toBe(5024);
    expect((await call({ Action: 'DeleteVPC', VPCId })).RetCode).toBe(5024);
    await ok({ Action: 'DeleteSubnet', SubnetId });
    await ok({ Action: 'UpdateVPCNetwork', VPCId, 'Network.0': '10.50.0.0/16' });
    expect((await ok({ Action: 'DescribeVPC', 'VPCIds.0': VPCId })).DataSet[0].Network).toEqual(['10.50.0.0/16']);
    await ok({ Action: 'DeleteVPC', VPCId });
    expect((await ok({ Action: 'DescribeVPC', 'VPCIds.0': VPCId })).DataSet).toEqual([]);
    expect((await call({ Action: 'DeleteVPC', VPCId })).RetCode).toBe(54002);
  });

  it('refuses to delete a subnet that still holds a host (4411)', async () => {
    const { DataSet } = await ok({ Action: 'DescribeSubnet', VPCId: (await ok({ Action: 'DescribeVPC', Tag: 'prod' })).DataSet[0].VPCId });
    const busy = DataSet.find((s: { SubnetName: string }) => s.SubnetName === 'prod-a');
    expect((await ok({ Action: 'DescribeSubnetResource', SubnetId: busy.SubnetId })).TotalCount).toBeGreaterThan(0);
    expect((await call({ Action: 'DeleteSubnet', SubnetId: busy.SubnetId })).RetCode).toBe(4411);
  });

  it('lists a new VPC only once it is provisioned', async () => {
    const { VPCId } = await ok({ Action: 'CreateVPC', Name: 'later', 'Network.0': '10.60.0.0/16' }, slow);
    expect((await ok({ Action: 'DescribeVPC', 'VPCIds.0': VPCId }, slow)).DataSet).toEqual([]);
    await new Promise((r) => setTimeout(r, 350));
    expect((await ok({ Action: 'DescribeVPC', 'VPCIds.0': VPCId }, slow)).DataSet).toHaveLength(1);
  });
});

describe('firewalls', () => {
  it('creates with Rule.N strings, reports rules as objects, and UpdateFirewall replaces them all', async () => {
    const { FWId } = await ok({ Action: 'CreateFirewall', Name: 'web', 'Rule.0': 'TCP|80|0.0.0.0/0|ACCEPT|HIGH', 'Rule.1': 'ICMP||10.0.0.0/8|DROP|LOW|ping' });
    await ok({ Action: 'UpdateFirewall', FWId, 'Rule.0': 'UDP|53|10.0.0.0/8|ACCEPT|MEDIUM' });
    await ok({ Action: 'UpdateFirewallAttribute', FWId, Remark: 'dns only' });
    const { DataSet } = await ok({ Action: 'DescribeFirewall', FWId });
    expect(DataSet).toEqual([
      expect.objectContaining({
        FWId,
        Name: 'web',
        Tag: 'Default',
        Remark: 'dns only',
        Type: 'user defined',
        Rule: [{ ProtocolType: 'UDP', DstPort: '53', SrcIP: '10.0.0.0/8', RuleAction: 'ACCEPT', Priority: 'MEDIUM', Remark: '' }],
      }),
    ]);
  });

  it('answers a bad priority with 4359, an unknown id with 54002, and refuses to delete a recommended firewall (4358)', async () => {
    expect((await call({ Action: 'CreateFirewall', Name: 'x', 'Rule.0': 'TCP|80|0.0.0.0/0|ACCEPT|URGENT' })).RetCode).toBe(4359);
    expect((await call({ Action: 'DescribeFirewall', FWId: 'firewall-00000000' })).RetCode).toBe(54002);
    const recommended = (await ok({ Action: 'DescribeFirewall' })).DataSet.find((f: { Type: string }) => f.Type === 'recommend web');
    expect((await call({ Action: 'DeleteFirewall', FWId: recommended.FWId })).RetCode).toBe(4358);
  });
});

describe('elastic IPs', () => {
  it('allocates, changes bandwidth, pay mode, weight and name, and refuses a bandwidth of 0 outside share mode (4011)', async () => {
    const { EIPSet } = await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 2, PayMode: 'Bandwidth', ChargeType: 'Dynamic', Name: 'e1' });
    const EIPId = EIPSet[0].EIPId;
    expect(EIPSet[0].EIPAddr[0]).toMatchObject({ OperatorName: 'Bgp', IP: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) });
    expect((await call({ Action: 'ModifyEIPBandwidth', EIPId, Bandwidth: 0 })).RetCode).toBe(4011);
    await ok({ Action: 'ModifyEIPBandwidth', EIPId, Bandwidth: 5 });
    await ok({ Action: 'SetEIPPayMode', EIPId, PayMode: 'Traffic', Bandwidth: 5 });
    await ok({ Action: 'ModifyEIPWeight', EIPId, Weight: 80 });
    await ok({ Action: 'UpdateEIPAttribute', EIPId, Name: 'e2', Tag: 'edge' });
    const { EIPSet: seen } = await ok({ Action: 'DescribeEIP', 'EIPIds.0': EIPId });
    expect(seen).toEqual([expect.objectContaining({ EIPId, Name: 'e2', Tag: 'edge', Bandwidth: 5, PayMode: 'Traffic', Weight: 80, Status: 'free', ChargeType: 'Dynamic' })]);
  });

  it('binds over time: free until the bind settles, then used; cannot be released while used (4212); unbinds, then releases', async () => {
    const host = (await ok({ Action: 'DescribeUHostInstance' }, slow)).UHostSet[0];
    const { EIPSet } = await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 1 }, slow);
    const EIPId = EIPSet[0].EIPId;
    const status = async () => (await ok({ Action: 'DescribeEIP', 'EIPIds.0': EIPId }, slow)).EIPSet[0];
    await ok({ Action: 'BindEIP', EIPId, ResourceType: 'uhost', ResourceId: host.UHostId }, slow);
    expect(await status()).toMatchObject({ Status: 'free', Resource: {} });
    expect((await call({ Action: 'BindEIP', EIPId, ResourceType: 'uhost', ResourceId: host.UHostId }, slow)).RetCode).toBe(4154);
    await new Promise((r) => setTimeout(r, 350));
    expect(await status()).toMatchObject({ Status: 'used', Resource: { ResourceID: host.UHostId, ResourceType: 'uhost', ResourceName: host.Name } });
    expect((await call({ Action: 'ReleaseEIP', EIPId }, slow)).RetCode).toBe(4212);
    await ok({ Action: 'UnBindEIP', EIPId, ResourceType: 'uhost', ResourceId: host.UHostId }, slow);
    expect((await call({ Action: 'ReleaseEIP', EIPId }, slow)).RetCode).toBe(4212);
    await new Promise((r) => setTimeout(r, 350));
    await ok({ Action: 'ReleaseEIP', EIPId }, slow);
    expect((await ok({ Action: 'DescribeEIP', 'EIPIds.0': EIPId }, slow)).EIPSet).toEqual([]);
    expect((await call({ Action: 'ReleaseEIP', EIPId }, slow)).RetCode).toBe(4210);
  });

  it('refuses to bind to a resource that does not exist (4218)', async () => {
    const { EIPSet } = await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 1 });
    expect((await call({ Action: 'BindEIP', EIPId: EIPSet[0].EIPId, ResourceType: 'uhost', ResourceId: 'uhost-00000000' })).RetCode).toBe(4218);
  });
});
