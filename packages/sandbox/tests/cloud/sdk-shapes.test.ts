/**
 * The cloud sandbox answers in the shapes the vendor's SDK declares. sdk-response-shapes.json
 * holds, for every Action the sandbox serves that the SDK declares, the response's field names
 * and JSON types; one walk through the API (network, hosts, disks, NAT, balancers, VPN, the
 * read-only listings) records every reply, and each is checked against its Action's shape. A new
 * Action the sandbox serves must be in the table or in its notInSdk list, and a declared shape
 * with fields must be seen answered, so neither can be skipped.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudActionNames, cloudApi } from '../../src/cloud/index.js';
import { startSandbox, type Sandbox } from '../../src/server.js';
import { signedCloudCall } from '../support/cloud-api.js';

/** A field's declared JSON type: a scalar, a list of one shape, or an object of named fields. */
type Shape = 'string' | 'number' | 'boolean' | Shape[] | { [field: string]: Shape };

const table = JSON.parse(readFileSync(new URL('./sdk-response-shapes.json', import.meta.url), 'utf8')) as { notInSdk: string[]; responses: Record<string, Record<string, Shape>> };

/**
 * Declared shapes the sandbox does not meet yet, by Action: each names its finding. A check here
 * is expected to fail, so the entry must go once the sandbox is fixed.
 */
const PENDING: Record<string, string> = {};

let sb: Sandbox;
/** The UDisk the walk attaches to its host. */
let attachedDisk = '';
const replies = new Map<string, Array<Record<string, unknown>>>();

/** One signed call; its reply recorded under its Action when it succeeds. */
async function ok(params: Record<string, string | number>): Promise<Record<string, any>> {
  const body = await signedCloudCall(sb.url, params);
  expect(body.RetCode, `${params.Action}: ${body.Message}`).toBe(0);
  const action = String(params.Action);
  replies.set(action, [...(replies.get(action) ?? []), body]);
  return body;
}

const ZONE = 'cn-bj2-02';
const PASSWORD = Buffer.from('Shape-pass-1').toString('base64');
const CERT = { UserCert: '-----BEGIN CERTIFICATE-----\nY2VydA==\n-----END CERTIFICATE-----', PrivateKey: '-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----' };

/** Every Action with a declared shape, called on objects made for the purpose. */
async function walk(): Promise<void> {
  await ok({ Action: 'GetRegion' });
  await ok({ Action: 'GetProjectList' });
  const { ImageSet } = await ok({ Action: 'DescribeImage', Zone: ZONE, ImageType: 'Base' });
  await ok({ Action: 'DescribePHostImage', Zone: ZONE });
  await ok({ Action: 'DescribeUDBInstance', ClassType: 'SQL', Offset: 0, Limit: 20 });
  await ok({ Action: 'DescribeUDBBackup', Zone: ZONE, Offset: 0, Limit: 20 });
  await ok({ Action: 'DescribeUDBParamGroup', Zone: ZONE, Offset: 0, Limit: 20 });
  await ok({ Action: 'DescribeBucket' });

  const { VPCId } = await ok({ Action: 'CreateVPC', Name: 'shape', 'Network.0': '10.180.0.0/16' });
  const { SubnetId } = await ok({ Action: 'CreateSubnet', VPCId, Subnet: '10.180.1.0', Netmask: 24 });
  const { FWId } = await ok({ Action: 'CreateFirewall', Name: 'shape-fw', 'Rule.0': 'TCP|443|0.0.0.0/0|ACCEPT|HIGH' });
  await ok({ Action: 'UpdateFirewall', FWId, 'Rule.0': 'TCP|22|10.0.0.0/8|ACCEPT|HIGH' });
  const eips: string[] = [];
  for (let i = 0; i < 3; i++) eips.push((await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 2 })).EIPSet[0].EIPId);
  await ok({ Action: 'DescribeVPC', 'VPCIds.0': VPCId });
  await ok({ Action: 'DescribeSubnet', 'SubnetIds.0': SubnetId });
  await ok({ Action: 'DescribeFirewall', FWId });
  await ok({ Action: 'DescribeEIP', 'EIPIds.0': eips[0] });
  await ok({ Action: 'GetEIPPayMode', 'EIPId.0': eips[0] });

  const host = { Action: 'CreateUHostInstance', Zone: ZONE, VPCId, SubnetId, ImageId: ImageSet[0].ImageId, LoginMode: 'Password', Password: PASSWORD, CPU: 1, Memory: 2048 };
  const { UHostIds } = await ok({ ...host, Name: 'shape-host', 'Disks.0.IsBoot': 'True', 'Disks.0.Type': 'CLOUD_SSD', 'Disks.0.Size': 40, SecurityGroupId: FWId });
  const UHostId = UHostIds[0];
  await ok({ Action: 'DescribeSubnetResource', SubnetId });
  await ok({ Action: 'ModifyUHostInstanceName', UHostId, Name: 'shape-host-2' });
  await ok({ Action: 'ModifyUHostInstanceRemark', UHostId, Remark: 'r' });
  await ok({ Action: 'ModifyUHostInstanceTag', UHostId, Tag: 'blue' });
  const { UDiskId } = await ok({ Action: 'CreateUDisk', Zone: ZONE, Name: 'shape-disk', Size: 50 });
  await ok({ Action: 'AttachUDisk', Zone: ZONE, UDiskId: UDiskId[0], UHostId });
  attachedDisk = UDiskId[0];
  await ok({ Action: 'DescribeUDisk', Zone: ZONE, UDiskId: UDiskId[0] });
  await ok({ Action: 'StopUHostInstance', UHostId });
  await ok({ Action: 'ResizeUHostInstance', UHostId, CPU: 2 });
  await ok({ Action: 'ResizeAttachedDisk', Zone: ZONE, UHostId, DiskId: UDiskId[0], DiskSpace: 60 });
  await ok({ Action: 'ResetUHostInstancePassword', UHostId, Password: PASSWORD });
  await ok({ Action: 'DescribeUHostInstance', 'UHostIds.0': UHostId });
  const bootDisk = { 'Disks.0.IsBoot': 'True', 'Disks.0.Type': 'CLOUD_SSD', 'Disks.0.Size': 40 };
  await ok({ Action: 'GetUHostInstancePrice', Zone: ZONE, CPU: 2, Memory: 4096, Count: 1, ImageId: ImageSet[0].ImageId, ...bootDisk });
  await ok({ Action: 'GetUHostUpgradePrice', UHostId, CPU: 4 });
  await ok({ Action: 'DescribeUDiskPrice', Zone: ZONE, Size: 50 });
  await ok({ Action: 'DescribeUDiskUpgradePrice', Zone: ZONE, SourceId: UDiskId[0], Size: 80 });
  await ok({ Action: 'GetEIPPrice', OperatorName: 'Bgp', Bandwidth: 2 });
  await ok({ Action: 'GetEIPUpgradePrice', EIPId: eips[0], Bandwidth: 10 });
  await ok({ Action: 'StartUHostInstance', UHostId });
  await ok({ Action: 'PoweroffUHostInstance', UHostId });

  const { NATGWId } = await ok({ Action: 'CreateNATGW', NATGWName: 'shape-nat', 'EIPIds.0': eips[0], FirewallId: FWId, 'SubnetworkIds.0': SubnetId, VPCId });
  await ok({ Action: 'AddWhiteListResource', NATGWId, 'ResourceIds.0': UHostId });
  await ok({ Action: 'CreateNATGWPolicy', NATGWId, Protocol: 'TCP', SrcEIPId: eips[0], SrcPort: '2222', DstIP: '10.180.1.20', DstPort: '22' });
  await ok({ Action: 'DescribeNATGW', 'NATGWIds.0': NATGWId });
  await ok({ Action: 'DescribeNATGWPolicy', NATGWId });
  await ok({ Action: 'DescribeWhiteListResource', 'NATGWIds.0': NATGWId });

  const { ULBId } = await ok({ Action: 'CreateULB', ULBName: 'shape-lb', VPCId, SubnetId, OuterMode: 'Yes', FirewallId: FWId });
  await ok({ Action: 'BindEIP', EIPId: eips[1], ResourceType: 'ulb', ResourceId: ULBId });
  const { VServerId } = await ok({ Action: 'CreateVServer', ULBId, Protocol: 'HTTPS', FrontendPort: 443 });
  const { BackendId } = await ok({ Action: 'AllocateBackend', ULBId, VServerId, ResourceType: 'UHost', ResourceId: UHostId, Port: 8080 });
  await ok({ Action: 'CreatePolicy', ULBId, VServerId, Match: 'a.example.com', 'BackendId.0': BackendId });
  const { SSLId } = await ok({ Action: 'CreateSSL', SSLName: 'shape-cert', ...CERT });
  await ok({ Action: 'BindSSL', SSLId, ULBId, VServerId });
  await ok({ Action: 'DescribeULB', ULBId });
  await ok({ Action: 'DescribeULBSimple', ULBId });
  await ok({ Action: 'DescribeVServer', ULBId, VServerId });
  await ok({ Action: 'DescribeSSL', SSLId });
  await ok({ Action: 'DescribeFirewallResource', FWId });

  const { VPNGatewayId } = await ok({ Action: 'CreateVPNGateway', VPCId, VPNGatewayName: 'shape-vpn', Grade: 'Standard', EIPId: eips[2] });
  const { RemoteVPNGatewayId } = await ok({ Action: 'CreateRemoteVPNGateway', RemoteVPNGatewayName: 'office', RemoteVPNGatewayAddr: '203.0.113.30' });
  const tunnel = {
    VPNGatewayId,
    RemoteVPNGatewayId,
    VPCId,
    VPNTunnelName: 't1',
    IKEVersion: 'IKE V1',
    IKEPreSharedKey: 'pa55-word',
    'IPSecLocalSubnetIds.0': SubnetId,
    'IPSecRemoteSubnets.0': '192.168.80.0/24',
  };
  const { VPNTunnelId } = await ok({ Action: 'CreateVPNTunnel', ...tunnel });
  await ok({ Action: 'DescribeVPNGateway', 'VPNGatewayIds.0': VPNGatewayId });
  await ok({ Action: 'GetVPNGatewayPrice', Grade: 'Enhanced' });
  await ok({ Action: 'GetVPNGatewayUpgradePrice', VPNGatewayId, Grade: 'Enhanced' });
  await ok({ Action: 'DescribeRemoteVPNGateway', 'RemoteVPNGatewayIds.0': RemoteVPNGatewayId });
  await ok({ Action: 'DescribeVPNTunnel', 'VPNTunnelIds.0': VPNTunnelId });

  await ok({ Action: 'DetachUDisk', Zone: ZONE, UDiskId: UDiskId[0], UHostId });
  await ok({ Action: 'TerminateUHostInstance', UHostId });
}

/** Where `value` departs from `shape`, as `path: why` lines (none when it fits). */
function mismatches(value: unknown, shape: Shape, path: string): string[] {
  if (typeof shape === 'string') return typeof value === shape ? [] : [`${path}: ${shape} expected, got ${JSON.stringify(value)}`];
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${path}: a list expected, got ${JSON.stringify(value)}`];
    return value.flatMap((item, i) => mismatches(item, shape[0], `${path}[${i}]`));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: an object expected, got ${JSON.stringify(value)}`];
  const record = value as Record<string, unknown>;
  return Object.entries(shape).flatMap(([key, inner]) => {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    if (!(name in record) || record[name] === undefined) return optional ? [] : [`${path}.${name}: missing`];
    return mismatches(record[name], inner, `${path}.${name}`);
  });
}

/** Actions whose declared response carries fields (an empty one is the bare envelope). */
const withFields = Object.entries(table.responses).filter(([, shape]) => Object.keys(shape).length > 0);

beforeAll(async () => {
  sb = await startSandbox({ provisioningMs: 0, apis: [cloudApi] });
  await walk();
});
afterAll(() => sb.close());

describe('the table covers the sandbox', () => {
  it('every Action the sandbox serves is in the table, or listed as one the SDK does not declare', () => {
    const known = new Set([...Object.keys(table.responses), ...table.notInSdk]);
    expect(cloudActionNames.filter((a) => !known.has(a))).toEqual([]);
  });

  it('every Action of the table is served', () => {
    const served = new Set(cloudActionNames);
    expect([...Object.keys(table.responses), ...table.notInSdk].filter((a) => !served.has(a))).toEqual([]);
  });

  it('every Action whose response declares fields was answered in the walk', () => {
    expect(withFields.map(([a]) => a).filter((a) => !replies.has(a))).toEqual([]);
  });
});

describe('each reply has the field names and JSON types the SDK declares', () => {
  for (const [action, shape] of withFields) {
    const check = () => {
      const seen = replies.get(action) ?? [];
      expect(seen.length, `${action} was not answered`).toBeGreaterThan(0);
      expect(seen.flatMap((reply) => mismatches(reply, shape, action))).toEqual([]);
    };
    if (PENDING[action]) it.fails(`${action} (pending: ${PENDING[action]})`, check);
    else it(action, check);
  }
});

describe("a host's disks as DescribeUHostInstance lists them", () => {
  // The SDK declares these optional, but the API answers each for every disk, and plumb reads them.
  const FIELDS = ['Type', 'DiskId', 'IsBoot', 'Size', 'Drive'];
  const missing = () =>
    (replies.get('DescribeUHostInstance') ?? []).flatMap((reply) =>
      (reply.UHostSet as Array<{ DiskSet: Array<Record<string, unknown>> }>).flatMap((h) => h.DiskSet.flatMap((d) => FIELDS.filter((f) => d[f] === undefined).map((f) => `${String(d.DiskId)}.${f}`))),
    );
  // The SDK documents Name as returned only for a UDisk (UHostDiskSet: 'UDisk名字，仅当磁盘是UDisk时返回').
  it('a UDisk item carries its Name, and no boot or data disk made with the host carries one', () => {
    const disks = (replies.get('DescribeUHostInstance') ?? []).flatMap((reply) => (reply.UHostSet as Array<{ DiskSet: Array<Record<string, unknown>> }>).flatMap((h) => h.DiskSet));
    expect(disks.filter((d) => (d.Type === 'Udisk') !== (d.Name !== undefined))).toEqual([]);
  });

  it('every disk item carries Type, DiskId, IsBoot, Size and Drive, and the attached UDisk is listed as one (Type Udisk, its name)', () => {
    expect(missing()).toEqual([]);
    const disks = (replies.get('DescribeUHostInstance') ?? []).flatMap((reply) => (reply.UHostSet as Array<{ DiskSet: Array<Record<string, unknown>> }>).flatMap((h) => h.DiskSet));
    expect(disks).toContainEqual(expect.objectContaining({ DiskId: attachedDisk, Type: 'Udisk', Name: 'shape-disk', IsBoot: 'False' }));
  });
});
