/**
 * The price Actions (pricing reference §2.1): what an order would cost before it is placed. Prices
 * are in 元 (CNY) except DescribeUDiskPrice's, in 分 (1/100 元); the API names no currency. Each
 * is for the whole order (every host of `Count`, every period of `Quantity`).
 */
import { RemoteError } from '../../../kernel/errors.js';
import type { CloudClient } from '../client.js';
import type { Params } from '../signature.js';

/** One entry of a PriceSet: the price of one charge type. */
export interface PriceEntry {
  ChargeType: string;
  Price: number;
  OriginalPrice?: number;
  /** DescribeUDiskPrice only: what the price is for (`UDisk`, `SnapshotService`, `UDataArk`, `Total`). */
  ChargeName?: string;
}

/** The price of `chargeType` in a PriceSet, or a failure naming the Action when the reply has none. */
function entryFor(action: string, set: PriceEntry[] | undefined, chargeType: string): PriceEntry {
  const entry = (set ?? []).find((e) => e.ChargeType === chargeType && (e.ChargeName === undefined || e.ChargeName === 'UDisk' || e.ChargeName === 'Total'));
  if (!entry) throw new RemoteError('invalid', `${action} answered no ${chargeType} price`, { provider: 'cloud' });
  return entry;
}

/** GetUHostInstancePrice: a host with its disks, in 元. */
export async function hostPrice(client: CloudClient, params: Params & { ChargeType: string }): Promise<number> {
  const reply = await client.call<{ PriceSet?: PriceEntry[] }>('GetUHostInstancePrice', { Count: 1, Quantity: 1, ...params });
  return entryFor('GetUHostInstancePrice', reply.PriceSet, params.ChargeType).Price;
}

/** DescribeUDiskPrice: a disk, in 元 (the reply's 分 divided by 100 here, the one place it is converted). */
export async function diskPrice(client: CloudClient, params: Params & { ChargeType: string }): Promise<number> {
  const reply = await client.call<{ DataSet?: PriceEntry[] }>('DescribeUDiskPrice', { Quantity: 1, ...params });
  return entryFor('DescribeUDiskPrice', reply.DataSet, params.ChargeType).Price / 100;
}

/** GetEIPPrice: an EIP, in 元. */
export async function eipPrice(client: CloudClient, params: Params & { ChargeType: string }): Promise<number> {
  const reply = await client.call<{ PriceSet?: PriceEntry[] }>('GetEIPPrice', { Quantity: 1, ...params });
  return entryFor('GetEIPPrice', reply.PriceSet, params.ChargeType).Price;
}

/** GetVPNGatewayPrice: a VPN gateway, in 元. */
export async function vpnGatewayPrice(client: CloudClient, params: Params & { ChargeType: string }): Promise<number> {
  const reply = await client.call<{ PriceSet?: PriceEntry[] }>('GetVPNGatewayPrice', { Quantity: 1, ...params });
  return entryFor('GetVPNGatewayPrice', reply.PriceSet, params.ChargeType).Price;
}

/** GetBuyNapServicePrice: an anti-DDoS instance, in 元 (the SDK states no unit); Quantity and SrcBandwidth go as strings. */
export async function antiDdosPrice(client: CloudClient, params: Params & { ChargeType: string }): Promise<number> {
  const reply = await client.call<{ Price?: number }>('GetBuyNapServicePrice', { Quantity: '1', ...params });
  if (typeof reply.Price !== 'number') throw new RemoteError('invalid', 'GetBuyNapServicePrice answered no Price', { provider: 'cloud' });
  return reply.Price;
}

/** The `Price` of an …UpgradePrice reply, or a failure naming the Action when it has none. */
function upgradeAmount(action: string, reply: { Price?: number }): number {
  if (typeof reply.Price !== 'number') throw new RemoteError('invalid', `${action} answered no Price`, { provider: 'cloud' });
  return reply.Price;
}

/**
 * An …UpgradePrice Action: what changing an existing object costs for the rest of its paid
 * period, in 元; negative for a refund, 0 for an hourly object (nothing is prepaid).
 * DescribeUDiskUpgradePrice answers in 分 like DescribeUDiskPrice (its SDK states no unit; the
 * pricing reference §2.1 takes its sibling's): divided by 100 here. DescribeUpgradeHighProtectGameServicePrice
 * answers whole 元 (an int in the Go SDK; no unit stated).
 */
export async function upgradePrice(client: CloudClient, action: UpgradeAction, params: Params): Promise<number> {
  const amount = upgradeAmount(action, await client.call<{ Price?: number }>(action, params));
  return action === 'DescribeUDiskUpgradePrice' ? amount / 100 : amount;
}

/** The Actions that price a change to an existing object. */
export type UpgradeAction = 'GetUHostUpgradePrice' | 'DescribeUDiskUpgradePrice' | 'GetEIPUpgradePrice' | 'GetVPNGatewayUpgradePrice' | 'DescribeUpgradeHighProtectGameServicePrice';

/**
 * DescribeBuyHighProtectGameIPPrice: one anti-DDoS IP beyond its instance's free quota, for one
 * period of `ChargeType`, in 元 (the Go SDK states no unit). The IP's charge type is its instance's.
 */
export async function antiDdosIpPrice(client: CloudClient, params: Params & { ChargeType: string }): Promise<number> {
  const reply = await client.call<{ UnitPrice?: number }>('DescribeBuyHighProtectGameIPPrice', { Quantity: 1, ...params });
  if (typeof reply.UnitPrice !== 'number') throw new RemoteError('invalid', 'DescribeBuyHighProtectGameIPPrice answered no UnitPrice', { provider: 'cloud' });
  return reply.UnitPrice;
}
