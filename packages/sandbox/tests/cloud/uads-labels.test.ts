/** The cloud sandbox's anti-DDoS service IP and rule Actions, label writes, and DescribeFirewall's resource filter, called as the docs describe them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApi } from '../../src/cloud/index.js';
import { uadsId } from '../../src/cloud/seed-uads.js';
import { startSandbox, type Sandbox } from '../../src/server.js';
import { cloudActions, signedCloudCall } from '../support/cloud-api.js';

let sb: Sandbox;
let slow: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ provisioningMs: 0, apis: [cloudApi] });
  slow = await startSandbox({ provisioningMs: 60_000, apis: [cloudApi] });
});
afterAll(async () => {
  await sb.close();
  await slow.close();
});

/** UADS and label calls carry no Region (the SDK's structs declare none). */
const { call, ok } = cloudActions(() => sb, null);
const shield = uadsId('edge-shield');

describe('BGP service IPs', () => {
  it('a new IP is Pending until provisioned, then the lookup Action lists it with its remark', async () => {
    const made = await ok({ Action: 'CreateBGPServiceIP', ResourceId: shield, Remark: 'web' }, slow);
    expect(made.DefenceIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const pending = await ok({ Action: 'GetBGPServiceIP', ResourceId: shield, BgpIP: made.DefenceIP }, slow);
    expect(pending.GameIPInfo).toEqual([expect.objectContaining({ DefenceIP: made.DefenceIP, Remark: 'web', Status: 'Pending', RuleCnt: 0 })]);

    const fast = await ok({ Action: 'CreateBGPServiceIP', ResourceId: shield, Remark: 'api' });
    await ok({ Action: 'SetNapIpRemark', ResourceId: shield, NapIp: fast.DefenceIP, Remark: 'api v2' });
    const described = await ok({ Action: 'DescribeHighProtectGameIPInfo', ResourceId: shield });
    expect(described.GameIPInfo).toContainEqual(expect.objectContaining({ DefenceIP: fast.DefenceIP, Remark: 'api v2', Status: 'Success', Cname: fast.Cname }));
    expect(Object.keys(described.GameIPInfo[0]).filter((k) => k.startsWith('_'))).toEqual([]);
  });

  it('an IP with rules is refused on delete; without them it goes', async () => {
    const { DefenceIP } = await ok({ Action: 'CreateBGPServiceIP', ResourceId: shield });
    const rule = await ok({ Action: 'CreateBGPServiceFwdRule', ResourceId: shield, BgpIP: DefenceIP, FwdType: 'TCP', BgpIPPort: 443, 'SourceAddrArr.0': '10.0.0.5', 'SourcePortArr.0': 8443 });
    expect((await call({ Action: 'DeleteBGPServiceIP', ResourceId: shield, DefenceIp: DefenceIP })).RetCode).toBe(230);
    await ok({ Action: 'DeleteBGPServiceFwdRule', ResourceId: shield, RuleIndex: rule.RuleIndex });
    await ok({ Action: 'DeleteBGPServiceIP', ResourceId: shield, DefenceIp: DefenceIP });
    expect((await ok({ Action: 'GetBGPServiceIP', ResourceId: shield, BgpIP: DefenceIP })).GameIPInfo).toEqual([]);
  });
});

describe('forwarding rules', () => {
  it('creates from parallel .N arrays, reads SourceInfo back, updates by RuleIndex and RuleID, and refuses a taken port', async () => {
    const { DefenceIP } = await ok({ Action: 'CreateBGPServiceIP', ResourceId: shield });
    const params = {
      Action: 'CreateBGPServiceFwdRule',
      ResourceId: shield,
      BgpIP: DefenceIP,
      FwdType: 'TCP',
      BgpIPPort: 80,
      'SourceAddrArr.0': '10.0.0.1',
      'SourcePortArr.0': 8080,
      'SourceToaIDArr.0': 200,
      Remark: 'web',
    };
    const { RuleIndex } = await ok(params);
    expect(await call(params)).toMatchObject({ RetCode: 230, Message: expect.stringContaining('already forwards port 80') });
    const [rule] = (await ok({ Action: 'GetBGPServiceFwdRule', ResourceId: shield, RuleIndex })).RuleInfo;
    expect(rule).toMatchObject({
      RuleIndex,
      BgpIP: DefenceIP,
      BgpIPPort: 80,
      FwdType: 'TCP',
      LoadBalance: 'No',
      Remark: 'web',
      Status: 'Success',
      SourceInfo: { Type: 'IP', Conf: [{ Source: '10.0.0.1', Port: 8080, Toa: 200 }] },
    });
    const wrongId = await call({ Action: 'UpdateBGPServiceFwdRule', ResourceId: shield, BgpIP: DefenceIP, RuleIndex, RuleID: 'not-it', 'SourceAddrArr.0': '10.0.0.2' });
    expect(wrongId.RetCode).toBe(230);
    await ok({
      Action: 'UpdateBGPServiceFwdRule',
      ResourceId: shield,
      BgpIP: DefenceIP,
      RuleIndex,
      RuleID: rule.RuleID,
      'SourceAddrArr.0': '10.0.0.2',
      'SourceAddrArr.1': '10.0.0.3',
      'SourcePortArr.0': 80,
      'SourcePortArr.1': 80,
      LoadBalance: 'Yes',
      BackupIP: '10.0.0.9',
      BackupPort: 80,
    });
    await ok({ Action: 'SetNapFwdRuleRemark', ResourceId: shield, RuleIndex: String(RuleIndex), Remark: 'balanced' });
    const [after] = (await ok({ Action: 'GetBGPServiceFwdRule', ResourceId: shield, BgpIP: DefenceIP })).RuleInfo;
    expect(after).toMatchObject({ LoadBalance: 'Yes', BackupIP: '10.0.0.9', Remark: 'balanced', SourceInfo: { Conf: [{ Source: '10.0.0.2' }, { Source: '10.0.0.3' }] } });
    const ips = (await ok({ Action: 'GetBGPServiceIP', ResourceId: shield, BgpIP: DefenceIP })).GameIPInfo;
    expect(ips[0]).toMatchObject({ RuleCnt: 1, SrcIP: ['10.0.0.2', '10.0.0.3'] });
  });

  it('a load-balanced rule needs a backup server, and an IP rule forwards port 0 only', async () => {
    const { DefenceIP } = await ok({ Action: 'CreateBGPServiceIP', ResourceId: shield });
    const base = { Action: 'CreateBGPServiceFwdRule', ResourceId: shield, BgpIP: DefenceIP, 'SourceAddrArr.0': '10.0.0.1' };
    expect(await call({ ...base, FwdType: 'TCP', BgpIPPort: 81, LoadBalance: 'Yes' })).toMatchObject({ RetCode: 230, Message: expect.stringContaining('BackupIP') });
    expect(await call({ ...base, BgpIPPort: 81 })).toMatchObject({ RetCode: 230, Message: expect.stringContaining('BgpIPPort') });
    await ok(base);
  });
});

describe('labels', () => {
  it('a created label is listed with no resource, binds to a VPC, shows on the resource, and is refused deletion while bound', async () => {
    const { VPCId } = await signedCloudCall(sb.url, { Action: 'CreateVPC', Name: 'labelled', 'Network.0': '10.40.0.0/16' });
    const label = { 'Labels.0.Key': 'app', 'Labels.0.Value': 'shop' };
    await ok({ Action: 'CreateLabels', ...label });
    const listed = await ok({ Action: 'ListLabels', Category: 'custom', Limit: 100 });
    expect(listed.Labels).toContainEqual({ Key: 'app', Value: 'shop', ResourceCount: 0 });
    await ok({ Action: 'BindLabels', 'ResourceIds.0': VPCId, ...label });
    expect((await ok({ Action: 'ListLabelsByResourceIds', 'ResourceIds.0': VPCId })).Labels).toEqual([{ ResourceId: VPCId, Key: 'app', Value: 'shop', Category: 'custom' }]);
    expect((await ok({ Action: 'ListResourcesByLabels', ...label })).Resources).toEqual([expect.objectContaining({ ResourceId: VPCId, ResourceName: 'labelled', ResourceType: 'vpc' })]);
    expect(await call({ Action: 'DeleteLabels', ...label })).toMatchObject({ RetCode: 230, Message: expect.stringContaining('unbind it first') });
    await ok({ Action: 'UnbindLabels', 'ResourceIds.0': VPCId, ...label });
    expect((await ok({ Action: 'ListLabels', Category: 'custom', Limit: 100 })).Labels).toContainEqual({ Key: 'app', Value: 'shop', ResourceCount: 0 });
    await ok({ Action: 'DeleteLabels', ...label });
    expect((await ok({ Action: 'ListLabels', Category: 'custom', Limit: 100 })).Labels).not.toContainEqual(expect.objectContaining({ Key: 'app', Value: 'shop' }));
  });

  it('binding a label never created, or to an unknown resource, is refused naming the parameter', async () => {
    expect(await call({ Action: 'BindLabels', 'ResourceIds.0': 'uvnet-00000000', 'Labels.0.Key': 'owner', 'Labels.0.Value': 'nobody' })).toMatchObject({
      RetCode: 230,
      Message: expect.stringContaining('ResourceIds.0'),
    });
    expect(await call({ Action: 'BindLabels', 'ResourceIds.0': 'uvnet-00000000', 'Labels.0.Key': 'never', 'Labels.0.Value': 'made' })).toMatchObject({
      RetCode: 230,
      Message: expect.stringContaining('create it first'),
    });
  });
});

describe('DescribeFirewall filtered by resource', () => {
  it('with ResourceType and ResourceId lists only the firewall bound to that resource', async () => {
    const region = (params: Record<string, string | number>) => signedCloudCall(sb.url, params);
    const { FWId } = await region({ Action: 'CreateFirewall', Name: 'bound', 'Rule.0': 'TCP|22|0.0.0.0/0|ACCEPT|HIGH' });
    const hosts = (await region({ Action: 'DescribeUHostInstance', Limit: 100 })).UHostSet as Array<{ UHostId: string }>;
    expect((await region({ Action: 'GrantFirewall', FWId, ResourceType: 'uhost', ResourceId: hosts[0].UHostId })).RetCode).toBe(0);
    const found = await region({ Action: 'DescribeFirewall', ResourceType: 'uhost', ResourceId: hosts[0].UHostId });
    expect(found.DataSet.map((f: { FWId: string }) => f.FWId)).toEqual([FWId]);
    const none = await region({ Action: 'DescribeFirewall', ResourceType: 'uhost', ResourceId: hosts[1].UHostId });
    expect(none).toMatchObject({ RetCode: 0, DataSet: [], TotalCount: 0 });
  });
});
