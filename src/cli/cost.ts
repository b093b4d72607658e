import { stripVTControlCharacters } from 'node:util';
import { ReadPass, resourceContext } from '../engine/applying/context.js';
import type { ResourceState } from '../engine/contracts/state.js';
import type { QuoteContext } from '../engine/contracts/resource-type.js';
import type { EngineDeps } from '../engine/types.js';
import { displayAddress, paint, type Paint } from './render-plan.js';
import { planningNotices, useColor } from './run.js';
import { manifestPath, openSession, type GlobalOptions } from './session.js';

/**
 * `plumb cost`: the stack's bill of materials, from state (what is ordered now). Each resource is
 * priced by its type's quote (the vendor's price call, in the API's currency, never converted), or
 * named with the reason it cannot be; a price call that fails leaves that resource "price
 * unavailable", out of the totals, and the command says so on stderr but still succeeds.
 */

/** One resource's line of the bill. */
export type CostLine = { address: string; type: string; provider: string } & ({ monthly: number; oneOff: number; currency: string; basis?: string } | { unpriced: string } | { unavailable: string });

/** What a provider's priced resources add up to, in one currency. */
export interface CostTotal {
  provider: string;
  currency: string;
  monthly: number;
  oneOff: number;
}

export const cents = (n: number) => Math.round(n * 100) / 100;

/** What one object costs: its quote, its type's reason for having none, or why the price call failed. */
export type Price = { monthly: number; oneOff: number; currency: string; basis?: string } | { unpriced: string } | { unavailable: string };

/** The price of an object of type `token` with these inputs (a recorded object's, with its id and outputs), through the provider (instance) that manages it. */
export async function priceOf(
  token: string,
  inputs: unknown,
  provider: string | undefined,
  address: string,
  deps: EngineDeps,
  pass: ReadPass,
  recorded?: { id: string; outputs: unknown },
  planned?: QuoteContext['planned'],
): Promise<Price> {
  const type = deps.resourceType(token);
  if (!type?.cost) return { unpriced: 'no price is known for this type' };
  if ('unpriced' in type.cost) return { unpriced: type.cost.unpriced };
  try {
    const ctx = await resourceContext(deps, type, address, { pass, provider });
    const q = await type.cost.quote(inputs, planned ? { ...ctx, planned } : ctx, recorded);
    if ('unpriced' in q) return { unpriced: q.unpriced };
    return { monthly: q.monthly, oneOff: q.oneOff, currency: q.currency, ...(q.basis ? { basis: q.basis } : {}) };
  } catch (err) {
    return { unavailable: err instanceof Error ? err.message : String(err) };
  }
}

/** The provider a type's objects belong to. */
export function providerOf(token: string, deps: EngineDeps): string {
  return deps.resourceType(token)?.provider ?? token.split(':')[0];
}

/** The line of one recorded resource. */
async function lineOf(r: ResourceState, deps: EngineDeps, pass: ReadPass): Promise<CostLine> {
  const head = { address: r.address, type: r.type, provider: providerOf(r.type, deps) };
  return { ...head, ...(await priceOf(r.type, r.inputs, r.provider, r.address, deps, pass, r)) };
}

/** The priced lines summed per provider and currency, in the order they first appear. */
export function costTotals(lines: CostLine[]): CostTotal[] {
  const totals = new Map<string, CostTotal>();
  for (const l of lines) {
    if (!('monthly' in l)) continue;
    const key = `${l.provider}\0${l.currency}`;
    const t = totals.get(key) ?? { provider: l.provider, currency: l.currency, monthly: 0, oneOff: 0 };
    totals.set(key, { ...t, monthly: cents(t.monthly + l.monthly), oneOff: cents(t.oneOff + l.oneOff) });
  }
  return [...totals.values()];
}

/** What the stack costs per month as ordered now: the totals per provider and currency, and the resources with no amount. */
export interface StackCost {
  totals: CostTotal[];
  /** Resources whose type has no price (each with its reason on `plumb cost`). */
  unpriced: string[];
  /** Resources whose price call failed: left out of the totals. */
  unavailable: string[];
}

/** The current monthly total of `resources` (recorded state), priced as `plumb cost` prices them, through `pass`. */
export async function stackCost(resources: ResourceState[], deps: EngineDeps, pass: ReadPass): Promise<StackCost> {
  const lines = await Promise.all(resources.map((r) => lineOf(r, deps, pass)));
  const names = (kind: 'unpriced' | 'unavailable') => lines.filter((l) => kind in l).map((l) => l.address);
  return { totals: costTotals(lines), unpriced: names('unpriced'), unavailable: names('unavailable') };
}

const money = (currency: string, n: number) => `${currency} ${n.toFixed(2)}`;

/** The bill as a table: a line per resource, then the totals per provider and currency. */
export function costTable(stack: string, lines: CostLine[], p: Paint): string {
  const rows = lines.map((l): string[] => {
    const name = displayAddress(l.address);
    if ('monthly' in l) return [name, l.type, `${money(l.currency, l.monthly)}/month`, l.oneOff ? `${money(l.currency, l.oneOff)} once` : '', l.basis ?? ''];
    if ('unpriced' in l) return [name, l.type, p.dim('unpriced'), '', l.unpriced];
    return [name, l.type, p.yellow('price unavailable'), '', l.unavailable];
  });
  // The one-off column only where some resource has a one-off charge.
  const columns = rows.some((r) => r[3]) ? [0, 1, 2, 3, 4] : [0, 1, 2, 4];
  const widths = rows.length ? rows[0].map((_, i) => Math.max(...rows.map((r) => stripVTControlCharacters(r[i]).length))) : [];
  const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - stripVTControlCharacters(s).length));
  const body = rows.map((r) => `  ${columns.map((i) => (i < 4 ? pad(r[i], widths[i]) : r[i])).join('  ')}`.trimEnd());
  const totals = costTotals(lines).map((t) => `  ${t.provider}: ${money(t.currency, t.monthly)}/month${t.oneOff ? `, ${money(t.currency, t.oneOff)} once` : ''}`);
  const out = [p.bold(`What stack ${stack} costs, as ordered now (from state):`), '', ...(rows.length ? body : ['  (nothing recorded)'])];
  if (totals.length) out.push('', p.bold('Total per provider:'), ...totals);
  return `${out.join('\n')}\n`;
}

/** `plumb cost [MANIFEST] [--json]`: exit 0, with a warning on stderr for each price that could not be fetched. */
export async function costCommand(arg: string | undefined, opts: GlobalOptions & { json?: boolean }): Promise<number> {
  const session = await openSession(manifestPath(arg, opts), opts);
  try {
    const state = await session.store.read();
    const pass = new ReadPass();
    // A wait for a rate window or a call sent again is said as plan says it: before the table, or on stderr beside JSON.
    const notices = planningNotices(session, opts, opts.json ? 'document' : 'none');
    const priced = await Promise.all(Object.values(state.resources).map((r) => lineOf(r, session.deps, pass))).finally(notices);
    // Grouped by provider, each in the order state records it.
    const providers = [...new Set(priced.map((l) => l.provider))];
    const lines = providers.flatMap((provider) => priced.filter((l) => l.provider === provider));
    const failed = lines.filter((l) => 'unavailable' in l);
    if (failed.length) {
      const names = failed.map((l) => displayAddress(l.address)).join(', ');
      process.stderr.write(`Warning: the price of ${names} could not be fetched; the totals leave ${failed.length === 1 ? 'it' : 'them'} out.\n`);
    }
    if (opts.json) process.stdout.write(`${JSON.stringify({ stack: opts.stack, resources: lines, totals: costTotals(lines) }, null, 2)}\n`);
    else process.stdout.write(costTable(opts.stack, lines, paint(useColor(opts))));
    return 0;
  } finally {
    await session.close();
  }
}
