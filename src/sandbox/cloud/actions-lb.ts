/** Load balancer Actions: balancers, listeners (VServers) with backends and rules, certificates. */
import { ApiError, type ActionHandler } from './request.js';
import { scoped, without } from './store.js';
import type { Rec } from './seed-util.js';

/** Load balancer Actions by name. */
export const lbActions: Record<string, ActionHandler> = {
  DescribeULB(req, ctx) {
    const region = req.region();
    const project = req.project();
    const id = req.str('ULBId');
    const vpc = req.str('VPCId');
    const subnet = req.str('SubnetId');
    const all = scoped(ctx.db.lbs, region, project);
    if (id !== undefined && !all.some((lb) => lb.ULBId === id)) throw new ApiError(4103, `ULB [${id}] not exists`);
    const matches = all.filter((lb) => (id === undefined || lb.ULBId === id) && (vpc === undefined || lb.VPCId === vpc) && (subnet === undefined || lb.SubnetId === subnet));
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((lb) => without(lb, 'Region', 'ProjectId')), TotalCount: total };
  },

  DescribeVServer(req, ctx) {
    const region = req.region();
    const project = req.project();
    const lbId = req.required('ULBId');
    const lb = scoped(ctx.db.lbs, region, project).find((l) => l.ULBId === lbId);
    if (!lb) throw new ApiError(4103, `ULB [${lbId}] not exists`);
    const vservers = (lb.VServerSet ?? []) as Rec[];
    const vserverId = req.str('VServerId');
    if (vserverId !== undefined && !vservers.some((v) => v.VServerId === vserverId)) throw new ApiError(4103, `VServer [${vserverId}] not exists`);
    const matches = vservers.filter((v) => vserverId === undefined || v.VServerId === vserverId);
    const { items, total } = req.page(matches, 20);
    return { DataSet: items, TotalCount: total };
  },

  DescribeSSL(req, ctx) {
    const region = req.region();
    const project = req.project();
    const id = req.str('SSLId');
    const matches = scoped(ctx.db.ssls, region, project).filter((s) => id === undefined || s.SSLId === id);
    const { items, total } = req.page(matches, 20);
    return { DataSet: items.map((s) => without(s, 'Region', 'ProjectId')), TotalCount: total };
  },
};
