/** VPCs as DescribeVPC sends them: shared by the Vpc resource and the getVpcs lookup. */
import type { Listing } from './listing.js';

/** One VPC (the SDK's VPCInfo; every field is sent). */
export interface VpcInfo extends Record<string, unknown> {
  VPCId: string;
  Name: string;
  Network: string[];
  SubnetCount: number;
  Tag: string;
  /** Unix seconds. */
  CreateTime: number;
  /** Unix seconds. */
  UpdateTime: number;
}

/** How VPCs are listed. */
export const VPC_LISTING: Listing = { action: 'DescribeVPC', idsParam: 'VPCIds', listKey: 'DataSet', idField: 'VPCId' };
