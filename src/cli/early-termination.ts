import { openRecord } from '../engine/applying/open-record.js';
import type { ResourceState } from '../engine/contracts/state.js';
import type { Change, EngineDeps } from '../engine/types.js';
import { cents, type Price } from './cost.js';

/**
 * What deleting an object before its term ends costs: a delete (or a replace, which deletes the
 * recorded object) of a type whose cost group reports a term end still ahead pays the months left
 * at the recorded monthly price, unless the provider cancels it at the end of its term instead (it
 * then stays live, and billed, until then). A delete that only forgets (retainOnDelete) cuts nothing.
 */

/** A term cut short: when it ends, the months left (a part month counted whole), and what they cost when the monthly price is known. */
export interface EarlyTermination {
  ends: string;
  monthsLeft: number;
  amount?: number;
  currency?: string;
}

/** What a delete does to a recorded object's term: ends it early, or leaves it live until it ends. */
export type TermCut = { earlyTermination: EarlyTermination } | { staysLiveUntil: string } | Record<string, never>;

/** `at` moved by `months` calendar months (negative: back), the day clamped to the month's last (31 January + 1 month is 28 or 29 February). */
export function addMonths(at: Date, months: number): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(at);
  d.setUTCFullYear(y, m, Math.min(at.getUTCDate(), last));
  return d;
}

/**
 * Whole months from `now` until `ends`, a part month counted as a whole one: the fewest months
 * that, taken back from the end of the term, reach `now` or before. Counting from the end keeps
 * the term's own month boundaries (a term ending on the 31st has its months end on each month's
 * last day). 0 when the term has already ended.
 */
export function monthsLeft(now: Date, ends: Date): number {
  if (ends.getTime() <= now.getTime()) return 0;
  const span = (ends.getUTCFullYear() - now.getUTCFullYear()) * 12 + ends.getUTCMonth() - now.getUTCMonth();
  // The calendar difference is right, or one short (a part month): step until the month back reaches now.
  let n = Math.max(span - 1, 0);
  while (addMonths(ends, -n).getTime() > now.getTime()) n++;
  return n;
}

/** What the delete of a change's recorded object does to its term; nothing when the type has no term, it has ended, or nothing is deleted. */
export async function termCut(c: Change, recorded: ResourceState | undefined, before: Price | undefined, deps: EngineDeps, now: Date): Promise<TermCut> {
  if ((c.action !== 'delete' && c.action !== 'replace') || c.retain || !recorded) return {};
  const type = deps.resourceType(recorded.type);
  const cost = type?.cost;
  if (!type || !cost || !('quote' in cost) || !cost.termEnds) return {};
  const ends = cost.termEnds(openRecord(recorded).outputs);
  if (ends === undefined || !(Date.parse(ends) > now.getTime())) return {};
  if (cost.cancelsAtTermEnd) {
    const { settings } = await deps.connect(type.provider, recorded.provider);
    if (cost.cancelsAtTermEnd(settings)) return { staysLiveUntil: ends };
  }
  const months = monthsLeft(now, new Date(ends));
  const price = before && 'monthly' in before ? { amount: cents(months * before.monthly), currency: before.currency } : {};
  return { earlyTermination: { ends, monthsLeft: months, ...price } };
}
