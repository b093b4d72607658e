import type { JournalEntry, LockInfo, StateSnapshot } from './types.js';

/**
 * Where a stack's state lives. Every backend runs the same conformance suite.
 *
 * `record` appends one journal entry durably (fsync or commit) before returning, so a crash
 * after a remote call never loses its outcome; `read` replays the journal over the snapshot;
 * `write` replaces the snapshot atomically, folds the journal in and bumps the serial.
 */
export interface StateStore {
  /** Human description (folder path or database URL without password). */
  readonly location: string;
  lock(info: LockInfo, timeoutMs?: number): Promise<void>;
  unlock(): Promise<void>;
  read(): Promise<StateSnapshot>;
  record(entry: JournalEntry): Promise<void>;
  write(snapshot: StateSnapshot): Promise<void>;
  /** Removes a lock whatever its holder (`plumb state unlock --force`). */
  forceUnlock(): Promise<LockInfo | undefined>;
  /** Stack names present at this location. */
  stacks(): Promise<string[]>;
  close(): Promise<void>;
}

/** Applies journal entries to a snapshot (shared by every backend's `read`). */
export function replay(snapshot: StateSnapshot, entries: JournalEntry[]): StateSnapshot {
  const pending = new Map(snapshot.pending.map((p) => [p.token, p]));
  let outcomes = 0;
  for (const e of entries) {
    if (e.kind === 'intent') {
      pending.set(e.token, { address: e.address, type: e.type, action: e.action, token: e.token, id: e.id, secretId: e.secretId, inputs: e.inputs, at: e.at });
    } else if (e.kind === 'id') {
      const p = pending.get(e.token);
      if (p) {
        p.id = e.id;
        p.secretId = e.secretId;
      }
    } else if (e.kind === 'failed') {
      pending.delete(e.token);
    } else {
      outcomes++;
      if (e.token) pending.delete(e.token);
      if (e.resource) snapshot.resources[e.address] = e.resource;
      else delete snapshot.resources[e.address];
    }
  }
  // Each recorded outcome is a change of state: a saved plan made before it is stale.
  return { ...snapshot, serial: snapshot.serial + outcomes, pending: [...pending.values()] };
}
