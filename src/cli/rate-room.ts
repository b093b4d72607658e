/**
 * What a refresh may wait for its providers' rate windows, known before it starts: for each
 * provider connection the refresh will call (one with recorded objects) and whose client counts a
 * window, whether the window has room for a call per object (the refresh's upper bound). The
 * window's ledger is asked (a file on this machine, or the state's database), never the API.
 * Kept here, not in the engine, because a window is a client's, which the engine does not see.
 */
import type { EngineDeps } from '../engine/types.js';
import type { WindowGate } from '../providers/rate-window.js';

/** A provider connection whose window has less room than its refresh may need. */
export interface RateRoom {
  /** As `rate-wait` events name it: `interconnect`, or `interconnect (address)` for a provider resource. */
  provider: string;
  limit: number;
  windowMs: number;
  /** Calls the window has left now. */
  left: number;
  /** Calls the refresh may make: one per recorded object at most. */
  need: number;
  /** Longest the refresh may wait for the window to have room for them. */
  waitMs: number;
}

/** The connections, among those the recorded objects are reached through, whose window lacks room for their refresh. */
export async function rateRoom(records: Iterable<{ type: string; provider?: string }>, deps: Pick<EngineDeps, 'connect' | 'resourceType'>): Promise<RateRoom[]> {
  const objects = new Map<string, { name: string; instance?: string; count: number }>();
  for (const record of records) {
    const name = deps.resourceType(record.type)?.provider ?? record.type.split(':')[0]!;
    const key = record.provider === undefined ? name : `${name} (${record.provider})`;
    const entry = objects.get(key) ?? { name, instance: record.provider, count: 0 };
    entry.count++;
    objects.set(key, entry);
  }
  const rooms = await Promise.all(
    [...objects].map(async ([provider, { name, instance, count }]) => {
      const gate = await windowOf(deps, name, instance);
      if (!gate) return undefined;
      const { used, waitMs } = await gate.room(count);
      const room: RateRoom = { provider, limit: gate.window.limit, windowMs: gate.window.windowMs, left: Math.max(0, gate.window.limit - used), need: count, waitMs };
      return waitMs > 0 ? room : undefined;
    }),
  );
  return rooms.filter((room) => room !== undefined);
}

/**
 * The window of a provider connection's client, if it counts one. A connection that cannot be
 * made is left to the refresh, which meets the same problem and reports it at its objects.
 */
async function windowOf(deps: Pick<EngineDeps, 'connect'>, name: string, instance: string | undefined): Promise<WindowGate | undefined> {
  try {
    const { client } = await deps.connect(name, instance);
    return (client as { limiter?: { window?: WindowGate } } | undefined)?.limiter?.window;
  } catch {
    return undefined;
  }
}
