import type { Layout } from './graph-layout.js';

/** Text made safe for HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The page's look, inline: it is opened from a CI artifact or a mail, with no network. Long
 * lines wrap instead of being cut, and a wide graph scrolls in its own box.
 */
const STYLE = `
:root { --add: #1a7f37; --del: #cf222e; --chg: #9a6700; --imp: #0969da; --same: #6e7781; --crit: #8250df; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
.meta { color: var(--same); margin: 0 0 12px; overflow-wrap: anywhere; }
.summary { font-weight: 600; font-size: 16px; }
.note { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px; border-radius: 6px; margin: 6px 0; overflow-wrap: anywhere; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 10px 12px; margin: 6px 0 14px; font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; }
details { margin: 4px 0; } summary { cursor: pointer; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; } th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
.add { color: var(--add); } .del { color: var(--del); } .chg { color: var(--chg); } .imp { color: var(--imp); } .dim { color: var(--same); }
.reasons li { margin: 2px 0; overflow-wrap: anywhere; }
h3 { font-size: 15px; margin: 16px 0 6px; } table.cost { margin-bottom: 10px; } summary .cost { margin-left: 8px; font-size: 13px; }
.graph { overflow: auto; border: 1px solid #d0d7de; border-radius: 6px; padding: 4px; background: #fcfcfd; }
.graph svg { display: block; }
.graph .node rect { fill: #fff; stroke: var(--same); stroke-width: 1.5; }
.graph .node.create rect, .graph .node.in-sync rect { stroke: var(--add); } .graph .node.create rect { fill: #dafbe1; }
.graph .node.update rect, .graph .node.drifted rect { stroke: var(--chg); fill: #fff8c5; }
.graph .node.replace rect, .graph .node.delete rect, .graph .node.deleted rect, .graph .node.error rect { stroke: var(--del); fill: #ffebe9; }
.graph .node.import rect { stroke: var(--imp); fill: #ddf4ff; }
.graph .node.noop rect { stroke: #d0d7de; }
.graph .node.critical rect { stroke: var(--crit); stroke-width: 3.5; }
.graph .node text { font: 13px ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; fill: #1f2328; }
.graph .node text.caption { fill: var(--same); font-size: 12px; }
.graph path { fill: none; stroke: #8c959f; stroke-width: 1.3; }
.graph path.critical { stroke: var(--crit); stroke-width: 3; }
.legend span { display: inline-block; margin-right: 14px; }
.legend i { display: inline-block; width: 12px; height: 12px; border: 2px solid; border-radius: 3px; vertical-align: -1px; margin-right: 4px; }
`;

/**
 * Keeps every label inside its box whatever font the reader's browser picks: a label wider than
 * its box is narrowed to fit (SVG's textLength), never cut.
 */
const FIT_LABELS = `
for (const t of document.querySelectorAll('.graph .node text')) {
  const room = Number(t.getAttribute('data-room'));
  if (t.getComputedTextLength() > room) { t.setAttribute('textLength', String(room)); t.setAttribute('lengthAdjust', 'spacingAndGlyphs'); }
}
`;

/** A whole page: title, body and the inline style and script. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>
${body}
<script>${FIT_LABELS}</script>
</body></html>
`;
}

/** The graph as inline SVG: a box per resource, coloured by what happens to it, and the critical path drawn over. */
export function graphSvg(layout: Layout): string {
  const edges = layout.edges.map((e) => {
    const [x1, y1, x2, y2] = e.points;
    const bend = Math.max(24, (x2 - x1) / 2);
    return `<path class="${e.critical ? 'critical' : ''}" data-from="${esc(e.from)}" data-to="${esc(e.to)}" d="M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}" marker-end="url(#arrow)"/>`;
  });
  const nodes = layout.nodes.map((n) => {
    const room = n.width - 20;
    return `<g class="node ${esc(n.status)}${n.critical ? ' critical' : ''}" data-address="${esc(n.id)}" transform="translate(${n.x},${n.y})">
<title>${esc(`${n.label}: ${n.caption}`)}</title><rect width="${n.width}" height="${n.height}" rx="6"/>
<text x="10" y="19" data-room="${room}">${esc(n.label)}</text><text class="caption" x="10" y="37" data-room="${room}">${esc(n.caption)}</text></g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" role="img" aria-label="dependency graph">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8c959f" stroke="none"/></marker></defs>
${edges.join('\n')}
${nodes.join('\n')}
</svg>`;
}
