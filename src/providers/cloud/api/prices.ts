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
