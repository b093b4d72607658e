/**
 * The model's world: the remote API the engine is judged against, written from what such APIs do
 * and not from the engine's understanding of them. Objects by id with their inputs, provisioning on
 * a clock, claims the API enforces (a gateway's name, a VLAN on a port held a while after it is let
 * go), references it protects (an object in use cannot be deleted), and a log of every call.
 * Whatever the engine should never make the API do is recorded as a violation.
 */
import { RemoteError } from '../../src/kernel/errors.js';
import { fakeClock, type FakeClock } from './fakes.js';

/** The kinds of object the world knows. */
export type Kind = 'port' | 'vxc' | 'gateway' | 'link' | 'route';

/** How the API treats each kind. */
export interface KindRules {
  /** `once-ready`: not listed at all until provisioned; `while-provisioning`: listed with its state. */
  listed: 'once-ready' | 'while-provisioning';
  /** The range of provisioning times, and (rarely) a longer one. */
  provisionMs: [number, number];
  slowProvisionMs?: [number, number];
  /** The kind a `ref` input must name. */
  refers?: Kind;
  /** Names unique among live objects of the kind. */
  uniqueName?: boolean;
  /** A VLAN on the port `ref` names, unique among live objects, and held this long after it is let go. */
  vlanHoldMs?: number;
}

export const RULES: Record<Kind, KindRules> = {
  port: { listed: 'once-ready', provisionMs: [20_000, 300_000], slowProvisionMs: [11 * 60_000, 20 * 60_000] },
  vxc: { listed: 'while-provisioning', provisionMs: [10_000, 90_000], refers: 'port', vlanHoldMs: 90_000 },
  gateway: { listed: 'while-provisioning', provisionMs: [10_000, 120_000], slowProvisionMs: [11 * 60_000, 14 * 60_000], uniqueName: true },
  link: { listed: 'while-provisioning', provisionMs: [5_000, 60_000], refers: 'gateway' },
  route: { listed: 'while-provisioning', provisionMs: [0, 0], refers: 'link' },
};

/** Longest a port goes unlisted after its order (its type says so: appearsWithinMs). */
export const PORT_APPEARS_WITHIN_MS = 30 * 60_000;

/** One object: what was ordered, for which manifest resource, by which process, and when it is ready. */
export interface WorldObject {
  id: string;
  kind: Kind;
  inputs: Record<string, unknown>;
  /** The order's operation token, as an API keeps an idempotency key or tag. */
  token: string;
  /** The manifest resource it was ordered for (the model's bookkeeping; the API never reads it). */
  identity: string;
  /** The process that ordered it. */
  process: number;
  orderedAt: number;
  readyAt: number;
  fails: boolean;
}

/** What the API reports of an object: its inputs and its state. */
export type Seen = Record<string, unknown> & { state: 'PROVISIONING' | 'READY' | 'FAILED' };

/** One call the API received. */
export interface CallRecord {
  process: number;
  /** The call's number within its process, from 1. */
  n: number;
  verb: 'create' | 'read' | 'list' | 'find' | 'released' | 'update' | 'delete';
  kind: Kind;
  address: string;
  id?: string;
  /** What it did: `created`, `updated`, `deleted`, `gone` (nothing to delete), `read`, or the refusal. */
  effect: string;
  fault?: string;
}

/** An order the API accepted, and the other live objects ordered for the same resource at that moment. */
export interface Bought {
  process: number;
  address: string;
  identity: string;
  id: string;
  others: string[];
}

/** A small seeded PRNG (mulberry32): every schedule, delay and fault comes from one. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
  };
}
export type Prng = ReturnType<typeof prng>;

/** The remote API of the model, on a clock of its own. */
export class World {
  readonly clock: FakeClock = fakeClock(Date.UTC(2030, 0, 1));
  readonly objects = new Map<string, WorldObject>();
  readonly calls: CallRecord[] = [];
  readonly bought: Bought[] = [];
  /** What the engine should never have made the API do, in words, with the process that did it. */
  readonly violations: Array<{ process: number; what: string }> = [];
  /** Until when a VLAN on a port stays held after its holder let it go, the process that let it go, and whether by deleting it, by `port vlan`. */
  private readonly heldUntil = new Map<string, { until: number; by: number; deleted: boolean }>();
  private next = 1;

  constructor(private readonly random: Prng) {}

  /** The object as the API reports it now; undefined when it does not list it (gone, or not provisioned yet). */
  seen(id: string): Seen | undefined {
    const o = this.objects.get(id);
    if (!o) return undefined;
    const state = this.clock.now() < o.readyAt ? 'PROVISIONING' : o.fails ? 'FAILED' : 'READY';
    if (state === 'PROVISIONING' && RULES[o.kind].listed === 'once-ready') return undefined;
    return { ...structuredClone(o.inputs), state };
  }

  /** Whether the API would call the object ready for use. */
  ready(id: string): boolean {
    return this.seen(id)?.state === 'READY';
  }

  /** Places an order: refused when a claim or reference does not allow it; `failing` orders end FAILED. */
  order(kind: Kind, inputs: Record<string, unknown>, who: { process: number; address: string; identity: string; token: string }, failing: boolean): string {
    this.checkReference(kind, inputs, who.process, undefined);
    this.checkClaims(kind, inputs, undefined, who.process);
    const rules = RULES[kind];
    const slow = rules.slowProvisionMs && this.random.chance(0.25);
    const [min, max] = slow ? rules.slowProvisionMs! : rules.provisionMs;
    const id = `${kind}-${this.next++}`;
    const others = [...this.objects.values()].filter((o) => o.identity === who.identity).map((o) => o.id);
    const now = this.clock.now();
    this.objects.set(id, {
      id,
      kind,
      inputs: structuredClone(inputs),
      token: who.token,
      identity: who.identity,
      process: who.process,
      orderedAt: now,
      readyAt: now + this.random.int(min, max),
      fails: failing,
    });
    this.bought.push({ process: who.process, address: who.address, identity: who.identity, id, others });
    return id;
  }

  /** Changes an object in place. */
  change(id: string, inputs: Record<string, unknown>, process: number): Seen {
    const o = this.objects.get(id);
    if (!o || !this.seen(id)) throw new RemoteError('not-found', `${id} not found`);
    if (!this.ready(id)) {
      this.violations.push({ process, what: `${id} was changed while ${this.seen(id)?.state}` });
      throw new RemoteError('conflict', `${id} is not ready`);
    }
    this.checkReference(o.kind, inputs, process, o.inputs);
    this.checkClaims(o.kind, inputs, id, process);
    this.letGo(o, inputs, process);
    o.inputs = structuredClone(inputs);
    return this.seen(id)!;
  }

  /** Deletes an object: refused while a live object references it; one not listed is not found. */
  remove(id: string, process: number): 'deleted' {
    const o = this.objects.get(id);
    if (!o || !this.seen(id)) throw new RemoteError('not-found', `${id} not found`);
    const users = [...this.objects.values()].filter((u) => u.inputs.ref === id).map((u) => u.id);
    if (users.length) {
      this.violations.push({ process, what: `a dependent would have lost its target: delete of ${id} while ${users.join(', ')} still reference it` });
      throw new RemoteError('conflict', `${id} is in use by ${users.join(', ')}`);
    }
    this.objects.delete(id);
    this.letGo(o, undefined, process);
    return 'deleted';
  }

  /** Objects of a kind the API lists now, by id. */
  list(kind: Kind): Map<string, Seen> {
    const out = new Map<string, Seen>();
    for (const o of this.objects.values()) {
      const seen = o.kind === kind ? this.seen(o.id) : undefined;
      if (seen) out.set(o.id, seen);
    }
    return out;
  }

  /** The listed object of a kind whose order carried this token. */
  byToken(kind: Kind, token: string): { id: string; seen: Seen } | undefined {
    const o = [...this.objects.values()].find((x) => x.kind === kind && x.token === token && this.seen(x.id));
    return o && { id: o.id, seen: this.seen(o.id)! };
  }

  /** The listed objects of a kind with this name, each with when it was ordered. */
  byName(kind: Kind, name: unknown): Array<{ id: string; seen: Seen; orderedAt: number }> {
    return [...this.objects.values()].filter((x) => x.kind === kind && x.inputs.name === name && this.seen(x.id)).map((x) => ({ id: x.id, seen: this.seen(x.id)!, orderedAt: x.orderedAt }));
  }

  /** Whether a VLAN on a port is free: no live object holds it, and its last holder let go long enough ago. */
  vlanFree(port: unknown, vlan: unknown): boolean {
    const key = `${String(port)} ${String(vlan)}`;
    const held = [...this.objects.values()].some((o) => RULES[o.kind].vlanHoldMs !== undefined && o.inputs.ref === port && o.inputs.vlan === vlan);
    return !held && (this.heldUntil.get(key)?.until ?? 0) <= this.clock.now();
  }

  private checkReference(kind: Kind, inputs: Record<string, unknown>, process: number, before: Record<string, unknown> | undefined): void {
    const ref = inputs.ref;
    if (ref === undefined || ref === before?.ref) return;
    const target = this.objects.get(String(ref));
    if (!target || target.kind !== RULES[kind].refers) {
      this.violations.push({ process, what: `a ${kind} was given a reference to nothing: ${String(ref)}` });
      throw new RemoteError('invalid', `${String(ref)} is not a ${RULES[kind].refers}`);
    }
    if (!this.ready(target.id)) {
      this.violations.push({ process, what: `a ${kind} was made to use ${target.id} while it is ${this.seen(target.id)?.state ?? 'not listed'}` });
      throw new RemoteError('conflict', `${target.id} is not ready`);
    }
  }

  /**
   * Refuses what another live object holds, or let go of a moment ago. An order of what an object
   * its own process deleted let go of did not wait for it (ResourceType.holds' `released`): a
   * violation. One let go by an update is not: the engine's contract (ResourceType.holds) orders a
   * takeover after the holder's delete only.
   */
  private checkClaims(kind: Kind, inputs: Record<string, unknown>, self: string | undefined, process: number): void {
    const rules = RULES[kind];
    const live = [...this.objects.values()].filter((o) => o.kind === kind && o.id !== self);
    if (rules.uniqueName && live.some((o) => o.inputs.name === inputs.name)) throw new RemoteError('conflict', `the name ${String(inputs.name)} is taken`);
    if (rules.vlanHoldMs === undefined) return;
    const before = self ? this.objects.get(self)!.inputs : undefined;
    if (before?.ref === inputs.ref && before?.vlan === inputs.vlan) return;
    if (this.vlanFree(inputs.ref, inputs.vlan)) return;
    const key = `${String(inputs.ref)} ${String(inputs.vlan)}`;
    const held = this.heldUntil.get(key);
    if (held?.by === process && held.deleted) this.violations.push({ process, what: `VLAN ${key} was ordered before its holder, deleted by the same apply, let go of it` });
    throw new RemoteError('conflict', `VLAN ${String(inputs.vlan)} is in use on ${String(inputs.ref)}`);
  }

  /** A VLAN its holder lets go of (deleted, or moved to another) stays held a while. */
  private letGo(o: WorldObject, now: Record<string, unknown> | undefined, process: number): void {
    const hold = RULES[o.kind].vlanHoldMs;
    if (hold === undefined || (now?.ref === o.inputs.ref && now?.vlan === o.inputs.vlan)) return;
    this.heldUntil.set(`${String(o.inputs.ref)} ${String(o.inputs.vlan)}`, { until: this.clock.now() + hold, by: process, deleted: now === undefined });
  }
}
