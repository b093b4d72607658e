import type { StackCost } from '../cost.js';
import type { PlanCost } from '../plan-cost.js';
import { afterPlan, costRows, missingCount, missingParts, money, onceText, signedMoney, unpricedTypes, type CostRow } from '../render-cost.js';
import { displayAddress } from '../render-plan.js';
import { esc } from './page.js';

/**
 * The review page's cost: what the stack costs per month now and after the plan (when the plan
 * priced its state), the plan's change per provider and currency, each changed resource's amounts,
 * and the types with no price. Every figure is the one the plan saved: the page asks no price.
 */
export function costSection(cost: PlanCost): string {
  const parts = ['<h2>Cost</h2>'];
  if (cost.current) parts.push(stackTable(cost.current, cost));
  if (cost.resources.length) parts.push(changeTable(cost), resourceTable(costRows(cost).filter((r) => r.kind !== 'unpriced')), unpricedList(cost));
  else parts.push('<p class="meta">The plan changes nothing that is billed.</p>');
  return parts.filter(Boolean).join('\n');
}

/** What the stack costs per month now (from state), the plan's change, and the total after it. */
function stackTable(current: StackCost, cost: PlanCost): string {
  const rows = afterPlan(current.totals, cost).map(
    (r) =>
      `<tr><td>${esc(r.provider)}</td><td class="mono">${esc(money(r.currency, r.now))}</td><td class="mono">${esc(signedMoney(r.currency, r.change))}</td><td class="mono"><b>${esc(money(r.currency, r.after))}</b></td></tr>`,
  );
  const missing = missingParts(current);
  const note = missing.length ? `<p class="meta">Left out of the totals: ${esc(missing.join(', '))}${unavailableNames(current)}.</p>` : '';
  const body = rows.length ? rows.join('') : '<tr><td colspan="4">nothing priced</td></tr>';
  return `<h3>The stack per month</h3><table class="cost"><thead><tr><th>provider</th><th>now (from state)</th><th>this plan</th><th>after the plan</th></tr></thead><tbody>${body}</tbody></table>${note}`;
}

function unavailableNames(c: StackCost): string {
  return c.unavailable.length ? `: the price of <code>${c.unavailable.map((a) => esc(displayAddress(a))).join('</code>, <code>')}</code> could not be fetched` : '';
}

/** The plan's monthly amounts before and after per provider and currency, and the stack's change when there are several. */
function changeTable(cost: PlanCost): string {
  const rows = cost.totals.map(
    (t) =>
      `<tr><td>${esc(t.provider)}</td><td class="mono">${esc(money(t.currency, t.before))}</td><td class="mono">${esc(money(t.currency, t.after))}</td><td class="mono"><b>${esc(signedMoney(t.currency, t.change))}/month</b></td><td class="mono">${esc(onceText(t).join('; '))}</td></tr>`,
  );
  const stack = cost.totals.length > 1 ? `<p class="summary">Stack: ${esc(cost.change.map((c) => `${signedMoney(c.currency, c.monthly)}/month`).join(', '))}</p>` : '';
  const body = rows.length ? rows.join('') : '<tr><td colspan="5">nothing priced</td></tr>';
  return `<h3>What the plan changes</h3><table class="cost"><thead><tr><th>provider</th><th>changed resources before</th><th>after</th><th>change</th><th>once</th></tr></thead><tbody>${body}</tbody></table>${stack}`;
}

/** Each changed resource's amounts, with what is charged at once or left to pay on its term. */
function resourceTable(rows: CostRow[]): string {
  if (!rows.length) return '';
  const cls = (r: CostRow) => (r.kind === 'unavailable' ? ' class="chg"' : r.kind === 'pending' ? ' class="dim"' : '');
  const body = rows.map(
    (r) =>
      `<tr${cls(r)}><td><code>${esc(displayAddress(r.address))}</code></td><td>${esc(r.action)}</td><td class="mono">${esc(r.before)}</td><td class="mono">${esc(r.after)}</td><td class="mono">${esc(r.change)}</td><td>${esc(r.note)}</td></tr>`,
  );
  return `<table class="cost"><thead><tr><th>resource</th><th>action</th><th>monthly before</th><th>monthly after</th><th>change</th><th>note</th></tr></thead><tbody>${body.join('')}</tbody></table>`;
}

function unpricedList(cost: PlanCost): string {
  const types = unpricedTypes(cost);
  if (!types.length) return '';
  const items = types.map((t) => `<li><code>${esc(t.type)}</code> (${esc(t.addresses.join(', '))}): ${esc(t.why)}</li>`);
  return `<p class="meta">Not priced:</p><ul class="reasons">${items.join('')}</ul>`;
}

/** Each changed resource's cost row, by address. */
export function costByAddress(cost: PlanCost | undefined): Map<string, CostRow> {
  return new Map(cost ? costRows(cost).map((r) => [r.address, r]) : []);
}

/** A changed resource's cost in a few words, for beside its change: its monthly difference, or why it has none. */
export function costBeside(row: CostRow | undefined): string {
  if (!row) return '';
  const words = row.kind === 'priced' ? `${row.change}/month` : row.kind === 'unpriced' ? 'not priced' : row.kind === 'pending' ? 'price known after apply' : 'price unavailable';
  return ` <span class="cost ${row.kind === 'unavailable' ? 'chg' : 'dim'}"${row.note ? ` title="${esc(row.note)}"` : ''}>${esc(words)}</span>`;
}

/** The drift page's line: what the stack costs per month as ordered now. */
export function stackCostHtml(current: StackCost): string {
  const totals = current.totals.map((t) => `${t.provider} <b>${esc(money(t.currency, t.monthly))}</b>/month`);
  return `<h2>Cost</h2><p>What the stack costs per month as ordered now (from state): ${totals.length ? totals.join(', ') : 'nothing priced'}${esc(missingCount(current))}${unavailableNames(current)}.</p>`;
}
