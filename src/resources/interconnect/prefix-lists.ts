import * as z from 'zod';
import { isRemote } from '../../kernel/errors.js';
import { oneOfText } from '../schema.js';
import { familyBits, parseCidr, prefixProblem, type Family } from './cidr.js';
import { ADDRESS_FAMILIES, deletePrefixList as deleteList, type ApiPrefixEntry } from '../../providers/interconnect/api/prefix-lists.js';
import { retryWithin, type Ctx } from './kit.js';

/**
 * MCR prefix filter lists, shared by the McrPrefixFilterList resource and the deprecated inline
 * `prefixFilterLists` of Mcr: the entry schema and its checks, entries compared as the API
 * spells them, and a delete that waits for references to go. The endpoints are in the provider's
 * api (api/prefix-lists.ts).
 */

/** One ordered entry of a prefix filter list. */
export const prefixEntry = z
  .object({
    action: oneOfText(['permit', 'deny'], 'What a route matching this entry gets: permit or deny.'),
    prefix: z.string().describe("Network prefix in CIDR form of the list's address family, with no host bits set, e.g. 10.0.0.0/8."),
    ge: z.number().int().optional().describe('Shortest prefix length matched, from the prefix length up to 32 (IPv4) or 128 (IPv6). Omitted: the API uses the prefix length.'),
    le: z.number().int().optional().describe('Longest prefix length matched, from ge (or the prefix length) up to 32 (IPv4) or 128 (IPv6). Omitted: the API uses 32 or 128.'),
  })
  .strict();

/** A prefix filter list entry. */
export type PrefixEntry = z.infer<typeof prefixEntry>;

/** The fields of one list (without the MCR it belongs to). */
export const prefixListFields = {
  description: z.string().min(1).describe('Name of the list, unique on its MCR; VXC BGP connections refer to the list by it.'),
  addressFamily: oneOfText(ADDRESS_FAMILIES, 'Address family of every prefix in the list: IPv4 or IPv6.'),
  entries: z.array(prefixEntry).min(1).max(200).describe('Ordered entries, 1 to 200; the first match decides.'),
};

/** One list as plumb describes it. */
export interface PrefixList {
  description: string;
  /** IPv4 or IPv6 (checked by the schema). */
  addressFamily: string;
  entries: PrefixEntry[];
}

/**
 * Checks every entry against the list's family: a canonical prefix, ge at least the prefix
 * length, le at most 32/128, ge not above le. Issues carry the path of the offending field so the
 * manifest error points at it. Values that are not plain yet (Unknown at plan time) are skipped.
 */
export function checkPrefixEntries(value: unknown, ctx: z.RefinementCtx): void {
  if (!value || typeof value !== 'object') return;
  const list = value as Record<string, unknown>;
  const family = list.addressFamily === 'IPv4' || list.addressFamily === 'IPv6' ? (list.addressFamily as Family) : undefined;
  if (!Array.isArray(list.entries)) return;
  list.entries.forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') return;
    const entry = raw as Record<string, unknown>;
    const path = ['entries', i];
    const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [...path, field], message });
    let length: number | undefined;
    let max = family ? familyBits(family) : undefined;
    if (typeof entry.prefix === 'string') {
      const problem = prefixProblem(entry.prefix, family);
      if (problem) issue('prefix', problem);
      const parsed = parseCidr(entry.prefix);
      if (parsed && (!family || parsed.family === family)) {
        length = parsed.length;
        max = familyBits(parsed.family);
      }
    }
    const ge = typeof entry.ge === 'number' ? entry.ge : undefined;
    const le = typeof entry.le === 'number' ? entry.le : undefined;
    if (ge !== undefined && length !== undefined && ge < length) issue('ge', `ge ${ge} is shorter than the prefix length ${length}; ge must be at least ${length}`);
    if (ge !== undefined && max !== undefined && ge > max) issue('ge', `ge ${ge} is longer than ${max}, the longest ${max === 32 ? 'IPv4' : 'IPv6'} prefix`);
    if (le !== undefined && max !== undefined && le > max) issue('le', `le ${le} is longer than ${max}, the longest ${max === 32 ? 'IPv4' : 'IPv6'} prefix`);
    if (le !== undefined && length !== undefined && le < length) issue('le', `le ${le} is shorter than the prefix length ${length}`);
    if (ge !== undefined && le !== undefined && ge > le) issue('ge', `ge ${ge} is greater than le ${le}`);
  });
}

/** Checks run even when another field already failed, so every broken entry is reported at once. */
export const ALWAYS = { when: () => true };

/** One list as the deprecated inline `prefixFilterLists` of an Mcr holds it. */
export const prefixListSchema = z.object(prefixListFields).strict().superRefine(checkPrefixEntries, ALWAYS);

/**
 * The observed entries, expressed like the prior ones where they mean the same: the API returns
 * ge/le as strings, may omit them, and may store the defaults (ge = prefix length, le = 32/128)
 * explicitly. An entry whose effective range is unchanged keeps the prior spelling, so an
 * unchanged list is never a diff; a real change shows the API's values.
 */
export function observedEntries(observed: ApiPrefixEntry[], prior: PrefixEntry[] | undefined): PrefixEntry[] {
  return (observed as PrefixEntry[]).map((e, i) => {
    const before = prior?.[i];
    const cidr = parseCidr(e.prefix);
    if (!before || before.prefix !== e.prefix || before.action !== e.action || !cidr) return e;
    const bits = familyBits(cidr.family);
    const out: PrefixEntry = { action: e.action, prefix: e.prefix };
    const ge = (e.ge ?? cidr.length) === (before.ge ?? cidr.length) ? before.ge : e.ge;
    const le = (e.le ?? bits) === (before.le ?? bits) ? before.le : e.le;
    if (ge !== undefined) out.ge = ge;
    if (le !== undefined) out.le = le;
    return out;
  });
}

/** Whether the current entries already say what `wanted` says (same order, same effective ranges). */
export function sameEntries(current: ApiPrefixEntry[], wanted: PrefixEntry[]): boolean {
  const seen = observedEntries(current, wanted);
  return seen.length === wanted.length && seen.every((e, i) => e.action === wanted[i].action && e.prefix === wanted[i].prefix && e.ge === wanted[i].ge && e.le === wanted[i].le);
}

/**
 * Deletes a list. The API refuses (conflict) while a VXC BGP connection still references it,
 * which clears once that VXC's own change lands, so the refusal is retried within waitTime.
 * A list (or MCR) that is already gone counts as deleted.
 */
export async function deletePrefixList(ctx: Ctx, mcrUid: string, id: number): Promise<void> {
  try {
    await retryWithin(
      ctx,
      'prefix list still referenced',
      () => deleteList(ctx.client, mcrUid, id),
      (err) => isRemote(err, 'conflict'),
    );
  } catch (err) {
    if (isRemote(err, 'not-found')) return;
    throw err;
  }
}

/** The list with this description among the summaries, if any. */
export function findByDescription<T extends { description: string }>(lists: T[], description: string): T | undefined {
  return lists.find((l) => l.description === description);
}
