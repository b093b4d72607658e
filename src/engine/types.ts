import type { Operation } from 'fast-json-patch';
import type { Logger } from 'pino';
import type { Diagnostic } from '../kernel/diagnostics.js';
import type { LookupFunction } from './contracts/lookup.js';
import type { ReplaceRule, ResourceType } from './contracts/resource-type.js';
import type { Clock } from './applying/wait.js';

/** What a change does. */
export type Action = 'create' | 'update' | 'replace' | 'delete' | 'import' | 'read' | 'noop';

/** Why a change is what it is. */
export type Reason =
  | 'new'
  | 'changed'
  | 'no-change'
  | 'forced-replace'
  | 'replace-requested'
  | 'tainted'
  | 'gone-remotely'
  | 'removed-from-manifest'
  | 'destroy-requested'
  | 'import-requested'
  /** A resource read with `get:`, never managed. */
  | 'read-requested'
  /** An object an earlier replacement set aside, deleted now. */
  | 'deposed';

/** What one apply step does: the halves of a replacement are steps of their own; `wait` waits for an object still provisioning. */
export type StepAction = 'create' | 'update' | 'import' | 'delete' | 'create-new' | 'delete-old' | 'delete-deposed' | 'wait';

/** The change planned for one resource address. Plain data. */
export interface Change {
  address: string;
  type: string;
  action: Action;
  reason: Reason;
  /** Remote id of the existing object (update, replace, delete, import). */
  id?: string;
  before?: unknown;
  after?: unknown;
  patch: Operation[];
  replacePaths?: ReplaceRule[];
  replaceOrder?: 'delete-first' | 'create-first';
  unknownPaths: string[];
  /** Resources this one needs first (for create/update) — from the manifest graph. */
  dependsOn: string[];
  /** Notes a network engineer must see (contract term, cancellation mode). */
  notes: string[];
  /** Delete only forgets the object (retainOnDelete). */
  retain?: boolean;
  /** Delete only forgets the object, after deleting this address (its deletedWith) deletes it. */
  deletedWith?: string;
  /** An update of fields sent only with an order (promoCode): recorded, with no remote call. */
  recordOnly?: boolean;
  /**
   * For display: the reference each input path's whole value comes from (`aEnd.requestedProductUid`
   * → `port.productUid`); only on changes that do something, and only when there is one.
   */
  references?: Record<string, string>;
  /** The address the record moves from (options.aliases): moved in state with no remote call. */
  movedFrom?: string;
  /** The provider resource (its address) the object is made, changed or deleted through; absent for the default provider. */
  provider?: string;
  /**
   * What apply waits for before anything else of this change: `provisioning`, the recorded object,
   * ordered and not yet seen ready; `order`, what an interrupted create may have ordered, which
   * its type lists only once provisioned (looked for before anything is ordered).
   */
  awaits?: 'provisioning' | 'order';
  /** What the object will hold once made or changed (ReplaceRules.holds), by key: one another change deletes from its holder first. */
  claims?: string[];
  /** What the recorded object holds, by key. */
  held?: string[];
}

/** A complete plan. Plain, versioned, serializable data. */
export interface Plan {
  formatVersion: 1;
  stack: string;
  manifest: { file: string; hash: string };
  state: { lineage: string; serial: number };
  mode: 'normal' | 'destroy';
  /** What was asked for: a saved plan is applied with the same request. */
  request: { targets: string[]; excludes: string[]; replace: string[] };
  createdAt: string;
  changes: Change[];
  /** `move` (records renamed by aliases), `read` (resources read with get:) and `wait` (objects still provisioning, waited for) are present only when there are some. */
  summary: { add: number; change: number; replace: number; destroy: number; import: number; noop: number; move?: number; read?: number; wait?: number };
  /** Each warning as one line: `file:line:col: summary` for one with a place in a file. */
  warnings: string[];
  /** The warnings with a place in a file, with it (each one of `warnings`); present only when there are some. */
  warningsAt?: Diagnostic[];
  /** Operations interrupted by a crash and how they were settled. */
  settled: string[];
  outputs: Record<string, unknown>;
}

/** A provider's connected client and parsed settings. */
export interface Connection {
  client: unknown;
  settings: Record<string, unknown>;
  /** How long a create or update may wait for its object to be ready, unless customTimeouts says otherwise. */
  waitTimeMs?: number;
}

/** What the engine needs from the outside: types, functions, connections and a logger. */
export interface EngineDeps {
  resourceType(token: string): ResourceType | undefined;
  lookup(token: string): LookupFunction | undefined;
  /**
   * The connection of a provider: its default one (configured under config:) without `instance`,
   * else that of the provider resource at address `instance`. Each is made once, when first asked for.
   */
  connect(provider: string, instance?: string): Promise<Connection>;
  log: Logger;
  /** The manifest's name: state, and ownership marks, are kept per project and stack. */
  project: string;
  stack: string;
  /** Folder of the manifest (lookups write files relative to it). */
  workDir: string;
  /**
   * The outputs of another stack at the same state location (`project/stack`, or `stack` of this
   * project), read without a lock and never written; secrets stay Secret. Throws a UserError
   * naming a stack that does not exist.
   */
  stackOutputs?(stack: string): Promise<Record<string, unknown>>;
  /** Told what happens outside a step's own events: a refresh starting, a provider's call sent again. */
  notify?(event: EngineEvent): void;
  /** Time as waits and settling see it; the machine's when absent (tests pass their own). */
  clock?: Clock;
}

/** Every event the engine emits while planning and applying; the CLI renders them. */
export type EngineEvent =
  | { type: 'refresh-start'; count: number; at: string }
  /** A provider's call sent again (see RetryNotice); the provider is named, the engine knows nothing of it. */
  | { type: 'retry'; provider: string; kind: 'rate-limited' | 'unavailable'; waitMs: number; attempt: number; reason: string; at: string }
  /** Calls wait for a provider's rate window to have room (`limit` calls per `windowMs`). */
  | { type: 'rate-wait'; provider: string; waitMs: number; limit: number; windowMs: number; at: string }
  | { type: 'step-start'; address: string; action: StepAction; at: string }
  | { type: 'step-progress'; address: string; status: string; at: string }
  | { type: 'step-done'; address: string; action: StepAction; id?: string; at: string; elapsedMs: number }
  | { type: 'step-failed'; address: string; action: StepAction; error: string; at: string }
  | { type: 'step-skipped'; address: string; action: StepAction; cause: string; at: string }
  | { type: 'warning'; message: string; address?: string };

/** Diagnostics plus whatever could be produced. */
export interface WithDiagnostics<T> {
  value?: T;
  diagnostics: Diagnostic[];
}
