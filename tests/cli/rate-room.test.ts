/** rateRoom: before a refresh, which provider windows have less room than a call per recorded object. */
import { describe, expect, it } from 'vitest';
import { rateRoom } from '../../src/cli/rate-room.js';
import { MemoryLedger, WindowGate, type RateWindow, type Room } from '../../src/providers/rate-window.js';

const window = { limit: 10, windowMs: 60_000 };

/** A ledger that logs the keys it is asked about. */
class AskedLedger extends MemoryLedger {
  readonly asked: string[] = [];
  override room(key: string, w: RateWindow, need?: number): Promise<Room> {
    this.asked.push(key);
    return super.room(key, w, need);
  }
}

/** Connections as the session makes them, each client with the limiter it has, and a log of those connected. */
function world(now: () => number) {
  const ledger = new AskedLedger(now);
  const connected: string[] = [];
  const gates: Record<string, WindowGate> = {
    interconnect: new WindowGate(ledger, 'interconnect 127.0.0.1', window),
    'interconnect\u0000other': new WindowGate(ledger, 'interconnect other', window),
  };
  const deps = {
    resourceType: (token: string) => ({ provider: token.split(':')[0] }) as never,
    connect: async (name: string, instance?: string) => {
      const key = instance === undefined ? name : `${name}\u0000${instance}`;
      connected.push(key);
      if (name === 'broken') throw new Error('no settings');
      return { client: { limiter: { window: gates[key] } }, settings: {} };
    },
  };
  return { ledger, deps, asked: ledger.asked, connected };
}

const ports = (n: number, provider?: string) => Array.from({ length: n }, () => ({ type: 'interconnect:index/port:Port', provider }));

describe('rateRoom', () => {
  it('a window with room for a call per object: nothing to say', async () => {
    const { deps, asked } = world(() => 1_000_000);
    expect(await rateRoom(ports(10), deps)).toEqual([]);
    expect(asked).toEqual(['interconnect 127.0.0.1']);
  });

  it('a window with less room: what is left, what is needed, and until the oldest calls leave it', async () => {
    // On a bucket's edge (a thousandth of the window), so the calls count from when they were answered.
    let now = 1_200_000;
    const { ledger, deps } = world(() => now);
    const grant = await ledger.take('interconnect 127.0.0.1', window, 6, []);
    await ledger.answered('interconnect 127.0.0.1', grant.tickets);
    now += 20_000;
    const [room] = await rateRoom(ports(5), deps);
    // Answered 20 s ago: they leave the window in 40 s.
    expect(room).toEqual({ provider: 'interconnect', limit: 10, windowMs: 60_000, left: 4, need: 5, waitMs: 40_000 });
  });

  it('more objects than the window holds: a wait even from a quiet window', async () => {
    const { deps } = world(() => 1_000_000);
    expect(await rateRoom(ports(11), deps)).toEqual([{ provider: 'interconnect', limit: 10, windowMs: 60_000, left: 10, need: 11, waitMs: 60_000 }]);
  });

  it('counts the objects of each connection apart, named as its waits are', async () => {
    const { deps, asked } = world(() => 1_000_000);
    const rooms = await rateRoom([...ports(4), ...ports(11, 'other')], deps);
    expect(rooms.map((r) => [r.provider, r.need])).toEqual([['interconnect (other)', 11]]);
    expect(asked.sort()).toEqual(['interconnect 127.0.0.1', 'interconnect other']);
  });

  it('asks only the providers with recorded objects and a window; a connection that cannot be made is left to the refresh', async () => {
    const { deps, asked, connected } = world(() => 1_000_000);
    const records = [{ type: 'cloud:vpc/vpc:VPC' }, { type: 'broken:thing:Thing' }];
    expect(await rateRoom(records, deps)).toEqual([]);
    expect(connected.sort()).toEqual(['broken', 'cloud']);
    expect(asked).toEqual([]);
    expect(await rateRoom([], deps)).toEqual([]);
    expect(connected).toHaveLength(2);
  });
});
