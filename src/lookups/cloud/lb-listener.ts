/** The one listener (VServer) the attachment and rule lookups read, with a clear error when it is missing. */
import { isRemote, RemoteError } from '../../kernel/errors.js';
import type { CloudLookupContext } from './kit.js';

/** A listener as DescribeVServer returns it (the fields the lookups read). */
export interface VServer {
  VServerId: string;
  VServerName: string;
  Protocol: string;
  ListenType: string;
  FrontendPort: number;
  ClientTimeout: number;
  Method: string;
  PersistenceType: string;
  PersistenceInfo?: string;
  MonitorType: string;
  Domain?: string;
  Path?: string;
  Status: number;
  BackendSet?: { BackendId: string; ResourceId: string; Port: number; PrivateIP: string; Status: number }[];
  PolicySet?: { PolicyId: string; Type: string; Match: string }[];
}

/** Reads one listener of a load balancer; a missing balancer or listener is a not-found error naming both. */
export async function readListener(ctx: CloudLookupContext, loadBalancerId: string, listenerId: string): Promise<VServer> {
  let found: VServer | undefined;
  try {
    const body = await ctx.client.call<{ DataSet?: VServer[] }>('DescribeVServer', { ULBId: loadBalancerId, VServerId: listenerId });
    found = (body.DataSet ?? []).find((v) => v.VServerId === listenerId);
  } catch (err) {
    if (!isRemote(err, 'not-found')) throw err;
  }
  if (!found) throw new RemoteError('not-found', `load balancer ${loadBalancerId} has no listener ${listenerId}`, { provider: 'cloud' });
  return found;
}
