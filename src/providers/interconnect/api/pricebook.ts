import type { InterconnectClient } from '../client.js';

/**
 * The pricebook (pricing reference §1.1): `POST /v4/pricebook/product` prices one product
 * configuration before it is ordered. The body is the product's fields and its `productType`
 * (`MEGAPORT`, `MCR2`, `MVE`, `VXC`, `IX`); without a `currency` the location's is used.
 */

/** One charge of a price: its reason (`CORE`, `ADD_ON_CHARGE`), how often (`ONCE`, `MONTHLY`, `YEARLY`) and amount. */
export interface PriceCharge {
  chargeReason: string;
  frequency: string;
  amount: number;
  addOnType?: string;
}

/** The reply's `data` (PriceBookDTO): amounts in `currency` units. */
export interface PriceBook {
  productType: string;
  currency: string;
  /** Monthly price after discounts (a term's included). */
  monthlyRate: number;
  /** List monthly price before discounts. */
  monthlyRackRate: number;
  prices: PriceCharge[];
  discounts: Array<{ discountReason: string; amount: number }>;
}

/**
 * Prices one product configuration. It changes nothing, so it may be sent again after a failure,
 * and it goes through the client's limiter like every call.
 */
export async function priceProduct(client: InterconnectClient, body: Record<string, unknown>): Promise<PriceBook> {
  const { data } = await client.post<PriceBook>('/v4/pricebook/product', body, undefined, { safe: true });
  return data;
}
