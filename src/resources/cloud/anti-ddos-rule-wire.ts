/**
 * How forwarding rules travel: the record GetBGPServiceFwdRule lists and the parameters that
 * CreateBGPServiceFwdRule and UpdateBGPServiceFwdRule share (back ends as the parallel
 * `SourceAddrArr.N` / `SourcePortArr.N` / `SourceToaIDArr.N` arrays).
 */
import { describeServiceInfo } from '../../providers/cloud/api/anti-ddos.js';
import { RemoteError } from '../../kernel/errors.js';
import type { Params } from '../../providers/cloud/signature.js';
import { UADS_CALL } from './anti-ddos-ip.js';
import type { CloudCtx } from './kit.js';

/** A rule as GetBGPServiceFwdRule lists it (BGPFwdRule). */
export interface FwdRule {
  RuleID?: string;
  RuleIndex: number;
  BgpIP: string;
  BgpIPPort: number;
  FwdType: string;
  LoadBalance?: string;
  SourceInfo?: { Type?: string; Conf?: Array<{ Source: string; Port: number; Toa: number }> };
  SourceDetect?: number;
  BackupIP?: string;
  BackupPort?: number;
  Remark?: string;
  Status?: string;
  CreateTime?: number;
}

/** The inputs the rule parameters are made from. */
export interface RuleInputs {
  port?: number;
  realServers: Array<{ address: string; port?: number }>;
  toaId?: number;
  detection?: boolean;
  backupServer?: { ip: string; port?: number };
}

/** The parameters create and update share; several back ends balance the load (the upstream provider's rule). */
export function ruleParams(rule: RuleInputs): Params {
  const tcp = rule.port !== undefined;
  return {
    FwdType: tcp ? 'TCP' : 'IP',
    BgpIPPort: rule.port ?? 0,
    SourceAddrArr: rule.realServers.map((s) => s.address),
    SourcePortArr: tcp ? rule.realServers.map((s) => String(s.port ?? 0)) : undefined,
    SourceToaIDArr: rule.realServers.map(() => String(rule.toaId ?? 200)),
    LoadBalance: rule.realServers.length > 1 ? 'Yes' : 'No',
    SourceDetect: rule.detection ? 1 : 0,
    BackupIP: rule.backupServer?.ip,
    BackupPort: tcp ? rule.backupServer?.port : undefined,
  };
}

/**
 * The rules of an instance (those of one IP, or one index, with `filter`); none for an instance
 * that is gone, which the API answers with a parameter error.
 */
export async function ruleRecords(ctx: CloudCtx, instanceId: string, filter: { BgpIP?: string; RuleIndex?: number } = {}): Promise<FwdRule[]> {
  try {
    return await ctx.client.pageAll<FwdRule>('GetBGPServiceFwdRule', { ResourceId: instanceId, ...filter }, 'RuleInfo', { ...UADS_CALL, pageSize: 100 });
  } catch (err) {
    if (!(err instanceof RemoteError && err.kind === 'invalid')) throw err;
    if ((await describeServiceInfo(ctx.client, instanceId)) !== undefined) throw err;
    return [];
  }
}
