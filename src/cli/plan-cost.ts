import { resourceContext, type ReadPass } from '../engine/applying/context.js';
import type { ResourceState } from '../engine/contracts/state.js';
import type { PlanResult } from '../engine/planning/plan.js';
import type { QuoteContext } from '../engine/contracts/resource-type.js';
import type { Change, EngineDeps } from '../engine/types.js';
import { cents, priceOf, providerOf, type Price, type StackCost } from './cost.js';
import { termCut, type EarlyTermination } from './early-termination.js';
import { onceText } from './render-cost.js';
import { displayAddress, type Paint } from './render-plan.js';

/**
 * What a plan's changes cost: each changed resource priced before (its recorded inputs) and after
 * (its desired inputs) by its type's quote, in the API's currency (never converted), and the monthly
 * change per provider and currency. A create has only an after, a delete only a before; an update
 * is listed only when its price changes, and then, where its type prices the change itself (the
 * cloud's upgrade-price Actions), with what it is charged or refunded now. What cannot be priced says why; a price call that fails
 * leaves that resource "price unavailable", out of the totals, and never fails the plan.
 */

/** One changed resource's prices. */
export interface PlanCostLine {
  address: string;
  type: string;
  provider: string;
  action: string;
  before?: Price;
  after?: Price;
  /** What an update is charged (positive) or refunded (negative) at once, where the API prices the change itself; or why that call failed. */
  now?: { amount: number; currency: string; basis?: string } | { unavailable: string };
  /**
   * A delete (or a replace, which deletes) before the recorded object's term ends: the end, the
   * months left (part of a month counted whole), and what they cost at the recorded monthly price
   * (absent when that price is not known).
   */
  earlyTermination?: EarlyTermination;
  /** A delete (or replace) that cancels the recorded object at the end of its term: it stays live, and billed, until then. */
  staysLiveUntil?: string;
}

/** A provider's monthly amounts before and after the plan, in one currency. */
export interface PlanCostTotal {
  provider: string;
  currency: string;
  before: number;
  after: number;
  /** after − before. */
  change: number;
  /** Charges made once by the plan's orders. */
  oneOff: number;
  /** What the plan's updates are charged (positive) or refunded (negative) at once, where the API prices them; absent when none is. */
  now?: number;
  /** What the terms the plan ends early cost (their months left), where that is known; absent when none is. */
  earlyTermination?: number;
}

/** The `cost` of a plan: its priced lines, totals per provider and currency, and the stack's monthly change per currency. */
export interface PlanCost {
  resources: PlanCostLine[];
  totals: PlanCostTotal[];
  change: Array<{ currency: string; monthly: number; oneOff: number }>;
  /** What the stack costs per month before the plan (from state), where the command priced it (`plan --html`). */
  current?: StackCost;
}

const priced = (p: Price | undefined): p is Extract<Price, { monthly: number }> => Boolean(p && 'monthly' in p);

/** Which halves of a change are priced: the recorded object's, the desired one's. */
function halves(c: Change): { before: boolean; after: boolean } {
  // Forgotten only (retainOnDelete), or recorded only (promoCode): nothing is ordered, so the price is the same.
  if (c.retain || c.recordOnly) return { before: false, after: false };
  if (c.action === 'create') return { before: false, after: true };
  if (c.action === 'delete') return { before: true, after: false };
  if (c.action === 'update' || c.action === 'replace') return { before: true, after: true };
  return { before: false, after: false };
}

/** An update whose price is the same before and after changes nothing the bill shows. */
function samePrice(l: PlanCostLine): boolean {
  if (l.action !== 'update' || !l.before || !l.after) return false;
  if (priced(l.before) && priced(l.after)) return l.before.monthly === l.after.monthly && l.before.currency === l.after.currency && !l.after.oneOff;
  return 'unpriced' in l.before && 'unpriced' in l.after;
}

/** The price of a change's desired inputs; an update's is of the recorded object, which it keeps (a replacement's is of a new one). */
function desiredPrice(c: Change, inputs: unknown, deps: EngineDeps, pass: ReadPass, recorded: ResourceState | undefined, planned: QuoteContext['planned']): Promise<Price> {
  return priceOf(c.type, inputs, c.provider, c.address, deps, pass, c.action === 'update' ? recorded : undefined, planned);
}

/** The desired inputs of what the plan creates or replaces, by address: where a value known only after apply comes from. */
function plannedInputs(plan: PlanResult['plan'], inputsOf: (c: Change) => unknown): NonNullable<QuoteContext['planned']> {
  const made = new Map(plan.changes.filter((c) => c.action === 'create' || c.action === 'replace').map((c) => [c.address, c]));
  return (address) => {
    const c = made.get(address);
    const inputs = c && inputsOf(c);
    return inputs && typeof inputs === 'object' && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : undefined;
  };
}

/** What an update is charged or refunded at once, where its type prices the change itself; why not, when that call fails. */
async function changeNow(c: Change, inputs: unknown, recorded: ResourceState, deps: EngineDeps, pass: ReadPass): Promise<PlanCostLine['now']> {
  const type = deps.resourceType(c.type);
  if (!type?.cost || !('change' in type.cost) || !type.cost.change) return undefined;
  try {
    const ctx = await resourceContext(deps, type, c.address, { pass, provider: recorded.provider });
    const charge = await type.cost.change({ id: recorded.id, inputs: recorded.inputs, outputs: recorded.outputs }, inputs, ctx);
    return charge && { amount: charge.amount, currency: charge.currency, ...(charge.basis ? { basis: charge.basis } : {}) };
  } catch (err) {
    return { unavailable: err instanceof Error ? err.message : String(err) };
  }
}

/** Prices the plan's changes, each distinct question asked once: in the plan's own read pass, so what it read is not asked again. */
export async function planCost({ plan, prior, pass, desired }: PlanResult, deps: EngineDeps): Promise<PlanCost> {
  const clock = new Date(deps.clock?.now() ?? Date.now());
  // The inputs as the plan evaluated them: a secret's value included (never shown), a value known only after apply Unknown.
  const inputsOf = (c: Change) => desired[c.address];
  const planned = plannedInputs(plan, inputsOf);
  const lines = await Promise.all(
    plan.changes.map(async (c): Promise<PlanCostLine | undefined> => {
      const { before, after } = halves(c);
      if (!before && !after) return undefined;
      const recorded = prior[c.address];
      const head = { address: c.address, type: c.type, provider: providerOf(c.type, deps), action: c.action };
      const [b, a] = await Promise.all([
        before ? priceOf(recorded?.type ?? c.type, recorded?.inputs ?? c.before, recorded?.provider ?? c.provider, c.address, deps, pass, recorded) : undefined,
        after ? desiredPrice(c, inputsOf(c), deps, pass, recorded, planned) : undefined,
      ]);
      const cut = await termCut(c, recorded, b, deps, clock);
      // Only an update that changes the price asks what it is charged now: an unrelated one (a name) asks nothing more.
      const now = c.action === 'update' && recorded && priced(b) && priced(a) && b.monthly !== a.monthly ? await changeNow(c, inputsOf(c), recorded, deps, pass) : undefined;
      return { ...head, ...(b ? { before: b } : {}), ...(a ? { after: a } : {}), ...(now ? { now } : {}), ...cut };
    }),
  );
  const resources = lines.filter((l): l is PlanCostLine => Boolean(l) && !samePrice(l!));
  return { resources, ...planCostTotals(resources) };
}

/** The priced halves summed per provider and currency, and the stack's change per currency. */
export function planCostTotals(lines: PlanCostLine[]): Pick<PlanCost, 'totals' | 'change'> {
  const totals = new Map<string, PlanCostTotal>();
  const add = (provider: string, p: Price | undefined, side: 'before' | 'after') => {
    if (!priced(p)) return;
    const key = `${provider}\0${p.currency}`;
    const t = totals.get(key) ?? { provider, currency: p.currency, before: 0, after: 0, change: 0, oneOff: 0 };
    t[side] = cents(t[side] + p.monthly);
    if (side === 'after') t.oneOff = cents(t.oneOff + p.oneOff);
    t.change = cents(t.after - t.before);
    totals.set(key, t);
  };
  for (const l of lines) {
    // A resource priced on one side only (the other unavailable) is left out: half a difference misleads.
    if ((l.before && !priced(l.before)) || (l.after && !priced(l.after))) continue;
    add(l.provider, l.before, 'before');
    add(l.provider, l.after, 'after');
  }
  for (const l of lines) {
    const extra = (currency: string, field: 'now' | 'earlyTermination', n: number) => {
      const t = totals.get(`${l.provider}\0${currency}`);
      if (t) t[field] = cents((t[field] ?? 0) + n);
    };
    if (l.now && 'amount' in l.now) extra(l.now.currency, 'now', l.now.amount);
    if (l.earlyTermination?.amount !== undefined && l.earlyTermination.currency) extra(l.earlyTermination.currency, 'earlyTermination', l.earlyTermination.amount);
  }
  const change = new Map<string, { currency: string; monthly: number; oneOff: number }>();
  for (const t of totals.values()) {
    const c = change.get(t.currency) ?? { currency: t.currency, monthly: 0, oneOff: 0 };
    change.set(t.currency, { currency: t.currency, monthly: cents(c.monthly + t.change), oneOff: cents(c.oneOff + t.oneOff) });
  }
  return { totals: [...totals.values()], change: [...change.values()] };
}

const amount = (n: number) => Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (n: number) => `${n < 0 ? '−' : '+'}${amount(n)}`;

/** The monthly difference a line makes, when both its halves (or its only one) are priced. */
function lineChange(l: PlanCostLine): number | undefined {
  if ((l.before && !priced(l.before)) || (l.after && !priced(l.after))) return undefined;
  return cents((priced(l.after) ? l.after.monthly : 0) - (priced(l.before) ? l.before.monthly : 0));
}

/** Why a line has no amount: its reason once per type, or the failed call. */
function notPriced(l: PlanCostLine): { unpriced?: string; unavailable?: string; pending?: string } {
  for (const p of [l.after, l.before]) {
    if (p && 'unpriced' in p) return { unpriced: p.unpriced };
    if (p && 'unavailable' in p) return /known only after apply/.test(p.unavailable) ? { pending: p.unavailable } : { unavailable: p.unavailable };
  }
  return {};
}

/** The cost block shown after the plan's summary: a line per provider and currency, the stack's change, then what has no price. */
export function planCostText(cost: PlanCost, p: Paint, verbose = false): string {
  if (!cost.resources.length) return '';
  const out = [p.bold('Cost:')];
  for (const t of cost.totals) {
    const parts = cost.resources
      .filter((l) => l.provider === t.provider && [l.before, l.after].some((x) => priced(x) && x.currency === t.currency))
      .map((l) => ({ l, d: lineChange(l) }))
      .filter(({ d }) => d !== undefined)
      // The biggest differences first: the ones shown without --verbose are the ones that matter most.
      .sort((x, y) => Math.abs(y.d!) - Math.abs(x.d!));
    const shown = verbose ? parts : parts.slice(0, 3);
    const more = parts.length - shown.length;
    const detail = shown.map(({ l, d }) => `${displayAddress(l.address)} ${signed(d!)}`).concat(more ? [`${more} more`] : []);
    const once = onceText(t)
      .map((x) => `, ${x}`)
      .join('');
    out.push(`  ${t.provider}: ${signed(t.change).slice(0, 1)}${t.currency} ${amount(t.change)}/month${once}${detail.length ? ` (${detail.join(', ')})` : ''}`);
  }
  out.push(...cost.resources.filter((l) => l.now).map(nowLine));
  if (cost.totals.length > 1) out.push(`  Stack: ${cost.change.map((c) => `${signed(c.monthly).slice(0, 1)}${c.currency} ${amount(c.monthly)}/month`).join(', ')}`);
  if (verbose) out.push(...cost.resources.filter((l) => lineChange(l) !== undefined).map(verboseLine));
  out.push(...unpricedLines(cost, p, verbose));
  out.push(...termLines(cost, p));
  return `\n${out.join('\n')}\n`;
}

/** An update the API prices itself: its monthly change, and what it is charged or refunded now. */
function nowLine(l: PlanCostLine): string {
  const d = lineChange(l);
  const monthly = d === undefined || !priced(l.after) ? '' : `${signed(d).slice(0, 1)}${l.after.currency} ${amount(d)}/month; `;
  if (!l.now || 'unavailable' in l.now) return `    ${displayAddress(l.address)}: ${monthly}the charge now is unavailable (${l.now?.unavailable ?? ''})`;
  const { currency, basis } = l.now;
  return `    ${displayAddress(l.address)}: ${monthly}${currency} ${amount(l.now.amount)} ${l.now.amount < 0 ? 'refunded now' : 'now'}${basis ? ` ${basis}` : ''}`;
}

/** One line's prices before and after, for --verbose. */
function verboseLine(l: PlanCostLine): string {
  const side = (x: Price | undefined) => (priced(x) ? `${x.currency} ${amount(x.monthly)}` : '—');
  const basis = [l.before, l.after].map((x) => (priced(x) ? x.basis : undefined)).find(Boolean);
  return `    ${displayAddress(l.address)}: ${side(l.before)} → ${side(l.after)}/month${basis ? ` (${basis})` : ''}`;
}

/** What has no amount: unpriced types once each with their reason, then prices known only after apply, then failed price calls. */
function unpricedLines(cost: PlanCost, p: Paint, verbose: boolean): string[] {
  // The types with no price, grouped by their reason: one line says why for all of them.
  const reasons = new Map<string, Set<string>>();
  const pending: string[] = [];
  const failed: string[] = [];
  for (const l of cost.resources) {
    const why = notPriced(l);
    if (why.unpriced) reasons.set(why.unpriced, (reasons.get(why.unpriced) ?? new Set()).add(l.type.split(':').pop()!));
    if (why.pending) pending.push(verbose ? `${displayAddress(l.address)} (${why.pending})` : displayAddress(l.address));
    if (why.unavailable) failed.push(displayAddress(l.address));
  }
  const out = [...reasons].map(([why, types]) => p.dim(`  Not priced: ${fewOf([...types], verbose)} (${why})`));
  if (pending.length) out.push(p.dim(`  Price known after apply: ${pending.join(', ')}${verbose ? '' : ' (it depends on values known only after apply)'}`));
  if (failed.length) out.push(p.yellow(`  Price unavailable: ${failed.join(', ')} (the price call failed; left out of the totals)`));
  return out;
}

/** Names, the first three and how many more (every one with --verbose). */
function fewOf(names: string[], verbose: boolean): string {
  const shown = verbose ? names : names.slice(0, 3);
  return [...shown, ...(names.length > shown.length ? [`${names.length - shown.length} more`] : [])].join(', ');
}

/** A warning per resource whose delete cuts a term short (what the months left cost), or leaves it live and billed until its term ends. */
function termLines(cost: PlanCost, p: Paint): string[] {
  const out: string[] = [];
  for (const l of cost.resources) {
    const name = displayAddress(l.address);
    const t = l.earlyTermination;
    if (t) {
      const months = `${t.monthsLeft} month${t.monthsLeft === 1 ? '' : 's'} left`;
      const cost = t.amount !== undefined && t.currency ? `about ${t.currency} ${amount(t.amount)}` : 'price unavailable';
      out.push(p.yellow(`  Early termination: ${name} ends its term ${t.ends.slice(0, 10)}: ${months}, ${cost}`));
    }
    if (l.staysLiveUntil) out.push(p.yellow(`  Cancelled at the end of its term: ${name} stays live, and billed, until ${l.staysLiveUntil.slice(0, 10)}`));
  }
  return out;
}
