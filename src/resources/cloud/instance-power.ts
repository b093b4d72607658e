/**
 * An instance's power and the changes that need it off: ResizeUHostInstance and
 * ResetUHostInstancePassword are refused unless the instance is Stopped (UHost 8010), and so is
 * TerminateUHostInstance (8856). A running instance is stopped for them and started again after;
 * one found stopped is left stopped.
 */
import { str } from '../../providers/cloud/wire.js';
import { PACE, vanished, type CloudCtx } from './kit.js';
import { describeOne } from '../../providers/cloud/api/listing.js';
import { HOST_LISTING, type HostInfo } from '../../providers/cloud/api/uhost.js';

/** States an instance passes through on its way to Running or Stopped. */
const PASSING = ['Initializing', 'Starting', 'Stopping', 'Rebooting', ''];
/** States the API never leaves by itself: the install or a resize failed. */
const FAILED = ['Install Fail', 'InstallFail', 'ResizeFail'];

/** The state of an instance whose provisioning failed, as the API names it; undefined for any other. */
export function failedState(state: string): string | undefined {
  return FAILED.includes(state) ? state : undefined;
}

/** The instance's record, or a not-found error when it is gone. */
export async function describeHost(ctx: CloudCtx, id: string): Promise<HostInfo> {
  const seen = await describeOne<HostInfo>(ctx.client, HOST_LISTING, id);
  if (!seen) throw vanished('instance', id);
  return seen;
}

/**
 * Waits until the instance is in one of `wanted`, through the states it passes on the way; a
 * failed install or resize is an error naming the state (the instance is replaced, not waited for).
 */
export function waitState(ctx: CloudCtx, id: string, wanted: string[]): Promise<HostInfo> {
  return ctx.wait(
    `instance ${id} to be ${wanted.join(' or ')}`,
    async () => {
      const seen = await describeHost(ctx, id);
      const state = str(seen.State);
      if (wanted.includes(state)) return { done: true, value: seen };
      if (failedState(state)) throw new Error(`instance ${id} is in state "${state}", which it does not leave by itself: replace it (plumb apply --replace ${ctx.address})`);
      return { done: false, status: state || 'unknown' };
    },
    PACE,
  );
}

/** Waits out a transition in progress, then the instance is Running or Stopped (or failed). */
export async function settled(ctx: CloudCtx, id: string): Promise<HostInfo> {
  const seen = await describeHost(ctx, id);
  return PASSING.includes(str(seen.State)) ? waitState(ctx, id, ['Running', 'Stopped']) : seen;
}

/** Stops the instance when it runs, waiting until it is Stopped; whether it was running. */
export async function stopIfRunning(ctx: CloudCtx, id: string): Promise<boolean> {
  const seen = await settled(ctx, id);
  if (seen.State !== 'Running') return false;
  await ctx.client.call('StopUHostInstance', { Zone: seen.Zone, UHostId: id });
  await waitState(ctx, id, ['Stopped']);
  return true;
}

/** Runs `work` with the instance stopped, starting it again after when it was running. */
export async function whileStopped(ctx: CloudCtx, id: string, work: () => Promise<void>): Promise<void> {
  const wasRunning = await stopIfRunning(ctx, id);
  await work();
  if (!wasRunning) return;
  const seen = await settled(ctx, id);
  await ctx.client.call('StartUHostInstance', { Zone: seen.Zone, UHostId: id });
  await waitState(ctx, id, ['Running']);
}
