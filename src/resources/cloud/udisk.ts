/**
 * Reading UDisks, shared by Disk and DiskAttachment: DescribeUDisk takes a single id (or none,
 * for every disk of the region, paged), and a disk passes through Initializating (sic),
 * Attaching and Detaching on its way to Available or InUse.
 */
import { isRemote, RemoteError } from '../../errors.js';
import { str } from '../../providers/cloud/wire.js';
import type { CloudCtx } from './kit.js';
import { waitUntil } from './wait.js';

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
  return waitUntil(ctx, `disk ${id} to be ${what}`, async () => {
    const seen = await describeDisk(ctx, id);
    if (!seen) throw new RemoteError('not-found', `disk ${id} no longer exists`, { provider: 'cloud' });
    if (wanted(seen)) return { done: true, value: seen };
    if (FAILED.includes(str(seen.Status))) throw new RemoteError('invalid', `disk ${id} is in state "${str(seen.Status)}", which it does not leave by itself`, { provider: 'cloud' });
    return { done: false, status: str(seen.Status) || 'unknown' };
  });
}

/** The disk once it is Available or InUse (a create, attach or detach has settled). */
export function settledDisk(ctx: CloudCtx, id: string): Promise<DiskInfo> {
  return waitDisk(ctx, id, (d) => d.Status === 'Available' || d.Status === 'InUse', 'Available or InUse');
}
