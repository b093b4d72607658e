/**
 * AntiDdosInstance: an anti-DDoS (high-defence) instance in mainland China.
 *
 * Name, bandwidth and defence values change in place; area and data centre force a new
 * instance, and so do chargeType and duration. Those two are not read back (the API reports
 * no duration, and its ChargeType is left out as upstream does): what plumb bought is kept in
 * the outputs, and an imported instance, whose purchase nobody here saw, is taken to have the
 * manifest's, so adopting an existing instance is no change and never forces a new purchase.
 */
import * as z from 'zod';
import { AmbiguousOrder, isRemote, RemoteError, UserError } from '../../kernel/errors.js';
import { describeServiceInfo, listServiceInfo, type ServiceInfo } from '../../providers/cloud/api/anti-ddos.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339 } from '../../providers/cloud/wire.js';
import type { ReplaceRule, ResourceContext, ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, PACE, waitListed } from './kit.js';
import { createAndWait } from './create.js';
import { cloudChange, cloudQuote } from './cost.js';
import { antiDdosPrice } from '../../providers/cloud/api/prices.js';

/** Data centres of each area. */
export const DATA_CENTRES: Record<'EastChina' | 'NorthChina', readonly string[]> = {
  EastChina: ['Zaozhuang', 'Yangzhou', 'Taizhou'],
  NorthChina: ['Shijiazhuang'],
};

const NAME = /^[A-Za-z0-9\p{Script=Han}_-]{1,63}$/u;

/** Inputs of an anti-DDoS instance. */
export const antiDdosInstanceInputs = z
  .object({
    name: z
      .string()
      .regex(NAME, 'name must be 1-63 characters: Chinese characters, letters, digits, - and _')
      .optional()
      .describe('Instance name: 1–63 Chinese characters, letters, digits, `-` or `_`. Default: the resource address plus a suffix unique to the order.'),
    area: z.enum(['EastChina', 'NorthChina']).describe('Area: `EastChina` or `NorthChina`. Required.'),
    dataCenter: z
      .enum(['Zaozhuang', 'Yangzhou', 'Taizhou', 'Shijiazhuang'])
      .describe('Data centre, which must belong to the area: `Zaozhuang`, `Yangzhou` or `Taizhou` for EastChina; `Shijiazhuang` for NorthChina. Required.'),
    bandwidth: z.number().int().min(50).describe('Service bandwidth in Mbps, at least 50. Required.'),
    baseDefenceValue: z.number().int().min(30).describe('Base (guaranteed) defence in Gbps, at least 30. Required.'),
    maxDefenceValue: z.number().int().min(30).describe('Maximum (elastic) defence in Gbps, not less than baseDefenceValue. Required.'),
    chargeType: z
      .enum(['month', 'year'])
      .default('month')
      .describe(
        "Billing period: `month` or `year`. Default `month`. A change from what plumb bought replaces the instance (fixed at purchase). Not read back: after `plumb import` the manifest's value is taken as the instance's.",
      ),
    duration: z
      .number()
      .int()
      .min(0)
      .max(9)
      .default(1)
      .describe(
        "Number of billing periods bought, 0–9. Default 1. A change from what plumb bought replaces the instance (fixed at purchase). Not read back: after `plumb import` the manifest's value is taken as the instance's.",
      ),
  })
  .superRefine(
    (value, ctx) => {
      // Runs even when another field failed, so every problem is reported at once; values
      // that are not plain (Unknown at plan time, or wrong types) are left to their own checks.
      const v = (value ?? {}) as Record<string, unknown>;
      const area = v.area as keyof typeof DATA_CENTRES;
      if (typeof v.dataCenter === 'string' && typeof area === 'string' && DATA_CENTRES[area] && !DATA_CENTRES[area].includes(v.dataCenter)) {
        ctx.addIssue({ code: 'custom', path: ['dataCenter'], message: `data centre ${v.dataCenter} is not in ${area}; valid data centres for ${area}: ${DATA_CENTRES[area].join(', ')}` });
      }
      if (typeof v.baseDefenceValue === 'number' && typeof v.maxDefenceValue === 'number' && v.maxDefenceValue < v.baseDefenceValue) {
        ctx.addIssue({ code: 'custom', path: ['maxDefenceValue'], message: `maxDefenceValue (${v.maxDefenceValue}) must not be less than baseDefenceValue (${v.baseDefenceValue})` });
      }
    },
    { when: () => true },
  );

/** Inputs after defaults. */
export type AntiDdosInstanceInputs = z.output<typeof antiDdosInstanceInputs>;

/** What is read back about an instance, and the purchase terms plumb bought it with (the API reports neither). */
export const antiDdosInstanceOutputs = z.object({
  antiDdosInstanceId: z.string().describe('Instance id, e.g. `usecure_ghp-1a2b3c4d`.'),
  name: z.string().describe('Instance name.'),
  area: z.string().describe('Area.'),
  dataCenter: z.string().describe('Data centre.'),
  bandwidth: z.number().describe('Service bandwidth, Mbps.'),
  baseDefenceValue: z.number().describe('Base defence, Gbps.'),
  maxDefenceValue: z.number().describe('Maximum defence, Gbps.'),
  createTime: z.string().describe('When it was bought (RFC 3339).'),
  expireTime: z.string().describe('When it expires (RFC 3339).'),
  status: z.string().describe('`Started`, `Stopped` (defence turned off) or `Expired`.'),
  chargeType: z.enum(['month', 'year']).optional().describe('Billing period it was bought with by plumb; absent for an imported instance (the API does not report it).'),
  duration: z.number().optional().describe('Billing periods it was bought for by plumb; absent for an imported instance (the API does not report it).'),
});

/** Observed instance. */
export type AntiDdosInstanceOutputs = z.output<typeof antiDdosInstanceOutputs>;

type Ctx = ResourceContext<CloudClient, CloudSettings>;

/** What the API reports, in output form; an instance without data centre or defence values is an API fault. */
function toOutputs(info: ServiceInfo): AntiDdosInstanceOutputs {
  const room = info.EngineRoom?.[0];
  const base = info.DefenceDDosBaseFlowArr?.[0];
  const max = info.DefenceDDosMaxFlowArr?.[0];
  if (room === undefined || base === undefined || max === undefined) {
    throw new RemoteError('invalid', `anti-DDoS instance ${info.ResourceId}: the API reported no data centre or defence values`, { provider: 'cloud' });
  }
  return {
    antiDdosInstanceId: info.ResourceId,
    name: info.Name,
    area: info.AreaLine,
    dataCenter: room,
    bandwidth: info.SrcBandwidth,
    baseDefenceValue: Number(base),
    maxDefenceValue: Number(max),
    createTime: rfc3339(info.CreateTime),
    expireTime: rfc3339(info.ExpiredTime),
    status: info.DefenceStatus,
  };
}

/** The purchase terms, which the API does not report. */
const PURCHASE = ['chargeType', 'duration'] as const;

/** The purchase terms of an order that leaves them out. */
const PURCHASE_DEFAULTS = { chargeType: 'month', duration: 1 } as const;

/** What the API reports, with the purchase terms plumb bought it with when they are known. */
function boughtWith(seen: AntiDdosInstanceOutputs, prior: Partial<AntiDdosInstanceOutputs> | undefined): AntiDdosInstanceOutputs {
  const out = { ...seen };
  if (prior?.chargeType !== undefined) out.chargeType = prior.chargeType;
  if (prior?.duration !== undefined) out.duration = prior.duration;
  return out;
}

/** What the API reports, with the purchase terms of the order that bought it (the defaults when left out). */
function orderedWith(seen: AntiDdosInstanceOutputs, inputs: Partial<AntiDdosInstanceInputs>): AntiDdosInstanceOutputs {
  return { ...seen, chargeType: inputs.chargeType ?? PURCHASE_DEFAULTS.chargeType, duration: inputs.duration ?? PURCHASE_DEFAULTS.duration };
}

/** Every instance of the project. */
function allInstances(ctx: Ctx): Promise<ServiceInfo[]> {
  return listServiceInfo(ctx.client);
}

/** Reads one instance; undefined when the API lists nothing for the id (that is how it says "gone"). */
async function describe(ctx: Ctx, id: string): Promise<AntiDdosInstanceOutputs | undefined> {
  const info = await describeServiceInfo(ctx.client, id);
  return info ? toOutputs(info) : undefined;
}

/** Sizing parameters shared by buy and upgrade (defence values go as strings, as the API wants). */
function sizing(inputs: { area: string; dataCenter: string; bandwidth: number; baseDefenceValue: number; maxDefenceValue: number }) {
  return {
    AreaLine: inputs.area,
    EngineRoom: [inputs.dataCenter],
    SrcBandwidth: inputs.bandwidth,
    DefenceDDosBaseFlowArr: [String(inputs.baseDefenceValue)],
    DefenceDDosMaxFlowArr: [String(inputs.maxDefenceValue)],
    LineType: 'BGP',
    DefenceType: 'TypeDynamic',
  };
}

/**
 * A default name: the address, limited to the characters and length the API accepts, and the
 * start of the order's operation token, so that an instance bought by an interrupted create can
 * be found by its name (see findOwned).
 */
function autoName(address: string, operationToken: string): string {
  const base = address.replace(/[^A-Za-z0-9\p{Script=Han}_-]/gu, '-').slice(0, 54) || 'anti-ddos';
  return `${base}-${operationToken.replace(/[^0-9a-f]/g, '').slice(0, 8)}`;
}

/** The AntiDdosInstance resource type. */
export const antiDdosInstance: ResourceType<AntiDdosInstanceInputs, AntiDdosInstanceOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/antiDdosInstance:AntiDdosInstance',
  provider: 'cloud',
  description: 'An anti-DDoS (high-defence) instance in mainland China, bought for a number of months or years.',
  inputs: antiDdosInstanceInputs,
  outputs: antiDdosInstanceOutputs,
  diff: {
    // A change the recorded purchase says nothing about (an imported instance's term, left out
    // of the manifest, then written) is only recorded: there is nothing to send.
    recordOnly: ['chargeType', 'duration'],
    // What was bought, where the inputs leave it out, is in the outputs, and one plumb bought
    // without them was bought with the defaults (month, 1); an imported instance, whose purchase
    // the API does not report, is taken to have the manifest's terms.
    asDeclared: (recorded, outputs, desired, origin) => {
      const terms: Record<string, unknown> = {};
      for (const key of PURCHASE) {
        if (recorded[key] !== undefined || desired[key] === undefined) continue;
        terms[key] = outputs[key] ?? (origin?.imported ? desired[key] : PURCHASE_DEFAULTS[key]);
      }
      return Object.keys(terms).length ? { ...recorded, ...terms } : recorded;
    },
    computedInputs: ['name'],
    remoteManaged: ['createTime', 'expireTime', 'status'],
  },
  replace: {
    on: [
      { path: 'area', reason: 'an instance cannot move to another area' },
      { path: 'dataCenter', reason: 'an instance cannot move to another data centre' },
    ],
    when: {
      inputs: ['chargeType', 'duration'],
      rules(prior, desired): ReplaceRule[] {
        // chargeType and duration are fixed at purchase but not read back: a change from what plumb
        // bought means something; an imported instance has the manifest's (see asDeclared).
        const decisions: ReplaceRule[] = [];
        if (prior.chargeType !== undefined && desired.chargeType !== undefined && prior.chargeType !== desired.chargeType) {
          decisions.push({ path: 'chargeType', reason: 'the billing period is fixed when the instance is bought' });
        }
        if (prior.duration !== undefined && desired.duration !== undefined && prior.duration !== desired.duration) {
          decisions.push({ path: 'duration', reason: 'the purchase duration is fixed when the instance is bought' });
        }
        return decisions;
      },
    },
  },
  provisioning: {
    // The API lists a bought instance only once it is provisioned.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: {
    quote: (inputs, ctx) => {
      const { DefenceType: _type, ...size } = sizing(inputs);
      return cloudQuote(ctx, antiDdosPrice, inputs.chargeType, { ...size, SrcBandwidth: String(inputs.bandwidth) });
    },
    source: 'GetBuyNapServicePrice',
    // Bought by the month or year, so always prepaid; the resize is priced with the recorded area
    // and data centre (they cannot change in place).
    async change(prior, desired, ctx) {
      const resized = desired.bandwidth !== prior.outputs.bandwidth || desired.baseDefenceValue !== prior.outputs.baseDefenceValue || desired.maxDefenceValue !== prior.outputs.maxDefenceValue;
      if (!resized) return undefined;
      const { DefenceType: _type, ...size } = sizing({ ...desired, area: prior.outputs.area, dataCenter: prior.outputs.dataCenter });
      return cloudChange(ctx, 'DescribeUpgradeHighProtectGameServicePrice', { ResourceId: prior.id, ...size });
    },
  },
  importId: {
    format: '<instance_id>',
    parse(id) {
      const trimmed = id.trim();
      if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(trimmed)) {
        throw new UserError(`invalid anti-DDoS instance id "${id}": expected <instance_id>, e.g. usecure_ghp-1a2b3c4d`);
      }
      return trimmed;
    },
  },

  // A buy is never sent again blindly, which could buy (and bill) a second instance: after a
  // failure it may have carried out, the client first looks for the instance it bought. Its id
  // is recorded before waiting: a timeout or crash must leave the bought instance in state.
  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'anti-DDoS instance',
      action: 'BuyHighProtectGameService',
      params: {
        HighProtectGameServiceName: inputs.name ?? autoName(ctx.address, ctx.operationToken),
        ...sizing(inputs),
        ChargeType: inputs.chargeType === 'year' ? 'Year' : 'Month',
        Quantity: inputs.duration,
      },
      idAt: 'ResourceInfo.ResourceId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => antiDdosInstance.findOwned!(ctx, inputs, order),
      async settle(id) {
        ctx.log.info({ id }, 'anti-DDoS instance bought');
        return orderedWith(await waitListed(ctx, `anti-DDoS instance ${id}`, () => describe(ctx, id)), inputs);
      },
    }),

  async read(ctx, id, prior) {
    const seen = await describe(ctx, id);
    return seen && boughtWith(seen, prior?.outputs);
  },

  // The describe takes one ResourceId or none, never a list: every instance is read from the
  // project's listing, a page of 100 per call, shared by every read of the pass. An instance of
  // another project is not in it and is read alone, as is one the API reports incompletely (so
  // its own read says what is wrong with it, and the others are not held up).
  async readMany(ctx, targets) {
    const listed = new Map((await ctx.shared('anti-ddos-instances', () => allInstances(ctx))).map((info) => [info.ResourceId, info]));
    const found = new Map<string, AntiDdosInstanceOutputs>();
    for (const { id, prior } of targets) {
      const info = listed.get(id);
      if (!info?.EngineRoom?.length || !info.DefenceDDosBaseFlowArr?.length || !info.DefenceDDosMaxFlowArr?.length) continue;
      found.set(id, boughtWith(toOutputs(info), prior?.outputs));
    }
    return found;
  },

  async list(ctx) {
    return (await allInstances(ctx)).map((info) => ({ id: info.ResourceId, outputs: toOutputs(info) }));
  },

  // An instance carries no tags. One plumb named carries its order's token in the name, so
  // after an interrupted create the instance of that name is the one bought. One named in the
  // manifest is the instance of that name, area and data centre bought since the order was
  // journaled that state does not already hold, when there is just one: with several, none is
  // taken for it, and the run stops naming them all.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const all = await allInstances(ctx);
    if (inputs.name === undefined) {
      const info = all.find((i) => i.Name === autoName(ctx.address, ctx.operationToken));
      return info && { id: info.ResourceId, outputs: orderedWith(toOutputs(info), inputs) };
    }
    const bought = all.filter(
      (i) => i.Name === inputs.name && i.AreaLine === inputs.area && i.EngineRoom?.[0] === inputs.dataCenter && i.CreateTime * 1000 >= order.earliestMs && !order.recorded(i.ResourceId),
    );
    if (bought.length > 1)
      throw new AmbiguousOrder(
        `anti-DDoS instance named "${inputs.name}"`,
        bought.map((i) => `${i.ResourceId} (bought ${rfc3339(i.CreateTime)})`),
      );
    return bought[0] && { id: bought[0].ResourceId, outputs: orderedWith(toOutputs(bought[0]), inputs) };
  },

  async update(ctx, id, prior, desired) {
    const live = await describe(ctx, id);
    if (!live) throw new RemoteError('not-found', `anti-DDoS instance ${id} no longer exists`, { provider: 'cloud' });
    if (desired.name !== undefined && desired.name !== live.name) {
      await ctx.client.call('ModifyHighProtectGameService', { ResourceId: id, HighProtectGameServiceName: desired.name });
    }
    const resized = desired.bandwidth !== live.bandwidth || desired.baseDefenceValue !== live.baseDefenceValue || desired.maxDefenceValue !== live.maxDefenceValue;
    if (resized) {
      // Upgrade takes the whole sizing, with the live area and data centre (they cannot change here).
      await ctx.client.call('UpgradeHighProtectGameService', { ResourceId: id, ...sizing({ ...desired, area: live.area, dataCenter: live.dataCenter }) });
    }
    const after = await describe(ctx, id);
    if (!after) throw new RemoteError('not-found', `anti-DDoS instance ${id} disappeared during the update`, { provider: 'cloud' });
    return boughtWith(after, prior.outputs);
  },

  async delete(ctx, id) {
    if (!(await describe(ctx, id))) return;
    try {
      await ctx.client.call('DeleteHighProtectGameService', { ResourceId: id });
    } catch (err) {
      // Someone else may have deleted it between the read and the call.
      if (!isRemote(err, 'not-found', 'invalid') || (await describe(ctx, id))) throw err;
      return;
    }
    await ctx.wait(`anti-DDoS instance ${id} to be deleted`, async () => ((await describe(ctx, id)) ? { done: false, status: 'Deleting' } : { done: true, value: undefined }), PACE);
  },
};
