/**
 * The cloud's own prices of a change and its price gaps, against the sandbox: each type that
 * resizes in place prices the update by its …UpgradePrice Action (the amount the Action answers,
 * asked here directly), an hourly object asks nothing (nothing is prepaid), an EIP on the bgp_pro
 * line says it has no price instead of failing a call, and an anti-DDoS IP costs nothing within its
 * instance's free IP quota and the unit price beyond it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ChangeCharge, Quote, QuoteContext, ResourceType } from '../../../src/engine/contracts/resource-type.js';
import { antiDdosInstance } from '../../../src/resources/cloud/anti-ddos-instance.js';
import { antiDdosIp } from '../../../src/resources/cloud/anti-ddos-ip.js';
import { disk } from '../../../src/resources/cloud/disk.js';
import { eip } from '../../../src/resources/cloud/eip.js';
import { vpnGateway } from '../../../src/resources/cloud/vpn-gateway.js';
import { vpc } from '../../../src/resources/cloud/vpc.js';
import { loadResourceTypes } from '../../../src/cli/catalog.js';
import { startHarness, type Harness } from '../../support/cloud-harness.js';

const types = await loadResourceTypes();
const cloudPriced = [...types.values()].filter((t) => t.provider === 'cloud' && t.cost && 'quote' in t.cost).map((t) => t.token);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

type Priced<In, Out> = {
  quote(i: In, c: QuoteContext, r?: { id: string; outputs: Out }): Promise<Quote | { unpriced: string }>;
  change(p: unknown, d: In, c: QuoteContext): Promise<ChangeCharge | undefined>;
};
const costOf = <In, Out>(type: ResourceType<In, Out>) => type.cost as unknown as Priced<In, Out>;

/** Makes an object of `type` and returns what a plan's change would be given as `prior`. */
async function made<In, Out>(type: ResourceType<In, Out>, raw: Record<string, unknown>, address = String(raw.name ?? 'cost')) {
  const inputs = z.parse(type.inputs, raw) as In;
  const { id, outputs } = await type.create(h.resourceCtx(address), inputs);
  return { id, inputs, outputs };
}

/** What the sandbox's Action answers, asked directly. */
async function price(params: Record<string, unknown>): Promise<number> {
  const { Action, ...rest } = params;
  return (await h.client.call<{ Price: number }>(String(Action), rest as never)).Price;
}

describe('an update that changes the price is priced by the upgrade-price Action', () => {
  it('an EIP bought by the month: more bandwidth is charged now, less refunded', async () => {
    const prior = await made(eip, { internetType: 'bgp', bandwidth: 10, chargeType: 'month', name: 'up-eip' });
    const up = await costOf(eip).change(prior, { ...prior.inputs, bandwidth: 30 }, h.resourceCtx());
    expect(up).toEqual({ amount: await price({ Action: 'GetEIPUpgradePrice', EIPId: prior.id, Bandwidth: 30 }), currency: 'CNY', basis: 'for the rest of the paid period' });
    expect(up!.amount).toBeGreaterThan(0);
    const down = await costOf(eip).change(prior, { ...prior.inputs, bandwidth: 2 }, h.resourceCtx());
    expect(down!.amount).toBeLessThan(0);
  });

  it('a disk bought by the month is charged for its growth, in 元 (the Action answers 分)', async () => {
    const prior = await made(disk, { availabilityZone: 'cn-bj2-02', size: 20, chargeType: 'month', name: 'up-disk' });
    const fen = await price({ Action: 'DescribeUDiskUpgradePrice', Zone: 'cn-bj2-02', SourceId: prior.id, Size: 120 });
    expect(await costOf(disk).change(prior, { ...prior.inputs, size: 120 }, h.resourceCtx())).toMatchObject({ amount: fen / 100, currency: 'CNY' });
  });

  it('a VPN gateway changing grade is charged now going up and refunded going down', async () => {
    const net = await made(vpc, { cidrBlocks: ['10.77.0.0/16'], name: 'up-vpc' });
    const ip = await made(eip, { internetType: 'bgp', bandwidth: 2, name: 'up-gw-eip' });
    const prior = await made(vpnGateway, { vpcId: net.id, eipId: ip.id, grade: 'standard', name: 'up-gw' });
    const up = await costOf(vpnGateway).change(prior, { ...prior.inputs, grade: 'enhanced' }, h.resourceCtx());
    expect(up).toMatchObject({ amount: await price({ Action: 'GetVPNGatewayUpgradePrice', VPNGatewayId: prior.id, Grade: 'Enhanced' }), currency: 'CNY' });
    expect(up!.amount).toBeGreaterThan(0);
  });

  it('an anti-DDoS instance resized in place is priced by DescribeUpgradeHighProtectGameServicePrice', async () => {
    const prior = await made(antiDdosInstance, { area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40, name: 'up-nap' });
    const charge = await costOf(antiDdosInstance).change(prior, { ...prior.inputs, bandwidth: 150 }, h.resourceCtx());
    const asked = await price({ Action: 'DescribeUpgradeHighProtectGameServicePrice', ResourceId: prior.id, SrcBandwidth: 150 });
    expect(charge).toMatchObject({ amount: asked, currency: 'CNY' });
    expect(asked).toBeGreaterThan(0);
  });

  it('an hourly object has nothing prepaid, and a change that moves no driver is not the Action’s: neither asks', async () => {
    const hourly = await made(eip, { internetType: 'bgp', bandwidth: 10, chargeType: 'dynamic', name: 'hourly-eip' });
    const monthly = await made(disk, { availabilityZone: 'cn-bj2-02', size: 20, chargeType: 'month', name: 'renamed-disk' });
    await h.clearCalls();
    expect(await costOf(eip).change(hourly, { ...hourly.inputs, bandwidth: 50 }, h.resourceCtx())).toBeUndefined();
    expect(await costOf(disk).change(monthly, { ...monthly.inputs, name: 'other-name' }, h.resourceCtx())).toBeUndefined();
    expect(await h.actions()).toEqual([]);
  });
});

describe('every priced cloud type names its price Action', () => {
  it.each(cloudPriced)('%s', (token) => {
    const { source } = types.get(token)!.cost as { source?: string };
    expect(source).toMatch(/^(Get|Describe)\w+Price$/);
  });
});

describe("the cloud's price gaps", () => {
  it('an EIP on the bgp_pro line is unpriced with the reason, and asks nothing', async () => {
    await h.clearCalls();
    const q = await costOf(eip).quote(z.parse(eip.inputs, { internetType: 'bgp_pro', bandwidth: 10 }), h.resourceCtx());
    expect(q).toEqual({ unpriced: expect.stringMatching(/^no price action for the bgp_pro line: GetEIPPrice prices Bgp, International and ChinaMobile only$/) });
    expect(await h.actions()).toEqual([]);
  });

  it("an anti-DDoS IP within its instance's free quota costs nothing; one beyond it the API's unit price", async () => {
    const nap = await made(antiDdosInstance, { area: 'EastChina', dataCenter: 'Yangzhou', bandwidth: 50, baseDefenceValue: 30, maxDefenceValue: 40, name: 'ip-quota' });
    const { FreeIPQuota } = await h.client.call<{ FreeIPQuota: number }>('DescribeUpgradeHighProtectGameServicePrice', { ResourceId: nap.id });
    const { UnitPrice } = await h.client.call<{ UnitPrice: number }>('DescribeBuyHighProtectGameIPPrice', { ResourceId: nap.id, ChargeType: 'Month', Quantity: 1 });
    const quote = (r?: { id: string; outputs: unknown }) => costOf(antiDdosIp).quote({ instanceId: nap.id }, h.resourceCtx(), r as never);

    expect(await quote()).toMatchObject({ monthly: 0, currency: 'CNY', basis: `within the instance's free IP quota (${FreeIPQuota})` });
    const ips = [];
    for (let i = 0; i <= FreeIPQuota; i++) ips.push(await made(antiDdosIp, { instanceId: nap.id }, `ip-${i}`));
    // A new IP now comes after the free ones; of those held, the first FreeIPQuota are free.
    expect(await quote()).toMatchObject({ monthly: UnitPrice, currency: 'CNY', basis: `beyond the instance's free IP quota (${FreeIPQuota})` });
    expect(await quote(ips[0])).toMatchObject({ monthly: 0 });
    expect(await quote(ips[FreeIPQuota])).toMatchObject({ monthly: UnitPrice });
  });
});
