import { randomUUID } from 'node:crypto';
import type { ResourceContext, ResourceType } from './contracts/resource-type.js';
import type { EngineDeps } from './types.js';

/** How long an operation waits for its object when neither the provider nor customTimeouts says. */
const DEFAULT_WAIT_MS = 10 * 60_000;

/** Hooks an operation offers its handler beyond the connection. */
export interface ContextHooks {
  operationToken?: string;
  timeoutMs?: number;
  progress?(status: string): void;
  warn?(message: string): void;
  recordId?(id: string): void;
}

/** Builds the context a handler verb receives for one operation on one address. */
export async function resourceContext(deps: EngineDeps, type: ResourceType, address: string, hooks: ContextHooks = {}): Promise<ResourceContext> {
  const connection = await deps.connect(type.provider);
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
  };
}
