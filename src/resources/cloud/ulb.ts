/**
 * What the load balancer types share: the CLB records as DescribeULB reports them (listeners,
 * backends, policies and bound certificates nested in each balancer), one balancer read alone,
 * and every balancer read once per pass for the bulk reads of all six types.
 */
import { isRemote } from '../../kernel/errors.js';
import type { CloudCtx } from './kit.js';

/** A backend as a listener's BackendSet lists it. */
export interface BackendInfo extends Record<string, unknown> {
  BackendId: string;
  ResourceId: string;
  ResourceType?: string;
  Port: number;
  PrivateIP?: string;
  Weight?: number;
  Enabled?: number;
  IsBackup?: number;
  Status?: number;
}

/** A content-forwarding policy as a listener's PolicySet lists it. */
export interface PolicyInfo extends Record<string, unknown> {
  PolicyId: string;
  Type: string;
  Match: string;
  PolicyType?: string;
  PolicyPriority?: number;
  DomainMatchMode?: string;
  BackendSet?: BackendInfo[];
}

/** A listener (VServer) as a balancer's VServerSet lists it. */
export interface VServerInfo extends Record<string, unknown> {
  VServerId: string;
  VServerName: string;
  Protocol: string;
  FrontendPort: number;
  ListenType?: string;
  Method?: string;
  PersistenceType?: string;
  PersistenceInfo?: string;
  ClientTimeout?: number;
  MonitorType?: string;
  Domain?: string;
  Path?: string;
  Status?: number;
  BackendSet?: BackendInfo[];
  PolicySet?: PolicyInfo[];
  SSLSet?: Array<{ SSLId: string }>;
}

/** A balancer as DescribeULB lists it. */
export interface LbInfo extends Record<string, unknown> {
  ULBId: string;
  Name?: string;
  ULBName?: string;
  Tag?: string;
  Remark?: string;
  ULBType?: string;
  ListenType?: string;
  VPCId?: string;
  SubnetId?: string;
  PrivateIP?: string;
  CreateTime?: number;
  IPSet?: Array<{ EIP?: string; EIPId?: string }>;
  FirewallSet?: Array<{ FirewallId?: string }>;
  VServerSet?: VServerInfo[];
}

/** One balancer, undefined when the API answers that it does not exist (4103) or lists none. */
export async function describeLb(ctx: CloudCtx, lbId: string): Promise<LbInfo | undefined> {
  try {
    const body = await ctx.client.call<{ DataSet?: LbInfo[] }>('DescribeULB', { ULBId: lbId });
    return (body.DataSet ?? []).find((l) => l.ULBId === lbId);
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

/**
 * Every balancer of the project, paged. DescribeULB takes one ULBId or none, so a bulk read of
 * balancers or anything nested in them is this one listing, made once per pass.
 */
export function allLbs(ctx: CloudCtx): Promise<LbInfo[]> {
  return ctx.shared('cloud:ulbs', () => ctx.client.pageAll<LbInfo>('DescribeULB', {}, 'DataSet'));
}

/** A listener of a balancer record. */
export function vserverOf(lb: LbInfo | undefined, vserverId: string): VServerInfo | undefined {
  return lb?.VServerSet?.find((v) => v.VServerId === vserverId);
}

/** Every listener of the balancers, with its balancer. */
export function allVServers(lbs: LbInfo[]): Array<{ lb: LbInfo; vs: VServerInfo }> {
  return lbs.flatMap((lb) => (lb.VServerSet ?? []).map((vs) => ({ lb, vs })));
}
