/**
 * What interconnect products cost, from the pricebook (`POST /v4/pricebook/product`): one call per
 * distinct configuration in a run, in the location's currency. A LAG has no price of its own (the
 * pricebook takes no member count): it is its member ports' price, marked as an estimate.
 */
import { UserError } from '../../kernel/errors.js';
import { isUnknown, type Unknown } from '../../kernel/values.js';
import { knownBeforeApply } from '../quote.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import { priceProduct } from '../../providers/interconnect/api/pricebook.js';
import { listAllProducts, readProduct } from '../../providers/interconnect/api/products.js';
import type { Quote, QuoteContext } from '../../engine/contracts/resource-type.js';

type PriceCtx = QuoteContext<InterconnectClient>;

/** The call every interconnect quote asks (pricing reference §1.1). */
export const PRICEBOOK = 'POST /v4/pricebook/product';

/**
 * When a product's term ends, as the API reports it (`contractEndDate`); none for a month-to-month
 * product (term 1), which ends with no charge for months not begun. Cancelled before then, a
 * product pays the rest of its term (reference §1.3: early termination is 100 % of the remaining term).
 */
export function termEnd(outputs: { contractEndDate?: string; contractTermMonths?: number }): string | undefined {
  const end = outputs.contractEndDate;
  if (typeof end !== 'string' || Number.isNaN(Date.parse(end))) return undefined;
  return typeof outputs.contractTermMonths === 'number' && outputs.contractTermMonths > 1 ? end : undefined;
}

/** A Port's or LAG Port's delete cancels it at the end of its term when interconnect:cancelAtEndOfTerm is true (it stays live until then). */
export function cancelsAtTermEnd(settings: InterconnectSettings): boolean {
  return settings.cancelAtEndOfTerm === true;
}

/** The quote of one pricebook body, asked once per run for the same body. */
export async function pricebookQuote(ctx: PriceCtx, body: Record<string, unknown>): Promise<Quote> {
  knownBeforeApply(body);
  const book = await ctx.shared(`price:interconnect:${JSON.stringify(body)}`, () => priceProduct(ctx.client, body));
  const once = (book.prices ?? []).filter((p) => p.frequency === 'ONCE').reduce((sum, p) => sum + p.amount, 0);
  return { monthly: book.monthlyRate, oneOff: once, currency: book.currency };
}

/** A quote `times` over (a LAG's member ports), the basis saying so. */
export function timesQuote(q: Quote, times: number, basis: string): Quote {
  const round = (n: number) => Math.round(n * times * 100) / 100;
  return { ...q, monthly: round(q.monthly), oneOff: round(q.oneOff), basis };
}

/**
 * The location of a product the same plan orders, from its desired inputs: a new port's UID is
 * known only after apply, but where it is (its `locationId`) is in the manifest.
 */
function plannedLocation(ctx: PriceCtx, uid: Unknown, what: string): number {
  const output = '.productUid';
  const source = uid.source ?? '';
  const location = source.endsWith(output) ? ctx.planned?.(source.slice(0, -output.length))?.locationId : undefined;
  if (typeof location === 'number') return location;
  throw new UserError(`the ${what} is known only after apply, so its location cannot be priced yet`);
}

/**
 * The location of a product or partner port the account can see, by UID. The keys are the reads'
 * own (kit.ts, vxc.ts): a plan prices in its read pass, so the list its refresh made answers here,
 * and one list call answers for every product otherwise read one by one.
 */
export async function locationOf(ctx: PriceCtx, uid: string | undefined, what: string): Promise<number> {
  if (isUnknown(uid)) return plannedLocation(ctx, uid, what);
  if (typeof uid !== 'string') throw new UserError(`no ${what} is named, so its location cannot be priced`);
  const listed = (await ctx.shared('products', () => listAllProducts(ctx.client))).byUid.get(uid);
  if (typeof listed?.locationId === 'number') return listed.locationId;
  const partners = await ctx.shared('partner-ports', async () => (await ctx.client.get<Array<{ productUid: string; locationId?: number }>>('/v2/dropdowns/partner/megaports')).data ?? []);
  const partner = partners.find((p) => p.productUid === uid);
  if (typeof partner?.locationId === 'number') return partner.locationId;
  // Not listed (nor a partner port): read on its own, as a read would.
  const own = await ctx.shared(`product:${uid}`, () => readProduct(ctx.client, uid));
  if (typeof own?.locationId === 'number') return own.locationId;
  throw new UserError(`the ${what} ${uid} is neither a product of the account nor a partner port, so its location cannot be priced`);
}
