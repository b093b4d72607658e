import { isRemote } from '../../../kernel/errors.js';
import type { InterconnectClient } from '../client.js';

/**
 * MCR prefix filter lists (reference §3.12): the summaries of an MCR's lists (id, description,
 * family: no entries), one list with its entries, and the writes. The entries of a list are in
 * no list call: reading them is one call per list.
 */

/** Address families a list can hold. */
export const ADDRESS_FAMILIES = ['IPv4', 'IPv6'] as const;

/** One entry as plumb reads it: ge and le as numbers, left out when unset. */
export interface ApiPrefixEntry {
  action: string;
  prefix: string;
  ge?: number;
  le?: number;
}

/** A list with its entries. */
export interface ApiPrefixList {
  id: number;
  description: string;
  addressFamily: string;
  entries: ApiPrefixEntry[];
}

/** A list as the summary call names it. */
export type PrefixListSummary = Omit<ApiPrefixList, 'entries'>;

type WireEntry = { action: string; prefix: string; ge?: string | number | null; le?: string | number | null };
type WireList = { id: number | string; description: string; addressFamily: string; entries?: WireEntry[] };

function base(mcrUid: string): string {
  return `/v2/product/mcr2/${encodeURIComponent(mcrUid)}`;
}

function lengthOf(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** A list as the API returns it (ge/le as strings, possibly absent) in plumb's terms. */
function fromWire(data: WireList): ApiPrefixList {
  const entries = (data.entries ?? []).map((e) => {
    const entry: ApiPrefixEntry = { action: e.action, prefix: e.prefix };
    const ge = lengthOf(e.ge);
    const le = lengthOf(e.le);
    if (ge !== undefined) entry.ge = ge;
    if (le !== undefined) entry.le = le;
    return entry;
  });
  return { id: Number(data.id), description: data.description, addressFamily: data.addressFamily, entries };
}

/** The body of a create or update: ge/le as numbers, left out when unset (the API reads 0 as unset). */
export function wireList(list: Omit<ApiPrefixList, 'id'>, id = 0): Record<string, unknown> {
  return {
    id,
    description: list.description,
    addressFamily: list.addressFamily,
    entries: list.entries.map((e) => ({ action: e.action, prefix: e.prefix, ...(e.ge ? { ge: e.ge } : {}), ...(e.le ? { le: e.le } : {}) })),
  };
}

/** Summaries (id, description, family) of every list on the MCR. */
export async function listPrefixLists(client: InterconnectClient, mcrUid: string): Promise<PrefixListSummary[]> {
  const { data } = await client.get<PrefixListSummary[]>(`${base(mcrUid)}/prefixLists`);
  return data ?? [];
}

/** One list with its entries; undefined when the API does not know it. */
export async function readPrefixList(client: InterconnectClient, mcrUid: string, id: number): Promise<ApiPrefixList | undefined> {
  try {
    const { data } = await client.get<WireList>(`${base(mcrUid)}/prefixList/${id}`);
    return data ? fromWire(data) : undefined;
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

/**
 * Creates a list and returns it as the API stored it: the reply carries the list with its entries
 * (reference §3.12), so it needs no read back; one without entries is read. Callers create a list
 * only when none of its description is on the MCR (descriptions are names), so after a lost answer
 * the list of that description, if there is one now, is the one this call made: it is the answer,
 * never a second.
 */
export async function createPrefixList(client: InterconnectClient, mcrUid: string, list: Omit<ApiPrefixList, 'id'>): Promise<ApiPrefixList> {
  const recover = async () => {
    const made = (await listPrefixLists(client, mcrUid)).find((l) => l.description === list.description);
    return made && { message: 'found after a lost answer', data: { id: made.id } as WireList };
  };
  const { data } = await client.post<WireList>(`${base(mcrUid)}/prefixList`, wireList(list), undefined, { recover });
  const made = Array.isArray(data?.entries) ? fromWire(data) : await readPrefixList(client, mcrUid, Number(data.id));
  if (!made) throw new Error(`prefix filter list ${data.id} was created on MCR ${mcrUid} but cannot be read back`);
  madeOn(client, mcrUid)?.set(made.id, made.description);
  return made;
}

/** Rewrites a list: description, family and every entry. */
export async function updatePrefixList(client: InterconnectClient, mcrUid: string, id: number, list: Omit<ApiPrefixList, 'id'>): Promise<void> {
  await client.put(`${base(mcrUid)}/prefixList/${id}`, wireList(list, id));
  madeOn(client, mcrUid)?.set(id, list.description);
}

/** Deletes a list (409 while a VXC BGP connection still references it). */
export async function deletePrefixList(client: InterconnectClient, mcrUid: string, id: number): Promise<void> {
  await client.delete(`${base(mcrUid)}/prefixList/${id}`);
  madeOn(client, mcrUid)?.delete(id);
}

/**
 * MCRs this client ordered, with the lists it made on each since (id → description). Such an MCR
 * has no lists but these: nobody else knew its UID before the order, so asking the API for its
 * lists before making one would only return what is held here.
 */
const ordered = new WeakMap<InterconnectClient, Map<string, Map<number, string>>>();

function madeOn(client: InterconnectClient, mcrUid: string): Map<number, string> | undefined {
  return ordered.get(client)?.get(mcrUid);
}

/** Records that this client has just ordered the MCR. */
export function routerOrdered(client: InterconnectClient, mcrUid: string): void {
  if (!ordered.has(client)) ordered.set(client, new Map());
  ordered.get(client)!.set(mcrUid, new Map());
}

/** The summaries of an MCR's lists: those this client made, for an MCR it ordered, else as the API lists them. */
export async function knownPrefixLists(client: InterconnectClient, mcrUid: string): Promise<Array<Pick<PrefixListSummary, 'id' | 'description'>>> {
  const made = madeOn(client, mcrUid);
  if (made) return [...made].map(([id, description]) => ({ id, description }));
  return listPrefixLists(client, mcrUid);
}
