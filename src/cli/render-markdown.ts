import type { DriftReport } from '../engine/planning/drift.js';
import type { Change, Plan } from '../engine/types.js';
import { sourceExcerpt, warningDiagnostics, warningLine } from '../kernel/diagnostics.js';
import type { StackCost } from './cost.js';
import type { PlanCost } from './plan-cost.js';
import { costRows, money, onceText, signedMoney, stackCostLine, unpricedTypes } from './render-cost.js';
import { attributeLines, scalar } from './render-diff.js';
import { displayAddress, heading, paint, replaceSummary, showFull, shown, summaryLine, symbolOf } from './render-plan.js';

const plain = paint(false);

/**
 * A plan as a pull-request comment (GitHub-flavoured markdown): the summary, a table of what
 * changes and why, then each change in a collapsed `diff` block, its marker moved to the start of
 * the line so the review tool colours it (`!` for a change in place, as tfcmt and Atlantis do),
 * then what the changes cost as the plan priced them (`cost`; no price is asked here).
 */
export function planMarkdown(plan: Plan & { cost?: PlanCost }, verbose = false): string {
  const active = plan.changes.filter(shown);
  const title = plan.mode === 'destroy' ? 'Destroy plan' : 'Plan';
  const lines = [`### ${title}: \`${plan.manifest.file}\`, stack \`${plan.stack}\``, ''];
  for (const s of plan.settled) lines.push(`> **Settled:** ${cell(s)}`, '');
  if (!active.length) lines.push(plan.mode === 'destroy' ? 'No changes. No objects need to be destroyed.' : 'No changes. Your infrastructure matches the manifest.');
  else {
    lines.push(`**${summaryLine(plan)}**`, '', '| | resource | type | why |', '|---|---|---|---|');
    for (const c of active) lines.push(`| \`${symbolOf(c)}\` | \`${displayAddress(c.address)}\` | \`${c.type}\` | ${cell(why(c))} |`);
    lines.push('');
    for (const c of active) lines.push(...details(c, verbose));
  }
  if (plan.cost) lines.push(...costMarkdown(plan.cost));
  for (const w of warningDiagnostics(plan.warnings, plan.warningsAt)) {
    lines.push('', `> **Warning:** ${cell(warningLine(w))}`);
    const excerpt = w.pos ? sourceExcerpt(w.pos) : [];
    if (excerpt.length) lines.push('', '```text', ...excerpt, '```');
  }
  const outputs = Object.entries(plan.outputs);
  if (outputs.length) {
    lines.push('', '<details><summary>Outputs</summary>', '', '```');
    for (const [k, v] of outputs) lines.push(`${k} = ${showFull(v, verbose)}`);
    lines.push('```', '', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A plan's cost as a compact table: per provider and currency the monthly amounts before and after
 * and the change, the stack's change when there is more than one, then each changed resource's
 * amounts with what is charged at once or left to pay on its term, and the types with no price.
 */
export function costMarkdown(cost: PlanCost): string[] {
  if (!cost.resources.length) return [];
  const lines = ['#### Cost', '', '| provider | change per month | changed resources, before → after | once |', '|---|---|---|---|'];
  for (const t of cost.totals) {
    lines.push(`| ${t.provider} | **${signedMoney(t.currency, t.change)}** | ${money(t.currency, t.before)} → ${money(t.currency, t.after)} | ${onceText(t).join('; ')} |`);
  }
  if (cost.totals.length > 1) lines.push('', `**Stack: ${cost.change.map((c) => `${signedMoney(c.currency, c.monthly)}/month`).join(', ')}**`);
  const rows = costRows(cost).filter((r) => r.kind !== 'unpriced');
  if (rows.length) {
    lines.push('', '| resource | action | monthly before | monthly after | change | note |', '|---|---|---|---|---|---|');
    for (const r of rows) lines.push(`| \`${displayAddress(r.address)}\` | ${r.action} | ${r.before} | ${r.after} | ${r.change} | ${cell(r.note)} |`);
  }
  const unpriced = unpricedTypes(cost);
  if (unpriced.length) lines.push('', `Not priced: ${unpriced.map((u) => `\`${u.type}\` (${cell(u.why)})`).join(', ')}.`);
  return ['', ...lines];
}

/** A drift report as markdown: a table of every field that drifted, the counts, and the stack's monthly total where it was priced. */
export function driftMarkdown(report: DriftReport & { cost?: StackCost }): string {
  const lines = [`### Drift: stack \`${report.stack}\``, '', `Checked ${report.checkedAt}.`, '', '| resource | status | field | state | remote |', '|---|---|---|---|---|'];
  for (const r of report.resources) {
    if (r.fields.length === 0) lines.push(`| \`${r.address}\` | ${r.status}${r.error ? `: ${cell(r.error)}` : ''} | | | |`);
    for (const f of r.fields) lines.push(`| \`${r.address}\` | ${r.status} | \`${f.path}\` | ${cell(driftValue(f.state))} | ${cell(driftValue(f.remote))} |`);
  }
  const s = report.summary;
  lines.push('', `**${s.inSync} in sync, ${s.drifted} drifted, ${s.deleted} deleted, ${s.errors} errors.**`);
  if (report.cost) lines.push('', `Monthly cost as ordered now (from state): ${stackCostLine(report.cost)}.`);
  return lines.join('\n');
}

/** A drifted value in full, on one line: a table cell or a table row holds no line break. */
export function driftValue(v: unknown): string {
  return v !== null && typeof v === 'object' && Object.keys(v).length ? JSON.stringify(v) : scalar(v);
}

/** What the table says of a change: the replacement's reasons, or its heading's words. */
function why(c: Change): string {
  if (c.action === 'replace') return `${c.replaceOrder === 'delete-first' ? 'delete first, then create' : 'create first, then delete'}: ${replaceSummary(c)}`;
  return heading(c).slice(displayAddress(c.address).length + 1);
}

function details(c: Change, verbose: boolean): string[] {
  const marker = c.action === 'create' ? '+' : c.action === 'delete' ? '-' : '!';
  const diff = [
    `${marker} ${displayAddress(c.address)} (${c.type})${c.id ? ` id=${c.id}` : ''} {`,
    ...attributeLines(c, plain, undefined, verbose).map(markerFirst),
    '  }',
    ...c.notes.map((n) => `  ! ${n}`),
  ];
  const words = escapeHtml(heading(c).slice(displayAddress(c.address).length + 1));
  return [`<details><summary><code>${symbolOf(c)} ${escapeHtml(displayAddress(c.address))}</code> ${words}</summary>`, '', '```diff', ...diff, '```', '', '</details>', ''];
}

/** `      ~ name = ...` → `!     name = ...`: a diff block colours a line by its first character. */
function markerFirst(line: string): string {
  const m = /^( *)([+\-~]) (.*)$/.exec(line);
  if (!m) return line;
  return `${m[2] === '~' ? '!' : m[2]}${m[1]} ${m[3]}`;
}

/** Text safe inside a table cell: no line breaks, no column bars. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
