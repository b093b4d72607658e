import type { ResourceState } from '../contracts/state.js';

/**
 * Objects a create-first replacement set aside ("deposed", as Terraform says) stay in state until a
 * real delete of each succeeds, under a key of their own, `<address>~<id>`. An address may hold any
 * number of them (a replacement that timed out, then another one), and none can overwrite another.
 * A manifest address never holds `~`, so a key with one is always a deposed object.
 */
const MARK = '~';

/** The state key of the object with this id set aside at `address`. */
export function deposedKey(address: string, id: string): string {
  return `${address}${MARK}${id}`;
}

/** Whether a state key is a deposed object's. */
export function isDeposed(key: string): boolean {
  return key.includes(MARK);
}

/** The address a state key belongs to: itself, or the address its object was set aside from. */
export function baseAddress(key: string): string {
  const at = key.indexOf(MARK);
  return at < 0 ? key : key.slice(0, at);
}

/**
 * Drops a deposed record whose id is the current object's at its address: a duplicate left by a
 * crash between two journal entries. It is dropped, never deleted, since deleting that id would
 * delete the live object. Returns a note per record dropped.
 */
export function normalizeDeposed(resources: Record<string, ResourceState>): { resources: Record<string, ResourceState>; notes: string[] } {
  const out: Record<string, ResourceState> = {};
  const notes: string[] = [];
  for (const key of Object.keys(resources)) {
    const record = resources[key];
    if (!isDeposed(key)) {
      out[key] = record;
      continue;
    }
    const address = baseAddress(key);
    if (resources[address]?.id === record.id) {
      notes.push(`${address}: state recorded ${record.id} both as current and as set aside for deletion; it is kept as current and nothing is deleted`);
      continue;
    }
    out[key] = record;
  }
  return { resources: out, notes };
}
