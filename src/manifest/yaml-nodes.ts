/**
 * Nodes that the `yaml` package's type checks recognise (the same `Symbol.for` identities,
 * `items`, `range`, `type`), and those checks, which work on nodes of either origin.
 */
import type { Node, Scalar, YAMLMap, YAMLSeq } from 'yaml';

const NODE_TYPE = Symbol.for('yaml.node.type');
export const MAP = Symbol.for('yaml.map');
export const SEQ = Symbol.for('yaml.seq');
const SCALAR = Symbol.for('yaml.scalar');
const PAIR = Symbol.for('yaml.pair');
const ALIAS = Symbol.for('yaml.alias');

const kind = (node: unknown): unknown => (node !== null && typeof node === 'object' ? (node as Record<symbol, unknown>)[NODE_TYPE] : undefined);

/** Whether a node (from the block reader or from `yaml`) is a mapping. */
export const isMap = (node: unknown): node is YAMLMap => kind(node) === MAP;
/** Whether a node is a sequence. */
export const isSeq = (node: unknown): node is YAMLSeq => kind(node) === SEQ;
/** Whether a node is a scalar. */
export const isScalar = (node: unknown): node is Scalar => kind(node) === SCALAR;
/** Whether a node is an alias (only `yaml` makes these). */
export const isAlias = (node: unknown): node is Node & { resolve(doc: unknown): unknown } => kind(node) === ALIAS;

/*
 * Node classes with the identity symbol on the prototype (an object literal with a computed
 * symbol key is built slowly, one property at a time) and the range and position kept as plain
 * numbers: a manifest has a node per value, and each extra object is garbage to collect.
 */
export class ScalarNode {
  constructor(
    readonly value: unknown,
    readonly type: string,
    private readonly start: number,
    private readonly length: number,
    readonly line: number,
    readonly column: number,
  ) {}

  get range(): [number, number, number] {
    return [this.start, this.start + this.length, this.start + this.length];
  }
}
export class PairNode {
  constructor(
    readonly key: Node,
    readonly value: Node,
  ) {}
}
class CollectionNode {
  constructor(
    readonly items: unknown[],
    private readonly start: number,
    readonly line: number,
    readonly column: number,
  ) {}

  get range(): [number, number, number] {
    return [this.start, this.start, this.start];
  }
}
export class MapNode extends CollectionNode {}
export class SeqNode extends CollectionNode {}
Object.defineProperty(ScalarNode.prototype, NODE_TYPE, { value: SCALAR });
Object.defineProperty(PairNode.prototype, NODE_TYPE, { value: PAIR });
Object.defineProperty(MapNode.prototype, NODE_TYPE, { value: MAP });
Object.defineProperty(SeqNode.prototype, NODE_TYPE, { value: SEQ });

/** 1-based line and column of a node the block reader made (what `lineStarts` would compute), else undefined. */
export function positionOf(node: unknown): { line: number; column: number } | undefined {
  return node instanceof ScalarNode || node instanceof CollectionNode ? { line: node.line, column: node.column } : undefined;
}

