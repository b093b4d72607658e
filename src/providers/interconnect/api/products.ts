import { isRemote } from '../../../kernel/errors.js';
import type { InterconnectClient } from '../client.js';

/**
 * Products as the interconnect API lists and reads them (reference §3.5, §3.6): the wire type,
 * the statuses, `GET /v2/product/{uid}` and `GET /v2/products`, shared by resources and lookups.
 */

/** A product as `GET /v2/product/{uid}` returns it (the fields plumb reads). */
export type ApiProduct = Record<string, any> & { productUid: string; provisioningStatus: string };

/** Statuses in which a product is ready for use. */
export const READY = ['CONFIGURED', 'LIVE'];
/** Statuses in which a product no longer exists for plumb's purposes. */
export const GONE = ['DECOMMISSIONED', 'DECOMMISSIONING', 'CANCELLED_PARENT'];

/** Whether a product is still in service: neither gone nor cancelled (the SDK's list helpers hide both). */
export function isLive(p: Pick<ApiProduct, 'provisioningStatus'>): boolean {
  return !GONE.includes(p.provisioningStatus) && p.provisioningStatus !== 'CANCELLED';
}

/** Reads a product; undefined when the API does not know it or reports it gone. */
export async function readProduct(client: InterconnectClient, uid: string): Promise<ApiProduct | undefined> {
  try {
    const { data } = await client.get<ApiProduct>(`/v2/product/${encodeURIComponent(uid)}`);
    if (!data || GONE.includes(data.provisioningStatus)) return undefined;
    return data;
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

/**
 * Every product `GET /v2/products` reports, from one call: the top-level ones (Ports, LAG
 * members, MCRs, MVEs) as their own GET returns them (the SDK decodes both into one type), and
 * the VXCs and IXs nested under the products they attach to (a VXC between two of the account's
 * products is listed under both), each by UID once. Gone and cancelled products are included:
 * the list keeps them for a while.
 */
export interface ProductList {
  /** Top-level products, in the API's order. */
  top: ApiProduct[];
  /** VXCs, from the `associatedVxcs` of every top-level product. */
  vxcs: ApiProduct[];
  /** IXs, from the `associatedIxs` of every top-level product. */
  ixs: ApiProduct[];
  /** Every product, nested ones included, by UID. */
  byUid: Map<string, ApiProduct>;
}

/**
 * Lists every product with one call (there is no paging: reference §7). The call answers every
 * step reading or waiting for a product, so it goes before calls for one step (CallOptions.shared).
 */
export async function listAllProducts(client: InterconnectClient): Promise<ProductList> {
  const { data } = await client.get<ApiProduct[]>('/v2/products', undefined, { shared: true });
  const list: ProductList = { top: data ?? [], vxcs: [], ixs: [], byUid: new Map() };
  for (const p of list.top) if (p?.productUid) list.byUid.set(p.productUid, p);
  for (const p of list.top) {
    for (const [nested, into] of [
      [p.associatedVxcs, list.vxcs],
      [p.associatedIxs, list.ixs],
    ] as Array<[ApiProduct[] | undefined, ApiProduct[]]>) {
      for (const child of nested ?? []) {
        if (!child?.productUid || list.byUid.has(child.productUid)) continue;
        list.byUid.set(child.productUid, child);
        into.push(child);
      }
    }
  }
  return list;
}

/** Live top-level products of one productType (`MEGAPORT`, `MCR2`, `MVE`). */
export function liveOfType(list: ProductList, productType: string): ApiProduct[] {
  return list.top.filter((p) => isType(p, productType) && isLive(p));
}

/** Whether a listed product is of this productType; the API compares types without regard to case. */
export function isType(p: ApiProduct, productType: string): boolean {
  return String(p.productType).toUpperCase() === productType;
}
