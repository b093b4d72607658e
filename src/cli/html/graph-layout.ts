/** One resource in a drawn dependency graph. */
export interface GraphNode {
  id: string;
  label: string;
  /** What happens to it: a plan's action (`create`, `replace`...) or a drift status. */
  status: string;
  /** The words under its name: `-/+ replace`, `drifted`. */
  caption: string;
  /** Steps it takes: 0 for a resource that stays as it is. */
  weight: number;
}

/** A dependency: `to` needs `from` first. */
export interface GraphEdge {
  from: string;
  to: string;
}

/** A node placed on the page, with its box. */
export interface PlacedNode extends GraphNode {
  x: number;
  y: number;
  width: number;
  height: number;
  critical: boolean;
}

/** The graph laid out left to right, dependencies first, and its critical path. */
export interface Layout {
  nodes: PlacedNode[];
  edges: Array<GraphEdge & { critical: boolean; points: [number, number, number, number] }>;
  width: number;
  height: number;
  /** The longest chain of dependent changes, in order: what an apply cannot do faster than. */
  criticalPath: string[];
}

/** Width of one character of the page's monospace text, a little over what common fonts use. */
const CHAR = 8.4;
const NODE_HEIGHT = 46;
const GAP_X = 64;
const GAP_Y = 18;
const MARGIN = 12;

/**
 * Lays out a dependency graph in columns: a node's column is the length of the longest chain of
 * dependencies before it, and within a column nodes are ordered by where their dependencies
 * sit (two barycenter sweeps), which keeps most edges short and straight. Plain code: a plan's
 * graph is small, and the page must carry everything it draws.
 */
export function layoutGraph(nodes: GraphNode[], edges: GraphEdge[]): Layout {
  const ids = new Set(nodes.map((n) => n.id));
  const kept = edges.filter((e) => ids.has(e.from) && ids.has(e.to) && e.from !== e.to);
  const before = new Map(nodes.map((n) => [n.id, [] as string[]]));
  for (const e of kept) before.get(e.to)!.push(e.from);
  const order = topological(
    nodes.map((n) => n.id),
    before,
  );
  const column = new Map<string, number>();
  for (const id of order) column.set(id, Math.max(-1, ...before.get(id)!.map((d) => column.get(d) ?? 0)) + 1);
  const columns: string[][] = [];
  for (const id of order) (columns[column.get(id)!] ??= []).push(id);
  orderColumns(columns, before);
  const critical = criticalPath(order, before, new Map(nodes.map((n) => [n.id, n.weight])));
  const onPath = new Set(critical);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const placed = new Map<string, PlacedNode>();
  let x = MARGIN;
  let height = 0;
  for (const ids of columns) {
    const width = Math.max(...ids.map((id) => Math.max(byId.get(id)!.label.length, byId.get(id)!.caption.length))) * CHAR + 24;
    ids.forEach((id, i) => {
      const y = MARGIN + i * (NODE_HEIGHT + GAP_Y);
      placed.set(id, { ...byId.get(id)!, x, y, width, height: NODE_HEIGHT, critical: onPath.has(id) });
      height = Math.max(height, y + NODE_HEIGHT + MARGIN);
    });
    x += width + GAP_X;
  }
  const pathEdges = new Set(critical.slice(1).map((id, i) => `${critical[i]}>${id}`));
  return {
    nodes: [...placed.values()],
    edges: kept.map((e) => {
      const a = placed.get(e.from)!;
      const b = placed.get(e.to)!;
      return { ...e, critical: pathEdges.has(`${e.from}>${e.to}`), points: [a.x + a.width, a.y + NODE_HEIGHT / 2, b.x, b.y + NODE_HEIGHT / 2] };
    }),
    width: Math.max(x - GAP_X + MARGIN, 2 * MARGIN),
    height: Math.max(height, 2 * MARGIN),
    criticalPath: critical,
  };
}

/** Dependencies first; a cycle (which a valid manifest cannot have) is broken where it is met. */
function topological(ids: string[], before: Map<string, string[]>): string[] {
  const out: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  for (const root of ids) {
    const stack: Array<[string, number]> = [[root, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [id, i] = top;
      if (i === 0) {
        if (state.has(id)) {
          stack.pop();
          continue;
        }
        state.set(id, 'open');
      }
      const deps = before.get(id) ?? [];
      if (i < deps.length) {
        top[1]++;
        if (!state.has(deps[i])) stack.push([deps[i], 0]);
      } else {
        state.set(id, 'done');
        out.push(id);
        stack.pop();
      }
    }
  }
  return out;
}

/** Orders each column by the mean position of each node's dependencies in the columns before. */
function orderColumns(columns: string[][], before: Map<string, string[]>): void {
  for (let sweep = 0; sweep < 2; sweep++) {
    const position = new Map<string, number>();
    for (const ids of columns) {
      const centre = (id: string) => {
        const at = before
          .get(id)!
          .map((d) => position.get(d))
          .filter((p): p is number => p !== undefined);
        return at.length ? at.reduce((a, b) => a + b, 0) / at.length : Number.POSITIVE_INFINITY;
      };
      const keyed = ids.map((id, i) => ({ id, key: centre(id), i }));
      keyed.sort((a, b) => (a.key === b.key ? a.i - b.i : a.key - b.key));
      keyed.forEach((k, i) => {
        ids[i] = k.id;
        position.set(k.id, i);
      });
    }
  }
}

/** The chain of dependencies whose steps add up to the most; empty when nothing changes. */
function criticalPath(order: string[], before: Map<string, string[]>, weight: Map<string, number>): string[] {
  const best = new Map<string, { total: number; via?: string }>();
  for (const id of order) {
    let via: string | undefined;
    let total = 0;
    for (const d of before.get(id)!) {
      const t = best.get(d)?.total ?? 0;
      if (t > total) [total, via] = [t, d];
    }
    best.set(id, { total: total + (weight.get(id) ?? 0), via });
  }
  let end: string | undefined;
  for (const id of order) if (!end || best.get(id)!.total > best.get(end)!.total) end = id;
  if (!end || !best.get(end)!.total) return [];
  const path: string[] = [];
  for (let at: string | undefined = end; at; at = best.get(at)!.via) path.unshift(at);
  // A chain starts at its first change: unchanged resources before it are not on the path.
  while (path.length && !weight.get(path[0])) path.shift();
  return path;
}
