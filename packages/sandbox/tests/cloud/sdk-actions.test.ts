/**
 * The cloud sandbox's Actions the vendor's SDK declares beyond plumb's first needs: a NAT gateway's
 * white-list members, what a firewall is bound to, a firewall on a balancer, the simple balancer
 * listing and EIP pay modes; called as the API documentation describes them (signed form posts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApi } from '../../src/cloud/index.js';
import { startSandbox, type Sandbox } from '../../src/server.js';
import { cloudActions } from '../support/cloud-api.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ provisioningMs: 0, apis: [cloudApi] });
});
afterAll(() => sb.close());

const { call, ok } = cloudActions(() => sb);

/** A VPC with a subnet, a security group, an EIP, a host in the subnet and a NAT gateway serving it. */
async function natWithHost(range: number): Promise<Record<string, string>> {
  const { VPCId } = await ok({ Action: 'CreateVPC', Name: `wl-${range}`, 'Network.0': `10.${range}.0.0/16` });
  const { SubnetId } = await ok({ Action: 'CreateSubnet', VPCId, Subnet: `10.${range}.1.0`, Netmask: 24 });
  const { FWId } = await ok({ Action: 'CreateFirewall', Name: `wl-fw-${range}`, 'Rule.0': 'TCP|22|10.0.0.0/8|ACCEPT|HIGH' });
  const eip = (await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 1 })).EIPSet[0].EIPId;
  const { ImageSet } = await ok({ Action: 'DescribeImage', Zone: 'cn-bj2-02', ImageType: 'Base' });
  const hostParams = {
    Action: 'CreateUHostInstance',
    Zone: 'cn-bj2-02',
    VPCId,
    SubnetId,
    ImageId: ImageSet[0].ImageId,
    LoginMode: 'Password',
    Password: Buffer.from('Sandbox-pass-1').toString('base64'),
    CPU: 1,
    Memory: 1024,
  };
  const { UHostIds, IPs } = await ok({ ...hostParams, Name: `wl-host-${range}`, 'Disks.0.IsBoot': 'True', 'Disks.0.Type': 'CLOUD_SSD', 'Disks.0.Size': 20 });
  const { NATGWId } = await ok({ Action: 'CreateNATGW', NATGWName: `wl-nat-${range}`, 'EIPIds.0': eip, FirewallId: FWId, 'SubnetworkIds.0': SubnetId, VPCId });
  return { VPCId, SubnetId, FWId, eip, NATGWId, hostId: UHostIds[0], hostIp: IPs[0] };
}

const whiteList = async (NATGWId: string) => (await ok({ Action: 'DescribeWhiteListResource', 'NATGWIds.0': NATGWId })).DataSet[0];

describe('a NAT gateway white list', () => {
  it('AddWhiteListResource adds hosts of its VPC, DescribeWhiteListResource lists them, DeleteWhiteListResource takes them off', async () => {
    const net = await natWithHost(171);
    expect((await whiteList(net.NATGWId)).ObjectIPInfo).toEqual([]);
    await ok({ Action: 'AddWhiteListResource', NATGWId: net.NATGWId, 'ResourceIds.0': net.hostId });
    expect(await whiteList(net.NATGWId)).toEqual({
      NATGWId: net.NATGWId,
      IfOpen: 0,
      ObjectIPInfo: [expect.objectContaining({ GwType: 'natgw', ResourceId: net.hostId, ResourceType: 'uhost', ResourceName: 'wl-host-171', PrivateIP: net.hostIp, VPCId: net.VPCId })],
    });
    await ok({ Action: 'DeleteWhiteListResource', NATGWId: net.NATGWId, 'ResourceIds.0': net.hostId });
    expect((await whiteList(net.NATGWId)).ObjectIPInfo).toEqual([]);
  });

  it('refuses a host of another VPC or none at all, and answers 54002 for taking off one that is not on it', async () => {
    const [a, b] = [await natWithHost(172), await natWithHost(173)];
    expect((await call({ Action: 'AddWhiteListResource', NATGWId: a.NATGWId, 'ResourceIds.0': b.hostId })).RetCode).not.toBe(0);
    expect((await call({ Action: 'AddWhiteListResource', NATGWId: a.NATGWId })).RetCode).not.toBe(0);
    expect((await call({ Action: 'AddWhiteListResource', NATGWId: a.NATGWId, 'ResourceIds.0': 'uhost-00000000' })).RetCode).toBe(54002);
    expect((await call({ Action: 'DeleteWhiteListResource', NATGWId: a.NATGWId, 'ResourceIds.0': a.hostId })).RetCode).toBe(54002);
    expect((await whiteList(a.NATGWId)).ObjectIPInfo).toEqual([]);
  });
});

describe('firewalls and what they are bound to', () => {
  it('DescribeFirewallResource lists the NAT gateway and the balancer a firewall is bound to', async () => {
    const net = await natWithHost(174);
    const { ULBId } = await ok({ Action: 'CreateULB', ULBName: 'fw-lb', VPCId: net.VPCId, SubnetId: net.SubnetId, OuterMode: 'Yes', FirewallId: net.FWId });
    const { ResourceSet, TotalCount } = await ok({ Action: 'DescribeFirewallResource', FWId: net.FWId });
    expect(TotalCount).toBe(2);
    expect(ResourceSet.map((r: { ResourceType: string; ResourceID: string }) => [r.ResourceType, r.ResourceID]).sort()).toEqual(
      [
        ['ulb', ULBId],
        ['unatgw', net.NATGWId],
      ].sort(),
    );
    expect((await call({ Action: 'DescribeFirewallResource', FWId: 'firewall-00000000' })).RetCode).toBe(4600);
  });

  it('GrantFirewall with ResourceType ulb binds an external balancer, which then holds the firewall; an internal one is refused', async () => {
    const net = await natWithHost(175);
    const { FWId } = await ok({ Action: 'CreateFirewall', Name: 'lb-fw', 'Rule.0': 'TCP|443|0.0.0.0/0|ACCEPT|HIGH' });
    const outer = (await ok({ Action: 'CreateULB', ULBName: 'outer', VPCId: net.VPCId, SubnetId: net.SubnetId, OuterMode: 'Yes' })).ULBId;
    const inner = (await ok({ Action: 'CreateULB', ULBName: 'inner', VPCId: net.VPCId, SubnetId: net.SubnetId, InnerMode: 'Yes' })).ULBId;
    await ok({ Action: 'GrantFirewall', FWId, ResourceType: 'ulb', ResourceId: outer });
    expect((await ok({ Action: 'DescribeULB', ULBId: outer })).DataSet[0].FirewallSet).toEqual([{ FirewallId: FWId, FirewallName: 'lb-fw' }]);
    expect((await ok({ Action: 'DescribeFirewall', ResourceType: 'ulb', ResourceId: outer })).DataSet.map((f: { FWId: string }) => f.FWId)).toEqual([FWId]);
    expect((await call({ Action: 'DeleteFirewall', FWId })).RetCode).toBe(4361);
    expect((await call({ Action: 'GrantFirewall', FWId, ResourceType: 'ulb', ResourceId: inner })).RetCode).not.toBe(0);
    expect((await ok({ Action: 'DescribeULB', ULBId: inner })).DataSet[0].FirewallSet).toEqual([]);
    // Moving the balancer to another firewall frees this one.
    await ok({ Action: 'GrantFirewall', FWId: net.FWId, ResourceType: 'ulb', ResourceId: outer });
    await ok({ Action: 'DeleteFirewall', FWId });
  });

  it('DisassociateFirewall unbinds a balancer from its firewall, and refuses a firewall it is not bound to', async () => {
    const net = await natWithHost(177);
    const { FWId } = await ok({ Action: 'CreateFirewall', Name: 'lb-fw-2', 'Rule.0': 'TCP|443|0.0.0.0/0|ACCEPT|HIGH' });
    const { ULBId } = await ok({ Action: 'CreateULB', ULBName: 'bound', VPCId: net.VPCId, SubnetId: net.SubnetId, OuterMode: 'Yes', FirewallId: FWId });
    expect((await call({ Action: 'DisassociateFirewall', FWId: net.FWId, ResourceType: 'ULB', ResourceId: ULBId })).RetCode).not.toBe(0);
    await ok({ Action: 'DisassociateFirewall', FWId, ResourceType: 'ULB', ResourceId: ULBId });
    expect((await ok({ Action: 'DescribeULB', ULBId })).DataSet[0].FirewallSet).toEqual([]);
    await ok({ Action: 'DeleteFirewall', FWId });
  });
});

describe('the simple balancer listing and EIP pay modes', () => {
  it('DescribeULBSimple lists balancers with their listener count and no listeners', async () => {
    const net = await natWithHost(176);
    const { ULBId } = await ok({ Action: 'CreateULB', ULBName: 'simple', VPCId: net.VPCId, SubnetId: net.SubnetId, OuterMode: 'Yes', Remark: 'r' });
    await ok({ Action: 'CreateVServer', ULBId, Protocol: 'TCP', FrontendPort: 80 });
    const { DataSet, TotalCount } = await ok({ Action: 'DescribeULBSimple', VPCId: net.VPCId });
    expect(TotalCount).toBe(1);
    expect(DataSet[0]).toMatchObject({
      ULBId,
      Name: 'simple',
      Remark: 'r',
      ULBType: 'OuterMode',
      ListenType: 'RequestProxy',
      IPVersion: 'IPv4',
      VServerCount: 1,
      VPCId: net.VPCId,
      SubnetId: net.SubnetId,
    });
    expect(DataSet[0]).not.toHaveProperty('VServerSet');
    expect((await call({ Action: 'DescribeULBSimple', ULBId: 'ulb-00000000' })).RetCode).toBe(4103);
  });

  it('GetEIPPayMode answers each EIPId.N with its pay mode, as SetEIPPayMode left it', async () => {
    const a = (await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 2, PayMode: 'Traffic' })).EIPSet[0].EIPId;
    const b = (await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 2 })).EIPSet[0].EIPId;
    await ok({ Action: 'SetEIPPayMode', EIPId: b, PayMode: 'Traffic', Bandwidth: 2 });
    expect((await ok({ Action: 'GetEIPPayMode', 'EIPId.0': a, 'EIPId.1': b })).EIPPayMode).toEqual([
      { EIPId: a, EIPPayMode: 'Traffic' },
      { EIPId: b, EIPPayMode: 'Traffic' },
    ]);
    expect((await call({ Action: 'GetEIPPayMode', 'EIPId.0': 'eip-00000000' })).RetCode).toBe(4210);
  });
});
