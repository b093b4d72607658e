/**
 * What the load balancer types share: one balancer read alone, and every balancer read once per
 * pass for the bulk reads of all six types (the records are DescribeULB's, in
 * providers/cloud/api/ulb.ts).
 */
import { describeLb as describeOne, listLbs, type LbInfo, type VServerInfo } from '../../providers/cloud/api/ulb.js';
import type { CloudCtx } from './kit.js';

export type { BackendInfo, LbInfo, PolicyInfo, VServerInfo } from '../../providers/cloud/api/ulb.js';

/** One balancer, undefined when the API answers that it does not exist (4103) or lists none. */
export function describeLb(ctx: CloudCtx, lbId: string): Promise<LbInfo | undefined> {
  return describeOne(ctx.client, lbId);
}

/**
 * Every balancer of the project, paged. DescribeULB takes one ULBId or none, so a bulk read of
 * balancers or anything nested in them is this one listing, made once per pass.
 */
export function allLbs(ctx: CloudCtx): Promise<LbInfo[]> {
  return ctx.shared('cloud:ulbs', () => listLbs(ctx.client));
}

/** A listener of a balancer record. */
export function vserverOf(lb: LbInfo | undefined, vserverId: string): VServerInfo | undefined {
  return lb?.VServerSet?.find((v) => v.VServerId === vserverId);
}

/** Every listener of the balancers, with its balancer. */
export function allVServers(lbs: LbInfo[]): Array<{ lb: LbInfo; vs: VServerInfo }> {
  return lbs.flatMap((lb) => (lb.VServerSet ?? []).map((vs) => ({ lb, vs })));
}
