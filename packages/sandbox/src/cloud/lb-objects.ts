/**
 * What the load balancer Actions share: finding a balancer, a listener (VServer) of it, a backend
 * or a policy with the ULB service's own not-found codes, and the addresses an LB answers on.
 */
import { settleEips } from './actions-eip.js';
import { visible } from './network-objects.js';
import { ApiError, type ActionContext, type ActionRequest } from './request.js';
import type { Rec } from './seed-util.js';

/** ULB: the balancer does not exist. */
export const LB_NOT_FOUND = 4103;
/** ULB: the VServer does not exist. */
export const VSERVER_NOT_FOUND = 4088;
/** ULB: the backend does not exist. */
export const BACKEND_NOT_FOUND = 4093;

/** The visible balancer the `ULBId` parameter (or `param`) names, or 4103. */
export function findLb(req: ActionRequest, ctx: ActionContext, param = 'ULBId'): Rec {
  const id = req.required(param);
  const lb = visible(ctx.db.lbs, req, ctx).find((l) => l.ULBId === id);
  if (!lb) throw new ApiError(LB_NOT_FOUND, `ULB [${id}] not exists`);
  return lb;
}

/** The listeners of a balancer, as its record holds them. */
export function vserversOf(lb: Rec): Rec[] {
  lb.VServerSet ??= [];
  return lb.VServerSet as Rec[];
}

/** The listener of the balancer that the `VServerId` parameter names, or 4088. */
export function findVServer(req: ActionRequest, lb: Rec): Rec {
  const id = req.required('VServerId');
  const vs = vserversOf(lb).find((v) => v.VServerId === id);
  if (!vs) throw new ApiError(VSERVER_NOT_FOUND, `VServer [${id}] not exists in ULB [${String(lb.ULBId)}]`);
  return vs;
}

/** A list field of a record, made when absent. */
export function listOf(record: Rec, key: string): Rec[] {
  record[key] ??= [];
  return record[key] as Rec[];
}

/** The listener holding a policy, among the balancers of the request's scope. */
export function policyHome(req: ActionRequest, ctx: ActionContext, policyId: string): { vs: Rec; policy: Rec } | undefined {
  for (const lb of visible(ctx.db.lbs, req, ctx)) {
    for (const vs of vserversOf(lb)) {
      const policy = listOf(vs, 'PolicySet').find((p) => p.PolicyId === policyId);
      if (policy) return { vs, policy };
    }
  }
  return undefined;
}

/**
 * The EIPs a balancer answers on, as DescribeULB's IPSet lists them: the bindings BindEIP made
 * (settled), in the order they were first listed.
 */
export function ipSetOf(lb: Rec, ctx: ActionContext): Rec[] {
  settleEips(ctx);
  const bound = ctx.db.eips.filter((e) => (e.Resource as Rec | undefined)?.ResourceID === lb.ULBId);
  const seeded = ((lb.IPSet as Rec[] | undefined) ?? []).filter((ip) => bound.some((e) => e.EIPId === ip.EIPId));
  const made = bound
    .filter((e) => !seeded.some((ip) => ip.EIPId === e.EIPId))
    .map((e) => ({ EIP: (e.EIPAddr as Rec[])[0]?.IP, EIPId: e.EIPId, OperatorName: (e.EIPAddr as Rec[])[0]?.OperatorName, Bandwidth: e.Bandwidth, BandwidthType: e.BandwidthType }));
  return [...seeded, ...made];
}
