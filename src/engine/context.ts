import { randomUUID } from 'node:crypto';
import type { ResourceContext, ResourceType } from '../resources/handler.js';
import type { EngineDeps } from './types.js';

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
  const waitMinutes = Number((connection.settings as { waitTime?: unknown }).waitTime ?? 10);
  return {
    client: connection.client,
    settings: connection.settings,
    log: deps.log.child({ address }),
    address,
    project: deps.project,
    stack: deps.stack,
    operationToken: hooks.operationToken ?? randomUUID(),
    waitTimeMs: hooks.timeoutMs ?? waitMinutes * 60_000,
    progress: hooks.progress ?? (() => {}),
    warn: hooks.warn ?? ((message) => deps.log.warn({ address }, message)),
    recordId: hooks.recordId ?? (() => {}),
  };
}
