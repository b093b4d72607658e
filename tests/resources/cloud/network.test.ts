/** The network types' own rules: which Action each change sends, what waits, what the lookups see. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEips } from '../../../src/lookups/cloud/get-eips.js';
import { getVpcs } from '../../../src/lookups/cloud/get-vpcs.js';
import { eip } from '../../../src/resources/cloud/eip.js';
import { eipAssociation } from '../../../src/resources/cloud/eip-association.js';
import { securityGroup, securityGroupInputs } from '../../../src/resources/cloud/security-group.js';
import { subnet } from '../../../src/resources/cloud/subnet.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { eipInputs } from '../../../src/resources/cloud/eip.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { run } from '../../support/cloud-lookup-kit.js';
import { deletesFirst } from '../../../src/engine/planning/classify.js';

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

describe("in-place updates send the platform's own Action, once", () => {
  it('renaming and retagging a subnet is one UpdateSubnetAttribute call', async () => {
    const c = h.resourceCtx('net');
    const home = await vpc.create(c, { name: 'upd-home', cidrBlocks: ['10.70.0.0/16'] });
    const inputs = { vpcId: home.id, cidrBlock: '10.70.1.0/24', name: 'app' };
    const made = await subnet.create(c, inputs);
    const sent = await writes(() => subnet.update(c, made.id, { inputs, outputs: made.outputs }, { ...inputs, name: 'app-2', tag: 'blue' }));
    expect(sent).toEqual(['UpdateSubnetAttribute']);
    expect(await subnet.read(c, made.id)).toMatchObject({ name: 'app-2', tag: 'blue' });
  });

  it('a VPC swaps a range in place: the new one added first, then the old one removed by sending the ranges to keep', async () => {
    const c = h.resourceCtx('net');
    const inputs = { name: 'swap', cidrBlocks: ['10.71.0.0/16'] };
    const made = await vpc.create(c, inputs);
    const sent = await writes(() => vpc.update(c, made.id, { inputs, outputs: made.outputs }, { ...inputs, cidrBlocks: ['10.72.0.0/16'] }));
    expect(sent).toEqual(['AddVPCNetwork', 'UpdateVPCNetwork']);
    expect((await vpc.read(c, made.id))?.cidrBlocks).toEqual(['10.72.0.0/16']);
  });

  it('new rules are one UpdateFirewall with the whole set; a remark goes in Remark, the tag untouched', async () => {
    const c = h.resourceCtx('sg');
    const inputs = { name: 'sg-upd', rules: [{ protocol: 'tcp' as const, port: '22' }], tag: 'ops' };
    const made = await securityGroup.create(c, inputs);
    const next = { ...inputs, rules: [...inputs.rules, { protocol: 'udp' as const, port: '53', cidrBlock: '10.0.0.0/8' }], remark: 'dns too' };
    expect(await writes(() => securityGroup.update(c, made.id, { inputs, outputs: made.outputs }, next))).toEqual(['UpdateFirewall', 'UpdateFirewallAttribute']);
    const seen = await securityGroup.read(c, made.id);
    expect(seen).toMatchObject({ tag: 'ops', remark: 'dns too' });
    expect(seen?.rules).toEqual([
      { protocol: 'tcp', port: '22', cidrBlock: '0.0.0.0/0', policy: 'accept', priority: 'high' },
      { protocol: 'udp', port: '53', cidrBlock: '10.0.0.0/8', policy: 'accept', priority: 'high' },
    ]);
  });

  it('a new charge mode is one SetEIPPayMode carrying the bandwidth; a new bandwidth alone is ModifyEIPBandwidth', async () => {
    const c = h.resourceCtx('ip');
    const inputs = { name: 'ip-upd', internetType: 'bgp' as const, bandwidth: 2 };
    const made = await eip.create(c, inputs);
    const traffic = { ...inputs, bandwidth: 4, chargeMode: 'traffic' as const };
    expect(await writes(() => eip.update(c, made.id, { inputs, outputs: made.outputs }, traffic))).toEqual(['SetEIPPayMode']);
    expect(await writes(() => eip.update(c, made.id, { inputs: traffic, outputs: made.outputs }, { ...traffic, bandwidth: 6 }))).toEqual(['ModifyEIPBandwidth']);
    expect(await eip.read(c, made.id)).toMatchObject({ chargeMode: 'traffic', bandwidth: 6 });
  });
});

describe('replacement rules', () => {
  it('renaming or retagging a VPC replaces it, naming the missing Action; its ranges do not', () => {
    expect(vpc.replace.on.map((r) => r.path).sort()).toEqual(['name', 'tag']);
    expect(vpc.replace.on.find((r) => r.path === 'name')?.reason).toMatch(/no Action that renames a VPC/);
  });

  it('emptying a remark replaces a security group (an empty Remark means no change to the API); changing it does not', () => {
    const rules = [{ protocol: 'icmp' as const }];
    expect(securityGroup.replace.when!.rules({ rules, remark: 'a' }, { rules })).toEqual([{ path: 'remark', reason: expect.stringContaining('no Action clears one') }]);
    expect(securityGroup.replace.when!.rules({ rules, remark: 'a' }, { rules, remark: 'b' })).toEqual([]);
  });

  it('an EIP association re-binding the same EIP unbinds first; another EIP on the same resource does not', () => {
    expect(deletesFirst(eipAssociation, { eipId: 'eip-1', resourceId: 'uhost-1' }, { eipId: 'eip-1', resourceId: 'uhost-2' })).toBe(true);
    expect(deletesFirst(eipAssociation, { eipId: 'eip-1', resourceId: 'uhost-1' }, { eipId: 'eip-2', resourceId: 'uhost-1' })).toBe(false);
  });
});

describe('inputs the API would refuse are refused before any call', () => {
  it('a tcp rule without a port, an icmp rule with one, and a bad range, each at its path', () => {
    const r = securityGroupInputs.safeParse({ rules: [{ protocol: 'tcp' }, { protocol: 'icmp', port: '1' }, { protocol: 'udp', port: '90-80' }] });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['rules.0.port', 'tcp rules need a port: N or A-B within 1-65535'],
      ['rules.1.port', 'icmp rules take no port; remove it'],
      ['rules.2.port', 'port "90-80" must be N or A-B with 1 <= A < B <= 65535'],
    ]);
  });

  it('an EIP charged by traffic over 300 Mbps', () => {
    const r = eipInputs.safeParse({ internetType: 'bgp', bandwidth: 500, chargeMode: 'traffic' });
    expect(r.error?.issues.map((i) => i.message)).toEqual(['bandwidth 500 is over 300 Mbps, the most an EIP charged by traffic can have']);
  });
});

describe('binding waits for the EIP to be used', () => {
  it('reports Binding until the bind settles, then reads the association; unbinding waits likewise', async () => {
    const slow = await startHarness({ provisioningMs: 300 });
    try {
      const c = slow.resourceCtx('bind');
      const ip = await eip.create(c, { name: 'slow-bind', internetType: 'bgp', bandwidth: 1 });
      const host = (await slow.client.pageAll<{ UHostId: string }>('DescribeUHostInstance', {}, 'UHostSet'))[0].UHostId;
      const made = await eipAssociation.create(c, { eipId: ip.id, resourceId: host });
      expect(slow.progress).toContain('Binding');
      expect(made).toMatchObject({ id: `${ip.id}:${host}`, outputs: { resourceType: 'uhost', resourceId: host } });
      await eipAssociation.delete(c, made.id, { inputs: { eipId: ip.id, resourceId: host }, outputs: made.outputs });
      expect(slow.progress).toContain('Unbinding');
      // Released only once the unbind has settled: the API refuses an EIP still in use.
      await eip.delete(c, ip.id, { inputs: { internetType: 'bgp', bandwidth: 1 }, outputs: ip.outputs });
      expect(await eip.read(c, ip.id)).toBeUndefined();
    } finally {
      await slow.close();
    }
  });
});

describe('the lookups answer with what these resources made', () => {
  it('getVpcs and getEips list a new VPC and EIP', async () => {
    const c = h.resourceCtx('seen');
    const made = await vpc.create(c, { name: 'looked-up', cidrBlocks: ['10.80.0.0/16'], tag: 'lookup' });
    const ip = await eip.create(c, { name: 'looked-up-ip', internetType: 'bgp', bandwidth: 3 });
    const vpcs = await run(h, getVpcs, { tag: 'lookup' });
    expect(vpcs.vpcs).toEqual([expect.objectContaining({ id: made.id, name: 'looked-up', cidrBlocks: ['10.80.0.0/16'], tag: 'lookup' })]);
    const eips = await run(h, getEips, { ids: [ip.id] });
    expect(eips.eips).toEqual([expect.objectContaining({ id: ip.id, name: 'looked-up-ip', bandwidth: 3, status: 'free' })]);
  });
});
