/**
 * Disks as DescribeUDisk sends them, and the calls that read them: shared by the Disk and
 * DiskAttachment resources and the getDisks lookup. DescribeUDisk takes a single id, or none for
 * every disk of the region (paged).
 */
import { isRemote } from '../../../kernel/errors.js';
import type { CloudClient } from '../client.js';
import type { Params } from '../signature.js';

/** One disk (the SDK's UDiskDataSet; every field is sent, UHostId and DeviceName empty while detached). */
export interface DiskInfo extends Record<string, unknown> {
  UDiskId: string;
  Name: string;
  Zone: string;
  /** GB. */
  Size: number;
  DiskType: string;
  ChargeType: string;
  Tag: string;
  Status: string;
  UHostId: string;
  DeviceName: string;
  /** Unix seconds. */
  CreateTime: number;
  /** Unix seconds. */
  ExpiredTime: number;
}

/** Every disk of the region, narrowed by the API's own filters when given (Zone, DiskType), through every page. */
export function listDisks(client: CloudClient, filters: Params = {}): Promise<DiskInfo[]> {
  return client.pageAll<DiskInfo>('DescribeUDisk', filters, 'DataSet');
}

/** One disk, undefined when the API lists none. */
export async function describeDisk(client: CloudClient, id: string): Promise<DiskInfo | undefined> {
  try {
    const body = await client.call<{ DataSet?: DiskInfo[] }>('DescribeUDisk', { UDiskId: id });
    return body.DataSet?.find((d) => d.UDiskId === id);
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}
