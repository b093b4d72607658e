/** The cloud sandbox's load balancer write Actions, called as the API documentation describes them (signed form posts, `.N` lists). */
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

/** A VPC with a subnet, two hosts of the seed, and a new external balancer there. */
async function balancer(range: number) {
  const { VPCId } = await ok({ Action: 'CreateVPC', Name: `lb-${range}`, 'Network.0': `10.${range}.0.0/16` });
  const { SubnetId } = await ok({ Action: 'CreateSubnet', VPCId, Subnet: `10.${range}.1.0`, Netmask: 24 });
  const { ULBId } = await ok({ Action: 'CreateULB', ULBName: `lb-${range}`, VPCId, SubnetId, OuterMode: 'Yes', Remark: 'front' });
  const hosts = (await ok({ Action: 'DescribeUHostInstance' })).UHostSet.map((x: { UHostId: string }) => x.UHostId);
  return { VPCId, SubnetId, ULBId, hosts };
}

const lbOf = async (ULBId: string) => (await ok({ Action: 'DescribeULB', ULBId })).DataSet[0];

describe('balancers', () => {
  it('creates one in a subnet, renames it keeping remark and tag apart, and deletes it; then answers 4103', async () => {
    const { ULBId, SubnetId } = await balancer(60);
    expect(ULBId).toMatch(/^ulb-[0-9a-f]{8}$/);
    expect(await lbOf(ULBId)).toMatchObject({ Name: 'lb-60', ULBType: 'OuterMode', ListenType: 'RequestProxy', Remark: 'front', Tag: 'Default', SubnetId });
    await ok({ Action: 'UpdateULBAttribute', ULBId, Name: 'lb-60b', Remark: 'new remark' });
    expect(await lbOf(ULBId)).toMatchObject({ Name: 'lb-60b', Remark: 'new remark', Tag: 'Default' });
    expect((await ok({ Action: 'DescribeSubnetResource', SubnetId })).DataSet.map((r: { ResourceId: string }) => r.ResourceId)).toContain(ULBId);
    await ok({ Action: 'DeleteULB', ULBId });
    expect((await call({ Action: 'DescribeULB', ULBId })).RetCode).toBe(4103);
    expect((await call({ Action: 'DeleteULB', ULBId })).RetCode).toBe(4103);
  });

  it('lists an EIP bound with ResourceType ulb in IPSet, and unbinds it (keeping it) when the balancer is deleted', async () => {
    const { ULBId } = await balancer(61);
    const { EIPSet } = await ok({ Action: 'AllocateEIP', OperatorName: 'Bgp', Bandwidth: 2 });
    const EIPId = EIPSet[0].EIPId;
    await ok({ Action: 'BindEIP', EIPId, ResourceType: 'ulb', ResourceId: ULBId });
    expect((await lbOf(ULBId)).IPSet).toEqual([expect.objectContaining({ EIPId, EIP: EIPSet[0].EIPAddr[0].IP })]);
    await ok({ Action: 'DeleteULB', ULBId });
    expect((await ok({ Action: 'DescribeEIP', 'EIPIds.0': EIPId })).EIPSet[0]).toMatchObject({ Status: 'free', Resource: {} });
  });
});

describe('listeners, backends and policies', () => {
  it('a listener keeps its port (4107 for a second on it) and changes its settings with UpdateVServerAttribute', async () => {
    const { ULBId } = await balancer(62);
    const { VServerId } = await ok({ Action: 'CreateVServer', ULBId, Protocol: 'HTTP', FrontendPort: 80, VServerName: 'web' });
    expect((await call({ Action: 'CreateVServer', ULBId, Protocol: 'HTTP', FrontendPort: 80 })).RetCode).toBe(4107);
    await ok({ Action: 'UpdateVServerAttribute', ULBId, VServerId, Method: 'Leastconn', MonitorType: 'Path', Path: '/up', FrontendPort: 81 });
    expect((await ok({ Action: 'DescribeVServer', ULBId, VServerId })).DataSet[0]).toMatchObject({ VServerName: 'web', Method: 'Leastconn', MonitorType: 'Path', Path: '/up', FrontendPort: 80 });
    await ok({ Action: 'DeleteVServer', ULBId, VServerId });
    expect((await call({ Action: 'DeleteVServer', ULBId, VServerId })).RetCode).toBe(4088);
  });

  it('backends and a policy: BackendId.N sets its backends, UpdatePolicy replaces them, a backend in use cannot be released (4110)', async () => {
    const { ULBId, hosts } = await balancer(63);
    const { VServerId } = await ok({ Action: 'CreateVServer', ULBId, Protocol: 'HTTP', FrontendPort: 80 });
    const [a, b] = [
      (await ok({ Action: 'AllocateBackend', ULBId, VServerId, ResourceType: 'UHost', ResourceId: hosts[0], Port: 8080 })).BackendId,
      (await ok({ Action: 'AllocateBackend', ULBId, VServerId, ResourceType: 'UHost', ResourceId: hosts[1], Port: 8080 })).BackendId,
    ];
    expect((await call({ Action: 'AllocateBackend', ULBId, VServerId, ResourceType: 'UHost', ResourceId: hosts[0], Port: 8080 })).RetCode).toBe(4109);
    expect((await call({ Action: 'CreatePolicy', ULBId, VServerId, Match: '/x/', Type: 'Path' })).RetCode).toBe(4077);
    const { PolicyId } = await ok({ Action: 'CreatePolicy', ULBId, VServerId, Match: '/static/', Type: 'Path', 'BackendId.0': a });
    await ok({ Action: 'UpdatePolicy', ULBId, VServerId, PolicyId, Match: '/assets/', Type: 'Path', 'BackendId.0': b });
    const policy = (await ok({ Action: 'DescribeVServer', ULBId, VServerId })).DataSet[0].PolicySet[0];
    expect(policy).toMatchObject({ PolicyId, Match: '/assets/', Type: 'Path' });
    expect(policy.BackendSet.map((x: { BackendId: string }) => x.BackendId)).toEqual([b]);
    expect((await call({ Action: 'ReleaseBackend', ULBId, BackendId: b })).RetCode).toBe(4110);
    await ok({ Action: 'ReleaseBackend', ULBId, BackendId: a });
    await ok({ Action: 'UpdateBackendAttribute', ULBId, BackendId: b, Port: 9090, Weight: 5 });
    await ok({ Action: 'DeletePolicy', PolicyId, VServerId });
    await ok({ Action: 'ReleaseBackend', ULBId, BackendId: b });
    expect((await call({ Action: 'ReleaseBackend', ULBId, BackendId: b })).RetCode).toBe(4093);
  });

  it('a TCP listener takes no policy (4112)', async () => {
    const { ULBId, hosts } = await balancer(64);
    const { VServerId } = await ok({ Action: 'CreateVServer', ULBId, Protocol: 'TCP', FrontendPort: 9000 });
    const { BackendId } = await ok({ Action: 'AllocateBackend', ULBId, VServerId, ResourceType: 'UHost', ResourceId: hosts[0], Port: 9000 });
    expect((await call({ Action: 'CreatePolicy', ULBId, VServerId, Match: 'a.example.com', 'BackendId.0': BackendId })).RetCode).toBe(4112);
  });
});

describe('certificates', () => {
  const cert = { UserCert: '-----BEGIN CERTIFICATE-----\nY2VydA==\n-----END CERTIFICATE-----', PrivateKey: '-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----' };

  it('uploads, never lists the key, binds to one HTTPS listener, swaps with UpdateSSLBinding, refuses to delete while bound (4108)', async () => {
    const { ULBId } = await balancer(65);
    const { VServerId } = await ok({ Action: 'CreateVServer', ULBId, Protocol: 'HTTPS', FrontendPort: 443 });
    const [one, two] = [(await ok({ Action: 'CreateSSL', SSLName: 'one', ...cert })).SSLId, (await ok({ Action: 'CreateSSL', SSLName: 'two', ...cert })).SSLId];
    expect((await call({ Action: 'CreateSSL', SSLName: 'bad', UserCert: 'nope', PrivateKey: cert.PrivateKey })).RetCode).toBe(4111);
    const listed = await ok({ Action: 'DescribeSSL', SSLId: one });
    expect(JSON.stringify(listed)).not.toContain('c2VjcmV0');
    await ok({ Action: 'BindSSL', SSLId: one, ULBId, VServerId });
    expect((await call({ Action: 'BindSSL', SSLId: two, ULBId, VServerId })).RetCode).toBe(230);
    expect((await call({ Action: 'DeleteSSL', SSLId: one })).RetCode).toBe(4108);
    await ok({ Action: 'UpdateSSLBinding', OldSSLId: one, NewSSLId: two, LoadBalancerId: ULBId, ListenerId: VServerId });
    expect((await ok({ Action: 'DescribeVServer', ULBId, VServerId })).DataSet[0].SSLSet).toEqual([expect.objectContaining({ SSLId: two })]);
    expect((await ok({ Action: 'DescribeSSL', SSLId: two })).DataSet[0].BindedTargetSet).toEqual([expect.objectContaining({ ULBId, VServerId })]);
    await ok({ Action: 'UpdateSSLAttribute', SSLId: one, SSLName: 'one-renamed' });
    await ok({ Action: 'DeleteSSL', SSLId: one });
    await ok({ Action: 'UnbindSSL', SSLId: two, ULBId, VServerId });
    await ok({ Action: 'DeleteSSL', SSLId: two });
    expect((await ok({ Action: 'DescribeSSL', SSLId: two })).DataSet).toEqual([]);
  });
});
