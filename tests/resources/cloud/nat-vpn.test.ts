/** The NAT and VPN types' own rules: which Action each change sends, what replaces, what is refused, what the lookups see. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNatGateways } from '../../../src/lookups/cloud/get-nat-gateways.js';
import { getVpnConnections } from '../../../src/lookups/cloud/get-vpn-connections.js';
import { eip } from '../../../src/resources/cloud/eip.js';
import { natGateway, type NatGatewayInputs } from '../../../src/resources/cloud/nat-gateway.js';
import { natGatewayRule, natGatewayRuleInputs } from '../../../src/resources/cloud/nat-gateway-rule.js';
import { securityGroup } from '../../../src/resources/cloud/security-group.js';
import { subnet } from '../../../src/resources/cloud/subnet.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { vpnConnection, vpnConnectionInputs } from '../../../src/resources/cloud/vpn-connection.js';
import { vpnCustomerGateway } from '../../../src/resources/cloud/vpn-customer-gateway.js';
import { vpnGateway } from '../../../src/resources/cloud/vpn-gateway.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { signedCloudCall } from '@plumb/sandbox/testing/cloud-api';
import { run } from '../../support/cloud-lookup-kit.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** The Actions `act` sends, in order, reads left out. */
async function writes(act: () => Promise<unknown>): Promise<string[]> {
  await h.clearCalls();
  await act();
  return (await h.actions()).filter((a) => !a.startsWith('Describe'));
}

/** One Action as anyone sends it to the sandbox, independently of plumb's client; its answer, which must succeed. */
async function world(params: Record<string, string | number>): Promise<Record<string, any>> {
  const body = await signedCloudCall(h.sandbox.url, params);
  expect(body.RetCode, body.Message).toBe(0);
  return body;
}

/** A VPC with two subnets, a security group and three free EIPs. */
async function network(octet: number) {
  const c = h.resourceCtx('net');
  const vpcId = (await vpc.create(c, { name: `home-${octet}`, cidrBlocks: [`10.${octet}.0.0/16`] })).id;
  const subnets = [(await subnet.create(c, { vpcId, cidrBlock: `10.${octet}.1.0/24` })).id, (await subnet.create(c, { vpcId, cidrBlock: `10.${octet}.2.0/24` })).id];
  const firewall = (await securityGroup.create(c, { name: `fw-${octet}`, rules: [{ protocol: 'tcp', port: '22' }] })).id;
  const eips: string[] = [];
  for (let i = 0; i < 3; i++) eips.push((await eip.create(c, { name: `ip-${octet}-${i}`, internetType: 'bgp', bandwidth: 1 })).id);
  const nat: NatGatewayInputs = { vpcId, subnetIds: [subnets[0]], eipIds: [eips[0]], securityGroupId: firewall, name: 'egress' };
  return { vpcId, subnets, firewall, eips, nat };
}

/** A host made by hand (as anyone sends CreateUHostInstance) in the first subnet of `network`; its id. */
async function hostIn({ vpcId, subnets }: { vpcId: string; subnets: string[] }, name: string): Promise<string> {
  const { ImageSet } = await world({ Action: 'DescribeImage', Zone: 'cn-bj2-02', ImageType: 'Base' });
  const params = {
    Action: 'CreateUHostInstance',
    Zone: 'cn-bj2-02',
    VPCId: vpcId,
    SubnetId: subnets[0],
    ImageId: ImageSet[0].ImageId,
    LoginMode: 'Password',
    Password: 'U2FuZGJveC1wYXNzLTE=',
    CPU: 1,
    Memory: 1024,
  };
  return (await world({ ...params, Name: name, 'Disks.0.IsBoot': 'True', 'Disks.0.Type': 'CLOUD_SSD', 'Disks.0.Size': 20 })).UHostIds[0];
}

describe("a NAT gateway changes in place with the API's own Actions", () => {
  it('renaming, retagging and remarking it is one UpdateNATGW call', async () => {
    const { nat } = await network(60);
    const c = h.resourceCtx('nat');
    const made = await natGateway.create(c, nat);
    const sent = await writes(() => natGateway.update(c, made.id, { inputs: nat, outputs: made.outputs }, { ...nat, name: 'egress-2', tag: 'blue', remark: 'shared' }));
    expect(sent).toEqual(['UpdateNATGW']);
    expect(await natGateway.read(c, made.id)).toMatchObject({ name: 'egress-2', tag: 'blue', remark: 'shared' });
  });

  it('new subnets are one UpdateNATGWSubnet with the whole list; another EIP is bound before the old one is unbound', async () => {
    const { nat, subnets, eips } = await network(61);
    const c = h.resourceCtx('nat');
    const made = await natGateway.create(c, nat);
    const next = { ...nat, subnetIds: subnets, eipIds: [eips[1]], whiteListEnabled: true };
    expect(await writes(() => natGateway.update(c, made.id, { inputs: nat, outputs: made.outputs }, next))).toEqual(['UpdateNATGWSubnet', 'BindEIP', 'UnBindEIP', 'EnableWhiteList']);
    expect(await natGateway.read(c, made.id)).toMatchObject({ subnetIds: subnets, eipIds: [eips[1]], whiteListEnabled: true });
  });

  it('another security group is one GrantFirewall; only the VPC replaces it', async () => {
    const { nat } = await network(62);
    const c = h.resourceCtx('nat');
    const made = await natGateway.create(c, nat);
    const other = (await securityGroup.create(c, { name: 'fw-other', rules: [{ protocol: 'icmp' }] })).id;
    expect(await writes(() => natGateway.update(c, made.id, { inputs: nat, outputs: made.outputs }, { ...nat, securityGroupId: other }))).toEqual(['GrantFirewall']);
    expect((await natGateway.read(c, made.id))?.securityGroupId).toBe(other);
    expect(natGateway.replace.on).toEqual([{ path: 'vpcId', reason: expect.stringContaining('no API Action') }]);
    expect(natGateway.replace.when!.rules({ ...nat, remark: 'a' }, nat)).toEqual([{ path: 'remark', reason: expect.stringContaining('no Action clears one') }]);
  });

  it('its white list is its hosts: AddWhiteListResource at create, then Add/DeleteWhiteListResource for the difference; what changed outside reads back', async () => {
    const home = await network(64);
    const { nat } = home;
    const [a, b] = [await hostIn(home, 'wl-a'), await hostIn(home, 'wl-b')];
    const members = async (id: string) => {
      const listed = (await world({ Action: 'DescribeWhiteListResource', 'NATGWIds.0': id })).DataSet[0];
      return { on: listed.IfOpen, hosts: listed.ObjectIPInfo.map((o: { ResourceId: string }) => o.ResourceId).sort() };
    };
    const c = h.resourceCtx('nat');
    const first = { ...nat, whiteList: [a], whiteListEnabled: true };
    let made!: Awaited<ReturnType<typeof natGateway.create>>;
    expect(await writes(async () => (made = await natGateway.create(c, first)))).toEqual(['CreateNATGW', 'AddWhiteListResource']);
    expect(await members(made.id)).toEqual({ on: 1, hosts: [a] });
    expect(made.outputs.whiteList).toEqual([a]);
    const next = { ...first, whiteList: [b] };
    expect(await writes(() => natGateway.update(c, made.id, { inputs: first, outputs: made.outputs }, next))).toEqual(['AddWhiteListResource', 'DeleteWhiteListResource']);
    expect(await members(made.id)).toEqual({ on: 1, hosts: [b] });
    // Someone adds a host outside plumb: the read shows it, so drift and plan see it.
    await world({ Action: 'AddWhiteListResource', NATGWId: made.id, 'ResourceIds.0': a });
    expect([...(await natGateway.read(c, made.id))!.whiteList].sort()).toEqual([a, b].sort());
    expect(await writes(() => natGateway.update(c, made.id, { inputs: next, outputs: made.outputs }, { ...next, whiteList: undefined, whiteListEnabled: false }))).toEqual([
      'DeleteWhiteListResource',
      'EnableWhiteList',
    ]);
    expect(await members(made.id)).toEqual({ on: 0, hosts: [] });
  });

  it('an AddWhiteListResource whose answer is lost is looked for, and sent again only when its hosts are not on the list', async () => {
    const home = await network(65);
    const { nat } = home;
    const hostId = await hostIn(home, 'wl-lost');
    const adds = async () =>
      ((await (await h.admin('calls?provider=cloud', 'GET')).json()) as Array<{ query: { Action?: string }; status: number }>)
        .filter((c) => c.query.Action === 'AddWhiteListResource')
        .map((c) => c.status);
    const c = h.resourceCtx('nat');
    for (const [i, fault, sent] of [
      [0, { match: 'Action=AddWhiteListResource', drop: 'reply' }, [0]],
      [1, { match: 'Action=AddWhiteListResource', drop: 'request' }, [0, 200]],
    ] as const) {
      await h.clearCalls();
      await h.admin('faults', 'POST', { provider: 'cloud', next: [fault] });
      try {
        const inputs = { ...nat, name: `egress-lost-${i}`, whiteList: [hostId] };
        const made = await natGateway.create(c, inputs);
        expect(await adds()).toEqual(sent);
        const listed = (await world({ Action: 'DescribeWhiteListResource', 'NATGWIds.0': made.id })).DataSet[0];
        expect(listed.ObjectIPInfo.map((o: { ResourceId: string }) => o.ResourceId)).toEqual([hostId]);
        await natGateway.delete(c, made.id, { inputs, outputs: made.outputs });
      } finally {
        await h.admin('faults', 'DELETE');
      }
    }
  });

  it('a rule changes in place in one UpdateNATGWPolicy; deleting the gateway leaves its EIP free', async () => {
    const { nat, eips } = await network(63);
    const c = h.resourceCtx('nat');
    const gw = await natGateway.create(c, nat);
    const rule = { natGatewayId: gw.id, protocol: 'tcp' as const, srcEipId: eips[0], srcPort: '2222', dstIp: '10.63.1.20', dstPort: '22' };
    const made = await natGatewayRule.create(c, rule);
    expect(made.id).toMatch(new RegExp(`^${gw.id}:`));
    expect(await writes(() => natGatewayRule.update(c, made.id, { inputs: rule, outputs: made.outputs }, { ...rule, dstPort: '2200', name: 'ssh' }))).toEqual(['UpdateNATGWPolicy']);
    expect(await natGatewayRule.read(c, made.id)).toMatchObject({ dstPort: '2200', name: 'ssh' });
    await natGatewayRule.delete(c, made.id, { inputs: rule, outputs: made.outputs });
    await natGateway.delete(c, gw.id, { inputs: nat, outputs: gw.outputs });
    expect(await eip.read(c, eips[0])).toMatchObject({ status: 'free' });
  });
});

/** A VPN gateway and a customer gateway on a new network, and a connection's inputs between them. */
async function ends(octet: number) {
  const { vpcId, subnets, eips } = await network(octet);
  const c = h.resourceCtx('vpn');
  const gateway = await vpnGateway.create(c, { vpcId, eipId: eips[0], grade: 'standard', name: `vpn-${octet}` });
  const customer = await vpnCustomerGateway.create(c, { ipAddress: `203.0.113.${octet}`, name: `office-${octet}` });
  const inputs = vpnConnectionInputs.parse({
    vpnGatewayId: gateway.id,
    customerGatewayId: customer.id,
    vpcId,
    name: 'office',
    preSharedKey: 'k3y-one',
    ipsecLocalSubnetIds: [subnets[0]],
    ipsecRemoteSubnets: ['192.168.70.0/24'],
  });
  return { c, gateway, customer, inputs, eips };
}

describe('VPN', () => {
  it('a new key and IKE/IPSec settings are one UpdateVPNTunnelAttribute with the whole set; the name, which that Action lacks, replaces it', async () => {
    const { c, inputs } = await ends(64);
    const made = await vpnConnection.create(c, inputs);
    expect(await writes(() => vpnConnection.update(c, made.id, { inputs, outputs: made.outputs }, { ...inputs, preSharedKey: 'k3y-two', ikeDhGroup: '14' }))).toEqual(['UpdateVPNTunnelAttribute']);
    expect(await vpnConnection.read(c, made.id)).toMatchObject({ preSharedKey: 'k3y-two', ikeDhGroup: '14', ipsecRemoteSubnets: ['192.168.70.0/24'] });
    expect(vpnConnection.secrets?.paths).toEqual(['preSharedKey']);
    expect(vpnConnection.replace.on.find((r) => r.path === 'name')?.reason).toBe('UpdateVPNTunnelAttribute takes no name, tag or remark, and no other Action changes them');
  });

  it("a VPN gateway's grade is one UpdateVPNGateway; its EIP moves by UnBindEIP then BindEIP; deletes wait for the tunnels to go", async () => {
    const { c, gateway, customer, inputs, eips } = await ends(65);
    const gwInputs = { vpcId: inputs.vpcId, eipId: eips[0], grade: 'standard' as const, name: 'vpn-65' };
    const next = { ...gwInputs, grade: 'enhanced' as const, eipId: eips[1] };
    expect(await writes(() => vpnGateway.update(c, gateway.id, { inputs: gwInputs, outputs: gateway.outputs }, next))).toEqual(['UpdateVPNGateway', 'UnBindEIP', 'BindEIP']);
    expect(await vpnGateway.read(c, gateway.id)).toMatchObject({ grade: 'enhanced', eipId: eips[1] });
    const tunnel = await vpnConnection.create(c, inputs);
    expect(vpnGateway.notes!.update!(next, { ...next, eipId: eips[2] })).toEqual([expect.stringContaining('refuses while connections run on the gateway (4238)')]);
    await expect(vpnGateway.update(c, gateway.id, { inputs: next, outputs: gateway.outputs }, { ...next, eipId: eips[2] })).rejects.toThrow(/still has tunnels/);
    await expect(vpnGateway.delete(c, gateway.id, { inputs: next, outputs: gateway.outputs })).rejects.toThrow(/still has tunnels/);
    await vpnConnection.delete(c, tunnel.id, { inputs, outputs: tunnel.outputs });
    await vpnGateway.delete(c, gateway.id, { inputs: next, outputs: gateway.outputs });
    await vpnCustomerGateway.delete(c, customer.id, { inputs: { ipAddress: '203.0.113.65' }, outputs: customer.outputs });
    expect(await vpnGateway.read(c, gateway.id)).toBeUndefined();
  });
});

describe('inputs the API would refuse are refused before any call', () => {
  it('a key outside the allowed characters, and ikev2 without named identities, each at its path', () => {
    const r = vpnConnectionInputs.safeParse({
      vpnGatewayId: 'vpngw-1',
      customerGatewayId: 'remotevpngw-1',
      vpcId: 'uvnet-1',
      preSharedKey: 'has space',
      ikeVersion: 'ikev2',
      ipsecLocalSubnetIds: ['subnet-1'],
      ipsecRemoteSubnets: ['192.168.0.0/24'],
    });
    expect(r.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['ikeLocalId', 'ikeRemoteId', 'preSharedKey']);
    expect(r.error!.issues.find((i) => i.path[0] === 'preSharedKey')!.message).not.toContain('has space');
  });

  it('a host address that is not one, saying what is valid', () => {
    const r = natGatewayRuleInputs.safeParse({ natGatewayId: 'natgw-1', protocol: 'tcp', srcEipId: 'eip-1', srcPort: '22', dstIp: '10.0.1', dstPort: '22' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['dstIp', 'dstIp must be an IPv4 address such as 10.0.1.10']]);
  });

  it('a forwarded range narrower than the source range', () => {
    const r = natGatewayRuleInputs.safeParse({ natGatewayId: 'natgw-1', protocol: 'tcp', srcEipId: 'eip-1', srcPort: '8000-8010', dstIp: '10.0.0.1', dstPort: '9000-9005' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['dstPort', 'a port range must be as wide as srcPort']]);
  });
});

describe('the lookups answer with what these resources made', () => {
  it('getNatGateways and getVpnConnections list a new gateway and tunnel, the key a secret', async () => {
    const { nat } = await network(66);
    const c = h.resourceCtx('seen');
    const gw = await natGateway.create(c, { ...nat, name: 'looked-up-nat' });
    const found = await run(h, getNatGateways, { ids: [gw.id] });
    expect(found.natGateways).toEqual([expect.objectContaining({ id: gw.id, name: 'looked-up-nat', vpcId: nat.vpcId, subnetIds: nat.subnetIds })]);
    expect(found.natGateways[0].ipSet.length).toBe(1);
    const { inputs } = await ends(67);
    const tunnel = await vpnConnection.create(c, inputs);
    const seen = await run(h, getVpnConnections, { ids: [tunnel.id] });
    expect(seen.vpnConnections).toEqual([expect.objectContaining({ id: tunnel.id, name: 'office' })]);
    expect(JSON.stringify(seen)).not.toContain('k3y-one');
  });
});
