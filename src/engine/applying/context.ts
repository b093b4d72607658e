import { randomUUID } from 'node:crypto';
import type { ResourceContext, ResourceType } from '../contracts/resource-type.js';
import type { EngineDeps } from '../types.js';
import { contextWait } from './wait.js';

/** How long an operation waits for its object when neither the provider nor customTimeouts says. */
const DEFAULT_WAIT_MS = 10 * 60_000;

/**
 * The values the reads of one pass share (ResourceContext.shared), per provider connection: a
 * refresh, a drift check of every stack at one state location, the settling before a plan. A pass
 * lives as long as the pass does; what it holds is never reused by a later one.
 */
export class ReadPass {
  private readonly values = new Map<unknown, Map<string, Promise<unknown>>>();

  /** The value under `key` for this connection's client, made by `make` the first time it is asked for. */
  shared<T>(client: unknown, key: string, make: () => Promise<T>): Promise<T> {
    let values = this.values.get(client);
    if (!values) this.values.set(client, (values = new Map()));
    let value = values.get(key) as Promise<T> | undefined;
    if (!value) {
      value = make();
      // Every caller gets the promise; one nobody awaits yet must not be an unhandled rejection.
      value.catch(() => {});
      values.set(key, value);
    }
    return value;
  }
}

/** Hooks an operation offers its handler beyond the connection. */
export interface ContextHooks {
  operationToken?: string;
  timeoutMs?: number;
  progress?(status: string): void;
  warn?(message: string): void;
  recordId?(id: string): void;
  /** Whether an id is recorded at any address (see ResourceContext.isRecorded). */
  isRecorded?(id: string): boolean;
  /** The pass whose reads this one shares; a context of its own when absent. */
  pass?: ReadPass;
  /** The provider resource whose connection is used (the manifest's, or the record's for an object it acts on); the default when absent. */
  provider?: string;
}

/** Builds the context a handler verb receives for one operation on one address. */
export async function resourceContext(deps: EngineDeps, type: ResourceType, address: string, hooks: ContextHooks = {}): Promise<ResourceContext> {
  const connection = await deps.connect(type.provider, hooks.provider);
  const pass = hooks.pass ?? new ReadPass();
  return {
    client: connection.client,
    settings: connection.settings,
    log: deps.log.child({ address }),
    address,
    project: deps.project,
    stack: deps.stack,
    operationToken: hooks.operationToken ?? randomUUID(),
    waitTimeMs: hooks.timeoutMs ?? connection.waitTimeMs ?? DEFAULT_WAIT_MS,
    progress: hooks.progress ?? (() => {}),
    warn: hooks.warn ?? ((message) => deps.log.warn({ address }, message)),
    recordId: hooks.recordId ?? (() => {}),
    isRecorded: hooks.isRecorded,
    shared: (key, make) => pass.shared(connection.client, `${type.provider}:${key}`, make),
    wait: contextWait(deps.clock),
  };
}
