/** Network listings: elastic IPs, NAT gateways and IPSec VPN (VPCs and subnets are in actions-vpc.ts). */
import { inIds } from './actions-compute.js';
import { settleEips } from './actions-eip.js';
import type { ActionHandler } from './request.js';
import { scoped, without } from './store.js';
import type { Rec } from './seed-util.js';

/**
 * A listing scoped to the request's region and project, filtered by an id list parameter and
 * optional exact-match parameters, answered as `{ [listKey]: page, TotalCount }`.
 */
function listing(records: (db: Parameters<ActionHandler>[1]['db']) => Rec[], listKey: string, idParam: string, idField: string, exact: [string, string][] = []): ActionHandler {
  return (req, ctx) => {
    const region = req.region();
    const project = req.project();
    const ids = req.list(idParam);
    const filters = exact.map(([param, field]) => [req.str(param), field] as const);
    const matches = scoped(records(ctx.db), region, project).filter((r) => inIds(ids, r[idField]) && filters.every(([value, field]) => value === undefined || r[field] === value));
    const { items, total } = req.page(matches, 20);
    return { [listKey]: items.map((r) => without(r, 'Region', 'ProjectId')), TotalCount: total };
  };
}

/** Network Actions by name. */
export const networkActions: Record<string, ActionHandler> = {
  DescribeEIP(req, ctx) {
    settleEips(ctx);
    const answer = listing((db) => db.eips, 'EIPSet', 'EIPIds', 'EIPId')(req, ctx);
    const all = scoped(ctx.db.eips, req.region(), req.project());
    return {
      ...answer,
      TotalBandwidth: all.reduce((sum, e) => sum + Number(e.Bandwidth ?? 0), 0),
      UnbindCount: all.filter((e) => e.Status === 'free').length,
    };
  },
  DescribeNATGW: listing((db) => db.natGateways, 'DataSet', 'NATGWIds', 'NATGWId'),
  DescribeVPNGateway: listing((db) => db.vpnGateways, 'DataSet', 'VPNGatewayIds', 'VPNGatewayId', [
    ['Tag', 'Tag'],
    ['VPCId', 'VPCId'],
  ]),
  DescribeRemoteVPNGateway: listing((db) => db.remoteGateways, 'DataSet', 'RemoteVPNGatewayIds', 'RemoteVPNGatewayId', [['Tag', 'Tag']]),
  DescribeVPNTunnel: listing((db) => db.vpnTunnels, 'DataSet', 'VPNTunnelIds', 'VPNTunnelId', [
    ['Tag', 'Tag'],
    ['VPCId', 'VPCId'],
    ['VPNGatewayId', 'VPNGatewayId'],
  ]),
};
