import { Graph, alg } from '@dagrejs/graphlib';
import type { Diagnostic } from '../../diagnostics.js';
import { refsOf, type Manifest, type Pos } from '../../manifest/ast.js';
import { closestName } from '../../manifest/tokens.js';


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
 * Edges live in plain adjacency lists: a large manifest has tens of thousands of them, and the
 * order is one depth-first walk; graphlib's cycle search runs only when that walk finds a cycle.
 */
export function buildGraph(manifest: Manifest): { graph: ManifestGraph; diagnostics: Diagnostic[] } {
  const kinds = new Map<string, NodeKind>();
  const diagnostics: Diagnostic[] = [];
  const positions = new Map<string, Pos>();
  for (const [k, c] of Object.entries(manifest.config)) {
    if (!k.includes(':')) kinds.set(k, 'config');
    positions.set(k, c.pos);
  }
  for (const [k, v] of Object.entries(manifest.variables)) {
    kinds.set(k, 'variable');
    positions.set(k, v.pos);
  }
  for (const [k, r] of Object.entries(manifest.resources)) {
    kinds.set(k, 'resource');
    positions.set(k, r.pos);
  }
  const names = [...kinds.keys()];
  const successors = new Map<string, string[]>(names.map((n) => [n, []]));
  const predecessors = new Map<string, string[]>(names.map((n) => [n, []]));
  const edge = (from: string | undefined, to: string, pos: Pos, what: string) => {
    if (!kinds.has(to)) {
      const hint = closestName(to, names);
      diagnostics.push({
        severity: 'error',
        summary: `${what} "${to}" is not defined`,
        detail: hint ? `did you mean "${hint}"?` : `defined names: ${names.join(', ') || '(none)'}`,
        pos: { file: manifest.file, ...pos },
        address: from && kinds.get(from) === 'resource' ? from : undefined,
      });
      return;
    }
    if (!from) return;
    const out = successors.get(from)!;
    if (out.includes(to)) return;
    out.push(to);
    predecessors.get(to)!.push(from);
  };
  for (const [k, v] of Object.entries(manifest.variables)) for (const r of refsOf(v)) edge(k, r.root, r.pos, 'reference');
  for (const [k, r] of Object.entries(manifest.resources)) {
    for (const ref of refsOf(r.properties)) edge(k, ref.root, ref.pos, 'reference');
    for (const dep of r.options.dependsOn) {
      edge(k, dep, r.pos, 'dependsOn target');
      if (kinds.has(dep) && kinds.get(dep) !== 'resource') {
        diagnostics.push({ severity: 'error', summary: `dependsOn "${dep}" is not a resource`, pos: { file: manifest.file, ...r.pos }, address: k });
      }
    }
  }
  for (const o of Object.values(manifest.outputs)) for (const r of refsOf(o)) edge(undefined, r.root, r.pos, 'reference');

  const sorted = dependenciesFirst(names, successors, predecessors);
  if (!sorted) {
    const g = new Graph({ directed: true });
    for (const name of names) g.setNode(name);
    for (const [from, tos] of successors) for (const to of tos) g.setEdge(from, to);
    for (const cycle of alg.findCycles(g)) {
      const path = cyclePath(successors, cycle);
      diagnostics.push({
        severity: 'error',
        summary: `reference cycle: ${path.join(' -> ')}`,
        detail: 'break the cycle: a value cannot depend on itself',
        pos: { file: manifest.file, ...(positions.get(path[0]) ?? { line: 1, column: 1 }) },
      });
    }
  }
  const order = sorted ?? names;
  const resourceDeps = new Map<string, string[]>();
  const graph: ManifestGraph = {
    order,
    kindOf: (name) => kinds.get(name),
    dependencies: (name) => successors.get(name) ?? [],
    resourceDependencies(address) {
      const cached = resourceDeps.get(address);
      if (cached) return cached;
      const found = new Set<string>();
      const seen = new Set<string>();
      const walk = (name: string) => {
        for (const dep of graph.dependencies(name)) {
          if (seen.has(dep)) continue;
          seen.add(dep);
          if (kinds.get(dep) === 'resource') found.add(dep);
          else walk(dep);
        }
      };
      walk(address);
      const result = [...found].sort();
      resourceDeps.set(address, result);
      return result;
    },
  };
  return { graph, diagnostics };
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
  let cycle = false;
  const visit = (name: string) => {
    if (active.has(name)) {
      cycle = true;
      return;
    }
    if (done.has(name)) return;
    active.add(name);
    done.add(name);
    for (const dependent of predecessors.get(name)!) visit(dependent);
    active.delete(name);
    placed.push(name);
  };
  for (const name of names) if (successors.get(name)!.length === 0) visit(name);
  if (cycle || done.size !== names.length) return undefined;
  return placed.reverse();
}

/** Orders the members of a strongly connected component as one walk a -> b -> ... -> a. */
function cyclePath(successors: Map<string, string[]>, members: string[]): string[] {
  const inCycle = new Set(members);
  const start = [...members].sort()[0];
  const path = [start];
  const seen = new Set([start]);
  const dfs = (node: string): boolean => {
    for (const next of (successors.get(node) ?? []).filter((n) => inCycle.has(n)).sort()) {
      if (next === start) {
        path.push(start);
        return true;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      if (dfs(next)) return true;
      path.pop();
    }
    return false;
  };
  dfs(start);
  return path;
}
