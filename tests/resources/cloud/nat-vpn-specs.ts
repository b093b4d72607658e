/** Lifecycle specs of the cloud NAT and VPN types (NAT gateway and rule, VPN gateway, customer gateway, connection). */
import { expect } from 'vitest';
import type { CloudClient } from '../../../src/providers/cloud/index.js';
import { eip } from '../../../src/resources/cloud/eip.js';
import { natGateway, type NatGatewayInputs } from '../../../src/resources/cloud/nat-gateway.js';
import { natGatewayRule } from '../../../src/resources/cloud/nat-gateway-rule.js';
import { securityGroup } from '../../../src/resources/cloud/security-group.js';
import { subnet } from '../../../src/resources/cloud/subnet.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { vpnConnection } from '../../../src/resources/cloud/vpn-connection.js';
import { vpnCustomerGateway } from '../../../src/resources/cloud/vpn-customer-gateway.js';
import { vpnGateway } from '../../../src/resources/cloud/vpn-gateway.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext } from '../../support/lifecycle.js';

/** The ids an Action lists, as the API reports them to anyone. */
async function listed(world: LifecycleWorld, action: string, params: Record<string, unknown>, idOf: (r: Record<string, any>) => string): Promise<string[]> {
  const client = (await world.ctx('census')).client as CloudClient;
  return (await client.pageAll<Record<string, any>>(action, params as never, 'DataSet')).map(idOf);
}

/** Two VPCs (the second for a replacement), subnets, a security group and free EIPs. */
interface Net {
  vpcs: [string, string];
  subnets: [string, string, string];
  firewall: string;
  eips: string[];
  /** A host in the first subnet, for the white list. */
  host: string;
}

async function network(ctx: MakeContext, octet: number, eips: number): Promise<Net> {
  const c = await ctx('net-setup');
  const home = (await vpc.create(c, { name: 'nat-home', cidrBlocks: [`10.${octet}.0.0/16`] })).id;
  const other = (await vpc.create(c, { name: 'nat-other', cidrBlocks: [`10.${octet + 1}.0.0/16`] })).id;
  const sub = async (vpcId: string, cidrBlock: string) => (await subnet.create(c, { vpcId, cidrBlock })).id;
  const subnets: Net['subnets'] = [await sub(home, `10.${octet}.1.0/24`), await sub(home, `10.${octet}.2.0/24`), await sub(other, `10.${octet + 1}.1.0/24`)];
  const firewall = (await securityGroup.create(c, { name: 'nat-fw', rules: [{ protocol: 'tcp', port: '22' }] })).id;
  const ips: string[] = [];
  for (let i = 0; i < eips; i++) ips.push((await eip.create(c, { name: `nat-ip-${i}`, internetType: 'bgp', bandwidth: 1 })).id);
  const client = c.client as CloudClient;
  const image = (await client.call<{ ImageSet: Array<{ ImageId: string }> }>('DescribeImage', { Zone: 'cn-bj2-02', ImageType: 'Base' })).ImageSet[0].ImageId;
  const boot = { IsBoot: 'True', Type: 'CLOUD_SSD', Size: 20 };
  const host = {
    Zone: 'cn-bj2-02',
    VPCId: home,
    SubnetId: subnets[0],
    ImageId: image,
    Name: 'nat-wl-host',
    LoginMode: 'Password',
    Password: 'U2FuZGJveC1wYXNzLTE=',
    CPU: 1,
    Memory: 1024,
    Disks: [boot],
  };
  const made = await client.call<{ UHostIds: string[] }>('CreateUHostInstance', host);
  return { vpcs: [home, other], subnets, firewall, eips: ips, host: made.UHostIds[0] };
}

const nat = (n: Net, over: Partial<NatGatewayInputs>): NatGatewayInputs => ({
  vpcId: n.vpcs[0],
  subnetIds: [n.subnets[0]],
  eipIds: [n.eips[0]],
  securityGroupId: n.firewall,
  name: 'suite-nat',
  ...over,
});

/** The lifecycle spec of NatGateway: name, tag, remark, subnets, EIPs and white list change in place; the VPC replaces it. */
export const natGatewaySpec = lifecycleSpec({
  type: natGateway,
  setup: (ctx) => network(ctx, 120, 4),
  create: (n: Net) => nat(n, {}),
  update: (n) => nat(n, { name: 'suite-nat-2', tag: 'blue', remark: 'egress', subnetIds: [n.subnets[0], n.subnets[1]], eipIds: [n.eips[1]], whiteListEnabled: true, whiteList: [n.host] }),
  replace: (n) => nat(n, { vpcId: n.vpcs[1], subnetIds: [n.subnets[2]], eipIds: [n.eips[3]] }),
  another: (n) => nat(n, { name: 'suite-nat-other', subnetIds: [n.subnets[1]], eipIds: [n.eips[2]] }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ vpcId: inputs.vpcId, name: inputs.name, tag: inputs.tag ?? 'Default', remark: inputs.remark ?? '', whiteListEnabled: inputs.whiteListEnabled ?? false });
    expect([...(outputs.subnetIds as string[])].sort()).toEqual([...inputs.subnetIds].sort());
    expect(outputs.eipIds).toEqual(inputs.eipIds);
    expect(outputs.whiteList).toEqual(inputs.whiteList ?? []);
  },
  badImportId: 'uvnet-1a2b3c4d',
  ghostId: () => 'natgw-00000000',
  createCall: 'Action=CreateNATGW',
  census: (world) => listed(world, 'DescribeNATGW', {}, (g) => g.NATGWId),
});

/** Two NAT gateways (the second for a replacement), each on its own EIP. */
interface Gateways {
  gateways: [string, string];
  eips: [string, string];
}

/** The lifecycle spec of NatGatewayRule: every field but the gateway changes in place. */
export const natGatewayRuleSpec = lifecycleSpec({
  type: natGatewayRule,
  async setup(ctx): Promise<Gateways> {
    const n = await network(ctx, 130, 2);
    const c = await ctx('rule-setup');
    const first = (await natGateway.create(c, nat(n, { name: 'rule-nat-1' }))).id;
    const second = (await natGateway.create(c, nat(n, { name: 'rule-nat-2', eipIds: [n.eips[1]] }))).id;
    return { gateways: [first, second], eips: [n.eips[0], n.eips[1]] };
  },
  create: (g: Gateways) => ({ natGatewayId: g.gateways[0], protocol: 'tcp' as const, srcEipId: g.eips[0], srcPort: '8080', dstIp: '10.130.1.10', dstPort: '80', name: 'web' }),
  update: (g) => ({ natGatewayId: g.gateways[0], protocol: 'tcp' as const, srcEipId: g.eips[0], srcPort: '8080', dstIp: '10.130.1.11', dstPort: '8080', name: 'web-2' }),
  replace: (g) => ({ natGatewayId: g.gateways[1], protocol: 'tcp' as const, srcEipId: g.eips[1], srcPort: '8080', dstIp: '10.130.1.10', dstPort: '80', name: 'web' }),
  another: (g) => ({ natGatewayId: g.gateways[0], protocol: 'udp' as const, srcEipId: g.eips[0], srcPort: '5000-5010', dstIp: '10.130.1.12', dstPort: '6000-6010' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      natGatewayId: inputs.natGatewayId,
      protocol: inputs.protocol,
      srcEipId: inputs.srcEipId,
      srcPort: inputs.srcPort,
      dstIp: inputs.dstIp,
      dstPort: inputs.dstPort,
      name: inputs.name ?? '',
    });
  },
  badImportId: 'natgwpolicy-1a2b3c4d',
  ghostId: (g) => `${g.gateways[0]}:natgwpolicy-00000000`,
  createCall: 'Action=CreateNATGWPolicy',
  async census(world, g) {
    const ids: string[] = [];
    for (const gw of g.gateways) ids.push(...(await listed(world, 'DescribeNATGWPolicy', { NATGWId: gw }, (p) => `${gw}:${String(p.PolicyId)}`)));
    return ids;
  },
});

/** The lifecycle spec of VpnGateway: the grade and the EIP change in place; a new name replaces it. */
export const vpnGatewaySpec = lifecycleSpec({
  type: vpnGateway,
  setup: (ctx) => network(ctx, 140, 4),
  create: (n: Net) => ({ vpcId: n.vpcs[0], eipId: n.eips[0], grade: 'standard' as const, name: 'suite-vpngw' }),
  update: (n) => ({ vpcId: n.vpcs[0], eipId: n.eips[1], grade: 'enhanced' as const, name: 'suite-vpngw' }),
  replace: (n) => ({ vpcId: n.vpcs[0], eipId: n.eips[3], grade: 'standard' as const, name: 'suite-vpngw-renamed' }),
  another: (n) => ({ vpcId: n.vpcs[0], eipId: n.eips[2], grade: 'standard' as const, name: 'suite-vpngw-other' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ vpcId: inputs.vpcId, eipId: inputs.eipId, grade: inputs.grade, name: inputs.name, chargeType: 'month' });
  },
  badImportId: 'vpntunnel-1a2b3c4d',
  ghostId: () => 'vpngw-00000000',
  createCall: 'Action=CreateVPNGateway',
  census: (world) => listed(world, 'DescribeVPNGateway', {}, (g) => g.VPNGatewayId),
});

/** The lifecycle spec of VpnCustomerGateway: nothing changes in place (writing out the defaults is no change). */
export const vpnCustomerGatewaySpec = lifecycleSpec({
  type: vpnCustomerGateway,
  create: () => ({ ipAddress: '198.51.100.7', name: 'suite-cgw' }),
  update: () => ({ ipAddress: '198.51.100.7', name: 'suite-cgw', tag: 'Default', remark: '' }),
  replace: () => ({ ipAddress: '198.51.100.9', name: 'suite-cgw' }),
  another: () => ({ ipAddress: '198.51.100.8', name: 'suite-cgw-other' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ ipAddress: inputs.ipAddress, name: inputs.name, tag: inputs.tag ?? 'Default', remark: inputs.remark ?? '' });
  },
  badImportId: 'vpngw-1a2b3c4d',
  ghostId: () => 'remotevpngw-00000000',
  createCall: 'Action=CreateRemoteVPNGateway',
  census: (world) => listed(world, 'DescribeRemoteVPNGateway', {}, (g) => g.RemoteVPNGatewayId),
});

/** A VPN gateway and a customer gateway to run tunnels between. */
interface Ends {
  vpcId: string;
  subnetId: string;
  gateway: string;
  customer: string;
}

const tunnel = (e: Ends) => ({
  vpnGatewayId: e.gateway,
  customerGatewayId: e.customer,
  vpcId: e.vpcId,
  name: 'suite-tunnel',
  preSharedKey: 'first-key',
  ipsecLocalSubnetIds: [e.subnetId],
  ipsecRemoteSubnets: ['192.168.60.0/24'],
});

/** The lifecycle spec of VpnConnection: the key and IKE/IPSec settings change in place; a new name replaces it. */
export const vpnConnectionSpec = lifecycleSpec({
  type: vpnConnection,
  async setup(ctx): Promise<Ends> {
    const n = await network(ctx, 150, 1);
    const c = await ctx('tunnel-setup');
    const gateway = (await vpnGateway.create(c, { vpcId: n.vpcs[0], eipId: n.eips[0], grade: 'standard' })).id;
    const customer = (await vpnCustomerGateway.create(c, { ipAddress: '203.0.113.77' })).id;
    return { vpcId: n.vpcs[0], subnetId: n.subnets[0], gateway, customer };
  },
  create: (e: Ends) => tunnel(e),
  update: (e) => ({ ...tunnel(e), preSharedKey: 'second-key', ikeEncryptionAlgorithm: 'aes256' as const, ipsecPfsDhGroup: '14' as const, ipsecRemoteSubnets: ['192.168.60.0/24', '192.168.61.0/24'] }),
  replace: (e) => ({ ...tunnel(e), name: 'suite-tunnel-renamed' }),
  another: (e) => ({ ...tunnel(e), name: 'suite-tunnel-other', ikeVersion: 'ikev2' as const, ikeLocalId: '10.150.1.1', ikeRemoteId: '203.0.113.77' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({
      name: inputs.name,
      preSharedKey: inputs.preSharedKey,
      ikeVersion: inputs.ikeVersion ?? 'ikev1',
      ikeEncryptionAlgorithm: inputs.ikeEncryptionAlgorithm ?? 'aes128',
      ipsecPfsDhGroup: inputs.ipsecPfsDhGroup ?? 'disable',
      ipsecRemoteSubnets: inputs.ipsecRemoteSubnets,
    });
  },
  badImportId: 'vpngw-1a2b3c4d',
  ghostId: () => 'vpntunnel-00000000',
  createCall: 'Action=CreateVPNTunnel',
  census: (world) => listed(world, 'DescribeVPNTunnel', {}, (t) => t.VPNTunnelId),
});

/** Every NAT and VPN type's spec. */
export const natVpnSpecs = [natGatewaySpec, natGatewayRuleSpec, vpnGatewaySpec, vpnCustomerGatewaySpec, vpnConnectionSpec];
