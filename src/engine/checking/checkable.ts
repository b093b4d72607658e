import type { Diagnostic } from '../../kernel/diagnostics.js';
import { LiteralExpr, refsOf, resourceRefs, type Expr, type Manifest, type Pos, type RefExpr } from '../../manifest/ast.js';
import { Unknown } from '../../kernel/values.js';
import type { ManifestGraph } from '../graph/graph.js';

/*
 * A manifest with problems in its structure or its references is still checked through, so
 * that one pass reports them all: what cannot be evaluated yet is left unknown, as a value
 * known only at apply is, and its own problems are the ones already reported.
 */

/**
 * The manifest as the checks of inputs and settings see it: every name a reference cannot find
 * (undefined, or a resource dropped for a problem already reported) and every variable or config
 * key on a reference cycle, or reading one, stands for an unknown value. Evaluating the manifest
 * as written would fail again on the first and never finish on the second.
 */
export function checkableManifest(manifest: Manifest, graph: ManifestGraph): Manifest {
  const stand: Record<string, Expr> = {};
  const unknown = (name: string, pos: Pos) => new LiteralExpr(new Unknown(name) as never, pos.line, pos.column);
  for (const ref of allRefs(manifest)) if (graph.kindOf(ref.root) === undefined && !stand[ref.root]) stand[ref.root] = unknown(ref.root, ref.pos);
  for (const name of onOrAfterCycles(manifest, graph)) stand[name] = unknown(name, manifest.variables[name]?.pos ?? manifest.config[name]?.pos ?? { line: 1, column: 1 });
  if (!Object.keys(stand).length) return manifest;
  // A variable shadows a config key of its name, so one entry stands for either.
  return { ...manifest, variables: { ...manifest.variables, ...stand } };
}

/** Every reference in the manifest's config, variables, resources and outputs. */
function allRefs(manifest: Manifest): RefExpr[] {
  const refs: RefExpr[] = [];
  for (const entry of Object.values(manifest.config)) refs.push(...refsOf(entry.value));
  for (const expr of Object.values(manifest.variables)) refs.push(...refsOf(expr));
  for (const decl of Object.values(manifest.resources)) resourceRefs(decl, refs);
  for (const expr of Object.values(manifest.outputs)) refs.push(...refsOf(expr));
  return refs;
}

/**
 * Variables and config keys that cannot be ordered: those on a cycle of references among
 * themselves, and those that read one. What remains after taking away, again and again, every
 * name whose reads are all taken away already (Kahn's algorithm; resources read nothing here).
 */
function onOrAfterCycles(manifest: Manifest, graph: ManifestGraph): string[] {
  const names = [...Object.keys(manifest.variables), ...Object.keys(manifest.config).filter((k) => !k.includes(':'))];
  const isValue = (name: string) => {
    const kind = graph.kindOf(name);
    return kind === 'variable' || kind === 'config';
  };
  const waiting = new Map<string, number>();
  const readers = new Map<string, string[]>();
  for (const name of names) {
    if (!isValue(name) || waiting.has(name)) continue;
    const reads = graph.dependencies(name).filter(isValue);
    waiting.set(name, reads.length);
    for (const dep of reads) readers.set(dep, [...(readers.get(dep) ?? []), name]);
  }
  const ready = [...waiting].filter(([, n]) => n === 0).map(([name]) => name);
  while (ready.length) {
    const name = ready.pop() as string;
    waiting.delete(name);
    for (const reader of readers.get(name) ?? []) {
      const left = (waiting.get(reader) ?? 0) - 1;
      waiting.set(reader, left);
      if (left === 0) ready.push(reader);
    }
  }
  return [...waiting.keys()];
}

/**
 * Graph problems that only repeat a parse problem: a reference to a resource the parser already
 * refused (an unknown type, say) is not also "not defined".
 */
export function withoutEchoes(graphProblems: Diagnostic[], parseProblems: Diagnostic[], manifest: Manifest): Diagnostic[] {
  const dropped = new Set(parseProblems.map((d) => d.address).filter((a): a is string => a !== undefined && !Object.hasOwn(manifest.resources, a)));
  if (!dropped.size) return graphProblems;
  return graphProblems.filter((d) => {
    const named = /"([^"]*)" is not defined$/.exec(d.summary)?.[1];
    return named === undefined || !dropped.has(named);
  });
}

/** Diagnostics in the order of their files: by file, line, then column; those without a position last. */
export function inFileOrder(diagnostics: Diagnostic[]): Diagnostic[] {
  // Each file's problems together (the manifest's, then a stack file's), in the order of each file.
  const files = [...new Set(diagnostics.flatMap((d) => (d.pos ? [d.pos.file] : [])))];
  const fileOf = (d: Diagnostic) => (d.pos ? files.indexOf(d.pos.file) : files.length);
  const key = (d: Diagnostic) => (d.pos ? d.pos.line * 1e6 + d.pos.column : Infinity);
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => fileOf(a.d) - fileOf(b.d) || key(a.d) - key(b.d) || a.i - b.i)
    .map(({ d }) => d);
}
