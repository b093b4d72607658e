/** Seed data for elastic IPs, VPCs, subnets, firewalls, NAT gateways and IPSec VPN (gateways, customer gateways, tunnels). */
import { DEFAULT_PROJECT, publicIp, sid, unix, type Rec } from './seed-util.js';

/** The VPC id seeded under a short name in a region (other seeds point at these). */
export function vpcId(region: string, name: string): string {
  return sid('uvnet', `${region}/${name}`);
}

/** The subnet id seeded under a short name in a region. */
export function subnetId(region: string, name: string): string {
  return sid('subnet', `${region}/${name}`);
}

const VPCS: [string, string, string[], string][] = [
  ['cn-bj2', 'prod', ['10.0.0.0/16', '10.1.0.0/16'], 'prod'],
  ['cn-bj2', 'staging', ['172.16.0.0/16'], 'staging'],
  ['cn-bj2', 'shared-services', ['192.168.0.0/20'], 'Default'],
  ['cn-sh2', 'prod', ['10.8.0.0/16'], 'prod'],
  ['cn-sh2', 'dr', ['10.9.0.0/16'], 'dr'],
];

/** VPCs with their address ranges. */
export function seedVpcs(): Rec[] {
  return VPCS.map(([region, name, networks, tag], i) => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    VPCId: vpcId(region, name),
    Name: name,
    Network: networks,
    NetworkInfo: networks.map((n) => ({ Network: n, SubnetCount: 2 })),
    SubnetCount: 2 * networks.length,
    Tag: tag,
    CreateTime: unix(`2023-1${i % 3}-01T00:00:00Z`),
    UpdateTime: unix(`2024-0${i + 1}-15T00:00:00Z`),
    IPv6Network: '',
    OperatorName: '',
    VPCType: 'Normal',
  }));
}

const EIPS: [string, string, string, number, string, string][] = [
  // region, name, pay mode, bandwidth, status, operator
  ['cn-bj2', 'web-lb-ip', 'Bandwidth', 20, 'used', 'Bgp'],
  ['cn-bj2', 'nat-egress-1', 'Traffic', 50, 'used', 'Bgp'],
  ['cn-bj2', 'nat-egress-2', 'ShareBandwidth', 0, 'used', 'Bgp'],
  ['cn-bj2', 'spare-ip', 'Bandwidth', 1, 'free', 'Bgp'],
  ['cn-bj2', 'vpn-gw-ip', 'Bandwidth', 10, 'used', 'Bgp'],
  ['cn-bj2', 'frozen-ip', 'Traffic', 5, 'freeze', 'International'],
  ['cn-sh2', 'web-sh-ip', 'Bandwidth', 10, 'used', 'Bgp'],
  ['cn-sh2', 'vpn-sh-ip', 'Bandwidth', 10, 'used', 'Bgp'],
];

/** The address of a seeded EIP (NAT and VPN seeds reuse them). */
export function eipAddress(name: string): string {
  return publicIp(`eip/${name}`);
}

/** Elastic IPs, one of them in a shared bandwidth package. */
export function seedEips(): Rec[] {
  return EIPS.map(([region, name, payMode, bandwidth, status, operator], i) => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    EIPId: sid('eip', name),
    Name: name,
    Remark: status === 'free' ? 'kept for failover' : '',
    Tag: name.split('-')[0],
    Status: status,
    Bandwidth: bandwidth,
    BandwidthType: payMode === 'ShareBandwidth' ? 1 : 0,
    ChargeType: i % 2 === 0 ? 'Month' : 'Dynamic',
    PayMode: payMode,
    CreateTime: unix(`2024-0${(i % 9) + 1}-02T06:00:00Z`),
    ExpireTime: unix(`2026-0${(i % 9) + 1}-02T06:00:00Z`),
    Expire: false,
    Weight: 50,
    EIPAddr: [{ IP: eipAddress(name), OperatorName: operator }],
    ShareBandwidthSet:
      payMode === 'ShareBandwidth'
        ? { ShareBandwidthId: sid('bwshare', 'egress'), ShareBandwidthName: 'egress-pool', ShareBandwidth: 200 }
        : { ShareBandwidthId: '', ShareBandwidthName: '', ShareBandwidth: 0 },
    Resource: status === 'used' ? boundTo(region, name) : {},
  }));
}

/** What each used EIP is bound to: resource type, and the name of the seeded gateway or balancer. */
const BINDINGS: Record<string, [type: string, name: string]> = {
  'web-lb-ip': ['ulb', 'web-lb'],
  'nat-egress-1': ['natgw', 'prod-nat'],
  'nat-egress-2': ['natgw', 'prod-nat'],
  'vpn-gw-ip': ['vpngw', 'office-vpn'],
  'web-sh-ip': ['ulb', 'web-sh-lb'],
  'vpn-sh-ip': ['vpngw', 'dr-vpn'],
};

/**
 * What a used EIP is bound to, as DescribeEIP reports it (UnetEIPResourceSet): the resource's id
 * under the key `ResourceID`, spelt as the API spells it, with ResourceType and ResourceName.
 */
function boundTo(region: string, eip: string): Rec {
  const [type, name] = BINDINGS[eip] ?? ['uhost', eip];
  return { ResourceType: type, ResourceID: sid(type, `${region}/${name}`), ResourceName: name, EIPId: sid('eip', eip) };
}

/** NAT gateways, each with its subnets and egress addresses. */
export function seedNatGateways(): Rec[] {
  const gw = (region: string, name: string, vpc: string, subnets: string[], eips: string[], i: number): Rec => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    NATGWId: sid('natgw', `${region}/${name}`),
    NATGWName: name,
    Remark: `egress for ${vpc}`,
    Tag: vpc,
    VPCId: vpcId(region, vpc),
    VPCName: vpc,
    FirewallId: sid('firewall', `${region}/nat`),
    CreateTime: unix(`2024-0${i + 2}-11T09:30:00Z`),
    IsSnatpoolEnabled: 'enable',
    PolicyId: [],
    SubnetSet: subnets.map((s, j) => ({ SubnetworkId: subnetId(region, s), Subnet: `10.${i}.${j}.0/24`, SubnetName: s })),
    IPSet: eips.map((e) => ({ EIPId: sid('eip', e), Bandwidth: 50, BandwidthType: 'Bandwidth', Weight: 50, IPResInfo: [{ EIP: eipAddress(e), OperatorName: 'Bgp' }] })),
  });
  return [
    gw('cn-bj2', 'prod-nat', 'prod', ['prod-a', 'prod-b'], ['nat-egress-1', 'nat-egress-2'], 0),
    gw('cn-bj2', 'staging-nat', 'staging', ['staging-a'], [], 1),
    gw('cn-sh2', 'prod-sh-nat', 'prod', ['prod-a'], ['web-sh-ip'], 2),
  ];
}

/** VPN gateways at the edge of the VPCs. */
export function seedVpnGateways(): Rec[] {
  const gw = (region: string, name: string, vpc: string, grade: string, eip: string, i: number): Rec => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    VPNGatewayId: sid('vpngw', `${region}/${name}`),
    VPNGatewayName: name,
    Grade: grade,
    Remark: `site-to-site for ${vpc}`,
    Tag: vpc,
    ChargeType: 'Month',
    AutoRenew: i === 0 ? 'Yes' : 'No',
    VPCId: vpcId(region, vpc),
    VPCName: vpc,
    EIP: eipAddress(eip),
    EIPId: sid('eip', eip),
    EIPType: 'Bgp',
    CreateTime: unix(`2024-0${i + 3}-01T00:00:00Z`),
    ExpireTime: unix(`2026-0${i + 3}-01T00:00:00Z`),
  });
  return [gw('cn-bj2', 'office-vpn', 'prod', 'Standard', 'vpn-gw-ip', 0), gw('cn-bj2', 'partner-vpn', 'staging', 'Enhanced', 'spare-ip', 1), gw('cn-sh2', 'dr-vpn', 'dr', 'Standard', 'vpn-sh-ip', 2)];
}

/** Customer (remote) gateways: the other ends of the tunnels. */
export function seedRemoteGateways(): Rec[] {
  const rg = (region: string, name: string, addr: string, tag: string, i: number): Rec => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    RemoteVPNGatewayId: sid('remotevpngw', `${region}/${name}`),
    RemoteVPNGatewayName: name,
    RemoteVPNGatewayAddr: addr,
    Remark: `${name} edge router`,
    Tag: tag,
    CreateTime: unix(`2024-0${i + 3}-02T00:00:00Z`),
    TunnelCount: 1,
    ActiveTunnels: [],
  });
  return [
    rg('cn-bj2', 'beijing-office', '203.0.113.10', 'office', 0),
    rg('cn-bj2', 'partner-dc', '198.51.100.20', 'partner', 1),
    rg('cn-bj2', 'lab', '192.0.2.30', 'Default', 2),
    rg('cn-sh2', 'shanghai-office', '203.0.113.40', 'office', 3),
  ];
}

/** IPSec tunnels between VPN gateways and customer gateways. */
export function seedVpnTunnels(): Rec[] {
  const tunnel = (region: string, name: string, gw: string, remote: string, vpc: string, ikeVersion: string, i: number): Rec => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    VPNTunnelId: sid('vpntunnel', `${region}/${name}`),
    VPNTunnelName: name,
    Remark: `${gw} to ${remote}`,
    Tag: remote.split('-')[0],
    VPCId: vpcId(region, vpc),
    VPCName: vpc,
    VPNGatewayId: sid('vpngw', `${region}/${gw}`),
    VPNGatewayName: gw,
    RemoteVPNGatewayId: sid('remotevpngw', `${region}/${remote}`),
    RemoteVPNGatewayName: remote,
    CreateTime: unix(`2024-0${i + 4}-05T00:00:00Z`),
    IKEData: {
      IKEVersion: ikeVersion,
      IKEPreSharedKey: `psk-${sid('k', name).slice(2)}`,
      IKEExchangeMode: 'main',
      IKEEncryptionAlgorithm: 'aes128',
      IKEAuthenticationAlgorithm: 'sha1',
      IKELocalId: 'auto',
      IKERemoteId: 'auto',
      IKEDhGroup: '15',
      IKESALifetime: '86400',
    },
    IPSecData: {
      IPSecLocalSubnetIds: [subnetId(region, `${vpc}-a`)],
      IPSecRemoteSubnets: [`192.168.${10 + i}.0/24`],
      IPSecProtocol: 'esp',
      IPSecEncryptionAlgorithm: 'aes128',
      IPSecAuthenticationAlgorithm: 'sha1',
      IPSecPFSDhGroup: i === 0 ? 'Disable' : '15',
      IPSecSALifetime: '3600',
      IPSecSALifetimeBytes: i === 1 ? '1048576' : '',
    },
  });
  return [
    tunnel('cn-bj2', 'office-tunnel', 'office-vpn', 'beijing-office', 'prod', 'IKE V2', 0),
    tunnel('cn-bj2', 'partner-tunnel', 'partner-vpn', 'partner-dc', 'staging', 'IKE V1', 1),
    tunnel('cn-bj2', 'lab-tunnel', 'office-vpn', 'lab', 'prod', 'IKE V2', 2),
    tunnel('cn-sh2', 'shanghai-tunnel', 'dr-vpn', 'shanghai-office', 'dr', 'IKE V2', 3),
  ];
}

/**
 * Subnets: two /24s at the start of each seeded VPC range, named `<vpc>-a`, `<vpc>-b`, then
 * `-c`, `-d` in a second range (hosts, balancers and NAT gateways of the seeds sit in them).
 */
export function seedSubnets(): Rec[] {
  return VPCS.flatMap(([region, vpc, networks, tag], i) =>
    networks.flatMap((network, n) =>
      [0, 1].map((k) => {
        const name = `${vpc}-${'abcd'[n * 2 + k]}`;
        const [a, b] = network.split('.');
        return {
          Region: region,
          ProjectId: DEFAULT_PROJECT,
          SubnetId: subnetId(region, name),
          SubnetName: name,
          Subnet: `${a}.${b}.${k}.0`,
          Netmask: '24',
          Gateway: `${a}.${b}.${k}.1`,
          VPCId: vpcId(region, vpc),
          VPCName: vpc,
          Tag: tag,
          Remark: '',
          Zone: '',
          SubnetType: 2,
          CreateTime: unix(`2023-1${i % 3}-02T00:00:00Z`),
          HasNATGW: false,
          IPv6Network: '',
        };
      }),
    ),
  );
}

/** The recommended firewalls every project has (they cannot be deleted), and one user-defined. */
export function seedFirewalls(): Rec[] {
  const fw = (region: string, name: string, type: string, rules: string[], i: number): Rec => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    FWId: sid('firewall', `${region}/${name}`),
    GroupId: String(10000 + i),
    Name: name,
    Tag: 'Default',
    Remark: type === 'user defined' ? 'ssh from the office' : 'default firewall',
    Type: type,
    ResourceCount: 0,
    CreateTime: unix(`2023-0${(i % 9) + 1}-01T00:00:00Z`),
    Rule: rules.map((r) => {
      const [ProtocolType, DstPort, SrcIP, RuleAction, Priority, Remark = ''] = r.split('|');
      return { ProtocolType, DstPort, SrcIP, RuleAction, Priority, Remark };
    }),
  });
  return ['cn-bj2', 'cn-sh2', 'hk'].flatMap((region, i) => [
    fw(region, 'Web服务器推荐', 'recommend web', ['TCP|22|0.0.0.0/0|ACCEPT|HIGH', 'TCP|80|0.0.0.0/0|ACCEPT|HIGH', 'TCP|443|0.0.0.0/0|ACCEPT|HIGH', 'ICMP||0.0.0.0/0|ACCEPT|HIGH'], i * 3),
    fw(region, '非Web服务器推荐', 'recommend non web', ['TCP|22|0.0.0.0/0|ACCEPT|HIGH', 'ICMP||0.0.0.0/0|ACCEPT|HIGH'], i * 3 + 1),
    ...(region === 'cn-bj2' ? [fw(region, 'office-ssh', 'user defined', ['TCP|22|203.0.113.0/24|ACCEPT|HIGH|office'], 2)] : []),
  ]);
}
