/**
 * AntiDdosIp: a BGP service IP of an anti-DDoS instance, the address clients reach and the rules
 * forward from.
 *
 * A new IP is Pending until the platform has set it up, then Success. The remark changes in place
 * (SetNapIpRemark); the instance cannot change (no Action moves an IP). An IP that still forwards
 * through rules cannot be deleted, so its rules go first. The id and import format is
 * `<instance_id>/<ip>`.
 */
import * as z from 'zod';
import { AmbiguousOrder, RemoteError, UserError } from '../../kernel/errors.js';
import { describeServiceInfo, listServiceInfo } from '../../providers/cloud/api/anti-ddos.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { Quote, QuoteContext, ReadTarget, ResourceType } from '../../engine/contracts/resource-type.js';
import { antiDdosIpPrice } from '../../providers/cloud/api/prices.js';
import { knownBeforeApply } from '../quote.js';
import { cloudQuote } from './cost.js';
import { autoName, deleteListed, noId, PACE, remarkField, vanished, type CloudCtx } from './kit.js';

/** UADS calls are account-wide: the SDK's request structs take no Region or ProjectId. */
export const UADS_CALL = { region: false, project: false } as const;

/** Inputs of an anti-DDoS service IP. */
export const antiDdosIpInputs = z.object({
  instanceId: z.string().min(1).describe('Id of the anti-DDoS instance (`usecure_ghp-…`). Required.'),
  remark: remarkField('Default empty.'),
});

/** Inputs of an anti-DDoS service IP. */
export type AntiDdosIpInputs = z.output<typeof antiDdosIpInputs>;

/** What is read back about a service IP. */
export const antiDdosIpOutputs = z.object({
  antiDdosIpId: z.string().describe('`<instance_id>/<ip>`.'),
  instanceId: z.string().describe('Id of the anti-DDoS instance.'),
  ip: z.string().describe('The service (high-defence) IP.'),
  cname: z.string().describe('The CNAME that points at the IP.'),
  remark: z.string().describe('Remark.'),
  status: z.string().describe('`Pending` while being set up, then `Success`.'),
  ruleCount: z.number().describe('Forwarding rules on the IP.'),
  lineType: z.string().describe('Line type, e.g. `BGP`.'),
});

/** Observed service IP. */
export type AntiDdosIpOutputs = z.output<typeof antiDdosIpOutputs>;

interface GameIpInfo {
  DefenceIP: string;
  Cname?: string;
  Remark?: string;
  Status?: string;
  RuleCnt?: number;
  LineType?: string;
}

/** Splits `<instance_id>/<ip>`; a UserError naming the format otherwise. */
export function parseAntiDdosIpId(id: string): { instanceId: string; ip: string } {
  const m = /^(usecure_ghp-[A-Za-z0-9]+)\/(\d{1,3}(?:\.\d{1,3}){3})$/.exec(id.trim());
  if (!m) throw new UserError(`invalid anti-DDoS IP id "${id}": expected <instance_id>/<ip>`, 'e.g. usecure_ghp-1a2b3c4d/123.59.200.1');
  return { instanceId: m[1], ip: m[2] };
}

function toOutputs(instanceId: string, g: GameIpInfo): AntiDdosIpOutputs {
  return {
    antiDdosIpId: `${instanceId}/${g.DefenceIP}`,
    instanceId,
    ip: g.DefenceIP,
    cname: str(g.Cname),
    remark: str(g.Remark),
    status: str(g.Status),
    ruleCount: Number(g.RuleCnt ?? 0),
    lineType: str(g.LineType),
  };
}

/** Every service IP of an instance (none for an instance that is gone), shared by the reads of a pass. */
export function serviceIps(ctx: Pick<CloudCtx, 'client' | 'shared'>, instanceId: string): Promise<GameIpInfo[]> {
  return ctx.shared(`anti-ddos-ips:${instanceId}`, async () => {
    try {
      return await ctx.client.pageAll<GameIpInfo>('GetBGPServiceIP', { ResourceId: instanceId }, 'GameIPInfo', { ...UADS_CALL, pageSize: 100 });
    } catch (err) {
      // An instance that is gone takes its IPs with it: the API refuses its id as a parameter.
      if (err instanceof RemoteError && err.kind === 'invalid' && !(await instanceExists(ctx, instanceId))) return [];
      throw err;
    }
  });
}

async function instanceExists(ctx: Pick<CloudCtx, 'client'>, instanceId: string): Promise<boolean> {
  return (await describeServiceInfo(ctx.client, instanceId)) !== undefined;
}

async function observe(ctx: CloudCtx, instanceId: string, ip: string): Promise<AntiDdosIpOutputs | undefined> {
  const body = await ctx.client.call<{ GameIPInfo?: GameIpInfo[] }>('GetBGPServiceIP', { ResourceId: instanceId, BgpIP: ip }, UADS_CALL).catch(async (err: unknown) => {
    if (err instanceof RemoteError && err.kind === 'invalid' && !(await instanceExists(ctx, instanceId))) return { GameIPInfo: [] };
    throw err;
  });
  const found = (body.GameIPInfo ?? []).find((g) => g.DefenceIP === ip);
  return found && toOutputs(instanceId, found);
}

/** The status of an IP whose setup failed: any but Pending and Success, as the upstream provider treats it. */
function failedStatus(status: string): string | undefined {
  return status === 'Pending' || status === 'Success' ? undefined : status;
}

/** Waits for Pending to settle into Success; any other status is an error. */
function waitReady(ctx: CloudCtx, instanceId: string, ip: string): Promise<AntiDdosIpOutputs> {
  return ctx.wait(
    `service IP ${ip} of ${instanceId} to be set up`,
    async () => {
      const seen = await observe(ctx, instanceId, ip);
      if (!seen) throw vanished('anti-DDoS service IP', `${instanceId}/${ip}`);
      if (seen.status === 'Success') return { done: true, value: seen };
      if (failedStatus(seen.status)) throw new Error(`service IP ${ip} of ${instanceId} ended in status ${seen.status}, which it does not leave by itself: the next apply replaces it`);
      return { done: false, status: seen.status };
    },
    PACE,
  );
}

/** The instance's IPs whose remark is the order's marker, listed afresh. */
async function markedWith(ctx: CloudCtx, instanceId: string, marker: string): Promise<GameIpInfo[]> {
  const all = await ctx.client.pageAll<GameIpInfo>('GetBGPServiceIP', { ResourceId: instanceId }, 'GameIPInfo', UADS_CALL);
  return all.filter((g) => g.Remark === marker);
}

async function readMany(ctx: CloudCtx, targets: ReadTarget[]): Promise<Map<string, AntiDdosIpOutputs | undefined>> {
  const out = new Map<string, AntiDdosIpOutputs | undefined>();
  const instances = [...new Set(targets.map((t) => parseAntiDdosIpId(t.id).instanceId))];
  await Promise.all(
    instances.map(async (instanceId) => {
      for (const g of await serviceIps(ctx, instanceId)) {
        const outputs = toOutputs(instanceId, g);
        if (targets.some((t) => t.id === outputs.antiDdosIpId)) out.set(outputs.antiDdosIpId, outputs);
      }
    }),
  );
  return out;
}

/** The IPs an instance holds free of charge (FreeIPQuota): asked of its upgrade price with no change, the one call that reports it for an existing instance. */
function freeIpQuota(ctx: QuoteContext<CloudClient>, instanceId: string): Promise<number> {
  return ctx.shared(`anti-ddos-free-ips:${instanceId}`, async () => {
    const body = await ctx.client.call<{ FreeIPQuota?: number }>('DescribeUpgradeHighProtectGameServicePrice', { ResourceId: instanceId });
    if (typeof body.FreeIPQuota !== 'number') throw new RemoteError('invalid', 'DescribeUpgradeHighProtectGameServicePrice answered no FreeIPQuota', { provider: 'cloud' });
    return body.FreeIPQuota;
  });
}

/**
 * What an IP costs: nothing within its instance's free quota, the unit price of one IP beyond it
 * (DescribeBuyHighProtectGameIPPrice, billed as its instance is). A new IP comes after those the
 * instance holds now; a recorded one is where the API lists it, the first `FreeIPQuota` being free.
 * Several new IPs of one plan are each priced against what the instance holds now.
 */
async function ipQuote(inputs: AntiDdosIpInputs, ctx: QuoteContext<CloudClient>, recorded?: { id: string }): Promise<Quote> {
  knownBeforeApply({ ResourceId: inputs.instanceId });
  const { instanceId } = inputs;
  const [held, free] = await Promise.all([serviceIps(ctx, instanceId), freeIpQuota(ctx, instanceId)]);
  const listed = recorded ? held.findIndex((g) => `${instanceId}/${g.DefenceIP}` === recorded.id) : -1;
  if ((listed < 0 ? held.length : listed) < free) return { monthly: 0, oneOff: 0, currency: 'CNY', basis: `within the instance's free IP quota (${free})` };
  const info = await ctx.shared(`anti-ddos-info:${instanceId}`, () => describeServiceInfo(ctx.client, instanceId));
  if (!info) throw new RemoteError('not-found', `anti-DDoS instance ${instanceId} no longer exists`, { provider: 'cloud' });
  return cloudQuote(ctx, antiDdosIpPrice, info.ChargeType.toLowerCase(), { ResourceId: instanceId }, `beyond the instance's free IP quota (${free})`);
}

/** The AntiDdosIp resource type. */
export const antiDdosIp: ResourceType<AntiDdosIpInputs, AntiDdosIpOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/antiDdosIp:AntiDdosIp',
  provider: 'cloud',
  description: 'A BGP service IP of an anti-DDoS instance; waits until the platform has set it up.',
  inputs: antiDdosIpInputs,
  outputs: antiDdosIpOutputs,
  diff: {
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { remark: '' }),
    remoteManaged: ['status', 'ruleCount', 'cname', 'lineType'],
  },
  replace: {
    on: [{ path: 'instanceId', reason: 'no Action moves a service IP to another anti-DDoS instance' }],
  },
  provisioning: {
    ready: (outputs) => outputs.status === 'Success',
    failed: (outputs) => failedStatus(String(outputs.status)),
    // The API lists a new IP at once, Pending until it is set up.
    appearsWithinMs: 0,
  },
  cost: {
    quote: ipQuote,
    source: 'DescribeBuyHighProtectGameIPPrice',
  },
  importId: {
    format: '<instance_id>/<ip>',
    parse(id) {
      const { instanceId, ip } = parseAntiDdosIpId(id);
      return `${instanceId}/${ip}`;
    },
  },

  async create(ctx, inputs) {
    const { instanceId } = inputs;
    // An IP has no name and no creation time: it is made with a remark carrying the order's
    // token, so that what a create whose answer was lost made is found by it, then given its remark.
    const marker = autoName(ctx.address, ctx.operationToken);
    const recover = async () => {
      const made = await markedWith(ctx, instanceId, marker);
      return made.length === 1 ? { RetCode: 0, DefenceIP: made[0].DefenceIP } : undefined;
    };
    const body = await ctx.client.call<{ DefenceIP?: string }>('CreateBGPServiceIP', { ResourceId: instanceId, Remark: marker }, { ...UADS_CALL, recover });
    if (!body.DefenceIP) throw noId('CreateBGPServiceIP', 'DefenceIP');
    const id = `${instanceId}/${body.DefenceIP}`;
    // Recorded before waiting, so an IP that never settles is still known (and can be deleted).
    ctx.recordId(id);
    const ready = await waitReady(ctx, instanceId, body.DefenceIP);
    await ctx.client.call('SetNapIpRemark', { ResourceId: instanceId, NapIp: body.DefenceIP, Remark: inputs.remark ?? '' }, UADS_CALL);
    return { id, outputs: (await observe(ctx, instanceId, body.DefenceIP)) ?? { ...ready, remark: inputs.remark ?? '' } };
  },

  // What an interrupted create made carries the order's token in its remark, or the remark
  // asked for once it was given it; one not recorded anywhere is taken only when it is alone.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const marker = autoName(ctx.address, ctx.operationToken);
    const all = (await serviceIps(ctx, inputs.instanceId)).filter((g) => !order.recorded(`${inputs.instanceId}/${g.DefenceIP}`));
    const marked = all.filter((g) => g.Remark === marker);
    const found = marked.length ? marked : all.filter((g) => str(g.Remark) === (inputs.remark ?? ''));
    if (found.length > 1)
      throw new AmbiguousOrder(
        `service IP of ${inputs.instanceId}`,
        found.map((g) => `${inputs.instanceId}/${g.DefenceIP}`),
      );
    return found[0] && { id: `${inputs.instanceId}/${found[0].DefenceIP}`, outputs: toOutputs(inputs.instanceId, found[0]) };
  },

  read(ctx, id) {
    const { instanceId, ip } = parseAntiDdosIpId(id);
    return observe(ctx, instanceId, ip);
  },

  // One listing per instance serves every IP of it.
  readMany,

  async list(ctx) {
    const instances = await listServiceInfo(ctx.client);
    const found = [];
    for (const { ResourceId: instanceId } of instances) {
      for (const g of await serviceIps(ctx, instanceId)) {
        const outputs = toOutputs(instanceId, g);
        found.push({ id: outputs.antiDdosIpId, outputs });
      }
    }
    return found;
  },

  async update(ctx, id, _prior, desired) {
    const { instanceId, ip } = parseAntiDdosIpId(id);
    const live = await observe(ctx, instanceId, ip);
    if (!live) throw vanished('anti-DDoS service IP', id);
    const remark = desired.remark ?? '';
    if (remark === live.remark) return live;
    await ctx.client.call('SetNapIpRemark', { ResourceId: instanceId, NapIp: ip, Remark: remark }, UADS_CALL);
    return (await observe(ctx, instanceId, ip)) ?? { ...live, remark };
  },

  async delete(ctx, id) {
    const { instanceId, ip } = parseAntiDdosIpId(id);
    await deleteListed(
      ctx,
      `service IP ${id}`,
      async () => (await observe(ctx, instanceId, ip)) !== undefined,
      () => ctx.client.call('DeleteBGPServiceIP', { ResourceId: instanceId, DefenceIp: ip }, UADS_CALL),
    );
  },
};
