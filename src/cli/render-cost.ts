import type { CostTotal, Price, StackCost } from './cost.js';
import type { PlanCost, PlanCostLine, PlanCostTotal } from './plan-cost.js';
import { displayAddress } from './render-plan.js';

/**
 * A plan's cost and a stack's monthly total as words, for the formats that lay them out in tables
 * (markdown, the review page): the same figures the text plan shows, in the API's currency.
 */

/** An amount with its currency, grouped by thousands: `AUD 1,234.50`. */
export function money(currency: string, n: number): string {
  return `${currency} ${Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A difference with its sign: `+AUD 12.00`, `−AUD 12.00`. */
export function signedMoney(currency: string, n: number): string {
  return `${n < 0 ? '−' : '+'}${money(currency, n)}`;
}

const priced = (p: Price | undefined): p is Extract<Price, { monthly: number }> => Boolean(p && 'monthly' in p);

/** One changed resource's cost, as cells. */
export interface CostRow {
  address: string;
  action: string;
  /** `priced` when both its halves have an amount; otherwise why it has none. */
  kind: 'priced' | 'pending' | 'unavailable' | 'unpriced';
  before: string;
  after: string;
  /** The monthly difference, when it is known. */
  change: string;
  /** The basis of the price, what is charged at once, a term left to pay, and why a price is missing. */
  note: string;
}

/** The kind of a line: priced, or the first reason one of its halves has no amount. */
function kindOf(l: PlanCostLine): { kind: CostRow['kind']; why?: string } {
  for (const p of [l.after, l.before]) {
    if (p && 'unpriced' in p) return { kind: 'unpriced', why: p.unpriced };
    if (p && 'unavailable' in p) return { kind: /known only after apply/.test(p.unavailable) ? 'pending' : 'unavailable', why: p.unavailable };
  }
  return { kind: 'priced' };
}

/** A half of a line as a cell: its monthly amount (and a one-off charge), or what stands for none. */
function side(p: Price | undefined, kind: CostRow['kind']): string {
  if (!p) return '—';
  if (priced(p)) return `${money(p.currency, p.monthly)}${p.oneOff ? ` + ${money(p.currency, p.oneOff)} once` : ''}`;
  if ('unpriced' in p) return 'not priced';
  return kind === 'pending' ? 'known after apply' : 'price unavailable';
}

/** What a provider's changes cost beyond the month: one-off charges, updates charged or refunded now, terms ended early. */
export function onceText(t: PlanCostTotal): string[] {
  const out: string[] = [];
  if (t.oneOff) out.push(`${money(t.currency, t.oneOff)} once`);
  if (t.now) out.push(`${money(t.currency, t.now)} ${t.now < 0 ? 'refunded' : 'charged'} now`);
  if (t.earlyTermination) out.push(`about ${money(t.currency, t.earlyTermination)} to end terms early`);
  return out;
}

/** What an update is charged or refunded at once, or why that could not be asked. */
export function nowText(now: NonNullable<PlanCostLine['now']>): string {
  if ('unavailable' in now) return `charge now: price unavailable (${now.unavailable})`;
  const what = now.amount < 0 ? 'refunded now' : 'charged now';
  return `${what} ${money(now.currency, now.amount)}${now.basis ? ` (${now.basis})` : ''}`;
}

/** A delete before its term ends: `ends 2027-05-01, 7 months left, about USD 1,234.00`. */
export function earlyTerminationText(e: NonNullable<PlanCostLine['earlyTermination']>): string {
  const months = `${e.monthsLeft} month${e.monthsLeft === 1 ? '' : 's'} left`;
  const amount = e.amount !== undefined && e.currency ? `about ${money(e.currency, e.amount)}` : 'price unavailable';
  return `ends ${e.ends.slice(0, 10)}, ${months}, ${amount}`;
}

/** Each changed resource's row. */
export function costRows(cost: PlanCost): CostRow[] {
  return cost.resources.map((l) => {
    const { kind, why } = kindOf(l);
    const currency = [l.after, l.before].find(priced)?.currency ?? '';
    const monthly = (p: Price | undefined) => (priced(p) ? p.monthly : 0);
    const change = kind === 'priced' ? signedMoney(currency, Math.round((monthly(l.after) - monthly(l.before)) * 100) / 100) : '';
    const basis = [l.before, l.after].map((p) => (priced(p) ? p.basis : undefined)).find(Boolean);
    const notes = [
      basis,
      l.now ? nowText(l.now) : undefined,
      l.earlyTermination ? `early termination: ${earlyTerminationText(l.earlyTermination)}` : undefined,
      l.staysLiveUntil ? `cancelled at the end of its term: stays live, and billed, until ${l.staysLiveUntil.slice(0, 10)}` : undefined,
      kind === 'unavailable' ? `the price call failed (${why}); left out of the totals` : kind === 'pending' ? why : undefined,
    ];
    return { address: l.address, action: l.action, kind, before: side(l.before, kind), after: side(l.after, kind), change, note: notes.filter(Boolean).join('; ') };
  });
}

/** The types that have no price, once each with their reason (as the text plan names them). */
export function unpricedTypes(cost: PlanCost): Array<{ type: string; why: string; addresses: string[] }> {
  const types = new Map<string, { type: string; why: string; addresses: string[] }>();
  for (const l of cost.resources) {
    const { kind, why } = kindOf(l);
    if (kind !== 'unpriced') continue;
    const t = types.get(l.type) ?? { type: l.type.split(':').pop()!, why: why!, addresses: [] };
    t.addresses.push(displayAddress(l.address));
    types.set(l.type, t);
  }
  return [...types.values()];
}

/** A provider's monthly total now, the plan's change to it and the total after the plan, in one currency. */
export interface AfterPlanRow {
  provider: string;
  currency: string;
  now: number;
  change: number;
  after: number;
}

/** The stack's current totals (from state) with the plan's change added, per provider and currency. */
export function afterPlan(current: CostTotal[], cost: PlanCost): AfterPlanRow[] {
  const rows = new Map<string, AfterPlanRow>();
  const row = (provider: string, currency: string) => {
    const key = `${provider}\0${currency}`;
    const r = rows.get(key) ?? { provider, currency, now: 0, change: 0, after: 0 };
    rows.set(key, r);
    return r;
  };
  for (const t of current) row(t.provider, t.currency).now = t.monthly;
  for (const t of cost.totals) row(t.provider, t.currency).change = t.change;
  for (const r of rows.values()) r.after = Math.round((r.now + r.change) * 100) / 100;
  return [...rows.values()];
}

/** The stack's current monthly total in one line: `interconnect AUD 5,181.81/month, cloud CNY 120.00/month (1 not priced, 1 price unavailable)`. */
export function stackCostLine(c: StackCost): string {
  const totals = c.totals.map((t) => `${t.provider} ${money(t.currency, t.monthly)}/month${t.oneOff ? ` (${money(t.currency, t.oneOff)} once)` : ''}`);
  return `${totals.length ? totals.join(', ') : 'nothing priced'}${missingCount(c)}`;
}

/** How many resources the totals leave out, and why: `1 not priced`, `2 price unavailable`. */
export function missingParts(c: StackCost): string[] {
  return [c.unpriced.length ? `${c.unpriced.length} not priced` : '', c.unavailable.length ? `${c.unavailable.length} price unavailable` : ''].filter(Boolean);
}

/** The same in parentheses after a total: ` (1 not priced, 2 price unavailable)`, or nothing. */
export function missingCount(c: StackCost): string {
  const parts = missingParts(c);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
