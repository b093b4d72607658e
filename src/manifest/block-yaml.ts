/**
 * A fast reader for the plain block-style YAML most manifests are written in: nested mappings and
 * sequences by indentation, plain and single-line quoted scalars, comments. It builds nodes the
 * `yaml` package's type checks recognise (the same `Symbol.for` identities, `items`, `range`,
 * `type`), so the manifest reader walks either kind of tree the same way.
 *
 * It accepts only what it is sure to read exactly as `yaml` (YAML 1.2 core schema) would, and
 * gives up on anything else — flow collections, block scalars, anchors, tags, multi-line or
 * escaped scalars, duplicate keys, odd indentation, any syntax error — so that `yaml` reads those
 * and reports its own errors. Why: `yaml` needs about a second per 700 KB here and its duplicate
 * key check is quadratic in the size of a mapping (80 s for 30,000 resources).
 */
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';

const NODE_TYPE = Symbol.for('yaml.node.type');
const MAP = Symbol.for('yaml.map');
const SEQ = Symbol.for('yaml.seq');
const SCALAR = Symbol.for('yaml.scalar');
const PAIR = Symbol.for('yaml.pair');
const ALIAS = Symbol.for('yaml.alias');

const kind = (node: unknown): unknown => (node !== null && typeof node === 'object' ? (node as Record<symbol, unknown>)[NODE_TYPE] : undefined);

/** Whether a node (from this reader or from `yaml`) is a mapping. */
export const isMap = (node: unknown): node is YAMLMap => kind(node) === MAP;
/** Whether a node is a sequence. */
export const isSeq = (node: unknown): node is YAMLSeq => kind(node) === SEQ;
/** Whether a node is a scalar. */
export const isScalar = (node: unknown): node is Scalar => kind(node) === SCALAR;
/** Whether a node is an alias (only `yaml` makes these). */
export const isAlias = (node: unknown): node is Node & { resolve(doc: unknown): unknown } => kind(node) === ALIAS;

/** Thrown inside the reader when the text is beyond it; caught at the top. */
const GIVE_UP = Symbol('give up');

interface Line {
  /** 1-based line number. */
  no: number;
  indent: number;
  /** Offset of the first character after the indentation. */
  start: number;
  content: string;
}

/**
 * The root mapping of `text`, or undefined when the text uses anything this reader does not
 * handle exactly as `yaml` does (the caller then uses `yaml`).
 */
export function parseBlockYaml(text: string): YAMLMap | undefined {
  if (/[\t\r\u0000\ufeff]/.test(text)) return undefined;
  const lines: Line[] = [];
  let offset = 0;
  let no = 0;
  for (const raw of text.split('\n')) {
    no++;
    let indent = 0;
    while (raw.charCodeAt(indent) === 32) indent++;
    const content = raw.slice(indent).trimEnd();
    if (content !== '' && content[0] !== '#') {
      // Document markers and directives belong to yaml.
      if (indent === 0 && (content.startsWith('---') || content.startsWith('...') || content[0] === '%')) return undefined;
      lines.push({ no, indent, start: offset + indent, content });
    }
    offset += raw.length + 1;
  }
  if (lines.length === 0 || lines[0].indent !== 0) return undefined;
  const reader = new Reader(lines);
  try {
    const root = reader.map(0);
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
  private i = 0;

  constructor(private readonly lines: Line[]) {}

  done(): boolean {
    return this.i === this.lines.length;
  }

  /** A block mapping whose keys sit at `indent`. */
  map(indent: number): YAMLMap {
    const items: Pair[] = [];
    // Keys seen so far; most mappings are small, and only large ones get a set.
    const keys: string[] = [];
    let seen: Set<string> | undefined;
    const first = this.lines[this.i];
    while (this.i < this.lines.length && this.lines[this.i].indent === indent) {
      const line = this.lines[this.i];
      if (isSeqItem(line.content)) giveUp();
      const sep = keySeparator(line.content);
      if (sep < 0) giveUp();
      const keyText = line.content.slice(0, sep);
      const key = plainScalar(keyText, line.start, line);
      // yaml decides duplicates by value; equal text is the stricter test, and yaml then reports it.
      if (seen ? seen.has(keyText) : keys.includes(keyText)) giveUp();
      if (seen) seen.add(keyText);
      else if (keys.push(keyText) > 16) seen = new Set(keys);
      this.i++;
      let rest = sep + 1;
      while (line.content.charCodeAt(rest) === 32) rest++;
      const valueText = line.content.slice(rest);
      let value: Node;
      if (valueText === '' || valueText[0] === '#') {
        const next = this.lines[this.i];
        if (next && next.indent > indent) value = this.block(next.indent);
        else if (next && next.indent === indent && isSeqItem(next.content)) value = this.seq(indent);
        // An empty value (null) gets a position only yaml knows how to give.
        else giveUp();
      } else {
        value = inlineScalar(valueText, line.start + rest, line);
        this.noContinuation(indent);
      }
      items.push(pair(key, value));
    }
    return collection(MAP, items, first) as YAMLMap;
  }

  /** A block sequence whose dashes sit at `indent`. */
  seq(indent: number): YAMLSeq {
    const items: Node[] = [];
    const first = this.lines[this.i];
    while (this.i < this.lines.length && this.lines[this.i].indent === indent && isSeqItem(this.lines[this.i].content)) {
      const line = this.lines[this.i];
      this.i++;
      let rest = 1;
      while (line.content.charCodeAt(rest) === 32) rest++;
      const valueText = line.content.slice(rest);
      if (valueText === '' || valueText[0] === '#') {
        const next = this.lines[this.i];
        if (!next || next.indent <= indent) giveUp();
        items.push(this.block(next.indent));
      } else {
        // `- key: value` (a mapping in a sequence item) and `- - x` are left to yaml.
        if (isSeqItem(valueText) || keySeparator(valueText) >= 0) giveUp();
        items.push(inlineScalar(valueText, line.start + rest, line));
        this.noContinuation(indent);
      }
    }
    return collection(SEQ, items, first) as YAMLSeq;
  }

  private block(indent: number): Node {
    return isSeqItem(this.lines[this.i].content) ? this.seq(indent) : this.map(indent);
  }

  /** A deeper line after a scalar would continue it (a multi-line scalar) or be an error. */
  private noContinuation(indent: number): void {
    const next = this.lines[this.i];
    if (next && next.indent > indent) giveUp();
  }
}

function giveUp(): never {
  throw GIVE_UP;
}

function isSeqItem(content: string): boolean {
  return content[0] === '-' && (content.length === 1 || content[1] === ' ');
}

/** Where `key: value` splits (a colon followed by a space or the end), or -1; quoted keys are left to yaml. */
function keySeparator(content: string): number {
  if (content[0] === '"' || content[0] === "'") return -1;
  for (let i = content.indexOf(':'); i >= 0; i = content.indexOf(':', i + 1)) {
    if (i + 1 === content.length || content[i + 1] === ' ') return i;
  }
  return -1;
}

/** Characters that cannot start a plain scalar (c-indicators), except the three handled below. */
const INDICATORS = new Set(['[', ']', '{', '}', ',', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

/** A scalar that fills the rest of a line: quoted, or plain up to a comment. */
function inlineScalar(text: string, start: number, line: Line): Scalar {
  const quote = text[0];
  if (quote === '"' || quote === "'") {
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
    return scalar(value, quote === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', start, j, line);
  }
  const comment = text.indexOf(' #');
  return plainScalar(comment < 0 ? text : text.slice(0, comment).trimEnd(), start, line);
}

/** A plain scalar with its core-schema value (null, bool, int, float or string). */
function plainScalar(text: string, start: number, line: Line): Scalar {
  if (text === '' || isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)) || INDICATORS.has(text[0])) giveUp();
  if ((text[0] === '-' || text[0] === '?' || text[0] === ':') && (text.length === 1 || text[1] === ' ')) giveUp();
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) giveUp();
  return scalar(coreValue(text), 'PLAIN', start, text.length, line);
}

/** What `String.prototype.trim` would remove at an end (tabs and CRs have been refused already). */
function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a) || code === 0x1680 || code === 0x3000 || code === 0x202f || code === 0x205f || code === 0x0b || code === 0x0c;
}

/** The YAML 1.2 core schema, tested in `yaml`'s order. */
function coreValue(text: string): unknown {
  // Text starting with any other letter is a string under every rule below; most text is.
  const first = text.charCodeAt(0);
  const letter = (first >= 97 && first <= 122) || (first >= 65 && first <= 90);
  if (letter && !'nNtTfF'.includes(text[0])) return text;
  if (/^(?:~|[Nn]ull|NULL)$/.test(text)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(text)) return text[0] === 't' || text[0] === 'T';
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(text)) {
    return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(text)) return parseFloat(text);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(text)) return parseFloat(text);
  return text;
}

/*
 * Node classes with the identity symbol on the prototype (an object literal with a computed
 * symbol key is built slowly, one property at a time) and the range and position kept as plain
 * numbers: a manifest has a node per value, and each extra object is garbage to collect.
 */
class ScalarNode {
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
class PairNode {
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
class MapNode extends CollectionNode {}
class SeqNode extends CollectionNode {}
Object.defineProperty(ScalarNode.prototype, NODE_TYPE, { value: SCALAR });
Object.defineProperty(PairNode.prototype, NODE_TYPE, { value: PAIR });
Object.defineProperty(MapNode.prototype, NODE_TYPE, { value: MAP });
Object.defineProperty(SeqNode.prototype, NODE_TYPE, { value: SEQ });

/** 1-based line and column of a node this reader made (what `lineStarts` would compute), else undefined. */
export function positionOf(node: unknown): { line: number; column: number } | undefined {
  return node instanceof ScalarNode || node instanceof CollectionNode ? { line: node.line, column: node.column } : undefined;
}

function scalar(value: unknown, type: string, start: number, length: number, line: Line): Scalar {
  return new ScalarNode(value, type, start, length, line.no, start - (line.start - line.indent) + 1) as unknown as Scalar;
}

function pair(key: Node, value: Node): Pair {
  return new PairNode(key, value) as unknown as Pair;
}

function collection(type: symbol, items: unknown[], first: Line): Node {
  return (type === MAP ? new MapNode(items, first.start, first.no, first.indent + 1) : new SeqNode(items, first.start, first.no, first.indent + 1)) as unknown as Node;
}
