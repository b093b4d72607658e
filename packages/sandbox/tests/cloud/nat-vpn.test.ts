/** The cloud sandbox's NAT gateway and IPSec VPN write Actions, called as the API documentation describes them (signed form posts, `.N` lists). */
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

/** A VPC with one subnet, a security group and two free EIPs. */
async function network(cidr: string): Promise<{ VPCId: string; SubnetId: string; FWId: string; eips: string[] }> {
  const { VPCId } = await ok({ Action: 'CreateVPC', Name: 'nat-home', 'Network.0': `${cidr}.0.0/16` });
  const { SubnetId } = await ok({ Action: 'CreateSubnet', VPCId, Subnet: `${cidr}.1.0`, Netmask: 24 });
  const { FWId } = await ok({ Action: 'CreateFirewall', Name: 'nat-fw', 'Rule.0': 'TCP|22|0.0.0.0/0|ACCEPT|HIGH' });
  const eips: string[] = [];
  for (let i = 0; i < 2; i++) eips.push((await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 1 })).EIPSet[0].EIPId);
  return { VPCId, SubnetId, FWId, eips };
}

describe('elastic IPs by address', () => {
  it('DescribeEIP filters by IPs.N, and with EIPIds.N lists the EIPs either names', async () => {
    const [a, b] = [await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 1 }), await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 1 })].map((r) => r.EIPSet[0]);
    const byIp = await ok({ Action: 'DescribeEIP', 'IPs.0': a.EIPAddr[0].IP });
    expect(byIp.EIPSet.map((e: { EIPId: string }) => e.EIPId)).toEqual([a.EIPId]);
    const both = await ok({ Action: 'DescribeEIP', 'IPs.0': a.EIPAddr[0].IP, 'EIPIds.0': b.EIPId });
    expect(both.EIPSet.map((e: { EIPId: string }) => e.EIPId).sort()).toEqual([a.EIPId, b.EIPId].sort());
  });
});

describe('NAT gateways', () => {
  it('creates on EIPIds.N and SubnetworkIds.N, binds the EIPs, and UpdateNATGW renames it in place', async () => {
    const net = await network('10.150');
    const { NATGWId } = await ok({ Action: 'CreateNATGW', NATGWName: 'egress', 'EIPIds.0': net.eips[0], FirewallId: net.FWId, 'SubnetworkIds.0': net.SubnetId, VPCId: net.VPCId, Remark: 'r' });
    expect(NATGWId).toMatch(/^natgw-[0-9a-f]{8}$/);
    expect((await ok({ Action: 'DescribeEIP', 'EIPIds.0': net.eips[0] })).EIPSet[0]).toMatchObject({ Status: 'used', Resource: { ResourceType: 'natgw', ResourceID: NATGWId } });
    await ok({ Action: 'UpdateNATGW', NATGWId, NATGWName: 'egress-2', Tag: 'blue' });
    const { DataSet } = await ok({ Action: 'DescribeNATGW', 'NATGWIds.0': NATGWId });
    expect(DataSet).toEqual([
      expect.objectContaining({
        NATGWId,
        NATGWName: 'egress-2',
        Tag: 'blue',
        Remark: 'r',
        VPCId: net.VPCId,
        FirewallId: net.FWId,
        SubnetSet: [expect.objectContaining({ SubnetworkId: net.SubnetId })],
        PolicyId: [],
      }),
    ]);
    expect(DataSet[0].IPSet.map((i: { EIPId: string }) => i.EIPId)).toEqual([net.eips[0]]);
  });

  it('adds an EIP with BindEIP, refuses to unbind its last one (4235), and frees its EIPs and security group on delete', async () => {
    const net = await network('10.151');
    const { NATGWId } = await ok({ Action: 'CreateNATGW', NATGWName: 'egress', 'EIPIds.0': net.eips[0], FirewallId: net.FWId, VPCId: net.VPCId });
    expect((await call({ Action: 'DeleteFirewall', FWId: net.FWId })).RetCode).toBe(4361);
    expect((await call({ Action: 'UnBindEIP', EIPId: net.eips[0], ResourceType: 'natgw', ResourceId: NATGWId })).RetCode).toBe(4235);
    await ok({ Action: 'BindEIP', EIPId: net.eips[1], ResourceType: 'natgw', ResourceId: NATGWId });
    await ok({ Action: 'UnBindEIP', EIPId: net.eips[0], ResourceType: 'natgw', ResourceId: NATGWId });
    expect((await ok({ Action: 'DescribeNATGW', 'NATGWIds.0': NATGWId })).DataSet[0].IPSet.map((i: { EIPId: string }) => i.EIPId)).toEqual([net.eips[1]]);
    await ok({ Action: 'DeleteNATGW', NATGWId });
    expect((await ok({ Action: 'DescribeEIP', 'EIPIds.0': net.eips[1] })).EIPSet[0].Status).toBe('free');
    await ok({ Action: 'DeleteFirewall', FWId: net.FWId });
    expect((await call({ Action: 'DeleteNATGW', NATGWId })).RetCode).toBe(54002);
  });

  it('forwards a port with a policy, updates it whole, refuses a second policy for the same port and a gateway delete while it lives', async () => {
    const net = await network('10.152');
    const { NATGWId } = await ok({ Action: 'CreateNATGW', NATGWName: 'fwd', 'EIPIds.0': net.eips[0], FirewallId: net.FWId, 'SubnetworkIds.0': net.SubnetId, VPCId: net.VPCId });
    const rule = { NATGWId, Protocol: 'TCP', SrcEIPId: net.eips[0], SrcPort: '8080', DstIP: '10.152.1.5', DstPort: '80' };
    const { PolicyId } = await ok({ Action: 'CreateNATGWPolicy', ...rule, PolicyName: 'web' });
    expect((await call({ Action: 'CreateNATGWPolicy', ...rule })).RetCode).toBe(230);
    expect((await call({ Action: 'CreateNATGWPolicy', ...rule, SrcPort: '9090', DstIP: '10.99.0.1' })).Message).toContain('DstIP');
    await ok({ Action: 'UpdateNATGWPolicy', ...rule, PolicyId, SrcPort: '8000-8010', DstPort: '9000-9010', PolicyName: 'range' });
    const { DataSet } = await ok({ Action: 'DescribeNATGWPolicy', NATGWId });
    expect(DataSet).toEqual([expect.objectContaining({ PolicyId, PolicyName: 'range', Protocol: 'TCP', SrcPort: '8000-8010', DstPort: '9000-9010', SrcEIPId: net.eips[0] })]);
    expect((await ok({ Action: 'DescribeNATGW', 'NATGWIds.0': NATGWId })).DataSet[0].PolicyId).toEqual([PolicyId]);
    expect((await call({ Action: 'DeleteNATGW', NATGWId })).RetCode).toBe(5024);
    await ok({ Action: 'DeleteNATGWPolicy', NATGWId, PolicyId });
    await ok({ Action: 'DeleteNATGW', NATGWId });
  });
});

describe('IPSec VPN', () => {
  it('makes a gateway, a customer gateway and a tunnel; the tunnel reports its settings, the key in clear', async () => {
    const net = await network('10.153');
    const { VPNGatewayId } = await ok({ Action: 'CreateVPNGateway', VPCId: net.VPCId, VPNGatewayName: 'edge', Grade: 'Standard', EIPId: net.eips[0], ChargeType: 'Dynamic' });
    const { RemoteVPNGatewayId } = await ok({ Action: 'CreateRemoteVPNGateway', RemoteVPNGatewayName: 'office', RemoteVPNGatewayAddr: '203.0.113.9' });
    const tunnel = {
      VPNGatewayId,
      RemoteVPNGatewayId,
      VPCId: net.VPCId,
      VPNTunnelName: 't1',
      IKEVersion: 'IKE V1',
      IKEPreSharedKey: 'pa55-word',
      'IPSecLocalSubnetIds.0': net.SubnetId,
      'IPSecRemoteSubnets.0': '192.168.50.0/24',
    };
    expect((await call({ Action: 'CreateVPNTunnel', ...tunnel, IKEVersion: 'IKE V2' })).Message).toContain('IKELocalId');
    const { VPNTunnelId } = await ok({ Action: 'CreateVPNTunnel', ...tunnel });
    const seen = (await ok({ Action: 'DescribeVPNTunnel', 'VPNTunnelIds.0': VPNTunnelId })).DataSet[0];
    expect(seen).toMatchObject({
      VPNTunnelName: 't1',
      IKEData: { IKEVersion: 'IKE V1', IKEPreSharedKey: 'pa55-word', IKEDhGroup: '15', IKESALifetime: '86400' },
      IPSecData: { IPSecLocalSubnetIds: [net.SubnetId], IPSecPFSDhGroup: 'disable' },
    });
    expect((await ok({ Action: 'DescribeVPNGateway', 'VPNGatewayIds.0': VPNGatewayId })).DataSet[0]).toMatchObject({ EIPId: net.eips[0], Grade: 'Standard', VPCId: net.VPCId });
    expect((await ok({ Action: 'DescribeRemoteVPNGateway', 'RemoteVPNGatewayIds.0': RemoteVPNGatewayId })).DataSet[0].TunnelCount).toBe(1);
  });

  it('UpdateVPNTunnelAttribute changes the key and subnets, never the name; gateways with tunnels are not deleted, nor their EIP unbound (4238)', async () => {
    const net = await network('10.154');
    const { VPNGatewayId } = await ok({ Action: 'CreateVPNGateway', VPCId: net.VPCId, VPNGatewayName: 'edge', Grade: 'Standard' });
    const { RemoteVPNGatewayId } = await ok({ Action: 'CreateRemoteVPNGateway', RemoteVPNGatewayName: 'office', RemoteVPNGatewayAddr: '203.0.113.10' });
    const { VPNTunnelId } = await ok({
      Action: 'CreateVPNTunnel',
      ...{ VPNGatewayId, RemoteVPNGatewayId, VPCId: net.VPCId, VPNTunnelName: 't2', IKEVersion: 'IKE V1', IKEPreSharedKey: 'one' },
      ...{ 'IPSecLocalSubnetIds.0': net.SubnetId, 'IPSecRemoteSubnets.0': '192.168.51.0/24' },
    });
    await ok({
      Action: 'UpdateVPNTunnelAttribute',
      VPNTunnelId,
      IKEPreSharedKey: 'two',
      'IPSecRemoteSubnets.0': '192.168.52.0/24',
      'IPSecRemoteSubnets.1': '192.168.53.0/24',
      VPNTunnelName: 'ignored',
    });
    const seen = (await ok({ Action: 'DescribeVPNTunnel', 'VPNTunnelIds.0': VPNTunnelId })).DataSet[0];
    expect(seen).toMatchObject({ VPNTunnelName: 't2', IKEData: { IKEPreSharedKey: 'two' }, IPSecData: { IPSecRemoteSubnets: ['192.168.52.0/24', '192.168.53.0/24'] } });
    await ok({ Action: 'UpdateVPNGateway', VPNGatewayId, Grade: 'Enhanced' });
    expect((await call({ Action: 'DeleteVPNGateway', VPNGatewayId })).RetCode).toBe(4238);
    expect((await call({ Action: 'DeleteRemoteVPNGateway', RemoteVPNGatewayId })).RetCode).toBe(4238);
    const { EIPSet } = await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 1 });
    await ok({ Action: 'BindEIP', EIPId: EIPSet[0].EIPId, ResourceType: 'vpngw', ResourceId: VPNGatewayId });
    expect((await call({ Action: 'UnBindEIP', EIPId: EIPSet[0].EIPId, ResourceType: 'vpngw', ResourceId: VPNGatewayId })).RetCode).toBe(4238);
    await ok({ Action: 'DeleteVPNTunnel', VPNTunnelId });
    await ok({ Action: 'DeleteVPNGateway', VPNGatewayId });
    await ok({ Action: 'DeleteRemoteVPNGateway', RemoteVPNGatewayId });
    expect((await ok({ Action: 'DescribeVPNGateway', 'VPNGatewayIds.0': VPNGatewayId })).DataSet).toEqual([]);
  });
});
