import { randomUUID } from 'node:crypto';
import { UserError, isRemote } from '../../kernel/errors.js';
import type { StateStore } from '../contracts/state.js';
import { realId } from './ids.js';
import type { JournalEntry, PendingOperation, ResourceState } from '../contracts/state.js';

/** What one remote operation is about to do, recorded before the call. */
export type Intent = Omit<Extract<JournalEntry, { kind: 'intent' }>, 'kind' | 'token' | 'at'>;

/** State keys and what each holds after an operation (null: nothing any more). */
export type Records = Record<string, ResourceState | null>;

/**
 * What a failed call left: `records` when its result is known (an order that went through but
 * did not finish), `nothing` when nothing was made or changed, `unknown` when the failure hides
 * what happened (no answer, or no way to read the result): the intent then stays pending and the
 * next plan settles it as it settles a crash.
 */
export type Aftermath = { records: Records } | 'nothing' | 'unknown';

/**
 * The journal of one apply: the one way a step records what it does. Every remote side effect is
 * journaled as intent → call → outcome (`journaled`), each entry durable before the next action,
 * so a crash at any point leaves either the outcome or a pending intent that settling resolves.
 * `current` is the state as journaled so far; a failed write halts the apply (`failure`).
 */
export class Journal {
  /** Operations whose outcome is unknown: kept pending in the snapshot for the next plan. */
  readonly unresolved: PendingOperation[] = [];
  /** How many outcomes were recorded (each moves the state's serial). */
  outcomes = 0;
  /** The first journal write that failed: nothing more may be done once state cannot be written. */
  failure: Error | undefined;

  constructor(
    private readonly store: StateStore,
    readonly current: Record<string, ResourceState>,
    /** Interrupted operations still unsettled when the apply starts (an order that may still show up): pending until resolved. */
    waiting: PendingOperation[] = [],
    /** Epoch milliseconds now (the engine's clock). */
    private readonly now: () => number = Date.now,
  ) {
    this.unresolved.push(...waiting);
  }

  /** Records what an interrupted operation turned out to have left, in the entry that settles it. */
  async resolve(op: PendingOperation, records: Records): Promise<void> {
    await this.record(records, op.token);
    this.drop(op);
  }

  /** Records that an interrupted operation left nothing (on evidence: `why`), so nothing waits for it any more. */
  async forget(op: PendingOperation, why: string): Promise<void> {
    await this.write({ kind: 'failed', address: op.address, token: op.token, at: this.stamp(), why });
    this.drop(op);
  }

  /**
   * Journals what settling concluded of an interrupted operation: the records it leaves, in the
   * entry that resolves it, or that it left nothing (`why`). `current` is not touched: apply starts
   * from the settled state, refreshed.
   */
  async settled(op: PendingOperation, records: Records, why: string): Promise<void> {
    if (!Object.keys(records).length) return this.write({ kind: 'failed', address: op.address, token: op.token, at: this.stamp(), why });
    await this.write(this.outcome(records, op.token));
    this.outcomes++;
  }

  /**
   * Records an interrupted operation again, as it now stands, under its own token (a read keeps
   * the last): one still looked for whose address moved with its record (options.aliases).
   */
  async restate(op: PendingOperation): Promise<void> {
    await this.write({ kind: 'intent', ...op });
  }

  private drop(op: PendingOperation): void {
    const at = this.unresolved.indexOf(op);
    if (at >= 0) this.unresolved.splice(at, 1);
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }

  /**
   * Runs `call` between its intent and its outcome: `done` says what state holds after success,
   * `failed` what a failure left (see Aftermath). The call's error is rethrown after it is recorded.
   */
  async journaled<T>(intent: Intent, call: (token: string) => Promise<T>, after: { done(result: T): Records; failed(err: unknown): Aftermath }): Promise<T> {
    const token = randomUUID();
    const at = this.stamp();
    this.typeOfOrder.set(token, intent.type);
    await this.write({ kind: 'intent', ...intent, token, at });
    let result: T;
    try {
      result = await call(token);
    } catch (err) {
      const aftermath = this.failure ? 'unknown' : after.failed(err);
      if (aftermath === 'unknown') this.unresolved.push({ ...intent, token, at, ...this.ids.get(token) });
      else if (aftermath === 'nothing') await this.write({ kind: 'failed', address: intent.address, token, at: this.stamp() });
      else await this.record(aftermath.records, token);
      throw err;
    }
    await this.record(after.done(result), token);
    return result;
  }

  /**
   * Records the remote id an order was given, before waiting for it to provision. The handler
   * does not wait for the write; a failed one halts the apply and the order stays pending. The
   * write starts at once: the store keeps entries in call order, so ids of orders answered
   * together share their writes, and an outcome recorded later still lands after its id.
   */
  recordId(token: string, address: string, id: { id: string; secretId?: ResourceState['secretId'] }): void {
    this.ids.set(token, id);
    const written = this.write({ kind: 'id', address, token, ...id, at: this.stamp() }).catch(() => {});
    this.written = Promise.all([this.written, written]).then(() => {});
  }

  /**
   * Whether an object of this type and id is recorded: in state as journaled so far, or by an order
   * of this run (ids are unique only within a type: a pipeline destination's id is its group's).
   */
  records(type: string, id: string): boolean {
    for (const [token, recorded] of this.ids) if (realId(recorded) === id && this.typeOfOrder.get(token) === type) return true;
    return Object.values(this.current).some((r) => r.type === type && realId(r) === id);
  }

  /** Records what state holds at these keys, in one entry, with no remote call. */
  async record(records: Records, token?: string): Promise<void> {
    await this.written;
    if (!Object.keys(records).length) return;
    try {
      await this.write(this.outcome(records, token));
      this.outcomes++;
    } finally {
      // Held even when the entry could not be written: the snapshot written at the end may still
      // keep it, and if that fails too, the intent left in the journal is settled by the next plan.
      for (const [key, resource] of Object.entries(records)) {
        if (resource) this.current[key] = resource;
        else delete this.current[key];
      }
    }
  }

  /** The entry recording these keys at once; the first is its address. */
  private outcome(records: Records, token: string | undefined): JournalEntry {
    const [[address, resource], ...rest] = Object.entries(records);
    const also = rest.map(([key, record]) => ({ address: key, resource: record }));
    return { kind: 'outcome', address, token, resource, ...(also.length ? { also } : {}), at: this.stamp() };
  }

  private readonly ids = new Map<string, { id: string; secretId?: ResourceState['secretId'] }>();
  /** The type each operation of this run is for, by its token. */
  private readonly typeOfOrder = new Map<string, string>();
  private written: Promise<void> = Promise.resolve();

  private async write(entry: JournalEntry): Promise<void> {
    if (this.failure) throw this.failure;
    try {
      await this.store.record(entry);
    } catch (err) {
      // A refusal that already says what is wrong (a missing key) is kept as it is.
      this.failure ??= err instanceof UserError ? err : new Error(`state could not be written (${this.store.location}): ${(err as Error).message}`);
      throw this.failure;
    }
  }
}

/** Whether a failed call may have left something behind that nobody saw: no answer, or none that could be read. */
export function outcomeUnknown(err: unknown): boolean {
  return isRemote(err, 'unavailable', 'rate-limited');
}
