/**
 * Reading UDisks, shared by Disk and DiskAttachment: DescribeUDisk takes a single id (or none,
 * for every disk of the region, paged), and a disk passes through Initializating (sic),
 * Attaching and Detaching on its way to Available or InUse.
 */
import { isRemote, RemoteError } from '../../kernel/errors.js';
import { str } from '../../providers/cloud/wire.js';
import { PACE, type CloudCtx } from './kit.js';

/** A disk as DescribeUDisk lists it (UDiskDataSet). */
export interface DiskInfo extends Record<string, unknown> {
  UDiskId: string;
  Name?: string;
  Zone?: string;
  Size?: number;
  DiskType?: string;
  ChargeType?: string;
  Tag?: string;
  Status?: string;
  UHostId?: string;
  DeviceName?: string;
  CreateTime?: number;
  ExpiredTime?: number;
}

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
  return ctx.client.pageAll<DiskInfo>('DescribeUDisk', {}, 'DataSet');
}

/** One disk, undefined when the API lists none. */
export async function describeDisk(ctx: CloudCtx, id: string): Promise<DiskInfo | undefined> {
  try {
    const body = await ctx.client.call<{ DataSet?: DiskInfo[] }>('DescribeUDisk', { UDiskId: id });
    return body.DataSet?.find((d) => d.UDiskId === id);
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
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
