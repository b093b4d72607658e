/**
 * VPN gateways, customer gateways and tunnels as the IPSecVPN Describe Actions send them: shared
 * by the VPN resources and the VPN lookups.
 */
import type { Listing } from './listing.js';

/** One VPN gateway (DescribeVPNGateway; every field is sent). */
export interface VpnGatewayInfo extends Record<string, unknown> {
  VPNGatewayId: string;
  VPNGatewayName: string;
  Grade: string;
  Remark: string;
  Tag: string;
  ChargeType: string;
  AutoRenew: string;
  VPCId: string;
  EIP: string;
  EIPId: string;
  EIPType: string;
  /** Unix seconds. */
  CreateTime: number;
  /** Unix seconds. */
  ExpireTime: number;
}

/** How VPN gateways are listed. */
export const VPN_GATEWAY_LISTING: Listing = { action: 'DescribeVPNGateway', idsParam: 'VPNGatewayIds', listKey: 'DataSet', idField: 'VPNGatewayId' };

/** One customer (remote) gateway (DescribeRemoteVPNGateway; every field is sent). */
export interface RemoteGatewayInfo extends Record<string, unknown> {
  RemoteVPNGatewayId: string;
  RemoteVPNGatewayName: string;
  RemoteVPNGatewayAddr: string;
  Remark: string;
  Tag: string;
  TunnelCount: number;
  /** Unix seconds. */
  CreateTime: number;
}

/** How customer gateways are listed. */
export const REMOTE_GATEWAY_LISTING: Listing = { action: 'DescribeRemoteVPNGateway', idsParam: 'RemoteVPNGatewayIds', listKey: 'DataSet', idField: 'RemoteVPNGatewayId' };

/** One tunnel (DescribeVPNTunnel's VPNTunnelDataSet; every field is sent). */
export interface TunnelInfo extends Record<string, unknown> {
  VPNTunnelId: string;
  VPNTunnelName: string;
  Remark: string;
  Tag: string;
  VPCId: string;
  VPNGatewayId: string;
  RemoteVPNGatewayId: string;
  /** Unix seconds. */
  CreateTime: number;
  /** The IKE settings, each a string (`IKEVersion`, `IKEPreSharedKey`, ...). */
  IKEData: Record<string, string | undefined>;
  /** The IPsec settings; the local and remote subnets are lists. */
  IPSecData: Record<string, string | string[] | undefined>;
}

/** How tunnels are listed. */
export const TUNNEL_LISTING: Listing = { action: 'DescribeVPNTunnel', idsParam: 'VPNTunnelIds', listKey: 'DataSet', idField: 'VPNTunnelId' };
