/** NAT gateways as DescribeNATGW sends them: shared by the NatGateway resource and the getNatGateways lookup. */
import type { Listing } from './listing.js';

/** One NAT gateway (the SDK's NatGatewayDataSet; every field is sent). */
export interface NatGatewayInfo extends Record<string, unknown> {
  NATGWId: string;
  NATGWName: string;
  Remark: string;
  Tag: string;
  VPCId: string;
  FirewallId: string;
  /** Unix seconds. */
  CreateTime: number;
  SubnetSet: Array<{ SubnetworkId: string; Subnet?: string; SubnetName?: string }>;
  IPSet: Array<{ EIPId: string; IPResInfo?: Array<{ EIP: string; OperatorName: string }> }>;
}

/** How NAT gateways are listed. */
export const NAT_GATEWAY_LISTING: Listing = { action: 'DescribeNATGW', idsParam: 'NATGWIds', listKey: 'DataSet', idField: 'NATGWId' };
