import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEips } from '../../../src/lookups/cloud/get-eips.js';
import { getNatGateways } from '../../../src/lookups/cloud/get-nat-gateways.js';
import { getVpcs } from '../../../src/lookups/cloud/get-vpcs.js';
import { getVpnConnections } from '../../../src/lookups/cloud/get-vpn-connections.js';
import { getVpnCustomerGateways } from '../../../src/lookups/cloud/get-vpn-customer-gateways.js';
import { getVpnGateways } from '../../../src/lookups/cloud/get-vpn-gateways.js';
import { Secret } from '../../../src/kernel/values.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';
import { names, run, runPaged, runToFile } from '../../support/cloud-lookup-kit.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('getEips', () => {
  it('lists EIPs with charge mode, shared bandwidth and addresses', async () => {
    const r = await run(h, getEips);
    expect(r.totalCount).toBe(6);
    const shared = r.eips.find((e: { name: string }) => e.name === 'nat-egress-2');
    expect(shared).toMatchObject({ chargeMode: 'share_bandwidth', shareBandwidthPackageName: 'egress-pool', shareBandwidth: 200, status: 'used' });
    const plain = r.eips.find((e: { name: string }) => e.name === 'spare-ip');
    expect(plain).toMatchObject({ chargeMode: 'bandwidth', shareBandwidthPackageId: '', shareBandwidth: 0, status: 'free', remark: 'kept for failover' });
    expect(plain.ipSet[0].internetType).toBe('Bgp');
    expect(r.ids).toEqual(r.eips.map((e: { id: string }) => e.id));
  });

  it('sends ids to the API and applies nameRegex locally', async () => {
    const all = await run(h, getEips);
    await h.clearCalls();
    const some = await run(h, getEips, { ids: all.ids.slice(1, 3) });
    expect(some.ids).toEqual(all.ids.slice(1, 3));
    expect(names((await run(h, getEips, { nameRegex: '^nat-' })).eips)).toEqual(['nat-egress-1', 'nat-egress-2']);
  });

  it('pages and writes outputFile', async () => {
    expect((await runPaged(h, getEips, {}, 'DescribeEIP')).calls).toBe(3);
    const { result, file } = await runToFile(h, getEips, { nameRegex: 'frozen' }, 'eips');
    expect(file).toEqual(result.eips);
    expect(result.eips[0].status).toBe('freeze');
  });
});

describe('getVpcs', () => {
  it('lists VPCs and filters by tag, ids and nameRegex', async () => {
    const r = await run(h, getVpcs);
    expect(names(r.vpcs)).toEqual(['prod', 'shared-services', 'staging']);
    expect(r.vpcs.find((v: { name: string }) => v.name === 'prod').cidrBlocks).toEqual(['10.0.0.0/16', '10.1.0.0/16']);
    expect(names((await run(h, getVpcs, { tag: 'staging' })).vpcs)).toEqual(['staging']);
    expect((await run(h, getVpcs, { ids: [r.ids[0]] })).ids).toEqual([r.ids[0]]);
    expect(names((await run(h, getVpcs, { nameRegex: 's' })).vpcs)).toEqual(['shared-services', 'staging']);
  });

  it('pages and writes outputFile', async () => {
    expect((await runPaged(h, getVpcs, {}, 'DescribeVPC')).calls).toBe(2);
    const { result, file } = await runToFile(h, getVpcs, {}, 'vpcs');
    expect(file).toEqual(result.vpcs);
  });
});

describe('getNatGateways', () => {
  it('lists NAT gateways with subnets and egress addresses', async () => {
    const r = await run(h, getNatGateways);
    expect(names(r.natGateways)).toEqual(['prod-nat', 'staging-nat']);
    const prod = r.natGateways.find((n: { name: string }) => n.name === 'prod-nat');
    expect(prod.subnetIds).toHaveLength(2);
    expect(prod.ipSet).toHaveLength(2);
    expect(prod.securityGroup).toMatch(/^firewall-/);
    expect(r.natGateways.find((n: { name: string }) => n.name === 'staging-nat').ipSet).toEqual([]);
  });

  it('filters by ids and nameRegex, pages, writes outputFile', async () => {
    const all = await run(h, getNatGateways);
    expect((await run(h, getNatGateways, { ids: [all.ids[1]] })).ids).toEqual([all.ids[1]]);
    expect(names((await run(h, getNatGateways, { nameRegex: '^prod' })).natGateways)).toEqual(['prod-nat']);
    expect((await runPaged(h, getNatGateways, {}, 'DescribeNATGW')).calls).toBe(1);
    const { result, file } = await runToFile(h, getNatGateways, {}, 'nat');
    expect(file).toEqual(result.natGateways);
  });
});

describe('getVpnGateways', () => {
  it('lists VPN gateways with one address each and filters by VPC, tag, ids and name', async () => {
    const r = await run(h, getVpnGateways);
    expect(names(r.vpnGateways)).toEqual(['office-vpn', 'partner-vpn']);
    const office = r.vpnGateways.find((g: { name: string }) => g.name === 'office-vpn');
    expect(office).toMatchObject({ grade: 'standard', autoRenew: true, chargeType: 'month' });
    expect(office.ipSet).toHaveLength(1);
    expect(names((await run(h, getVpnGateways, { vpcId: office.vpcId })).vpnGateways)).toEqual(['office-vpn']);
    expect(names((await run(h, getVpnGateways, { tag: 'staging' })).vpnGateways)).toEqual(['partner-vpn']);
    expect((await run(h, getVpnGateways, { ids: [office.id] })).ids).toEqual([office.id]);
    expect(names((await run(h, getVpnGateways, { nameRegex: 'partner' })).vpnGateways)).toEqual(['partner-vpn']);
  });

  it('pages and writes outputFile', async () => {
    expect((await runPaged(h, getVpnGateways, {}, 'DescribeVPNGateway')).calls).toBe(1);
    const { result, file } = await runToFile(h, getVpnGateways, {}, 'vpngw');
    expect(file).toEqual(result.vpnGateways);
  });
});

describe('getVpnCustomerGateways', () => {
  it('lists customer gateways and filters by tag, ids and name; pages; writes outputFile', async () => {
    const r = await run(h, getVpnCustomerGateways);
    expect(names(r.vpnCustomerGateways)).toEqual(['beijing-office', 'lab', 'partner-dc']);
    expect(r.vpnCustomerGateways.find((g: { name: string }) => g.name === 'lab').ipAddress).toBe('192.0.2.30');
    expect(names((await run(h, getVpnCustomerGateways, { tag: 'office' })).vpnCustomerGateways)).toEqual(['beijing-office']);
    expect((await run(h, getVpnCustomerGateways, { ids: r.ids.slice(0, 2) })).totalCount).toBe(2);
    expect(names((await run(h, getVpnCustomerGateways, { nameRegex: '-' })).vpnCustomerGateways)).toEqual(['beijing-office', 'partner-dc']);
    expect((await runPaged(h, getVpnCustomerGateways, {}, 'DescribeRemoteVPNGateway')).calls).toBe(2);
    const { result, file } = await runToFile(h, getVpnCustomerGateways, {}, 'cgw');
    expect(file).toEqual(result.vpnCustomerGateways);
  });
});

describe('getVpnConnections', () => {
  it('lists tunnels with IKE and IPSec settings; the pre-shared key stays secret', async () => {
    const r = await run(h, getVpnConnections);
    expect(names(r.vpnConnections)).toEqual(['lab-tunnel', 'office-tunnel', 'partner-tunnel']);
    const office = r.vpnConnections.find((c: { name: string }) => c.name === 'office-tunnel');
    expect(office.ikeConfig[0]).toMatchObject({ ikeVersion: 'ikev2', localId: 'auto', saLifeTime: 86400, exchangeMode: 'main' });
    expect(office.ikeConfig[0].preSharedKey).toBeInstanceOf(Secret);
    expect(office.ipsecConfig[0]).toMatchObject({ pfsDhGroup: 'disable', saLifeTime: 3600, protocol: 'esp' });
    expect(office.ipsecConfig[0]).not.toHaveProperty('saLifeTimeBytes');
    const partner = r.vpnConnections.find((c: { name: string }) => c.name === 'partner-tunnel');
    expect(partner.ikeConfig[0].ikeVersion).toBe('ikev1');
    expect(partner.ipsecConfig[0].saLifeTimeBytes).toBe(1048576);
  });

  it('filters by tag, ids and name; pages; writes [secret] instead of the key to outputFile', async () => {
    const all = await run(h, getVpnConnections);
    expect(names((await run(h, getVpnConnections, { tag: 'partner' })).vpnConnections)).toEqual(['partner-tunnel']);
    expect((await run(h, getVpnConnections, { ids: [all.ids[2]] })).ids).toEqual([all.ids[2]]);
    expect(names((await run(h, getVpnConnections, { nameRegex: '^lab' })).vpnConnections)).toEqual(['lab-tunnel']);
    expect((await runPaged(h, getVpnConnections, {}, 'DescribeVPNTunnel')).calls).toBe(2);
    const { file } = await runToFile(h, getVpnConnections, { nameRegex: 'office' }, 'tunnels');
    const text = JSON.stringify(file);
    expect(text).toContain('"preSharedKey":"[secret]"');
    expect(text).not.toMatch(/psk-/);
  });
});
