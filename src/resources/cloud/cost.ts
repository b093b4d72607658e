/**
 * What cloud objects cost, from the price Actions (src/providers/cloud/api/prices.ts): asked for
 * one period of the object's own charge type, once per run for the same question, and brought to a
 * month in CNY (the API's currency, which it never names). A change to an existing object is
 * priced by its …UpgradePrice Action: the difference for the rest of the paid period.
 */
import type { CloudClient } from '../../providers/cloud/client.js';
import { upgradePrice, type UpgradeAction } from '../../providers/cloud/api/prices.js';
import { knownBeforeApply } from '../quote.js';
import type { Params } from '../../providers/cloud/signature.js';
import type { ChangeCharge, Quote, QuoteContext } from '../../engine/contracts/resource-type.js';

/** The charge types of plumb's inputs as the price Actions name them (postpaid hosts at the hourly rate, spot ones as preemptive). */
const CHARGE: Record<string, string> = { month: 'Month', year: 'Year', dynamic: 'Dynamic', postpay: 'Dynamic', spot: 'Preemptive' };

/** Hours in a month, for an hourly price (an estimate, said in the quote's basis). */
const HOURS_PER_MONTH = 730;

/** One price Action: the price, in 元, of one period of `ChargeType`. */
type PriceCall = (client: CloudClient, params: Params & { ChargeType: string }) => Promise<number>;

/**
 * The monthly quote of an object billed by `chargeType` (`month` when absent): a month's price as
 * it is, a year's divided by 12, an hourly one times 730 hours (the basis says which).
 */
export async function cloudQuote(ctx: QuoteContext<CloudClient>, call: PriceCall, chargeType: string | undefined, params: Params, basis?: string): Promise<Quote> {
  knownBeforeApply(params);
  const ChargeType = CHARGE[chargeType ?? 'month'] ?? 'Month';
  const ask = { ...params, ChargeType };
  const price = await ctx.shared(`price:cloud:${call.name}:${JSON.stringify(ask)}`, () => call(ctx.client, ask));
  const [monthly, perPeriod] =
    ChargeType === 'Year' ? [price / 12, "a year's price ÷ 12"] : ChargeType === 'Month' ? [price, undefined] : [price * HOURS_PER_MONTH, `hourly price × ${HOURS_PER_MONTH} hours`];
  const notes = [perPeriod, basis].filter((n): n is string => n !== undefined);
  return { monthly: Math.round(monthly * 100) / 100, oneOff: 0, currency: 'CNY', ...(notes.length ? { basis: notes.join('; ') } : {}) };
}

/** Whether an object of this charge type prepays a period (month, year); an hourly one pays as it goes, so a change to it is charged or refunded nothing at once. */
export function prepaid(chargeType: string | undefined): boolean {
  return chargeType === 'month' || chargeType === 'year';
}

/**
 * What a change to an existing object is charged now (refunded when negative), by its
 * …UpgradePrice Action, in CNY: the difference for the rest of the paid period.
 */
export async function cloudChange(ctx: QuoteContext<CloudClient>, action: UpgradeAction, params: Params, basis = 'for the rest of the paid period'): Promise<ChangeCharge> {
  knownBeforeApply(params);
  const amount = await ctx.shared(`price:cloud:${action}:${JSON.stringify(params)}`, () => upgradePrice(ctx.client, action, params));
  return { amount: Math.round(amount * 100) / 100, currency: 'CNY', basis };
}
