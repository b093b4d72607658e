/**
 * What `yaml` parses without complaint but plumb must refuse, found in one walk of the document:
 *
 * - Duplicate keys, compared by value under the YAML 1.2 core schema, and by the name plumb
 *   gives a key (`1`, `01`, `1.0` and `"1"` all name "1"): under `resources:` a later key would
 *   silently replace the first resource, and a typo would become a destroy. `yaml`'s own check
 *   compares every key with every other, which a mapping of thousands of resources cannot afford.
 * - Aliases that name no anchor before them, or the node they are inside (a loop).
 * - Aliases that copy too much: each alias stands for a copy of its anchor's node, and aliases
 *   of aliases multiply, so a few hundred bytes can stand for billions of values.
 *
 * The walk keeps its own stack: a document may nest deeper than the call stack goes.
 */
import { type Alias, type Document, isAlias, isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';

/** A problem at a node. */
export interface NodeProblem {
  node: Node;
  summary: string;
  detail?: string;
}

/** The values aliases may copy in all, at least: far more than a manifest writes by hand. */
const MIN_ALIAS_BUDGET = 100_000;

/** A collection being walked: its children, the next one to visit, and its size so far. */
interface Frame {
  node: Node | null;
  kids: Array<unknown>;
  next: number;
  /** Values in it, counting what its aliases copy. */
  size: number;
}

/**
 * Checks the document (see above) and fills `targets` with the node each alias stands for.
 * `text` is the document's source (key texts in messages are quoted from it); `lineOf` gives
 * the line of an offset in it.
 */
export function checkNodes(doc: Document.Parsed, text: string, lineOf: (offset: number) => number, targets: Map<Alias, Node>): NodeProblem[] {
  const problems: NodeProblem[] = [];
  // Anchors by name, the latest before the current node; `open` while its node is being walked.
  const anchors = new Map<string, { node: Node; open: boolean }>();
  const sizes = new Map<Node, number>();
  const budget = Math.max(MIN_ALIAS_BUDGET, text.length);
  let copied = 0;
  const stack: Frame[] = [{ node: null, kids: [doc.contents], next: 0, size: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.next === top.kids.length) {
      stack.pop();
      if (!top.node) break;
      if (top.node.anchor) {
        anchors.set(top.node.anchor, { node: top.node, open: false });
        sizes.set(top.node, top.size);
      }
      if (isMap(top.node)) problems.push(...duplicateKeys(top.node.items as Pair[], text, lineOf, targets));
      stack[stack.length - 1].size += top.size;
      continue;
    }
    const kid = top.kids[top.next++];
    if (isAlias(kid)) {
      const anchor = anchors.get(kid.source);
      if (!anchor) {
        problems.push({ node: kid, summary: `alias *${kid.source} names no anchor before it`, detail: `an alias copies a node marked &${kid.source} earlier in the file` });
      } else if (anchor.open) {
        problems.push({ node: kid, summary: `alias *${kid.source} is inside the node it names`, detail: 'a value cannot contain itself' });
      } else {
        targets.set(kid, anchor.node);
        const size = sizes.get(anchor.node) ?? 1;
        top.size += size;
        if (copied <= budget && (copied += size) > budget) {
          problems.push({
            node: kid,
            summary: `alias *${kid.source} makes this file's aliases copy more than ${budget} values`,
            detail: 'each alias copies the node its anchor marks, and aliases of aliases multiply: write the values out, or use fewer aliases',
          });
        }
      }
    } else if (isMap(kid) || isSeq(kid)) {
      if (kid.anchor) anchors.set(kid.anchor, { node: kid, open: true });
      const kids = isMap(kid) ? (kid.items as Pair[]).flatMap((p) => [p.key, p.value]) : kid.items;
      stack.push({ node: kid, kids, next: 0, size: 1 });
    } else {
      if (isScalar(kid) && kid.anchor) anchors.set(kid.anchor, { node: kid, open: false });
      top.size += 1;
    }
  }
  return problems;
}

/** Keys of one mapping that repeat an earlier one, each at its own position naming the first's line. */
function duplicateKeys(pairs: Pair[], text: string, lineOf: (offset: number) => number, targets: Map<Alias, Node>): NodeProblem[] {
  if (pairs.length < 2) return [];
  const problems: NodeProblem[] = [];
  const seen = new Map<string, { raw: string; value: unknown; offset: number }>();
  for (const pair of pairs) {
    const key = pair.key as Node | null;
    const resolved = isAlias(key) ? targets.get(key) : key;
    const value = resolved === null ? null : isScalar(resolved) ? resolved.value : undefined;
    const raw = key?.range ? text.slice(key.range[0], key.range[1]) : '';
    // What plumb names the key: a manifest's keys are text.
    const name = value === undefined ? raw : String(value);
    const first = seen.get(name);
    if (!first) {
      seen.set(name, { raw, value, offset: key?.range?.[0] ?? 0 });
      continue;
    }
    const line = lineOf(first.offset);
    const same = describe(value) === describe(first.value) ? `both are ${describe(value)}` : `${describe(first.value)} and ${describe(value)} are one name here`;
    problems.push({
      node: key ?? (pair.value as Node),
      summary: raw === first.raw ? `duplicate key ${quoted(raw)}: the first is at line ${line}` : `duplicate key ${quoted(raw)}: the same key as ${quoted(first.raw)} at line ${line} (${same})`,
      detail: 'the keys of a mapping must differ: a later one would replace the first without a word',
    });
  }
  return problems;
}

function describe(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return `the number ${value}`;
  return `the text "${String(value)}"`;
}

/** A key's source text as a message shows it: in quotes unless it brings its own. */
function quoted(raw: string): string {
  return raw.startsWith('"') || raw.startsWith("'") ? raw : `"${raw}"`;
}
