import type { DriftReport } from '../../engine/planning/drift.js';
import type { Change, Plan } from '../../engine/types.js';
import { type Diagnostic, sourceExcerpt, warningDiagnostics, warningLine } from '../../kernel/diagnostics.js';
import { driftValue } from '../render-markdown.js';
import { givenValue, type SavedPlan } from '../saved-plan.js';
import { changeLines, displayAddress, heading, paint, showFull, shown, summaryLine, symbolOf } from '../render-plan.js';
import { costBeside, costByAddress, costSection, stackCostHtml } from './cost-section.js';
import type { StackCost } from '../cost.js';
import type { CostRow } from '../render-cost.js';
import { layoutGraph, type GraphEdge, type GraphNode, type Layout } from './graph-layout.js';
import { esc, graphSvg, page } from './page.js';

const plain = paint(false);

const CAPTION: Record<string, string> = { create: 'create', update: 'update in place', delete: 'destroy', import: 'import', read: 'read', noop: 'no change' };

/**
 * A plan as one self-contained page for review: the summary, each replacement with its reasons,
 * what the changes cost (and the stack per month now and after, where the plan priced its state),
 * the dependency graph (a node per resource, coloured by its change, the critical path drawn
 * over it), then every change as the terminal shows it, its cost beside it, and the outputs. The config values given
 * for the run (`--config`, `PLUMB_CONFIG_*`) are listed under the heading, secrets masked: the same
 * manifest and state plan differently with them.
 */
export function planHtml(plan: SavedPlan): string {
  const active = plan.changes.filter(shown);
  const layout = layoutGraph(
    plan.changes.map((c) => planNode(c)),
    plan.changes.flatMap((c) => c.dependsOn.map((d): GraphEdge => ({ from: d, to: c.address }))),
  );
  const costs = costByAddress(plan.cost);
  const title = `plumb ${plan.mode === 'destroy' ? 'destroy plan' : 'plan'}: ${plan.stack}`;
  const parts = [
    `<h1>${esc(title)}</h1>`,
    `<p class="meta">manifest <code>${esc(plan.manifest.file)}</code> · stack <code>${esc(plan.stack)}</code> · state serial ${plan.state.serial} · planned ${esc(plan.createdAt)}</p>`,
    configGiven(plan),
    `<p class="summary">${esc(active.length ? summaryLine(plan) : 'No changes. Your infrastructure matches the manifest.')}</p>`,
    ...plan.settled.map((s) => `<p class="note">Settled: ${esc(s)}</p>`),
    ...warningDiagnostics(plan.warnings, plan.warningsAt).map(warningHtml),
    replacements(active),
    plan.cost ? costSection(plan.cost) : '',
    graphSection(layout, 'Changed resources are coloured by what happens to them'),
    active.length ? `<h2>Changes</h2>\n${active.map((c) => changeBlock(c, costs.get(c.address))).join('\n')}` : '',
    outputs(plan.outputs),
  ];
  return page(title, parts.filter(Boolean).join('\n'));
}

/**
 * A drift report as one page: the counts, the stack's monthly total where it was priced, every drifted field with both values, and the
 * dependency graph (from `dependencies`, as recorded in state) with what drifted marked.
 */
export function driftHtml(report: DriftReport & { cost?: StackCost }, dependencies: Record<string, string[]>): string {
  const nodes = report.resources.map((r): GraphNode => ({
    id: r.address,
    label: displayAddress(r.address),
    status: r.status,
    caption: r.status === 'deleted' ? 'deleted out of band' : r.status.replace('-', ' '),
    weight: r.status === 'in-sync' ? 0 : 1,
  }));
  const layout = layoutGraph(
    nodes,
    Object.entries(dependencies).flatMap(([to, deps]) => deps.map((from) => ({ from, to }))),
  );
  const s = report.summary;
  const rows = report.resources.flatMap((r) =>
    r.fields.length
      ? r.fields.map(
          (f) =>
            `<tr><td><code>${esc(r.address)}</code></td><td>${esc(r.status)}</td><td><code>${esc(f.path)}</code></td><td class="mono">${esc(driftValue(f.state))}</td><td class="mono">${esc(driftValue(f.remote))}</td></tr>`,
        )
      : [`<tr><td><code>${esc(r.address)}</code></td><td>${esc(r.status === 'error' ? `error: ${r.error}` : r.status)}</td><td></td><td></td><td></td></tr>`],
  );
  const title = `plumb drift: ${report.stack}`;
  const body = [
    `<h1>${esc(title)}</h1>`,
    `<p class="meta">stack <code>${esc(report.stack)}</code> · checked ${esc(report.checkedAt)}</p>`,
    `<p class="summary">${s.inSync} in sync, ${s.drifted} drifted, ${s.deleted} deleted, ${s.errors} errors.</p>`,
    report.cost ? stackCostHtml(report.cost) : '',
    `<h2>Resources</h2><table><thead><tr><th>resource</th><th>status</th><th>field</th><th>state</th><th>remote</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    graphSection(layout, 'What drifted, was deleted or could not be read is marked'),
  ];
  return page(title, body.filter(Boolean).join('\n'));
}

/** The config values given for the run, or a line saying there were none. */
function configGiven(plan: SavedPlan): string {
  const given = plan.configGiven ?? [];
  if (!given.length) return '<p class="meta">Config given for this run: none (values come from the stack\'s settings and the manifest).</p>';
  const rows = given.map((g) => `<tr><td><code>${esc(g.key)}</code></td><td class="mono">${esc(givenValue(g))}</td><td><code>${esc(g.from)}</code></td></tr>`);
  return `<h2>Config given for this run</h2><table><thead><tr><th>key</th><th>value</th><th>given by</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function planNode(c: Change): GraphNode {
  const caption =
    c.action === 'replace'
      ? `${symbolOf(c)} replace (${c.replaceOrder === 'delete-first' ? 'delete first' : 'create first'})`
      : c.action === 'noop' && c.awaits
        ? 'wait until ready'
        : `${c.action === 'noop' ? '' : `${symbolOf(c)} `}${CAPTION[c.action]}`;
  const weight = c.action === 'noop' && !c.awaits ? 0 : c.action === 'replace' ? 2 : 1;
  return { id: c.address, label: displayAddress(c.address), status: c.action, caption, weight };
}

/** Each replacement and every reason for it: what a reviewer must agree to before a link is cut. */
function replacements(active: Change[]): string {
  const replaced = active.filter((c) => c.action === 'replace');
  if (!replaced.length) return '';
  const items = replaced.map((c) => {
    const why =
      c.reason === 'tainted'
        ? ['the object is tainted (a create did not finish)']
        : c.reason === 'replace-requested'
          ? ['requested with --replace']
          : (c.replacePaths ?? []).map((r) => `<code>${esc(r.path)}</code>: ${esc(r.reason)}`);
    const order = c.replaceOrder === 'delete-first' ? 'deleted first, then created: the old object is gone before the new one exists' : 'created first, then deleted';
    return `<li><code class="del">${esc(symbolOf(c))} ${esc(displayAddress(c.address))}</code> (${esc(c.type)}), ${order}<ul class="reasons">${why.map((w) => `<li>${w}</li>`).join('')}</ul></li>`;
  });
  return `<h2>Replacements</h2><ul class="reasons">${items.join('\n')}</ul>`;
}

function graphSection(layout: Layout, what: string): string {
  const path = layout.criticalPath.length ? `Critical path: <code>${layout.criticalPath.map((a) => esc(displayAddress(a))).join(' → ')}</code>.` : 'No chain of changes.';
  const legend = [
    ['create / in sync', 'var(--add)'],
    ['update / drifted', 'var(--chg)'],
    ['replace / destroy / deleted', 'var(--del)'],
    ['import', 'var(--imp)'],
    ['critical path', 'var(--crit)'],
  ]
    .map(([label, colour]) => `<span><i style="border-color:${colour}"></i>${label}</span>`)
    .join('');
  return `<h2>Dependency graph</h2><p class="meta">${what}. ${path}</p><p class="legend meta">${legend}</p><div class="graph">${graphSvg(layout)}</div>`;
}

/** One change as the terminal shows it, each line coloured by its marker, its cost beside its heading. */
function changeBlock(c: Change, cost: CostRow | undefined): string {
  // The heading is the block's summary line; the block starts at the symbol line.
  const rest = changeLines(c, plain).slice(1);
  const lines = rest.slice(0, -1).map((line) => {
    const marker = /^\s*(-\/\+|\+\/-|[+~=-])\s/.exec(line)?.[1];
    const cls = marker === '+' || marker === '+/-' ? 'add' : marker === '-' || marker === '-/+' ? 'del' : marker === '~' ? 'chg' : marker === '=' ? 'imp' : '';
    return cls ? `<span class="${cls}">${esc(line)}</span>` : esc(line);
  });
  return `<details open><summary><code>${esc(symbolOf(c))} ${esc(displayAddress(c.address))}</code> ${esc(heading(c).slice(displayAddress(c.address).length + 1))}${costBeside(cost)}</summary><pre>${lines.join('\n')}</pre></details>`;
}

function outputs(values: Record<string, unknown>): string {
  const entries = Object.entries(values);
  if (!entries.length) return '';
  return `<h2>Outputs</h2><pre>${entries.map(([k, v]) => esc(`${k} = ${showFull(v)}`)).join('\n')}</pre>`;
}

/** A warning: its line, and the source line it points at where that is known. */
function warningHtml(w: Diagnostic): string {
  const excerpt = w.pos ? sourceExcerpt(w.pos) : [];
  return `<p class="note">Warning: ${esc(warningLine(w))}</p>${excerpt.length ? `\n<pre>${esc(excerpt.join('\n'))}</pre>` : ''}`;
}
