/**
 * The text of a local state snapshot: plain JSON, laid out so that each resource's outputs sit
 * on a line of their own and are parsed only when something reads them.
 *
 * Outputs are most of a state's bytes (a VXC's are four times its inputs), and a plan reads the
 * outputs of the resources others refer to, not of every one; parsing them all was the largest
 * part of reading a large state. The layout, one resource per group of lines:
 *
 *   {"version":1,"stack":"default","lineage":"…","serial":7,"resources":{
 *   "port0":{"address":"port0","type":"…","id":"…","inputs":{…},"outputs":
 *   {"productUid":"…",…}
 *   ,"dependencies":[],"status":"ok"},
 *   …
 *   },"outputs":{},"pending":[]}
 *
 * JSON.stringify never writes a line break inside a value, so lines are a safe frame. Any other
 * text (an older compact snapshot, a file edited by hand) is read as a whole.
 */
import { UserError } from '../errors.js';
import type { StateSnapshot } from './types.js';

const OPEN_RESOURCES = '"resources":{';
const OUTPUTS_KEY = '"outputs":';

/**
 * The snapshot as text in the layout above (the key order of every object is kept), in pieces
 * of about `size` characters that each end between two JSON values: a large state is written
 * piece by piece rather than held whole, twice (as text and as bytes), at the end of an apply.
 */
export function* snapshotText(snapshot: StateSnapshot, size = 65536): Generator<string> {
  let parts: string[] = [];
  let length = 0;
  const add = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  const [before, after] = membersAround(snapshot as unknown as Record<string, unknown>, 'resources');
  add(`{${before}${before ? ',' : ''}${OPEN_RESOURCES}`);
  const addresses = Object.keys(snapshot.resources);
  for (let i = 0; i < addresses.length; i++) {
    const address = addresses[i];
    const resource = snapshot.resources[address] as unknown as Record<string, unknown>;
    const separator = i < addresses.length - 1 ? ',' : '';
    const key = JSON.stringify(address);
    // Outputs nothing has read are written as they were read.
    const untouched = Object.hasOwn(resource, 'outputs') ? heldOutputs.get(resource)?.raw : undefined;
    const outputs = untouched ?? (resource.outputs === undefined ? undefined : JSON.stringify(resource.outputs));
    if (outputs === undefined) {
      add(`\n${key}:${JSON.stringify(resource)}${separator}`);
    } else {
      const [head, tail] = membersAround(resource, 'outputs');
      add(`\n${key}:{${head}${head ? ',' : ''}${OUTPUTS_KEY}\n`);
      add(outputs);
      add(`\n${tail ? ',' : ''}${tail}}${separator}`);
    }
    if (length >= size) {
      yield parts.join('');
      parts = [];
      length = 0;
    }
  }
  add(`\n}${after ? ',' : ''}${after}}`);
  yield parts.join('');
}

/**
 * Reads text written by `snapshotText`, given as its lines, leaving each resource's outputs
 * unparsed until first read; undefined when the text is laid out any other way (the caller
 * parses it whole). `file` is named, with the line, if outputs turn out to be damaged when read.
 */
export function readSnapshotLines(lines: string[], file: string): StateSnapshot | undefined {
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (lines.length < 2 || !first.endsWith(OPEN_RESOURCES) || last[0] !== '}') return undefined;
  try {
    const snapshot = JSON.parse(`${first.slice(0, -OPEN_RESOURCES.length)}"resources":0${last.slice(1)}`) as StateSnapshot;
    const resources: Record<string, unknown> = {};
    for (let i = 1; i < lines.length - 1; i++) {
      const line = lines[i];
      const keyEnd = endOfKey(line);
      const address = JSON.parse(line.slice(0, keyEnd)) as string;
      if (line[keyEnd] !== ':') return undefined;
      if (!line.endsWith(OUTPUTS_KEY)) {
        resources[address] = JSON.parse(withoutComma(line.slice(keyEnd + 1)));
        continue;
      }
      if (i + 2 >= lines.length - 1) return undefined;
      // The outputs' place is held by a 0, so that the resource keeps its key order.
      const resource = JSON.parse(`${line.slice(keyEnd + 1)}0${withoutComma(lines[i + 2])}`) as Record<string, unknown>;
      lazyOutputs(resource, lines[i + 1], file, i + 2, address);
      resources[address] = resource;
      i += 2;
    }
    snapshot.resources = resources as StateSnapshot['resources'];
    return snapshot;
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** The JSON members of `object` before and after `key`, each joined as they appear inside braces. */
function membersAround(object: Record<string, unknown>, key: string): [string, string] {
  const before: string[] = [];
  const after: string[] = [];
  let seen = false;
  // Keys, not entries: reading `outputs` here would parse outputs still waiting as text.
  for (const name of Object.keys(object)) {
    if (name === key) {
      seen = true;
      continue;
    }
    // What JSON.stringify leaves out of an object (undefined, functions) is left out here too.
    const json = JSON.stringify(object[name]) as string | undefined;
    if (json !== undefined) (seen ? after : before).push(`${JSON.stringify(name)}:${json}`);
  }
  return [before.join(','), after.join(',')];
}

/** The outputs of a resource read from a snapshot: their text until first read or set, then their value. */
interface LazyOutputs {
  raw: string | undefined;
  value: unknown;
  /** Where the text came from, for the message if it is damaged. */
  file: string;
  line: number;
  address: string;
}

const heldOutputs = new WeakMap<object, LazyOutputs>();

/** One accessor for every resource's `outputs`; what differs between them is kept in `heldOutputs`. */
const OUTPUTS_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: object): unknown {
    const held = heldOutputs.get(this)!;
    if (held.raw !== undefined) {
      try {
        held.value = JSON.parse(held.raw);
      } catch (err) {
        throw new UserError(
          `${held.file}:${held.line}: the record of ${held.address} is damaged: its outputs cannot be read (${(err as Error).message})`,
          'restore state.json from a copy, or `plumb state push` a good one',
        );
      }
      held.raw = undefined;
    }
    return held.value;
  },
  set(this: object, next: unknown): void {
    const held = heldOutputs.get(this)!;
    held.raw = undefined;
    held.value = next;
  },
};

/** Makes `outputs` a property that parses its text (line `line` of `file`) on first read, and takes a value as usual. */
function lazyOutputs(resource: Record<string, unknown>, raw: string, file: string, line: number, address: string): void {
  heldOutputs.set(resource, { raw, value: undefined, file, line, address });
  Object.defineProperty(resource, 'outputs', OUTPUTS_ACCESSOR);
}

/** Where the JSON string that starts `line` ends (the index after its closing quote). */
function endOfKey(line: string): number {
  if (line[0] !== '"') throw new SyntaxError('expected a resource address');
  for (let i = 1; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '"') return i + 1;
  }
  throw new SyntaxError('unterminated resource address');
}

function withoutComma(text: string): string {
  return text.endsWith(',') ? text.slice(0, -1) : text;
}
