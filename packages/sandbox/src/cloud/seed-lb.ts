/** Seed data for load balancers: balancers, listeners (VServers) with backends and rules, certificates. */
import { eipAddress, subnetId, vpcId } from './seed-network.js';
import { DEFAULT_PROJECT, privateIp, sid, unix, type Rec } from './seed-util.js';

/** The id of a seeded load balancer. */
export function lbId(region: string, name: string): string {
  return sid('ulb', `${region}/${name}`);
}

/** The id of a seeded listener. */
export function listenerId(lb: string, name: string): string {
  return sid('vserver', `${lb}/${name}`);
}

function backend(region: string, vpc: string, host: string, port: number, status: number): Rec {
  return {
    BackendId: sid('backend', `${host}:${port}`),
    ResourceId: sid('uhost', host),
    ResourceName: host,
    ResourceType: 'UHost',
    Port: port,
    PrivateIP: privateIp(host),
    Status: status,
    Enabled: 1,
    IsBackup: 0,
    Weight: 1,
    SubnetId: subnetId(region, `${vpc}-a`),
    VPCId: vpcId(region, vpc),
  };
}

function policy(vserver: string, type: string, match: string, priority: number, backends: Rec[]): Rec {
  return {
    PolicyId: sid('policy', `${vserver}/${type}/${match}`),
    Type: type,
    Match: match,
    PolicyType: type === 'Default' ? 'Default' : 'Custom',
    PolicyPriority: priority,
    DomainMatchMode: 'Regular',
    VServerId: vserver,
    TotalCount: backends.length,
    BackendSet: backends,
  };
}

interface ListenerSpec {
  name: string;
  protocol: string;
  port: number;
  method: string;
  persistence: string;
  monitor: string;
  status: number;
  backends: [string, number, number][];
  rules?: [string, string][];
}

function listener(region: string, vpc: string, lb: string, spec: ListenerSpec, sslIds: string[]): Rec {
  const id = listenerId(lb, spec.name);
  const backends = spec.backends.map(([host, port, status]) => backend(region, vpc, host, port, status));
  return {
    VServerId: id,
    VServerName: spec.name,
    ULBId: lb,
    Protocol: spec.protocol,
    ListenType: 'RequestProxy',
    FrontendPort: spec.port,
    ForwardPort: 0,
    ClientTimeout: 60,
    Method: spec.method,
    PersistenceType: spec.persistence,
    PersistenceInfo: spec.persistence === 'UserDefined' ? 'SESSIONID' : '',
    MonitorType: spec.monitor,
    Domain: spec.monitor === 'Path' ? 'www.example.com' : '',
    Path: spec.monitor === 'Path' ? '/healthz' : '',
    RequestMsg: '',
    ResponseMsg: '',
    Status: spec.status,
    BackendSet: backends,
    PolicySet: (spec.rules ?? []).map(([type, match], i) => policy(id, type, match, i + 1, backends.slice(0, 1))),
    SSLSet: spec.protocol === 'HTTPS' ? sslIds.map((s) => ({ SSLId: s, SSLName: 'www-example-com' })) : [],
  };
}

const WEB_LISTENERS: ListenerSpec[] = [
  {
    name: 'http',
    protocol: 'HTTP',
    port: 80,
    method: 'Roundrobin',
    persistence: 'None',
    monitor: 'Port',
    status: 0,
    backends: [
      ['web-1', 8080, 0],
      ['web-2', 8080, 0],
    ],
  },
  {
    name: 'https',
    protocol: 'HTTPS',
    port: 443,
    method: 'Roundrobin',
    persistence: 'ServerInsert',
    monitor: 'Path',
    status: 1,
    backends: [
      ['web-1', 8443, 0],
      ['web-2', 8443, 1],
      ['api-1', 8443, 0],
    ],
    rules: [
      ['Domain', 'api.example.com'],
      ['Path', '/static/'],
      ['Path', '/images/'],
      ['Default', ''],
    ],
  },
  { name: 'admin', protocol: 'HTTP', port: 8080, method: 'Source', persistence: 'UserDefined', monitor: 'Port', status: 2, backends: [['api-1', 9000, 1]] },
];

/** Load balancers, each holding its listeners (VServerSet) as the API returns them. */
export function seedLbs(): Rec[] {
  const ssl = [sid('ssl', 'www-example-com')];
  const lb = (region: string, name: string, vpc: string, outer: boolean, eip: string | undefined, listeners: ListenerSpec[], i: number): Rec => {
    const id = lbId(region, name);
    return {
      Region: region,
      ProjectId: DEFAULT_PROJECT,
      ULBId: id,
      Name: name,
      ULBName: name,
      ULBType: outer ? 'OuterMode' : 'InnerMode',
      Tag: vpc,
      Remark: `${name} (${outer ? 'internet' : 'internal'})`,
      VPCId: vpcId(region, vpc),
      SubnetId: subnetId(region, `${vpc}-a`),
      PrivateIP: privateIp(`ulb/${name}`),
      CreateTime: unix(`2024-0${i + 1}-20T10:00:00Z`),
      ExpireTime: unix(`2026-0${i + 1}-20T10:00:00Z`),
      Bandwidth: outer ? 20 : 0,
      BandwidthType: 0,
      IPSet: eip ? [{ EIP: eipAddress(eip), EIPId: sid('eip', eip), OperatorName: 'Bgp', Bandwidth: 20, BandwidthType: 0 }] : [],
      VServerSet: listeners.map((l) => listener(region, vpc, id, l, ssl)),
      FirewallSet: outer ? [{ FirewallId: sid('firewall', `${region}/web`), FirewallName: 'web' }] : [],
      ListenType: 'RequestProxy',
      IPVersion: 'IPv4',
    };
  };
  return [
    lb('cn-bj2', 'web-lb', 'prod', true, 'web-lb-ip', WEB_LISTENERS, 0),
    lb('cn-bj2', 'internal-api-lb', 'prod', false, undefined, [WEB_LISTENERS[0]], 1),
    lb('cn-bj2', 'staging-lb', 'staging', false, undefined, [], 2),
    lb('cn-sh2', 'web-sh-lb', 'prod', true, 'web-sh-ip', [WEB_LISTENERS[0]], 3),
  ];
}

/** TLS certificates uploaded to the load balancer service. */
export function seedSsls(): Rec[] {
  const cert = (region: string, name: string, domains: string, i: number): Rec => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    SSLId: sid('ssl', name),
    SSLName: name,
    SSLType: 'Pem',
    SSLContent: '-----BEGIN CERTIFICATE-----\nMIIB(sandbox)\n-----END CERTIFICATE-----',
    CreateTime: unix(`2024-0${i + 1}-01T00:00:00Z`),
    HashValue: sid('md5', name).slice(4),
    Domains: domains,
    NotBefore: unix(`2024-0${i + 1}-01T00:00:00Z`),
    NotAfter: unix(`2025-0${i + 1}-01T00:00:00Z`),
    SSLSource: 0,
    USSLId: '',
    BindedTargetSet: [],
  });
  return [
    cert('cn-bj2', 'www-example-com', 'www.example.com,example.com', 0),
    cert('cn-bj2', 'api-example-com', 'api.example.com', 1),
    cert('cn-bj2', 'wildcard-example-net', '*.example.net', 2),
    cert('cn-sh2', 'www-example-com-sh', 'www.example.com', 3),
  ];
}
