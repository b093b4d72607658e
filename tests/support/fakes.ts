import pino from 'pino';
import { z } from 'zod';
import type { EngineDeps } from '../../src/engine/types.js';
import { RemoteError } from '../../src/kernel/errors.js';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import { replay, type StateStore } from '../../src/state/store.js';
import type { Clock } from '../../src/engine/applying/wait.js';
import type { JournalEntry, StateSnapshot } from '../../src/engine/contracts/state.js';

/** A call the fake handlers received. */
export interface FakeCall {
  verb: 'create' | 'read' | 'update' | 'delete';
  address: string;
  id?: string;
  inputs?: unknown;
}

/** A trivial resource type backed by a map, with optional failures, and a call log. */
export function fakeType(
  options: {
    failCreate?: (inputs: any) => boolean;
    /** The order goes through (its id is recorded), then the wait for it times out. */
    timeoutCreate?: (inputs: any) => boolean;
    /** The order goes through (its id is recorded), then no answer can be read (the API is unavailable). */
    loseCreateReply?: (inputs: any) => boolean;
    /** The order goes through, but its answer (the id) never arrives. */
    loseOrderReply?: (inputs: any) => boolean;
    /** Reads fail as unavailable while this says so. */
    failRead?: (id: string) => boolean;
    replaceOn?: string[];
    deleteBeforeReplace?: boolean;
    /**
     * Objects provision for this long (on `clock`), reading `PROVISIONING` until then, then
     * `READY` (or `FAILED` when `failProvisioning` says so); create waits for them.
     */
    provisionMs?: number;
    failProvisioning?: (inputs: any) => boolean;
    /** Objects are not listed at all until provisioned (the type says so: appearsWithinMs). */
    listedOnceReady?: boolean;
    /** Objects carry their order's token, so an interrupted create's object can be found (findOwned). */
    findable?: boolean;
    /**
     * Names are unique among live objects, and a deleted object's name stays held this long (as a
     * VLAN does): a create of a name in use or held is refused. The type says so (holds).
     */
    holdNameMs?: number;
    clock?: FakeClock;
  } = {},
) {
  const objects = new Map<string, Record<string, unknown>>();
  const calls: FakeCall[] = [];
  let next = 1;
  const clock = options.clock ?? fakeClock();
  const provisionMs = options.provisionMs ?? 0;
  /** The object as the API reports it now: provisioning, then ready (or failed); not listed before then, for a type listed once ready. */
  const seen = (id: string): Record<string, any> | undefined => {
    const o = objects.get(id);
    if (!o) return undefined;
    const { readyAt, fails, ...outputs } = o as Record<string, any>;
    const state = clock.now() < readyAt ? 'PROVISIONING' : fails ? 'FAILED' : 'READY';
    if (options.listedOnceReady && state === 'PROVISIONING') return undefined;
    return { ...outputs, state };
  };
  const heldUntil = new Map<string, number>();
  const nameTaken = (name: string) => [...objects.values()].some((o) => o.name === name) || (heldUntil.get(name) ?? 0) > clock.now();
  const type: ResourceType = {
    token: 'fake:index/thing:Thing',
    provider: 'fake',
    description: 'a fake thing',
    inputs: z.object({ name: z.string(), size: z.number().optional(), ref: z.string().optional() }).strict(),
    outputs: z.object({ name: z.string(), size: z.number().optional(), ref: z.string().optional(), uid: z.string(), state: z.string() }),
    replace: {
      on: (options.replaceOn ?? ['size']).map((path) => ({ path, reason: `${path} is fixed` })),
      deleteFirst: options.deleteBeforeReplace,
      holds: options.holdNameMs !== undefined ? [{ what: 'thing name', paths: ['name'], released: async (_ctx, [name]) => !nameTaken(String(name)) }] : undefined,
    },
    provisioning: {
      ready: (outputs) => outputs.state === 'READY',
      failed: (outputs) => (outputs.state === 'FAILED' ? 'FAILED' : undefined),
      appearsWithinMs: options.listedOnceReady ? 10 * provisionMs : undefined,
    },
    async create(ctx, inputs) {
      calls.push({ verb: 'create', address: ctx.address, inputs });
      if (options.failCreate?.(inputs)) throw new Error(`cannot create ${inputs.name}`);
      if (options.holdNameMs !== undefined && nameTaken(inputs.name)) throw new RemoteError('conflict', `the name ${inputs.name} is taken`);
      const id = `thing-${next++}`;
      objects.set(id, { ...inputs, uid: id, token: ctx.operationToken, readyAt: clock.now() + provisionMs, fails: options.failProvisioning?.(inputs) ?? false });
      if (options.loseOrderReply?.(inputs)) throw new RemoteError('unavailable', 'POST /things: connection reset');
      ctx.recordId(id);
      if (options.timeoutCreate?.(inputs)) throw new Error(`timed out waiting for ${id}`);
      if (options.loseCreateReply?.(inputs)) throw new RemoteError('unavailable', `GET /thing/${id}: 503 unavailable`);
      const outputs = await ctx.wait(`thing ${id} to be ready`, async () => {
        const now = seen(id);
        return now && now.state !== 'PROVISIONING' ? { done: true, value: now } : { done: false, status: now?.state ?? 'not listed' };
      });
      if (outputs.state === 'FAILED') throw new Error(`thing ${id} FAILED`);
      return { id, outputs: withoutToken(outputs) };
    },
    async read(ctx, id) {
      calls.push({ verb: 'read', address: ctx.address, id });
      if (options.failRead?.(id)) throw new RemoteError('unavailable', `GET /thing/${id}: 503 unavailable`);
      const now = seen(id);
      return now && (withoutToken(now) as any);
    },
    ...(options.findable
      ? {
          async findOwned(ctx) {
            calls.push({ verb: 'read', address: ctx.address });
            const found = [...objects.keys()].map((id) => seen(id)).find((o) => o?.token === ctx.operationToken);
            return found && { id: String(found.uid), outputs: withoutToken(found) as any };
          },
        }
      : {}),
    async update(ctx, id, _prior, desired) {
      calls.push({ verb: 'update', address: ctx.address, id, inputs: desired });
      const o = objects.get(id)!;
      objects.set(id, { ...desired, uid: id, token: o.token, readyAt: o.readyAt, fails: o.fails });
      return withoutToken(seen(id)!) as any;
    },
    async delete(ctx, id) {
      calls.push({ verb: 'delete', address: ctx.address, id });
      const name = objects.get(id)?.name;
      objects.delete(id);
      if (options.holdNameMs !== undefined && typeof name === 'string') heldUntil.set(name, clock.now() + options.holdNameMs);
    },
  };
  return { type, objects, calls, clock };
}

/** The outputs the fake API reports, without its bookkeeping. */
function withoutToken(o: Record<string, unknown>): Record<string, unknown> {
  const { token: _, ...rest } = o;
  return rest;
}

/** A clock whose sleeps pass at once, moving its time on: waits of minutes take no time. */
export interface FakeClock extends Clock {
  /** Moves time on, as a wait would. */
  advance(ms: number): void;
}

/** A fake clock starting at the machine's time. */
export function fakeClock(start = Date.now()): FakeClock {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      await new Promise((next) => setImmediate(next));
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** Engine dependencies serving one fake type. */
export function fakeDeps(type: ResourceType, clock?: Clock): EngineDeps {
  return {
    clock,
    project: 'test',
    stack: 'test',
    log: pino({ level: 'silent' }),
    workDir: '/tmp',
    resourceType: (token) => (token === type.token ? type : undefined),
    lookup: () => undefined,
    connect: async () => ({ client: {}, settings: {} }),
  };
}

/** A StateStore in memory with the same replay semantics as the real ones. */
export class MemoryStore implements StateStore {
  readonly location = 'memory';
  snapshot: StateSnapshot = { version: 1, stack: 'test', lineage: 'l-1', serial: 0, resources: {}, outputs: {}, pending: [] };
  journal: JournalEntry[] = [];
  async lock(): Promise<void> {}
  async unlock(): Promise<void> {}
  async forceUnlock() {
    return undefined;
  }
  async read(): Promise<StateSnapshot> {
    return replay(structuredClone(this.snapshot), this.journal);
  }
  /** When set, the journal refuses entries from this many on (a full disk). */
  failFrom: number | undefined;
  async record(entry: JournalEntry): Promise<void> {
    if (this.failFrom !== undefined && this.journal.length >= this.failFrom) throw new Error('ENOSPC: no space left on device');
    this.journal.push(structuredClone(entry));
  }
  async write(snapshot: StateSnapshot): Promise<void> {
    if (this.dead) throw new Error('killed');
    this.snapshot = structuredClone({ ...snapshot, serial: snapshot.serial + 1 });
    this.journal = [];
  }

  /** Whether the process writing to it died: it takes no snapshot, and no entry past its last. */
  private dead = false;

  /**
   * The process dies: from its `n`-th journal entry on (a number), or once it has recorded the
   * entry `last` says is its last, it records nothing more, nor the snapshot. Returns what brings
   * the store back, for the next process.
   */
  dieAfter(last: number | ((entry: JournalEntry) => boolean)): () => void {
    const record = this.record.bind(this);
    this.dead = true;
    if (typeof last === 'number') this.failFrom = last;
    else {
      let done = false;
      this.record = async (entry) => {
        if (done) throw new Error('killed');
        await record(entry);
        done = last(entry);
      };
    }
    return () => {
      this.dead = false;
      this.failFrom = undefined;
      this.record = record;
    };
  }
  async stacks() {
    return ['test'];
  }
  async acceptLoss(): Promise<never> {
    throw new Error('a memory store loses nothing');
  }
  async close(): Promise<void> {}
}
