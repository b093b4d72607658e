/**
 * Every YAML file plumb reads (manifests, import files) goes through here: the bytes decoded as
 * strict UTF-8, the text parsed by `yaml` keeping each node's position, and what `yaml` lets
 * through refused with a position (see yaml-checks.ts). A file that fails here is not read
 * further: its later problems would be guesses about what the text meant.
 */
import { isUtf8 } from 'node:buffer';
import { type Alias, type Document, LineCounter, type Node, parseDocument } from 'yaml';
import { rememberSource, type Diagnostic } from '../kernel/diagnostics.js';
import type { Pos } from './ast.js';
import { checkNodes } from './yaml-checks.js';

/** A parsed YAML file, or the problems that stopped it being read. */
export interface YamlSource {
  doc: Document.Parsed;
  /** The 1-based line and column of a node (1:1 for none). */
  at(node: { range?: [number, number, number] | null } | null | undefined): Pos;
  /** The node an alias stands for; only asked of a source without problems, where every alias has one. */
  target(alias: Alias): Node;
  /** Problems found (decoding, syntax, duplicate keys, aliases); the document is not to be used when there are any. */
  diagnostics: Diagnostic[];
}

/** How to read. */
export interface ReadOptions {
  /** What to add to a syntax error on a line, when its likely cause is known. */
  syntaxHint?: (line: number) => string | undefined;
}

/** Problems shown per kind at most: a binary file given by mistake has thousands. */
const MAX_PER_KIND = 10;

/** The text of a file's bytes; invalid UTF-8 is reported at its line and column, never replaced. */
export function decodeUtf8(bytes: Uint8Array, file: string): { text: string; diagnostics: Diagnostic[] } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (isUtf8(bytes)) return { text, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  let line = 1;
  let lineStart = 0;
  let lastLine = 0;
  for (let i = 0; i < bytes.length;) {
    if (bytes[i] === 10) {
      line++;
      lineStart = ++i;
      continue;
    }
    const length = utf8Length(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (line !== lastLine) {
      lastLine = line;
      // The column counts characters as the rest of plumb does (UTF-16 units), up to the bad byte.
      const column = Buffer.from(bytes.subarray(lineStart, i)).toString('utf8').length + 1;
      diagnostics.push({
        severity: 'error',
        summary: `invalid UTF-8: byte 0x${bytes[i].toString(16).padStart(2, '0')} does not belong to a character`,
        detail: 'YAML files must be UTF-8; save the file as UTF-8',
        pos: { file, line, column },
      });
    }
    i++;
  }
  return { text, diagnostics: capped(diagnostics) };
}

/** The length of the valid UTF-8 sequence starting at `i`, or 0 when none does. */
function utf8Length(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  if (b < 0x80) return 1;
  const cont = (k: number, low = 0x80, high = 0xbf) => i + k < bytes.length && bytes[i + k] >= low && bytes[i + k] <= high;
  // The ranges of RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b >= 0xe1 && b <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** Control characters YAML does not allow in its text (tabs and line breaks aside). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Parses YAML text with positions; `file` names it in every problem. */
export function readYaml(text: string, file: string, options: ReadOptions = {}): YamlSource {
  rememberSource(file, text);
  const lineCounter = new LineCounter();
  const at: YamlSource['at'] = (node) => {
    if (!node?.range) return { line: 1, column: 1 };
    const { line, col } = lineCounter.linePos(node.range[0]);
    return { line, column: col };
  };
  const diagnostics = controlCharacters(text, file);
  // `yaml`'s own duplicate-key check compares every key with every other: checkNodes does it by value, in one pass.
  const doc = parseDocument(diagnostics.length ? '' : text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const targets = new Map<Alias, Node>();
  const source: YamlSource = { doc, at, target: (alias) => targets.get(alias) as Node, diagnostics };
  if (diagnostics.length) return source;
  // One mistake can make yaml report several errors on its line; the first says where it is.
  const reported = new Set<number>();
  for (const e of doc.errors) {
    const { line, col } = lineCounter.linePos(e.pos[0]);
    if (reported.has(line)) continue;
    reported.add(line);
    // yaml reports running out of stack as an error at the node it was reading.
    if (e.message.startsWith('Maximum call stack size exceeded')) {
      diagnostics.push({
        severity: 'error',
        summary: 'the YAML nests too deeply to be read',
        detail: 'mappings and lists inside each other hundreds of levels deep: the text looks generated or damaged',
        pos: { file, line, column: col },
      });
      continue;
    }
    const summary = `YAML syntax error: ${e.message.split('\n')[0]}`;
    diagnostics.push({ severity: 'error', summary, detail: options.syntaxHint?.(line), pos: { file, line, column: col } });
  }
  if (diagnostics.length) return source;
  for (const problem of checkNodes(doc, text, (offset) => lineCounter.linePos(offset).line, targets)) {
    diagnostics.push({ severity: 'error', summary: problem.summary, detail: problem.detail, pos: { file, ...at(problem.node) } });
  }
  return source;
}

/** Each control character in the text (at most a few per kind), positioned. */
function controlCharacters(text: string, file: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (text.search(CONTROL) < 0) return diagnostics;
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const m of text.matchAll(CONTROL)) {
    for (let i = text.indexOf('\n', scanned); i >= 0 && i < m.index; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    scanned = m.index;
    const col = m.index - lineStart + 1;
    const code = m[0].charCodeAt(0);
    const name = code === 0 ? 'a NUL character (U+0000)' : `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    diagnostics.push({
      severity: 'error',
      summary: `${name} is not allowed in YAML`,
      detail: 'YAML text may hold tabs and line breaks but no other control characters; a value that needs one writes it as an escape in double quotes ("\\0", "\\x07")',
      pos: { file, line, column: col },
    });
  }
  return capped(diagnostics);
}

/** The first few problems, and one that says how many more there are. */
function capped(diagnostics: Diagnostic[]): Diagnostic[] {
  if (diagnostics.length <= MAX_PER_KIND) return diagnostics;
  const more = diagnostics.length - MAX_PER_KIND;
  const last = diagnostics[MAX_PER_KIND];
  return [...diagnostics.slice(0, MAX_PER_KIND), { ...last, summary: `${last.summary} (and ${more - 1} more like it after this one)` }];
}
