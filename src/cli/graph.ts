import { UserError } from '../kernel/errors.js';
import { loadManifest, manifestPath, type GlobalOptions } from './session.js';

/** `plumb graph [--format dot|mermaid|json]`: the manifest's dependency graph. */
export async function graphCommand(arg: string | undefined, opts: GlobalOptions & { format: string }): Promise<number> {
  const { manifest, graph } = await loadManifest(manifestPath(arg, opts), { stack: { name: opts.stack, config: opts.config, state: opts.state } });
  const nodes = graph.order.map((name) => ({
    name,
    kind: graph.kindOf(name) ?? 'config',
    type: manifest.resources[name]?.token,
  }));
  // An edge points from a node to what it needs first.
  const edges = nodes.flatMap((n) => graph.dependencies(n.name).map((to) => ({ from: n.name, to })));
  switch (opts.format) {
    case 'json':
      process.stdout.write(`${JSON.stringify({ nodes, edges }, null, 2)}\n`);
      break;
    case 'mermaid': {
      const id = (name: string) => `n_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
      const lines = ['graph LR'];
      for (const n of nodes) lines.push(`  ${id(n.name)}${n.kind === 'resource' ? `["${n.name}<br/>${n.type}"]` : `(["${n.name}"])`}`);
      for (const e of edges) lines.push(`  ${id(e.to)} --> ${id(e.from)}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      break;
    }
    case 'dot': {
      const q = (s: string) => JSON.stringify(s);
      const lines = ['digraph plumb {', '  rankdir=LR;'];
      for (const n of nodes) lines.push(`  ${q(n.name)} [shape=${n.kind === 'resource' ? 'box' : 'ellipse'}, label=${q(n.type ? `${n.name}\n${n.type}` : n.name)}];`);
      for (const e of edges) lines.push(`  ${q(e.to)} -> ${q(e.from)};`);
      lines.push('}');
      process.stdout.write(`${lines.join('\n')}\n`);
      break;
    }
    default:
      throw new UserError(`--format ${opts.format}: expected dot, mermaid or json`);
  }
  return 0;
}
