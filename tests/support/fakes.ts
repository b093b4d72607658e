import pino from 'pino';
import { z } from 'zod';
import type { EngineDeps } from '../../src/engine/types.js';
import { RemoteError } from '../../src/errors.js';
import type { ResourceType } from '../../src/engine/contracts/resource-type.js';
import { replay, type StateStore } from '../../src/state/store.js';
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
    /** Reads fail as unavailable while this says so. */
    failRead?: (id: string) => boolean;
    replaceOn?: string[];
    deleteBeforeReplace?: boolean;
  } = {},
) {
  const objects = new Map<string, Record<string, unknown>>();
  const calls: FakeCall[] = [];
  let next = 1;
  const type: ResourceType = {
    token: 'fake:index/thing:Thing',
    provider: 'fake',
    description: 'a fake thing',
    inputs: z.object({ name: z.string(), size: z.number().optional(), ref: z.string().optional() }).strict(),
    outputs: z.object({ name: z.string(), size: z.number().optional(), ref: z.string().optional(), uid: z.string() }),
    replaceOn: (options.replaceOn ?? ['size']).map((path) => ({ path, reason: `${path} is fixed` })),
    deleteBeforeReplace: options.deleteBeforeReplace,
    async create(ctx, inputs) {
      calls.push({ verb: 'create', address: ctx.address, inputs });
      if (options.failCreate?.(inputs)) throw new Error(`cannot create ${inputs.name}`);
      const id = `thing-${next++}`;
      const outputs = { ...inputs, uid: id };
      objects.set(id, outputs);
      ctx.recordId(id);
      if (options.timeoutCreate?.(inputs)) throw new Error(`timed out waiting for ${id}`);
      if (options.loseCreateReply?.(inputs)) throw new RemoteError('unavailable', `GET /thing/${id}: 503 unavailable`);
      return { id, outputs };
    },
    async read(ctx, id) {
      calls.push({ verb: 'read', address: ctx.address, id });
      if (options.failRead?.(id)) throw new RemoteError('unavailable', `GET /thing/${id}: 503 unavailable`);
      return objects.get(id) as any;
    },
    async update(ctx, id, _prior, desired) {
      calls.push({ verb: 'update', address: ctx.address, id, inputs: desired });
      const outputs = { ...desired, uid: id };
      objects.set(id, outputs);
      return outputs as any;
    },
    async delete(ctx, id) {
      calls.push({ verb: 'delete', address: ctx.address, id });
      objects.delete(id);
    },
  };
  return { type, objects, calls };
}

/** Engine dependencies serving one fake type. */
export function fakeDeps(type: ResourceType): EngineDeps {
  return {
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
    this.snapshot = structuredClone({ ...snapshot, serial: snapshot.serial + 1 });
    this.journal = [];
  }
  async stacks() {
    return ['test'];
  }
  async legacy() {
    return undefined;
  }
  async claimLegacy(): Promise<never> {
    throw new Error('a memory store has no older state');
  }
  async acceptLoss(): Promise<never> {
    throw new Error('a memory store loses nothing');
  }
  async close(): Promise<void> {}
}
