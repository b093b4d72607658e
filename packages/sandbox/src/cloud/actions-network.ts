/** Network listings: elastic IPs (VPCs and subnets are in actions-vpc.ts, NAT gateways in actions-natgw.ts, VPN in actions-ipsecvpn.ts). */
import { settleEips } from './actions-eip.js';
import type { ActionHandler } from './request.js';
import { scoped, without } from './store.js';
import type { Rec } from './seed-util.js';

/** Network Actions by name. */
export const networkActions: Record<string, ActionHandler> = {
  DescribeEIP(req, ctx) {
    settleEips(ctx);
    const all = scoped(ctx.db.eips, req.region(), req.project());
    // EIPIds.N and IPs.N together select the EIPs either of them names.
    const [ids, ips] = [req.list('EIPIds'), req.list('IPs')];
    const named = (e: Rec) => ids.includes(String(e.EIPId)) || (e.EIPAddr as Rec[] | undefined)?.some((a) => ips.includes(String(a.IP))) === true;
    const { items, total } = req.page(
      all.filter((e) => (!ids.length && !ips.length) || named(e)),
      20,
    );
    return {
      EIPSet: items.map((r) => without(r, 'Region', 'ProjectId')),
      TotalCount: total,
      TotalBandwidth: all.reduce((sum, e) => sum + Number(e.Bandwidth ?? 0), 0),
      UnbindCount: all.filter((e) => e.Status === 'free').length,
    };
  },
};
