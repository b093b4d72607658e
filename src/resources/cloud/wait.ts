/** Polling until a remote object settles, within the operation's wait time. */
import { RemoteError } from '../../errors.js';
import type { ResourceContext } from '../../engine/contracts/resource-type.js';

/** One observation: settled with a value, or still in some status. */
export type Poll<T> = { done: true; value: T } | { done: false; status: string };

/** Used when the engine gives no wait time: the upstream provider waits three minutes. */
const DEFAULT_WAIT_MS = 180_000;

/**
 * Polls until `poll` reports done, reporting each new status as progress. Intervals grow from
 * 200 ms to 2 s so that a fast sandbox finishes at once and a slow API is not hammered.
 * Throws an `unavailable` RemoteError naming the last status when the wait time runs out.
 */
export async function waitUntil<T>(ctx: ResourceContext, what: string, poll: () => Promise<Poll<T>>): Promise<T> {
  const limit = ctx.waitTimeMs > 0 ? ctx.waitTimeMs : DEFAULT_WAIT_MS;
  const started = Date.now();
  let interval = 200;
  let last = '';
  for (;;) {
    const seen = await poll();
    if (seen.done) return seen.value;
    if (seen.status !== last) {
      ctx.progress(seen.status);
      last = seen.status;
    }
    const elapsed = Date.now() - started;
    if (elapsed >= limit) {
      throw new RemoteError('unavailable', `timed out after ${(elapsed / 1000).toFixed(1)}s waiting for ${what} (last status: ${last})`, { provider: 'cloud' });
    }
    await new Promise((r) => setTimeout(r, Math.min(interval, limit - elapsed)));
    interval = Math.min(interval * 1.5, 2000);
  }
}
