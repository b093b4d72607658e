/** EIPs as DescribeEIP sends them: shared by the Eip and EipAssociation resources and the getEips lookup. */
import type { Listing } from './listing.js';

/** One EIP (the SDK's UnetEIPSet; every field is sent). */
export interface EipInfo extends Record<string, unknown> {
  EIPId: string;
  Name: string;
  Remark: string;
  Tag: string;
  /** `used`, `free`, `freeze`... */
  Status: string;
  Bandwidth: number;
  BandwidthType: number;
  ChargeType: string;
  PayMode: string;
  Weight: number;
  /** Unix seconds. */
  CreateTime: number;
  /** Unix seconds. */
  ExpireTime: number;
  EIPAddr: Array<{ IP: string; OperatorName: string }>;
  ShareBandwidthSet?: { ShareBandwidthId?: string; ShareBandwidthName?: string; ShareBandwidth?: number };
  /** What the EIP is bound to; its fields are empty while it is free. */
  Resource?: { ResourceID?: string; ResourceType?: string };
}

/** How EIPs are listed. */
export const EIP_LISTING: Listing = { action: 'DescribeEIP', idsParam: 'EIPIds', listKey: 'EIPSet', idField: 'EIPId' };
