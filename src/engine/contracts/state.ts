import type { Secret } from '../../kernel/values.js';

/** One resource as recorded in state. */
export interface ResourceState {
  address: string;
  type: string;
  /** Remote id (product UID, ...), or a surrogate when the id is a secret. */
  id: string;
  /** The real id, encrypted, when the id is a secret (a service key). */
  secretId?: Secret<string>;
  /** Inputs as last applied (or observed on refresh). */
  inputs: Record<string, unknown>;
  /** Everything the resource exposes, as last read. */
  outputs: Record<string, unknown>;
  /** Addresses this resource depended on when it was last applied (for delete order). */
  dependencies: string[];
  /**
   * `provisioning`: ordered, and not yet seen ready (a create whose wait ran out, an order an
   * interrupted apply left); whatever acts on it, or uses it, first waits for it. `tainted`: the
   * API says it failed (or its create failed after the order): it exists but must be replaced.
   */
  status: 'ok' | 'tainted' | 'provisioning';
  /** For an object still provisioning: when its order was recorded (an object not listed long after it is taken as never made). */
  orderedAt?: string;
  /** Options that matter after the resource leaves the manifest. */
  protect?: boolean;
  retainOnDelete?: boolean;
  /** `deletedWith`: the address whose delete deletes this object too. */
  deletedWith?: string;
  /** The `replacementTrigger` value it was last applied with: a different one replaces it. */
  replacementTrigger?: unknown;
  /** The provider resource (its address) whose connection made it; absent for the default provider. */
  provider?: string;
  /**
   * Read by `plumb import`, not made by plumb: its inputs are what the API reports (and what
   * updates sent since), so an input the API never reports is unknown, not absent. Absent on an
   * object plumb created (inputs exactly as sent: an input left out was not sent), a replacement
   * of an imported one included, and on records older plumbs wrote.
   */
  imported?: boolean;
}

/** A remote operation whose intent was recorded but whose outcome was not (a crash in between). */
export interface PendingOperation {
  address: string;
  type: string;
  action: 'create' | 'update' | 'delete';
  token: string;
  id?: string;
  secretId?: Secret<string>;
  /**
   * A create's inputs, as ordered: a type whose objects carry no ownership tags finds the object
   * an interrupted create left by them (a VLAN on its port, a name on its router).
   */
  inputs?: Record<string, unknown>;
  /**
   * What a create or update makes its object depend on: recorded with what a create made once it
   * is found, and added to what an object an update was interrupted on may depend on (what it uses
   * is deleted after it).
   */
  dependencies?: string[];
  /** For a create-first replacement: the id of the object it replaces, still current until the outcome. */
  replacing?: string;
  /** The provider resource whose connection the operation went through; absent for the default. */
  provider?: string;
  at: string;
}

/** A stack's state: what plumb manages and the identity/serial of that record. */
export interface StateSnapshot {
  version: 1;
  /** The manifest's name: state is kept per project and stack. */
  project?: string;
  stack: string;
  /** Identity of this state's history; empty until the first write. */
  lineage: string;
  serial: number;
  resources: Record<string, ResourceState>;
  outputs: Record<string, unknown>;
  /** Operations interrupted before their outcome was recorded. */
  pending: PendingOperation[];
}

/** One journal record: the intent before a side effect, or its outcome after. */
export type JournalEntry =
  | ({ kind: 'intent' } & PendingOperation)
  | { kind: 'id'; address: string; token: string; id: string; secretId?: Secret<string>; at: string }
  /** `also` records other keys in the same entry: a replacement's new object and the old one it sets aside. */
  | { kind: 'outcome'; address: string; token?: string; resource: ResourceState | null; also?: Array<{ address: string; resource: ResourceState | null }>; at: string }
  /** The operation made nothing; `why` when that was concluded later, on evidence. */
  | { kind: 'failed'; address: string; token: string; at: string; why?: string };

/** Who holds a stack's lock. */
export interface LockInfo {
  pid: number;
  host: string;
  time: string;
  command: string;
}

/**
 * Where a stack's state lives. Every backend runs the same conformance suite.
 *
 * `record` appends one journal entry durably (fsync or commit) before returning, so a crash
 * after a remote call never loses its outcome; entries land in call order, whether or not the
 * caller waits for one before recording the next; `read` replays the journal over the snapshot;
 * `write` replaces the snapshot atomically, folds the journal in and bumps the serial.
 *
 * `read` refuses (a UserError naming what is missing and what to do) a state whose loss it can
 * see, rather than read it as less than was recorded: a journal an interrupted apply opened that
 * is gone or cut back, and, where the backend keeps a trace of it, a snapshot that is gone.
 * `acceptLoss` is the deliberate way on.
 */
export interface StateStore {
  /** Human description (folder path or database URL without password). */
  readonly location: string;
  lock(info: LockInfo, timeoutMs?: number): Promise<void>;
  unlock(): Promise<void>;
  read(options?: ReadOptions): Promise<StateSnapshot>;
  record(entry: JournalEntry): Promise<void>;
  write(snapshot: StateSnapshot): Promise<void>;
  /**
   * Goes on after a loss `read` refuses (under the lock): `journal` keeps what the snapshot holds
   * and writes it as a new serial (a plan saved before is stale); `snapshot` forgets what the
   * snapshot's backup records. Refuses when there is no such loss.
   */
  acceptLoss(what: LostPart): Promise<AcceptedLoss>;
  /** Removes a lock whatever its holder (`plumb state unlock --force`). */
  forceUnlock(): Promise<LockInfo | undefined>;
  /** Names of this project's stacks present at this location. */
  stacks(): Promise<string[]>;
  close(): Promise<void>;
}

/** What a read may find lost: the journal of an interrupted apply, or the snapshot. */
export type LostPart = 'journal' | 'snapshot';

/** How a read is made. */
export interface ReadOptions {
  /**
   * The caller replaces the whole snapshot (`plumb state push`): a snapshot that is gone while
   * its backup is there is read as that backup instead of refused.
   */
  replacing?: boolean;
}

/** A loss accepted with `acceptLoss`. */
export interface AcceptedLoss {
  /** What was lost, as the refused read said it. */
  lost: string;
  /** What state no longer records: the objects stay where they are, and stay billed. */
  forgotten: ResourceState[];
}
