import { DiagnosticsError, type Diagnostic } from '../kernel/diagnostics.js';
import { UserError } from '../kernel/errors.js';
import type { Manifest } from '../manifest/ast.js';
import { configPlace } from '../manifest/config-resolve.js';
import type { Price } from './cost.js';
import type { PlanCost, PlanCostLine } from './plan-cost.js';
import { displayAddress } from './render-plan.js';
import { OWN_NAMESPACE, type BudgetLimit } from './own-settings.js';

/*
 * The budget a plan is held to: the most its changes may raise the stack's monthly cost, per
 * currency (amounts are never converted), from `--max-monthly-increase` or the config key
 * `plumb:maxMonthlyIncrease` (the flag wins). A plan over it, or one with a change whose price
 * could not be had, stops plan and apply before any order; usage-priced types are not counted.
 * One-off charges are not held to it.
 */

/** The config key that holds a stack's budget. */
const KEY = `${OWN_NAMESPACE}:maxMonthlyIncrease`;
const FLAG = '--max-monthly-increase';

/** The budget a run is held to, and where it was set. */
export interface Budget {
  limit: BudgetLimit;
  /** `--max-monthly-increase`, or `plumb:maxMonthlyIncrease` with where the stack set it. */
  source: string;
}

/** Where the config key was set, as a message names it: its file:line:column, or the flag or variable that gave it. */
function configSource(manifest: Manifest): { source: string; place: Pick<Diagnostic, 'pos' | 'address'> } {
  const place = configPlace(manifest, manifest.config[KEY]);
  const where = place.pos ? `at ${place.pos.file}:${place.pos.line}:${place.pos.column}` : place.address && `from ${place.address}`;
  return { source: where ? `${KEY} ${where}` : KEY, place };
}

/**
 * The run's budget: the flag's, else the config key's (already checked with the manifest); none
 * when neither is set. A budget with `--no-cost` is refused, naming both: it needs the prices.
 */
export function budgetOf(flag: number | undefined, own: Record<string, unknown>, manifest: Manifest, cost: boolean | undefined): Budget | undefined {
  const configured = own.maxMonthlyIncrease as BudgetLimit | undefined;
  if (flag === undefined && configured === undefined) return undefined;
  const fromConfig = flag === undefined ? configSource(manifest) : undefined;
  const budget = { limit: flag ?? configured!, source: fromConfig?.source ?? FLAG };
  if (cost !== false) return budget;
  const summary = `--no-cost asks no price, but the budget ${fromConfig ? KEY : FLAG} needs the plan's prices`;
  const detail = fromConfig ? `drop --no-cost to check the budget this stack sets` : `drop --no-cost, or ${FLAG}`;
  throw new DiagnosticsError([{ severity: 'error', summary, detail, ...(fromConfig?.place ?? {}) }]);
}

/** A currency whose monthly increase is over its limit, with the resources that raise it, largest first. */
export interface BudgetOver {
  currency: string;
  limit: number;
  increase: number;
  resources: Array<{ address: string; monthly: number }>;
}

/** A plan held to its budget, as `plan --json` and `apply --json` carry it. */
export interface BudgetCheck {
  limit: BudgetLimit;
  source: string;
  /** The monthly increase per currency, with the limit it is held to (none: that currency is unlimited). */
  increase: Array<{ currency: string; monthly: number; limit?: number }>;
  /** Within the budget, and every change that orders something priced. */
  ok: boolean;
  over: BudgetOver[];
  /** Changes that order something whose price could not be had: the budget cannot be checked while they are planned. */
  unpriced: Array<{ address: string; reason: string }>;
  /** Changes of types priced by use or with no price call: not counted. */
  notCounted: Array<{ address: string; reason: string }>;
}

const priced = (p: Price | undefined): p is Extract<Price, { monthly: number }> => Boolean(p && 'monthly' in p);
const ORDERS = ['create', 'update', 'replace'];

/** The monthly difference a line makes in `currency`, when every half it has is priced. */
function raise(l: PlanCostLine, currency: string): number | undefined {
  if ((l.before && !priced(l.before)) || (l.after && !priced(l.after))) return undefined;
  if (![l.before, l.after].some((p) => priced(p) && p.currency === currency)) return undefined;
  const side = (p: Price | undefined) => (priced(p) && p.currency === currency ? p.monthly : 0);
  return Math.round((side(l.after) - side(l.before)) * 100) / 100;
}

/** Why a change that orders something has no price (a failed call, values known only after apply); undefined when it has one or is not priced at all. */
function unavailable(l: PlanCostLine): string | undefined {
  if (!ORDERS.includes(l.action)) return undefined;
  for (const p of l.action === 'create' ? [l.after] : [l.after, l.before]) if (p && 'unavailable' in p) return p.unavailable;
  return undefined;
}

/** Holds a plan's cost (undefined: nothing priced changes) to the budget. */
export function checkBudget(cost: PlanCost | undefined, budget: Budget): BudgetCheck {
  const lines = cost?.resources ?? [];
  const limitOf = (currency: string) => (typeof budget.limit === 'number' ? budget.limit : budget.limit[currency]);
  const increase = (cost?.change ?? []).map(({ currency, monthly }) => ({ currency, monthly, ...(limitOf(currency) === undefined ? {} : { limit: limitOf(currency) }) }));
  const over = increase.filter((i) => i.limit !== undefined && i.monthly > i.limit).map((i) => ({ currency: i.currency, limit: i.limit!, increase: i.monthly, resources: raisers(lines, i.currency) }));
  const unpriced = lines.flatMap((l) => {
    const reason = unavailable(l);
    return reason ? [{ address: l.address, reason }] : [];
  });
  const notCounted = lines.flatMap((l) => {
    const p = [l.after, l.before].find((x) => x && 'unpriced' in x);
    return p && 'unpriced' in p ? [{ address: l.address, reason: p.unpriced }] : [];
  });
  return { limit: budget.limit, source: budget.source, increase, ok: !over.length && !unpriced.length, over, unpriced, notCounted };
}

/** The resources that raise the monthly cost in `currency`, largest first. */
function raisers(lines: PlanCostLine[], currency: string): BudgetOver['resources'] {
  return lines
    .map((l) => ({ address: l.address, monthly: raise(l, currency) }))
    .filter((r): r is { address: string; monthly: number } => r.monthly !== undefined && r.monthly > 0)
    .sort((a, b) => b.monthly - a.monthly || a.address.localeCompare(b.address));
}

const amount = (n: number) => Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (currency: string, n: number) => `${n < 0 ? '−' : '+'}${currency} ${amount(n)}`;

/** The limit as said: `USD 500.00`, or `500.00 in each currency` when the increase is in none. */
function limitText(check: BudgetCheck): string {
  const limited = check.increase.filter((i) => i.limit !== undefined);
  if (limited.length) return limited.map((i) => `${money(i.currency, i.monthly)}/month of ${i.currency} ${amount(i.limit!)}`).join('; ');
  const limits =
    typeof check.limit === 'number'
      ? `${amount(check.limit)} a month in each currency`
      : Object.entries(check.limit)
          .map(([c, n]) => `${c} ${amount(n)}`)
          .join(', ');
  return `${check.increase.length ? 'no limited currency changes' : 'no priced change'} (at most ${limits})`;
}

/** The line a plan within its budget shows after its cost, and what the check leaves out. */
export function budgetText(check: BudgetCheck): string {
  const out = [`Within the budget: ${limitText(check)} (${check.source})`];
  if (check.notCounted.length) out.push(`  Not counted: ${check.notCounted.map((n) => displayAddress(n.address)).join(', ')} (no price to hold to the budget)`);
  return `\n${out.join('\n')}\n`;
}

/** The error of a plan over its budget, or whose prices could not all be had: what raises it, largest first, and how to go on. */
export function budgetStop(check: BudgetCheck, stack: string): DiagnosticsError {
  const over = check.over.map((o) => `${o.currency} ${amount(o.increase)} a month, over the budget of ${o.currency} ${amount(o.limit)}`);
  const summary = over.length
    ? `the plan raises the monthly cost by ${over.join('; ')} (${check.source})`
    : `the budget (${check.source}) cannot be checked: ${check.unpriced.length === 1 ? 'one change has' : `${check.unpriced.length} changes have`} no price`;
  const detail = [
    ...check.over.flatMap((o) => [`${o.currency}, largest first:`, ...o.resources.map((r) => `  ${displayAddress(r.address)} ${money(o.currency, r.monthly)}/month`)]),
    ...(check.unpriced.length ? ['no price, so the budget cannot be checked:', ...check.unpriced.map((u) => `  ${displayAddress(u.address)}: ${u.reason}`)] : []),
    ...(check.notCounted.length ? [`not counted (no price to hold to the budget): ${check.notCounted.map((n) => displayAddress(n.address)).join(', ')}`] : []),
    over.length ? raiseTip(check, stack) : 'plan again when the price can be had, or leave these changes out (--exclude ADDRESS)',
  ];
  return new DiagnosticsError([{ severity: 'error', summary, detail: detail.join('\n') }]);
}

/** How to raise the budget to let the plan through, where it was set. */
function raiseTip(check: BudgetCheck, stack: string): string {
  const needed = Math.ceil(Math.max(...check.over.map((o) => o.increase)));
  const less = 'or change less at once (--target ADDRESS)';
  if (check.source === FLAG) return `to go ahead, raise it (${FLAG} ${needed}), ${less}`;
  if (typeof check.limit === 'number') return `to go ahead, raise it (plumb config set ${KEY} ${needed} --stack ${stack}, or ${FLAG} ${needed} for this run), ${less}`;
  const raised = { ...check.limit, ...Object.fromEntries(check.over.map((o) => [o.currency, Math.ceil(o.increase)])) };
  return `to go ahead, raise it (plumb config set ${KEY} '${JSON.stringify(raised)}' --stack ${stack}), ${less}`;
}
