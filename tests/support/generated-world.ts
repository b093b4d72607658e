/**
 * The world as the generated lifecycle suite judges it: a provider's sandbox data file, what a
 * bill would show, read as leaves (path → value). A list of records is keyed by each record's id
 * (or content) rather than its place, so that removing one record moves no other; a record is
 * what sits at `/<collection>/<key>`. Records are found by the ids plumb's state gives the stack's
 * objects, and judged by what the data says: present, changed, ended (cancelled, inactive).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '@plumb/sandbox';

/** A world read as leaves: the path of each value (`/vpcs/[VPCId=uvnet-1]/Name`) and the value. */
export type Leaves = Map<string, unknown>;

/** One leaf that differs between two readings. */
export interface Difference {
  path: string;
  before?: unknown;
  after?: unknown;
}

/** Keys that identify a record among others of a list, in order of preference. */
const ID_KEY = /^(id|key|hash)$|(Id|Uid|ID|_id|Index)$/;
/** What a record's status says once it no longer exists for its owner's bill. */
const ENDED = /^(cancell?ed|decommission(ed|ing)|deleted|deleting|terminated|released|inactive)$/i;
/** Leaves that move with time alone. */
const TIMED = /(date|time|_at|At|modified)$/i;

/** What a provider's data keeps that is nobody's object: keys, counters, transitions still to come, VLANs held a while. */
const BOOKKEEPING: Record<string, RegExp> = {
  interconnect: /^\/(version|tokenSecret|tokenExpiresIn|next\w+|vlanHolds|extraPartnerPorts)(\/|$)/,
  cloud: /^\/(version|accounts|regions|projects|hostImages|phostImages)(\/|$)/,
  pipeline: /^\/(version|pending|schemaSources|roles|packages|connectorTypes)(\/|$)/,
};

/** A record a provider keeps after it ended, beyond what its status says: a service key deleted is one deactivated. */
const ENDED_RECORD: Record<string, (record: string, leaves: Leaves) => boolean> = {
  interconnect: (record, leaves) => record.startsWith('/serviceKeys/') && leaves.get(`${record}/active`) === false,
};

/** A provider's world as its sandbox would write it now: its data file, read as leaves, without its bookkeeping. */
export function readWorld(sandbox: Sandbox, dataDir: string, provider: string): Leaves {
  sandbox.world.flush();
  const file = join(dataDir, `${provider}.json`);
  const all: Leaves = new Map();
  if (existsSync(file)) flatten(JSON.parse(readFileSync(file, 'utf8')), '', all);
  const kept = BOOKKEEPING[provider];
  const out: Leaves = new Map([...all].filter(([path]) => !kept?.test(path)));
  const ended = ENDED_RECORD[provider];
  if (ended) for (const record of new Set([...out.keys()].map(recordOf))) if (ended(record, out)) out.set(`${record}/${ENDED_MARK}`, true);
  return out;
}

/** The leaf readWorld adds to a record its provider keeps after it ended. */
const ENDED_MARK = '(ended)';

function flatten(value: unknown, path: string, out: Leaves): void {
  if (Array.isArray(value)) {
    if (!value.length) out.set(path, '[]');
    const key = identity(value);
    const seen = new Map<string, number>();
    for (const item of value) {
      let name = key ? `${key}=${String((item as Record<string, unknown>)[key])}` : itemKey(item);
      // The same item twice stays two items.
      const n = seen.get(name) ?? 0;
      seen.set(name, n + 1);
      if (n) name += `#${n}`;
      flatten(item, `${path}/[${name}]`, out);
    }
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) out.set(path, '{}');
    for (const [k, v] of entries) flatten(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  } else out.set(path, value);
}

/** The key whose values tell a list's records apart, if there is one. */
function identity(list: unknown[]): string | undefined {
  if (!list.length || !list.every((i) => i !== null && typeof i === 'object' && !Array.isArray(i))) return undefined;
  const records = list as Array<Record<string, unknown>>;
  const keys = Object.keys(records[0]).filter((k) => ID_KEY.test(k));
  keys.sort((a, b) => Number(b === 'id') - Number(a === 'id'));
  return keys.find((k) => {
    const values = records.map((r) => r[k]);
    return values.every((v) => typeof v === 'string' || typeof v === 'number') && new Set(values).size === values.length;
  });
}

/** An item without an id: a value is keyed by itself, a record by its content. */
function itemKey(item: unknown): string {
  if (item === null || typeof item !== 'object') return `=${String(item)}`;
  return createHash('sha1').update(JSON.stringify(item)).digest('hex').slice(0, 10);
}

/** The leaves that differ between two readings of the world. */
export function differences(before: Leaves, after: Leaves): Difference[] {
  const out: Difference[] = [];
  for (const [path, value] of after) {
    if (!before.has(path)) out.push({ path, after: value });
    else if (before.get(path) !== value) out.push({ path, before: before.get(path), after: value });
  }
  for (const [path, value] of before) if (!after.has(path)) out.push({ path, before: value });
  return out;
}

/** The record a leaf belongs to: `/<collection>/<key>` (one level more for a map of lists, `/certificates/<holder>`). */
export function recordOf(path: string): string {
  const parts = path.split('/');
  const deep = parts[2] !== undefined && !parts[2].startsWith('[') && parts[3]?.startsWith('[');
  return parts.slice(0, deep ? 4 : 3).join('/');
}

/** The records that mention one of the ids: by a value of theirs, or in their path. */
export function recordsNaming(world: Leaves, ids: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (!ids.length) return out;
  for (const [path, value] of world) {
    const record = recordOf(path);
    if (out.has(record)) continue;
    if (ids.some((id) => value === id || path.includes(id))) out.add(record);
  }
  return out;
}

/** Whether a record still exists for its owner: present, and neither cancelled, ended by its status, nor kept as ended by its provider. */
export function alive(world: Leaves, record: string): boolean {
  return exists(world, record) && !world.has(`${record}/${ENDED_MARK}`);
}

/**
 * Whether a record is still an object of the world: present, and neither cancelled nor ended by
 * its status. A record its provider keeps as ended (a deactivated service key, which is also what
 * a deleted one becomes) is one: an update may set it so, and it is still there to set back.
 */
export function exists(world: Leaves, record: string): boolean {
  let present = false;
  for (const [path, value] of world) {
    if (path !== record && !path.startsWith(`${record}/`)) continue;
    present = true;
    const rest = path.slice(record.length + 1);
    if (rest.startsWith('cancel/')) return false;
    if (!rest.includes('/') && /status$|state$/i.test(rest) && typeof value === 'string' && ENDED.test(value)) return false;
  }
  return present;
}

/** The records whose path holds one of the ids: the objects' own (`/products/<uid>`, `/vpcs/[VPCId=<id>]`). */
export function ownRecords(world: Leaves, ids: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const path of world.keys()) if (ids.some((id) => path.includes(id))) out.add(recordOf(path));
  return out;
}

/**
 * The live records that name one of the ids, but for those that went with an object that ended:
 * a record naming an ended object by value (a cancelled router's prefix lists), which nobody
 * reaches or pays for once it ended.
 */
export function leftOf(world: Leaves, ids: readonly string[]): string[] {
  const ended = ids.filter((id) => {
    const own = ownRecords(world, [id]);
    return own.size > 0 && [...own].every((r) => !alive(world, r));
  });
  const withEnded = (record: string) => ended.some((id) => !record.includes(id) && [...world].some(([path, value]) => value === id && recordOf(path) === record));
  return [...recordsNaming(world, ids)].filter((r) => alive(world, r) && !withEnded(r));
}

/** The leaves of some records that differ between two readings, leaving out what moves with time alone. */
export function changedIn(before: Leaves, after: Leaves, records: Set<string>): Difference[] {
  return differences(before, after).filter((d) => records.has(recordOf(d.path)) && !TIMED.test(d.path.split('/').pop() ?? ''));
}

/** The strings a world holds, as values and in paths (to tell ids made since from those it had). */
export function mentions(world: Leaves, id: string): boolean {
  for (const [path, value] of world) if (value === id || path.includes(id)) return true;
  return false;
}

/** The records that name by value the id of a record that ended (`/products/[productUid=<id>]` cancelled): they went with it. */
export function withEnded(world: Leaves): Set<string> {
  const ended = new Set<string>();
  for (const record of new Set([...world.keys()].map(recordOf))) {
    const id = /\[(?:\w+=)?([^\]]+)\]$|\/([^/[\]]+)$/.exec(record);
    if (id && !alive(world, record)) ended.add(id[1] ?? id[2]);
  }
  const out = new Set<string>();
  if (!ended.size) return out;
  for (const [path, value] of world) if ((typeof value === 'string' || typeof value === 'number') && ended.has(String(value)) && alive(world, recordOf(path))) out.add(recordOf(path));
  return out;
}
