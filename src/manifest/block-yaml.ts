/**
 * A fast reader for the plain block-style YAML most manifests are written in: nested mappings and
 * sequences by indentation, plain and single-line quoted scalars, comments. It builds nodes the
 * `yaml` package's type checks recognise (the same `Symbol.for` identities, `items`, `range`,
 * `type`), so the manifest reader walks either kind of tree the same way. Given an
 * ExpressionReader, it reads the parts that are expressions straight into them instead: most of
 * a large manifest is resource properties, and a node per value was a second copy of it all.
 *
 * It accepts only what it is sure to read exactly as `yaml` (YAML 1.2 core schema) would, and
 * gives up on anything else — flow collections, block scalars, anchors, tags, multi-line or
 * escaped scalars, duplicate keys, odd indentation, any syntax error — so that `yaml` reads those
 * and reports its own errors. Why: `yaml` needs about a second per 700 KB here and its duplicate
 * key check is quadratic in the size of a mapping (80 s for 30,000 resources).
 */
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { type Expr, isFunctionKey, ObjectEntry, type ObjectExpr, type Pos } from './ast.js';
import { coreValue } from './core-schema.js';
import { MAP, MapNode, PairNode, ScalarNode, SEQ, SeqNode } from './yaml-nodes.js';


/** Thrown inside the reader when the text is beyond it; caught at the top. */
const GIVE_UP = Symbol('give up');

/**
 * The lines that hold content (not blank, not only a comment), as offsets into the text: a
 * manifest has tens of thousands, and an object and a few strings per line would all be kept
 * (and copied by the collector) until the reading is done.
 */
class Lines {
  count = 0;
  /** 1-based line number. */
  no: Int32Array;
  indent: Int32Array;
  /** Offset of the first character after the indentation. */
  start: Int32Array;
  /** Offset just after the last character that is not a space. */
  end: Int32Array;

  constructor(readonly text: string) {
    let capacity = 64;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) capacity++;
    this.no = new Int32Array(capacity);
    this.indent = new Int32Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
  }

  /** Whether the line at `k` is a sequence item (`-` alone or followed by a space). */
  isSeqItem(k: number): boolean {
    const start = this.start[k];
    return this.text.charCodeAt(start) === 45 && (this.end[k] === start + 1 || this.text.charCodeAt(start + 1) === 32);
  }
}

/** The content lines of `text`, or undefined when one belongs to yaml (a document marker or directive). */
function contentLines(text: string): Lines | undefined {
  const lines = new Lines(text);
  let no = 0;
  for (let offset = 0; offset <= text.length; ) {
    no++;
    let next = text.indexOf('\n', offset);
    if (next < 0) next = text.length;
    let start = offset;
    while (text.charCodeAt(start) === 32) start++;
    let end = next;
    while (end > start && text.charCodeAt(end - 1) === 32) end--;
    if (end > start && text.charCodeAt(start) !== 35) {
      // Document markers and directives belong to yaml.
      if (start === offset && (text.startsWith('---', start) || text.startsWith('...', start) || text.charCodeAt(start) === 37)) return undefined;
      const k = lines.count++;
      lines.no[k] = no;
      lines.indent[k] = start - offset;
      lines.start[k] = start;
      lines.end[k] = end;
    }
    offset = next + 1;
  }
  return lines;
}

/**
 * How the parts of a manifest that are expressions (resource properties, and the values of
 * config, variables and outputs) are read straight into expressions, without a node per value
 * in between. Lists and plain mappings are built here; the rest is the caller's.
 */
export interface ExpressionReader {
  /** The expression a scalar stands for; `quoted` when it was written in quotes. */
  scalar(value: unknown, quoted: boolean, line: number, column: number): Expr;
  /** How much has been found (problems, calls) so far: where a mapping read as an expression began. */
  mark(): number;
  /**
   * The expression of a mapping with a function key, read again as nodes (rare, and the caller's
   * to check); what reading it as an expression found since `mark` is dropped.
   */
  call(node: YAMLMap, mark: number): Expr;
  /** What the tree holds in place of a whole expression (the caller recognises it later). */
  done(expr: Expr): unknown;
}

/** Where a mapping sits, which says whether its values are expressions. */
const NODES = 0;
const ROOT = 1;
const RESOURCES = 2;
const RESOURCE = 3;
const EXPRESSIONS = 4;
type Role = typeof NODES | typeof ROOT | typeof RESOURCES | typeof RESOURCE | typeof EXPRESSIONS;
/** Marks a value that is an expression. */
const EXPRESSION = 5;

/** The role of the value under `key` in a mapping of role `role`. */
function childRole(role: Role, key: string): Role | typeof EXPRESSION {
  switch (role) {
    case ROOT:
      return key === 'resources' ? RESOURCES : key === 'config' || key === 'variables' || key === 'outputs' ? EXPRESSIONS : NODES;
    case RESOURCES:
      return RESOURCE;
    case RESOURCE:
      return key === 'properties' ? EXPRESSION : NODES;
    case EXPRESSIONS:
      return EXPRESSION;
    default:
      return NODES;
  }
}

/**
 * The root mapping of `text`, or undefined when the text uses anything this reader does not
 * handle exactly as `yaml` does (the caller then uses `yaml`). With `expressions`, the values
 * that are expressions come back as whatever its `done` made of them.
 */
export function parseBlockYaml(text: string, expressions?: ExpressionReader): YAMLMap | undefined {
  if (/[\t\r\u0000\ufeff]/.test(text)) return undefined;
  const lines = contentLines(text);
  if (!lines || lines.count === 0 || lines.indent[0] !== 0) return undefined;
  const reader = new Reader(lines, expressions);
  try {
    const root = reader.map(0, expressions ? ROOT : NODES);
    return reader.done() ? root : undefined;
  } catch (err) {
    if (err === GIVE_UP) return undefined;
    throw err;
  }
}

/** 1-based line and column of an offset, as `yaml`'s LineCounter gives them. */
export function lineStarts(text: string): (offset: number) => { line: number; col: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (starts[mid] < offset) low = mid + 1;
      else high = mid;
    }
    if (starts[low] === offset) return { line: low + 1, col: 1 };
    if (low === 0) return { line: 0, col: offset };
    return { line: low, col: offset - starts[low - 1] + 1 };
  };
}

class Reader {
  /** The line being read. */
  private k = 0;
  private readonly text: string;
  /** Set by `inlineValue`: whether the scalar was quoted, and where it ends in its text. */
  private quoted = false;
  private end = 0;
  private readonly keys = new KeyStack();
  /**
   * The items of the collections being read, the innermost one's last; each is copied out whole
   * when it ends. Built by pushing, a collection's own list would keep room for 17 items
   * however few it holds, and a large manifest keeps tens of thousands of them to the end.
   */
  private readonly items: unknown[] = [];

  constructor(
    private readonly lines: Lines,
    private readonly expressions?: ExpressionReader,
  ) {
    this.text = lines.text;
  }

  done(): boolean {
    return this.k === this.lines.count;
  }

  /** A block mapping whose keys sit at `indent`. */
  map(indent: number, role: Role): YAMLMap {
    const items = this.items.length;
    const keys = this.keys.begin();
    const first = this.k;
    while (this.at(indent)) {
      const k = this.k;
      const keyText = this.keyOf(k, keys);
      const sep = this.lines.start[k] + keyText.length;
      const key = scalar(plainValue(keyText), 'PLAIN', this.lines.start[k], keyText.length, this.lines, k);
      this.k++;
      const next = childRole(role, keyText);
      const value = next === EXPRESSION ? this.expressionValue(k, sep, indent) : this.value(k, sep, indent, next);
      this.items.push(pair(key, value as Node));
    }
    this.keys.end(keys);
    return collection(MAP, this.itemsFrom(items), this.lines, first) as YAMLMap;
  }

  /** A block sequence whose dashes sit at `indent`. */
  seq(indent: number): YAMLSeq {
    const items = this.items.length;
    const first = this.k;
    while (this.atSeqItem(indent)) {
      const k = this.k++;
      const rest = this.itemStart(k);
      this.items.push(rest < 0 ? this.block(this.lines.indent[this.k], NODES) : this.scalar(k, rest, indent));
    }
    return collection(SEQ, this.itemsFrom(items), this.lines, first) as YAMLSeq;
  }

  /** The value after `key:` as nodes: a scalar on the line, or the block below it. */
  private value(k: number, sep: number, indent: number, role: Role): Node {
    const rest = this.valueStart(k, sep);
    if (rest >= 0) return this.scalar(k, rest, indent);
    return this.blockBelow(indent) ? this.block(this.lines.indent[this.k], role) : this.seq(indent);
  }

  /** The value after `key:` read as an expression, and left in the tree as the caller made it. */
  private expressionValue(k: number, sep: number, indent: number): unknown {
    return (this.expressions as ExpressionReader).done(this.expressionAfter(k, sep, indent));
  }

  private expressionAfter(k: number, sep: number, indent: number): Expr {
    const rest = this.valueStart(k, sep);
    if (rest >= 0) return this.scalarExpression(k, rest, indent);
    return this.blockBelow(indent) ? this.expression(this.lines.indent[this.k]) : this.expressionSeq(indent);
  }

  private block(indent: number, role: Role): Node {
    return this.lines.isSeqItem(this.k) ? this.seq(indent) : this.map(indent, role);
  }

  /** A block read straight into an expression. */
  private expression(indent: number): Expr {
    return this.lines.isSeqItem(this.k) ? this.expressionSeq(indent) : this.expressionMap(indent);
  }

  /** A mapping read as an expression; one with a function key is read again as nodes for the caller. */
  private expressionMap(indent: number): Expr {
    const expressions = this.expressions as ExpressionReader;
    const entries = this.items.length;
    const keys = this.keys.begin();
    const first = this.k;
    const mark = expressions.mark();
    while (this.at(indent)) {
      const k = this.k;
      const keyText = this.keyOf(k, keys);
      const sep = this.lines.start[k] + keyText.length;
      // The key as yaml's core schema reads it, then as the text a manifest key is.
      const key = String(plainValue(keyText));
      if (isFunctionKey(key)) {
        this.k = first;
        this.keys.end(keys);
        this.items.length = entries;
        return expressions.call(this.map(indent, NODES), mark);
      }
      this.k++;
      this.items.push(new ObjectEntry(key, this.expressionAfter(k, sep, indent), this.lines.no[k], indent + 1));
    }
    this.keys.end(keys);
    return { kind: 'object', entries: this.itemsFrom(entries) as ObjectEntry[], pos: { line: this.lines.no[first], column: indent + 1 } };
  }

  private expressionSeq(indent: number): Expr {
    const items = this.items.length;
    const first = this.k;
    while (this.atSeqItem(indent)) {
      const k = this.k++;
      const rest = this.itemStart(k);
      this.items.push(rest < 0 ? this.expression(this.lines.indent[this.k]) : this.scalarExpression(k, rest, indent));
    }
    return { kind: 'list', items: this.itemsFrom(items) as Expr[], pos: { line: this.lines.no[first], column: indent + 1 } };
  }

  /** The items of the collection whose first item is at `from` (see `items`), taken off the stack. */
  private itemsFrom(from: number): unknown[] {
    const items = this.items.slice(from);
    this.items.length = from;
    return items;
  }

  /** Whether the current line is at `indent` (another entry of the block being read). */
  private at(indent: number): boolean {
    return this.k < this.lines.count && this.lines.indent[this.k] === indent;
  }

  private atSeqItem(indent: number): boolean {
    return this.at(indent) && this.lines.isSeqItem(this.k);
  }

  /**
   * The text of a mapping line's key: up to the first colon followed by a space or the end.
   * Quoted keys, sequence items and duplicate keys are left to yaml (which decides duplicates by
   * value; equal text is the stricter test, and yaml then reports it).
   */
  private keyOf(k: number, keys: number): string {
    const text = this.text;
    const start = this.lines.start[k];
    const end = this.lines.end[k];
    const first = text.charCodeAt(start);
    if (this.lines.isSeqItem(k) || first === 34 || first === 39) giveUp();
    let sep = text.indexOf(':', start);
    while (sep >= 0 && sep + 1 < end && text.charCodeAt(sep + 1) !== 32) sep = text.indexOf(':', sep + 1);
    if (sep < 0 || sep >= end) giveUp();
    const key = text.slice(start, sep);
    if (!this.keys.add(keys, key)) giveUp();
    return key;
  }

  /** Where the value after the colon at `sep` starts, or -1 when the line holds none (only maybe a comment). */
  private valueStart(k: number, sep: number): number {
    let rest = sep + 1;
    while (this.text.charCodeAt(rest) === 32) rest++;
    return rest >= this.lines.end[k] || this.text.charCodeAt(rest) === 35 ? -1 : rest;
  }

  /** After `key:` with nothing on the line: whether a deeper block follows (else it must be a sequence at the key's indentation). */
  private blockBelow(indent: number): boolean {
    if (this.k < this.lines.count) {
      if (this.lines.indent[this.k] > indent) return true;
      if (this.lines.indent[this.k] === indent && this.lines.isSeqItem(this.k)) return false;
    }
    // An empty value (null) gets a position only yaml knows how to give.
    return giveUp();
  }

  /** Where a sequence item's value starts, or -1 when it is the deeper block below. */
  private itemStart(k: number): number {
    let rest = this.lines.start[k] + 1;
    while (this.text.charCodeAt(rest) === 32) rest++;
    if (rest >= this.lines.end[k] || this.text.charCodeAt(rest) === 35) {
      if (this.k >= this.lines.count || this.lines.indent[this.k] <= this.lines.indent[k]) giveUp();
      return -1;
    }
    // `- key: value` (a mapping in a sequence item) and `- - x` are left to yaml.
    const valueText = this.text.slice(rest, this.lines.end[k]);
    const quoted = valueText[0] === '"' || valueText[0] === "'";
    if ((valueText[0] === '-' && (valueText.length === 1 || valueText[1] === ' ')) || (!quoted && /:( |$)/.test(valueText))) giveUp();
    return rest;
  }

  /** The scalar from `rest` to the end of line `k`, as a node. */
  private scalar(k: number, rest: number, indent: number): Node {
    const text = this.text.slice(rest, this.lines.end[k]);
    const value = this.inlineValue(text, indent);
    return scalar(value, this.quoted ? (text[0] === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE') : 'PLAIN', rest, this.end, this.lines, k) as unknown as Node;
  }

  /** The scalar from `rest` to the end of line `k`, as an expression. */
  private scalarExpression(k: number, rest: number, indent: number): Expr {
    const value = this.inlineValue(this.text.slice(rest, this.lines.end[k]), indent);
    return (this.expressions as ExpressionReader).scalar(value, this.quoted, this.lines.no[k], columnOf(this.lines, k, rest));
  }

  /**
   * The value of a scalar that fills the rest of a line: quoted, or plain up to a comment. Sets
   * `quoted` and `end` (its length in `text`). The next line must not continue it: a deeper line
   * would make it a multi-line scalar (or an error).
   */
  private inlineValue(text: string, indent: number): unknown {
    if (this.k < this.lines.count && this.lines.indent[this.k] > indent) giveUp();
    const quote = text[0];
    this.quoted = quote === '"' || quote === "'";
    if (!this.quoted) {
      const comment = text.indexOf(' #');
      const plain = comment < 0 ? text : text.slice(0, comment).trimEnd();
      this.end = plain.length;
      return plainValue(plain);
    }
    let value = '';
    let j = 1;
    for (;;) {
      const at = text.indexOf(quote, j);
      if (at < 0) giveUp();
      if (quote === '"') {
        // Escapes are left to yaml.
        if (text.slice(j, at).includes('\\')) giveUp();
        value += text.slice(j, at);
        j = at + 1;
        break;
      }
      value += text.slice(j, at);
      if (text[at + 1] === "'") {
        value += "'";
        j = at + 2;
        continue;
      }
      j = at + 1;
      break;
    }
    const after = text.slice(j);
    if (after !== '' && !/^ +(#.*)?$/.test(after)) giveUp();
    this.end = j;
    return value;
  }
}

/**
 * The keys of the mappings being read, the innermost one's last: one list serves them all, so a
 * small mapping (most are) checks its keys for duplicates without a collection of its own; one
 * with many keys gets a set.
 */
class KeyStack {
  private readonly keys: string[] = [];
  /** Sets of the large mappings being read, by where their keys start. */
  private readonly large = new Map<number, Set<string>>();

  /** Starts a mapping; what it returns names it to `add` and `end`. */
  begin(): number {
    return this.keys.length;
  }

  /** Adds a key to the mapping that starts at `from`; false when it was already there. */
  add(from: number, key: string): boolean {
    const set = this.large.get(from);
    if (set) {
      if (set.has(key)) return false;
      set.add(key);
    } else {
      for (let i = from; i < this.keys.length; i++) if (this.keys[i] === key) return false;
      if (this.keys.length - from >= 16) this.large.set(from, new Set(this.keys.slice(from)).add(key));
    }
    this.keys.push(key);
    return true;
  }

  /** Ends the mapping that starts at `from`. */
  end(from: number): void {
    this.keys.length = from;
    this.large.delete(from);
  }
}

function giveUp(): never {
  throw GIVE_UP;
}

/** Characters that cannot start a plain scalar (c-indicators), except the three handled below. */
const INDICATORS = new Set(['[', ']', '{', '}', ',', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

/** A plain scalar's core-schema value (null, bool, int, float or string); gives up on text that is not a plain scalar. */
function plainValue(text: string): unknown {
  if (text === '' || isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)) || INDICATORS.has(text[0])) giveUp();
  if ((text[0] === '-' || text[0] === '?' || text[0] === ':') && (text.length === 1 || text[1] === ' ')) giveUp();
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) giveUp();
  return coreValue(text);
}

/** What `String.prototype.trim` would remove at an end (tabs and CRs have been refused already). */
function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x1680 || code === 0x3000 || code === 0x202f || code === 0x205f || code === 0x0b || code === 0x0c;
}

/** 1-based column of `offset` on content line `k`. */
function columnOf(lines: Lines, k: number, offset: number): number {
  return offset - (lines.start[k] - lines.indent[k]) + 1;
}

function scalar(value: unknown, type: string, start: number, length: number, lines: Lines, k: number): Scalar {
  return new ScalarNode(value, type, start, length, lines.no[k], columnOf(lines, k, start)) as unknown as Scalar;
}

function pair(key: Node, value: Node): Pair {
  return new PairNode(key, value) as unknown as Pair;
}

function collection(type: symbol, items: unknown[], lines: Lines, k: number): Node {
  const start = lines.start[k];
  return (type === MAP ? new MapNode(items, start, lines.no[k], lines.indent[k] + 1) : new SeqNode(items, start, lines.no[k], lines.indent[k] + 1)) as unknown as Node;
}
