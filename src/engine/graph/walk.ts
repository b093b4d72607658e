import PQueue from 'p-queue';

/** A node of a graph to walk: it runs once every node it needs has finished. */
export interface WalkNode {
  key: string;
  /** Keys of the nodes that must finish first. */
  needs: string[];
  /** Higher runs first among the nodes that are ready (the longest path to the end, say). */
  priority: number;
}

/** How one node ended. */
export type WalkResult =
  | { status: 'done' }
  | { status: 'failed'; error: unknown }
  /** Not run: `cause` is the key of the failed node it waited on, or the reason the walk halted. */
  | { status: 'skipped'; cause: string };

/** What the walker tells its caller as nodes end. */
export interface WalkHooks<N> {
  /** A node will not run because a node it needs failed (or the walk halted). */
  skipped?(node: N, cause: string): void;
}

/**
 * Walks a dependency graph: each node runs as soon as the nodes it needs are done, at most
 * `concurrency` at once, the highest priority first. A failed node skips the nodes that need it,
 * transitively; independent nodes go on. `visit` may call `halt(reason)` to stop the walk: nodes
 * not started yet are skipped with that reason as their cause, while running ones finish.
 */
export async function walk<N extends WalkNode>(
  nodes: N[],
  visit: (node: N, halt: (reason: string) => void) => Promise<void>,
  options: { concurrency: number } & WalkHooks<N>,
): Promise<Map<string, WalkResult>> {
  const results = new Map<string, WalkResult>();
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const dependents = new Map<string, N[]>(nodes.map((n) => [n.key, []]));
  for (const n of nodes) for (const need of n.needs) dependents.get(need)?.push(n);
  const waiting = new Map(nodes.map((n) => [n.key, n.needs.filter((k) => byKey.has(k)).length]));
  const queue = new PQueue({ concurrency: Math.max(1, options.concurrency) });
  let halted: string | undefined;
  const halt = (reason: string) => (halted ??= reason);

  // Iterative: a failure early in a long chain skips the whole chain without deep recursion.
  const finish = (first: N, firstResult: WalkResult): void => {
    const ended: Array<[N, WalkResult]> = [[first, firstResult]];
    while (ended.length) {
      const [node, result] = ended.pop() as [N, WalkResult];
      results.set(node.key, result);
      for (const next of dependents.get(node.key) ?? []) {
        if (results.has(next.key)) continue;
        if (result.status !== 'done') {
          const cause = result.status === 'skipped' ? result.cause : node.key;
          options.skipped?.(next, cause);
          results.set(next.key, { status: 'skipped', cause });
          ended.push([next, { status: 'skipped', cause }]);
        } else {
          const left = (waiting.get(next.key) ?? 1) - 1;
          waiting.set(next.key, left);
          if (left === 0) start(next);
        }
      }
    }
  };
  const start = (node: N): void => {
    void queue.add(
      async () => {
        if (halted !== undefined) {
          options.skipped?.(node, halted);
          return finish(node, { status: 'skipped', cause: halted });
        }
        try {
          await visit(node, halt);
          finish(node, { status: 'done' });
        } catch (error) {
          finish(node, { status: 'failed', error });
        }
      },
      { priority: node.priority },
    );
  };
  for (const node of nodes) if (waiting.get(node.key) === 0) start(node);
  await queue.onIdle();
  skipNeverReady(nodes, results, options);
  return results;
}

/**
 * Nodes that wait on each other (a cycle) never become ready: they did not run, and are said to
 * be skipped, never reported done. Planning orders the steps so that this does not happen.
 */
function skipNeverReady<N extends WalkNode>(nodes: N[], results: Map<string, WalkResult>, hooks: WalkHooks<N>): void {
  for (const node of nodes) {
    if (results.has(node.key)) continue;
    const cause = 'it waits on steps that wait on it';
    hooks.skipped?.(node, cause);
    results.set(node.key, { status: 'skipped', cause });
  }
}

/** Sets each node's priority to the length of the longest path from it to the end of the graph. */
export function prioritiseByDepth<N extends WalkNode>(nodes: N[]): void {
  const dependents = new Map<string, N[]>(nodes.map((n) => [n.key, []]));
  for (const n of nodes) for (const need of n.needs) dependents.get(need)?.push(n);
  // Iterative, in reverse topological order: a deep graph must not exhaust the stack.
  const depth = new Map<string, number>();
  const order = topologicalOrder(nodes, dependents);
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i];
    let deepest = 0;
    for (const d of dependents.get(node.key) ?? []) deepest = Math.max(deepest, depth.get(d.key) ?? 0);
    depth.set(node.key, deepest + 1);
    node.priority = deepest + 1;
  }
}

/** Kahn's algorithm; nodes on a cycle (which the plan never makes) come last, in input order. */
function topologicalOrder<N extends WalkNode>(nodes: N[], dependents: Map<string, N[]>): N[] {
  const keys = new Set(nodes.map((n) => n.key));
  const left = new Map(nodes.map((n) => [n.key, n.needs.filter((k) => keys.has(k)).length]));
  const ready = nodes.filter((n) => left.get(n.key) === 0);
  const out: N[] = [];
  while (ready.length) {
    const node = ready.pop() as N;
    out.push(node);
    for (const d of dependents.get(node.key) ?? []) {
      const n = (left.get(d.key) ?? 1) - 1;
      left.set(d.key, n);
      if (n === 0) ready.push(d);
    }
  }
  if (out.length < nodes.length) for (const n of nodes) if (!out.includes(n)) out.push(n);
  return out;
}
