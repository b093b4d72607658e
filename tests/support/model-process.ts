/**
 * One process of the model: a plan, or a plan and its apply, against the durable store, through
 * the engine's own entry points. A process may be killed at its k-th journal point (a record, or
 * the snapshot written at the end) or at its k-th API call (before the call takes effect, or after
 * it took effect with its reply lost). From then on the store takes nothing more, every API call
 * and every sleep of the process hangs forever, and the process is abandoned: nothing it does can
 * change the world, the clock or the store again.
 */
import pino from 'pino';
import { applyPlan, type ApplyReport } from '../../src/engine/applying/apply.js';
import type { JournalEntry, StateSnapshot, StateStore } from '../../src/engine/contracts/state.js';
import { buildGraph } from '../../src/engine/graph/graph.js';
import { makePlan } from '../../src/engine/planning/plan.js';
import type { EngineDeps, EngineEvent, Plan } from '../../src/engine/types.js';
import type { Clock } from '../../src/engine/applying/wait.js';
import { RemoteError } from '../../src/kernel/errors.js';
import { parseManifest } from '../../src/manifest/parse.js';
import type { ResourceState } from '../../src/engine/contracts/state.js';
import type { Diagnostic } from '../../src/kernel/diagnostics.js';
import { MemoryStore } from './fakes.js';
import { MODEL_TYPES } from './model-types.js';
import type { CallRecord, Kind, Prng, Seen, World } from './model-world.js';

/** Where a process is killed: its k-th journal point, or its k-th call (before it takes effect, or after with the reply lost). */
export type Kill = { at: 'journal'; k: number } | { at: 'call'; k: number; after: boolean };

/** What a process does and what goes wrong in it. */
export interface ProcessSpec {
  kill?: Kill;
  /** The chance of a fault in each call (unavailable, lost reply, slow answer, refusal; a create's provisioning FAILED). */
  faultRate: number;
  planOnly?: boolean;
  destroy?: boolean;
}

/** The durable state: a memory store that also keeps every journal entry it ever took. */
export class ModelStore extends MemoryStore {
  readonly history: JournalEntry[] = [];
  override async record(entry: JournalEntry): Promise<void> {
    await super.record(entry);
    this.history.push(structuredClone(entry));
  }
}

const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** A process's control: whether it is killed, its counts of calls and journal points, its clock and its faults. */
export class Proc {
  killed: string | undefined;
  calls = 0;
  points = 0;
  readonly stopped: Promise<void>;
  private stop!: () => void;
  readonly clock: Clock;
  /** The faults that happened, in words, for the schedule's account. */
  readonly faults: string[] = [];

  constructor(
    readonly index: number,
    readonly world: World,
    readonly spec: ProcessSpec,
    readonly random: Prng,
  ) {
    this.stopped = new Promise((resolve) => (this.stop = resolve));
    this.clock = {
      now: () => world.clock.now(),
      sleep: async (ms) => {
        if (this.killed) return never();
        await world.clock.sleep(ms);
        if (this.killed) return never();
      },
    };
  }

  kill(why: string): void {
    this.killed ??= why;
    this.stop();
  }

  /** Whether the process dies here: at call k (before or after its effect) or at journal point k. */
  killsAt(at: 'journal' | 'call', n: number, after = false): boolean {
    const kill = this.spec.kill;
    if (!kill || kill.at !== at || kill.k !== n || (kill.at === 'call' && kill.after !== after)) return false;
    this.kill(at === 'journal' ? `killed at journal point ${n}` : `killed at call ${n} ${after ? 'after it took effect' : 'before it took effect'}`);
    return true;
  }

  /** The fault of the next call, if any. */
  fault(write: boolean): 'unavailable' | 'lost' | 'slow' | 'invalid' | undefined {
    if (!this.random.chance(this.spec.faultRate)) return undefined;
    return this.random.pick(write ? (['unavailable', 'lost', 'slow', 'invalid'] as const) : (['unavailable', 'slow'] as const));
  }
}

/** The store as one process sees it: it takes nothing once the process is killed, and kills it at its journal point. */
class ProcessStore extends MemoryStore {
  constructor(
    private readonly durable: ModelStore,
    private readonly proc: Proc,
  ) {
    super();
  }
  override read(): Promise<StateSnapshot> {
    return this.proc.killed ? never() : this.durable.read();
  }
  override record(entry: JournalEntry): Promise<void> {
    if (this.proc.killed || this.proc.killsAt('journal', ++this.proc.points)) return never();
    return this.durable.record(entry);
  }
  override write(snapshot: StateSnapshot): Promise<void> {
    if (this.proc.killed || this.proc.killsAt('journal', ++this.proc.points)) return never();
    return this.durable.write(snapshot);
  }
}

/** The API client a process's handlers get: every call goes through its kill and faults, and is logged. */
export class Api {
  constructor(
    private readonly proc: Proc,
    private readonly identityOf: (address: string) => string,
  ) {}

  private get world(): World {
    return this.proc.world;
  }

  order(kind: Kind, address: string, inputs: Record<string, unknown>, token: string): Promise<string> {
    const who = { process: this.proc.index, address, identity: this.identityOf(address), token };
    return this.call('create', kind, address, undefined, true, () => {
      const failing = this.proc.random.chance(this.proc.spec.faultRate / 2);
      const id = this.world.order(kind, inputs, who, failing);
      if (failing) this.proc.faults.push(`${address}: its ${kind} ${id} ends FAILED`);
      return [id, `created ${id}`];
    });
  }
  get(kind: Kind, address: string, id: string): Promise<Seen | undefined> {
    return this.call('read', kind, address, id, false, () => [this.world.seen(id), 'read']);
  }
  list(kind: Kind): Promise<Map<string, Seen>> {
    return this.call('list', kind, '', undefined, false, () => [this.world.list(kind), 'read']);
  }
  findByToken(kind: Kind, address: string, token: string) {
    return this.call('find', kind, address, undefined, false, () => [this.world.byToken(kind, token), 'read']);
  }
  findByName(kind: Kind, address: string, name: unknown) {
    return this.call('find', kind, address, undefined, false, () => [this.world.byName(kind, name), 'read']);
  }
  vlanFree(address: string, port: unknown, vlan: unknown): Promise<boolean> {
    return this.call('released', 'vxc', address, undefined, false, () => [this.world.vlanFree(port, vlan), 'read']);
  }
  change(kind: Kind, address: string, id: string, inputs: Record<string, unknown>): Promise<Seen> {
    return this.call('update', kind, address, id, true, () => [this.world.change(id, inputs, this.proc.index), 'updated']);
  }
  remove(kind: Kind, address: string, id: string): Promise<void> {
    return this.call('delete', kind, address, id, true, () => [void this.world.remove(id, this.proc.index), 'deleted']);
  }

  /**
   * One call: it may hang (the process is killed before or after its effect), be slow, fail before
   * its effect (unavailable, invalid) or lose its reply after it (unavailable). `effect` runs at
   * once, as one step of the world, and says what it did.
   */
  private async call<T>(verb: CallRecord['verb'], kind: Kind, address: string, id: string | undefined, write: boolean, effect: () => [T, string]): Promise<T> {
    const proc = this.proc;
    if (proc.killed) return never();
    const n = ++proc.calls;
    const record: CallRecord = { process: proc.index, n, verb, kind, address, id, effect: 'none' };
    this.world.calls.push(record);
    if (proc.killsAt('call', n, false)) return never();
    const fault = proc.fault(write);
    if (fault) {
      record.fault = fault;
      proc.faults.push(`call ${n} (${verb} ${kind} ${address || ''}${id ? ` ${id}` : ''}): ${fault}`);
    }
    if (fault === 'slow') await proc.clock.sleep(proc.random.int(1_000, 45_000));
    if (proc.killed) return never();
    if (fault === 'unavailable' || fault === 'invalid') {
      record.effect = `refused: ${fault}`;
      throw new RemoteError(fault, `${verb} ${kind}: ${fault === 'invalid' ? 'refused' : '503 unavailable'}`);
    }
    let result: T;
    try {
      [result, record.effect] = effect();
    } catch (err) {
      record.effect = `refused: ${(err as RemoteError).kind ?? (err as Error).message}`;
      throw err;
    }
    if (proc.killsAt('call', n, true)) return never();
    if (fault === 'lost') throw new RemoteError('unavailable', `${verb} ${kind}: the reply was lost`);
    return result;
  }
}

/** What a process did, as far as it got. */
export interface ProcessResult {
  index: number;
  spec: ProcessSpec;
  /** How it was killed, if it was. */
  killed?: string;
  state?: StateSnapshot;
  plan?: Plan;
  /** The state the plan was made against, settled and refreshed (what apply starts from). */
  prior?: Record<string, ResourceState>;
  diagnostics: Diagnostic[];
  /** An error the plan or apply threw (a refresh that failed, a refusal). */
  error?: Error;
  report?: ApplyReport;
  /** Every event, with whether the object it names was live and ready in the world when it was emitted. */
  events: Array<{ event: EngineEvent; live?: boolean; ready?: boolean }>;
  faults: string[];
  calls: number;
  points: number;
}

/** Runs one process of a manifest against the store, and gives back what it did once it ended or was killed. */
export async function runProcess(world: World, store: ModelStore, yaml: string, identities: Record<string, string>, spec: ProcessSpec, index: number, random: Prng): Promise<ProcessResult> {
  const proc = new Proc(index, world, spec, random);
  const result: ProcessResult = { index, spec, diagnostics: [], events: [], faults: proc.faults, calls: 0, points: 0 };
  const deps: EngineDeps = {
    clock: proc.clock,
    project: 'model',
    stack: 'test',
    log: pino({ level: 'silent' }),
    workDir: '/tmp',
    resourceType: (token) => MODEL_TYPES.get(token),
    lookup: () => undefined,
    connect: async () => ({ client: new Api(proc, (address) => identities[address] ?? `?${address}`), settings: {} }),
  };
  const work = async () => {
    const { manifest, diagnostics } = parseManifest(yaml, 'model.yaml', { resources: [...MODEL_TYPES.keys()], functions: [] });
    if (diagnostics.length) throw new Error(`the model wrote a manifest that does not parse: ${diagnostics.map((d) => d.summary).join('; ')}`);
    const { graph } = buildGraph(manifest);
    const processStore = new ProcessStore(store, proc);
    const state = await processStore.read();
    result.state = state;
    const planned = await makePlan(manifest, graph, state, deps, { refresh: true, destroy: spec.destroy ?? false, replace: [] });
    Object.assign(result, { plan: planned.plan, prior: planned.prior, diagnostics: planned.diagnostics });
    if (planned.diagnostics.some((d) => d.severity === 'error') || spec.planOnly) return;
    const emit = (event: EngineEvent) => result.events.push({ event, ...worldAt(world, planned.plan, event) });
    result.report = await applyPlan({ ...planned, manifest, state, store: processStore, deps, parallelism: 4, emit });
  };
  await Promise.race([
    work().catch((err: unknown) => {
      result.error = err as Error;
    }),
    proc.stopped,
  ]);
  result.killed = proc.killed;
  result.calls = proc.calls;
  result.points = proc.points;
  return result;
}

/** Whether the object a step event names (its id, else its change's) is live and ready in the world now. */
function worldAt(world: World, plan: Plan, event: EngineEvent): { live?: boolean; ready?: boolean } {
  if (event.type !== 'step-done') return {};
  const id = event.id ?? plan.changes.find((c) => c.address === event.address)?.id;
  return id === undefined ? {} : { live: world.objects.has(id), ready: world.ready(id) };
}
