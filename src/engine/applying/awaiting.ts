import type { ResourceContext, ResourceType } from '../contracts/resource-type.js';
import type { ResourceState } from '../contracts/state.js';
import { openRecord } from './open-record.js';

/*
 * Objects on their way: ordered, and not yet seen ready. An API that provisions asynchronously
 * says, of each object it lists, whether it is ready, still provisioning or failed; an API that
 * lists objects only once provisioned does not list a new one at all for a while. Only a failure
 * the API reports, or an object still not listed long after its order, is evidence of anything:
 * everything else is waited for, never replaced or bought again.
 */

/** What the API says of an object: ready, failed (in the API's word), or still on its way. */
export type Readiness = { state: 'ready' } | { state: 'failed'; status: string } | { state: 'provisioning' };

/** The readiness of an object as its type reads the API's report of it. */
export function readinessOf(type: ResourceType, outputs: Record<string, unknown>): Readiness {
  const failed = type.provisioning?.failed?.(outputs);
  if (failed !== undefined) return { state: 'failed', status: failed };
  return (type.provisioning?.ready?.(outputs) ?? true) ? { state: 'ready' } : { state: 'provisioning' };
}

/** The record status of an object so reported. */
export function statusOf(readiness: Readiness): ResourceState['status'] {
  return readiness.state === 'ready' ? 'ok' : readiness.state === 'failed' ? 'tainted' : 'provisioning';
}

/** A record with this status: when the object is no longer on its way, its order time goes. */
export function withStatus(record: ResourceState, status: ResourceState['status']): ResourceState {
  const { orderedAt, ...rest } = record;
  return status === 'provisioning' ? { ...rest, status, ...(orderedAt !== undefined ? { orderedAt } : {}) } : { ...rest, status };
}

/**
 * Whether an object ordered at `orderedAt` (an ISO time) may still be unlisted at `now` (epoch
 * milliseconds): its type's objects can go unlisted for a while after their order.
 */
export function mayStillAppear(type: ResourceType, orderedAt: string | undefined, now: number): boolean {
  const within = type.provisioning?.appearsWithinMs ?? 0;
  return within > 0 && orderedAt !== undefined && now - Date.parse(orderedAt) < within;
}

/** The time left (milliseconds) until an object ordered at `orderedAt` would be listed. */
export function untilListed(type: ResourceType, orderedAt: string, now: number): number {
  return Math.max(0, Date.parse(orderedAt) + (type.provisioning?.appearsWithinMs ?? 0) - now);
}

/** What waiting for a recorded object found: its outputs and readiness, or that it is gone (never listed, or deleted). */
export type Awaited = { outputs: Record<string, unknown>; readiness: Readiness } | undefined;

/**
 * Reads a recorded object until it is listed (`until: 'listed'`) or no longer provisioning, each
 * look through a fresh context from `context` (a handler's context shares its reads); within the
 * context's wait time, then WaitTimedOut. Undefined once it reads as gone and could no longer be
 * on its way.
 */
export function awaitObject(type: ResourceType, record: ResourceState, id: string, context: () => Promise<ResourceContext>, now: () => number, until: 'listed' | 'ready'): Promise<Awaited> {
  const prior = openRecord(record);
  return context().then((ctx) =>
    ctx.wait<Awaited>(`${record.address} (${record.id}) to be ${until}`, async () => {
      const outputs = (await type.read(await context(), id, prior)) as Record<string, unknown> | undefined;
      if (!outputs) return mayStillAppear(type, record.orderedAt, now()) ? { done: false, status: 'not listed yet' } : { done: true, value: undefined };
      const readiness = readinessOf(type, outputs);
      if (until === 'listed' || readiness.state !== 'provisioning') return { done: true, value: { outputs, readiness } };
      return { done: false, status: type.provisioning?.status?.(outputs) ?? 'provisioning' };
    }),
  );
}
