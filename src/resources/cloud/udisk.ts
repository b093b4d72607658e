/**
 * Reading UDisks, shared by Disk and DiskAttachment: DescribeUDisk takes a single id (or none,
 * for every disk of the region, paged), and a disk passes through Initializating (sic),
 * Attaching and Detaching on its way to Available or InUse.
 */
import { isRemote, RemoteError } from '../../kernel/errors.js';
import { describeDisk as describeDiskIn, listDisks, type DiskInfo } from '../../providers/cloud/api/udisk.js';
import { str } from '../../providers/cloud/wire.js';
import { PACE, type CloudCtx } from './kit.js';

/** States a disk does not leave by itself. */
const FAILED = ['Failed', 'RestoreFailed'];

/** The status of a disk that failed, as the API names it; undefined for any other. */
export function failedStatus(status: string): string | undefined {
  return FAILED.includes(status) ? status : undefined;
}

/** Whether a disk is settled: Available or InUse (not on its way through a create, attach or detach). */
export function isSettled(status: string): boolean {
  return status === 'Available' || status === 'InUse';
}

/** Every disk of the region, through every page. */
export function allDisks(ctx: CloudCtx): Promise<DiskInfo[]> {
  return listDisks(ctx.client);
}

/** One disk, undefined when the API lists none. */
export function describeDisk(ctx: CloudCtx, id: string): Promise<DiskInfo | undefined> {
  return describeDiskIn(ctx.client, id);
}

/** Waits until `wanted` holds of the disk; a failed disk, or one gone, is an error. */
export function waitDisk(ctx: CloudCtx, id: string, wanted: (d: DiskInfo) => boolean, what: string): Promise<DiskInfo> {
  return ctx.wait(
    `disk ${id} to be ${what}`,
    async () => {
      const seen = await describeDisk(ctx, id);
      if (!seen) throw new RemoteError('not-found', `disk ${id} no longer exists`, { provider: 'cloud' });
      if (wanted(seen)) return { done: true, value: seen };
      const failed = failedStatus(str(seen.Status));
      if (failed) throw new Error(`disk ${id} is in state "${failed}", which it does not leave by itself: replace it (plumb apply --replace ${ctx.address})`);
      return { done: false, status: str(seen.Status) || 'unknown' };
    },
    PACE,
  );
}

/** The disk once it is Available or InUse (a create, attach or detach has settled). */
export function settledDisk(ctx: CloudCtx, id: string): Promise<DiskInfo> {
  return waitDisk(ctx, id, (d) => isSettled(str(d.Status)), 'Available or InUse');
}
