import type { Diagnostic } from '../../kernel/diagnostics.js';
import { entryPos, refsOf, resourceRefs, type Manifest, type Pos, type RefExpr } from '../../manifest/ast.js';
import { closestName } from '../../kernel/did-you-mean.js';

/** The kind of a node in the manifest's dependency graph. */
export type NodeKind = 'config' | 'variable' | 'resource';

/** The dependency graph of a manifest: an edge a → b means a needs b first. */
export interface ManifestGraph {
  /** Names in evaluation order (dependencies first). */
  order: string[];
  kindOf(name: string): NodeKind | undefined;
  /** Direct dependencies of a name. */
  dependencies(name: string): string[];
  /** Resources a resource needs first, looking through variables. */
  resourceDependencies(address: string): string[];
}

/**
 * Builds the graph from `${...}` references and dependsOn; reports unknown names and cycles.
 * Provider resources are no nodes: they make nothing, so nothing waits for them.
 * Edges live in plain adjacency lists, and every walk keeps its own stack: a chain of
 * references can be as long as the manifest (`v2: ${v1}`, `v1: ${v0}`...), far deeper than the
 * call stack a recursive walk (graphlib's among them) would need.
 * `onResourceRef` sees each reference to a resource on the way, for checks of its own.
 */
export function buildGraph(manifest: Manifest, onResourceRef?: (ref: RefExpr) => void): { graph: ManifestGraph; diagnostics: Diagnostic[] } {
  const { config, variables, resources } = manifest;
  // A resource shadows a variable, which shadows a plain config key (the parser reports such clashes).
  const kindOf = (name: string): NodeKind | undefined =>
    Object.hasOwn(resources, name) ? 'resource' : Object.hasOwn(variables, name) ? 'variable' : Object.hasOwn(config, name) && !name.includes(':') ? 'config' : undefined;
  const diagnostics: Diagnostic[] = [];
  const listed = [...Object.keys(config).filter((k) => !k.includes(':')), ...Object.keys(variables), ...Object.keys(resources)];
  const names = new Set(listed).size === listed.length ? listed : [...new Set(listed)];
  const successors = new Map<string, string[]>();
  const predecessors = new Map<string, string[]>();
  const edge = (from: string | undefined, to: string, pos: Pos, what: string, ref?: RefExpr) => {
    // A provider resource makes no remote object: reading it (its URN) or depending on it waits for nothing.
    if (Object.hasOwn(manifest.providers, to)) return;
    const kind = kindOf(to);
    if (ref && kind === 'resource') onResourceRef?.(ref);
    if (kind === undefined) {
      const hint = closestName(to, names);
      diagnostics.push({
        severity: 'error',
        summary: `${what} "${to}" is not defined`,
        detail: hint ? `did you mean "${hint}"?` : `defined names: ${names.join(', ') || '(none)'}`,
        pos: { file: manifest.file, ...pos },
        address: from && kindOf(from) === 'resource' ? from : undefined,
      });
      return;
    }
    if (!from) return;
    let out = successors.get(from);
    if (!out) successors.set(from, (out = []));
    if (out.includes(to)) return;
    out.push(to);
    let into = predecessors.get(to);
    if (!into) predecessors.set(to, (into = []));
    into.push(from);
  };
  for (const k in variables) for (const r of refsOf(variables[k])) edge(k, r.root, r.pos, 'reference', r);
  // One list of references, refilled for each resource, walked by index (see refsOf).
  const refs: RefExpr[] = [];
  for (const k in resources) {
    const r = resources[k];
    refs.length = 0;
    resourceRefs(r, refs);
    for (let i = 0; i < refs.length; i++) edge(k, refs[i].root, refs[i].pos, 'reference', refs[i]);
    for (const [index, dep] of r.options.dependsOn.entries()) {
      const pos = entryPos(r, 'dependsOn', index);
      edge(k, dep, pos, 'dependsOn target');
      const kind = kindOf(dep);
      if (kind !== undefined && kind !== 'resource') {
        diagnostics.push({ severity: 'error', summary: `dependsOn "${dep}" is not a resource`, pos: { file: manifest.file, ...pos }, address: k });
      }
    }
  }
  for (const k in manifest.outputs) for (const r of refsOf(manifest.outputs[k])) edge(undefined, r.root, r.pos, 'reference', r);
  for (const k in manifest.providers) for (const r of manifest.providers[k].dependsOn ?? []) edge(undefined, r.root, r.pos, 'dependsOn target', r);
  const sorted = dependenciesFirst(names, successors, predecessors);
  if (!sorted) reportCycles(manifest, names, successors, diagnostics);
  return { graph: graphOf(sorted ?? names, kindOf, successors), diagnostics };
}

/** Reports each reference cycle among `names`, at the position of the name it starts from. */
function reportCycles(manifest: Manifest, names: string[], successors: Map<string, string[]>, diagnostics: Diagnostic[]): void {
  const { config, variables, resources } = manifest;
  const position = (name: string): Pos | undefined => resources[name]?.pos ?? variables[name]?.pos ?? config[name]?.pos;
  for (const cycle of cycles(names, successors)) {
    const path = cyclePath(successors, cycle);
    diagnostics.push({
      severity: 'error',
      summary: `reference cycle: ${shortened(path).join(' -> ')}`,
      detail: 'break the cycle: a value cannot depend on itself',
      pos: { file: manifest.file, ...(position(path[0]) ?? { line: 1, column: 1 }) },
    });
  }
}

/** The graph over `order`, answering a resource's resource dependencies through variables, each once computed. */
function graphOf(order: string[], kindOf: (name: string) => NodeKind | undefined, successors: Map<string, string[]>): ManifestGraph {
  const resourceDeps = new Map<string, string[]>();
  const graph: ManifestGraph = {
    order,
    kindOf,
    dependencies: (name) => successors.get(name) ?? [],
    resourceDependencies(address) {
      const cached = resourceDeps.get(address);
      if (cached) return cached;
      // Most resources need only other resources: their direct dependencies, sorted.
      const direct = successors.get(address) ?? [];
      if (direct.every((dep) => kindOf(dep) === 'resource')) {
        const result = direct.slice().sort();
        resourceDeps.set(address, result);
        return result;
      }
      const found = new Set<string>();
      const seen = new Set<string>();
      const next = [address];
      while (next.length) {
        for (const dep of graph.dependencies(next.pop() as string)) {
          if (seen.has(dep)) continue;
          seen.add(dep);
          if (kindOf(dep) === 'resource') found.add(dep);
          else next.push(dep);
        }
      }
      const result = [...found].sort();
      resourceDeps.set(address, result);
      return result;
    },
  };
  return graph;
}

/** A cycle's path as a message shows it: a long one by its ends, with how many names lie between. */
function shortened(path: string[]): string[] {
  if (path.length <= 12) return path;
  return [...path.slice(0, 6), `(${path.length - 11} more)`, ...path.slice(-5)];
}

/** One step of a depth-first walk: a name, the names it leads to, and how many of them are done. */
interface Visit {
  name: string;
  next: string[];
  done: number;
}

/**
 * Names with every dependency before its dependents, or undefined when there is a cycle. From
 * each name that needs nothing, a depth-first walk visits its dependents and places a name after
 * all of them; the reverse of that is the order (graphlib's topsort, on plain lists).
 */
function dependenciesFirst(names: string[], successors: Map<string, string[]>, predecessors: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const active = new Set<string>();
  const placed: string[] = [];
  const enter = (name: string): Visit => {
    active.add(name);
    done.add(name);
    return { name, next: predecessors.get(name) ?? [], done: 0 };
  };
  for (const start of names) {
    if (successors.has(start) || done.has(start)) continue;
    const stack = [enter(start)];
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.done === top.next.length) {
        stack.pop();
        active.delete(top.name);
        placed.push(top.name);
        continue;
      }
      const dependent = top.next[top.done++];
      if (active.has(dependent)) return undefined;
      if (!done.has(dependent)) stack.push(enter(dependent));
    }
  }
  return done.size === names.length ? placed.reverse() : undefined;
}

/** The cycles of the graph: its strongly connected components of more than one name, or of one that needs itself (Tarjan's algorithm). */
function cycles(names: string[], successors: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  const enter = (name: string): Visit => {
    index.set(name, index.size);
    low.set(name, index.size - 1);
    stack.push(name);
    onStack.add(name);
    return { name, next: successors.get(name) ?? [], done: 0 };
  };
  for (const start of names) {
    if (index.has(start)) continue;
    const walk = [enter(start)];
    while (walk.length) {
      const top = walk[walk.length - 1];
      if (top.done < top.next.length) {
        const to = top.next[top.done++];
        if (!index.has(to)) walk.push(enter(to));
        else if (onStack.has(to)) low.set(top.name, Math.min(low.get(top.name) as number, index.get(to) as number));
        continue;
      }
      walk.pop();
      const parent = walk[walk.length - 1];
      if (parent) low.set(parent.name, Math.min(low.get(parent.name) as number, low.get(top.name) as number));
      if (low.get(top.name) !== index.get(top.name)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.name);
      if (component.length > 1 || (successors.get(top.name) ?? []).includes(top.name)) found.push(component);
    }
  }
  return found;
}

/** Orders the members of a strongly connected component as one walk a -> b -> ... -> a. */
function cyclePath(successors: Map<string, string[]>, members: string[]): string[] {
  const inCycle = new Set(members);
  const start = [...members].sort()[0];
  const seen = new Set([start]);
  const within = (name: string) => (successors.get(name) ?? []).filter((n) => inCycle.has(n)).sort();
  // The path is the stack of the walk: each step on it with the names it may still go to.
  const path: Visit[] = [{ name: start, next: within(start), done: 0 }];
  while (path.length) {
    const top = path[path.length - 1];
    if (top.done === top.next.length) {
      path.pop();
      continue;
    }
    const next = top.next[top.done++];
    if (next === start) return [...path.map((step) => step.name), start];
    if (seen.has(next)) continue;
    seen.add(next);
    path.push({ name: next, next: within(next), done: 0 });
  }
  return [start];
}
