/** Instances as DescribeUHostInstance sends them: shared by the Instance resources and the getInstances lookup. */
import type { Listing } from './listing.js';

/** One instance (the SDK's UHostInstanceSet; every field is sent). */
export interface HostInfo extends Record<string, unknown> {
  UHostId: string;
  Zone: string;
  Name: string;
  Tag: string;
  Remark: string;
  /** `Initializing`, `Starting`, `Running`, `Stopping`, `Stopped`, `Install Fail`... */
  State: string;
  CPU: number;
  /** MB. */
  Memory: number;
  MachineType: string;
  ChargeType: string;
  AutoRenew: string;
  BasicImageId: string;
  DiskSet: Array<{ DiskId: string; DiskType: string; IsBoot: string; Size: number; Type?: string; Name?: string }>;
  IPSet: Array<{ IP: string; Type: string; VPCId?: string; SubnetId?: string }>;
  KeyPair?: { KeyPairId?: string; KeyPairState?: string };
  /** Unix seconds. */
  CreateTime: number;
  /** Unix seconds. */
  ExpireTime: number;
}

/** DescribeUHostInstance by UHostIds.N. */
export const HOST_LISTING: Listing = { action: 'DescribeUHostInstance', idsParam: 'UHostIds', listKey: 'UHostSet', idField: 'UHostId' };
