/**
 * Load balancers (CLB) as DescribeULB sends them, listeners, backends, policies and bound
 * certificates nested in each, and the calls that read them: shared by the load balancer types
 * and the getLbs lookup. DescribeULB takes one ULBId, or none (with an optional VPC or subnet)
 * for many.
 */
import { isRemote } from '../../../kernel/errors.js';
import type { CloudClient } from '../client.js';

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
  IPSet?: Array<{ EIP?: string; EIPId?: string; OperatorName?: string }>;
  FirewallSet?: Array<{ FirewallId?: string }>;
  VServerSet?: VServerInfo[];
}

/** One balancer, undefined when the API answers that it does not exist (4103) or lists none. */
export async function describeLb(client: CloudClient, lbId: string): Promise<LbInfo | undefined> {
  try {
    const body = await client.call<{ DataSet?: LbInfo[] }>('DescribeULB', { ULBId: lbId });
    return (body.DataSet ?? []).find((l) => l.ULBId === lbId);
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

/** Every balancer of the project, or of one VPC or subnet, through every page. */
export function listLbs(client: CloudClient, where: { VPCId?: string; SubnetId?: string } = {}): Promise<LbInfo[]> {
  return client.pageAll<LbInfo>('DescribeULB', where, 'DataSet');
}
