/**
 * How the cloud API's Describe Actions are read: one record type's listing (its Action, id-list
 * parameter, list key and id field), read by id in pages of 100 ids, one by id, or whole.
 * Resources and lookups read through the same listings.
 */
import { isRemote } from '../../../kernel/errors.js';
import type { CloudClient } from '../client.js';
import type { Params } from '../signature.js';

/** How a type's records are listed: the Describe Action, its id-list parameter, the list key and the id field. */
export interface Listing {
  action: string;
  idsParam: string;
  listKey: string;
  idField: string;
  /** Further parameters of every call (filters). */
  params?: Params;
}

/** The records of these ids, read through the id-list parameter in pages of 100 ids. */
export async function describeIds<T extends Record<string, unknown>>(client: CloudClient, listing: Listing, ids: string[]): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const page = await client.pageAll<T>(listing.action, { ...listing.params, [listing.idsParam]: chunk }, listing.listKey);
    out.push(...page.filter((r) => chunk.includes(String(r[listing.idField]))));
  }
  return out;
}

/** One record by id, undefined when the API lists none (or answers not-found). */
export async function describeOne<T extends Record<string, unknown>>(client: CloudClient, listing: Listing, id: string): Promise<T | undefined> {
  try {
    return (await describeIds<T>(client, listing, [id]))[0];
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

/** Every record of the listing, narrowed by the API's own filters when given (a lookup's ids, tag, zone). */
export function describeAll<T>(client: CloudClient, listing: Listing, filters: Params = {}): Promise<T[]> {
  return client.pageAll<T>(listing.action, { ...listing.params, ...filters }, listing.listKey);
}
