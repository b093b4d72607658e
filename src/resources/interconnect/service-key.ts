import * as z from 'zod';
import { AmbiguousOrder, RemoteError, UserError, isRemote } from '../../kernel/errors.js';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { GONE } from '../../providers/interconnect/api/products.js';
import { isoDate } from '../../providers/interconnect/api/views.js';
import type { Ctx } from './kit.js';
import { defaultsAsDeclared } from '../as-declared.js';
import { reveal } from '../../kernel/values.js';

/** When a key may be used: RFC 3339 / ISO 8601 timestamps with a zone. */
const validForSchema = z
  .object({
    startTime: z.iso.datetime({ offset: true }).describe('Start of the validity window, ISO 8601 with a zone, e.g. 2026-01-01T00:00:00Z.'),
    endTime: z.iso.datetime({ offset: true }).describe('End of the validity window, ISO 8601 with a zone; after startTime.'),
  })
  .strict();

/** The fields of a service key, shared by its inputs and outputs. */
const serviceKeyFields = z
  .object({
    productUid: z.string().min(1).describe('UID of the port the key connects to.'),
    active: z.boolean().describe('true = the key can be used now; false = it is kept but refused.'),
    maxSpeed: z.number().int().positive().describe('Highest rate limit, in Mbps, a VXC made with the key may have; at most the port speed.'),
    singleUse: z.boolean().describe('true = the key makes one connection; false = any number.'),
    vlan: z.number().int().min(2).max(4093).optional().describe('VLAN, 2 to 4093, the connection gets on the port. Required when singleUse is true; omit it for a multi-use key.'),
    description: z.string().optional().describe('Description shown to the other party. Default: none.'),
    preApproved: z.boolean().optional().describe('true = connections made with the key need no approval. The API sets false when omitted.'),
    validFor: validForSchema.optional().describe('Validity window {startTime, endTime} (sent as epoch milliseconds). Default: always valid; once set, leaving it out keeps the window.'),
  })
  .strict();

/** Inputs of a service key: a shareable token that lets another company connect a VXC to one of your ports. */
export const serviceKeyInputs = serviceKeyFields.superRefine(
  (value, ctx) => {
    // Only a plain `singleUse: true` can require a VLAN; an Unknown or mistyped value has its own check.
    const v = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    if (v.singleUse === true && v.vlan === undefined) {
      ctx.addIssue({ code: 'custom', path: ['vlan'], message: 'required when singleUse is true (a VLAN from 2 to 4093)' });
    }
    const window = v.validFor as { startTime?: unknown; endTime?: unknown } | undefined;
    if (typeof window?.startTime === 'string' && typeof window.endTime === 'string' && Date.parse(window.endTime) <= Date.parse(window.startTime)) {
      ctx.addIssue({ code: 'custom', path: ['validFor', 'endTime'], message: 'endTime must be after startTime' });
    }
  },
  { when: () => true },
);

/** Everything a key exposes: its inputs as the API reports them, the key itself (secret) and its state. */
export const serviceKeyOutputs = serviceKeyFields.extend({
  key: z.string().describe('The service key value (secret), shared with the other party; also the resource id.'),
  companyId: z.number().optional().describe('Numeric id of the company that owns the key.'),
  companyUid: z.string().optional().describe('UID of the company that owns the key.'),
  createDate: z.string().optional().describe('When the key was created (RFC 3339, set by the API).'),
  lastUpdated: z.string().optional().describe('When the key last changed (RFC 3339, set by the API).'),
  lastUsed: z.string().optional().describe('When the key was last used to order a VXC (RFC 3339, set by the API).'),
  expired: z.boolean().optional().describe('true once the validity window has ended.'),
  valid: z.boolean().optional().describe('true when the key can be used to order a VXC now.'),
});

type ServiceKeyInputs = z.infer<typeof serviceKeyInputs>;
type ServiceKeyOutputs = z.infer<typeof serviceKeyOutputs>;

/** A service key as `/v2/service/key` returns it (the fields plumb reads). */
type ApiKey = Record<string, any> & { key: string; active: boolean };

/** A service key on a port. The id is the key value; there is no delete, so deleting deactivates it. */
export const serviceKey: ResourceType<ServiceKeyInputs, ServiceKeyOutputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/serviceKey:ServiceKey',
  provider: 'interconnect',
  description:
    'A service key for one of your ports, which another company uses to order a VXC to it. Deleting deactivates the key (the API has no delete); an inactive key counts as deleted only when nothing recorded says it exists.',
  inputs: serviceKeyInputs,
  outputs: serviceKeyOutputs,
  secrets: {
    paths: ['key'],
    id: true,
  },
  diff: {
    computedInputs: ['preApproved', 'validFor'],
    asDeclared: (recorded, _outputs, desired) => {
      // A key without a VLAN may come back with 0, which is what leaving it out means; the same
      // window written another way (offset, fractions) is the manifest's.
      const out = defaultsAsDeclared(recorded, desired, { vlan: 0 });
      const window = out.validFor;
      return window && desired.validFor && window !== desired.validFor && sameWindow(reveal(window), reveal(desired.validFor)) ? { ...out, validFor: desired.validFor } : out;
    },
    remoteManaged: ['key', 'companyId', 'companyUid', 'createDate', 'lastUpdated', 'lastUsed', 'expired', 'valid'],
  },
  replace: {
    on: [
      { path: 'productUid', reason: 'a key cannot move to another port' },
      { path: 'maxSpeed', reason: 'the API sets the speed of a key only when creating it' },
      { path: 'singleUse', reason: 'the API sets single or multiple use only when creating a key' },
      { path: 'description', reason: 'the API sets the description only when creating a key' },
      { path: 'vlan', reason: 'the API sets the VLAN only when creating a key' },
      { path: 'preApproved', reason: 'the API sets pre-approval only when creating a key' },
    ],
  },
  cost: { unpriced: 'not billed on its own: a service key is free; the VXC made with it is priced' },
  importId: { format: '<service_key>', parse: parseKey },

  async create(ctx, inputs) {
    const body = {
      productUid: inputs.productUid,
      singleUse: inputs.singleUse,
      maxSpeed: inputs.maxSpeed,
      active: inputs.active,
      ...(inputs.preApproved !== undefined ? { preApproved: inputs.preApproved } : {}),
      ...(inputs.description ? { description: inputs.description } : {}),
      ...(inputs.vlan !== undefined ? { vlan: inputs.vlan } : {}),
      ...(inputs.validFor ? { validFor: toWindow(inputs.validFor) } : {}),
    };
    // The keys already on the port, so that after a lost answer the one this order made stands out.
    const before = new Set((await keysOn(ctx, inputs.productUid)).map((k) => k.key));
    const recover = async () => {
      const made = (await keysOn(ctx, inputs.productUid)).filter((k) => !before.has(k.key) && sameKey(k, inputs));
      if (made.length > 1) {
        // Another order made a key of the same kind meanwhile and which is this order's is not
        // known: the create is left for the next plan to settle, never sent again.
        throw new Error(`${made.length} new active service keys on ${inputs.productUid} match this order (created ${made.map((k) => isoDate(k.createDate)).join(', ')})`);
      }
      return made[0] && { message: 'found after a lost answer', data: made[0] };
    };
    const { data } = await ctx.client.post<ApiKey>('/v2/service/key', body, undefined, { recover });
    // Accepted without the key: one may exist, so the create is left for the next plan to find.
    if (!data?.key) throw new RemoteError('unavailable', 'POST /v2/service/key: the answer carried no key, so whether one was made is not known', { provider: 'interconnect' });
    ctx.recordId(data.key);
    return { id: data.key, outputs: toOutputs(data, inputs) };
  },

  async read(ctx, id, prior) {
    const found = await getKey(ctx, id);
    if (!found) return undefined;
    // Deleting only deactivates: with nothing recorded (an import, a check after delete) an
    // inactive key is a deleted one; a recorded key someone deactivated is reported as such.
    if (!found.active && !prior) return undefined;
    return toOutputs(found, prior?.inputs);
  },

  // One call lists every key of the account (reference §7: no paging); a key it does not list is read by id.
  async readMany(ctx, targets) {
    const keys = await ctx.shared('service-keys', async () => (await ctx.client.get<ApiKey[]>('/v2/service/key')).data ?? []);
    const byKey = new Map(keys.map((k) => [k.key, k]));
    const out = new Map<string, ServiceKeyOutputs | undefined>();
    for (const target of targets) {
      const found = byKey.get(target.id);
      if (found) out.set(target.id, !found.active && !target.prior ? undefined : toOutputs(found, target.prior?.inputs));
    }
    return out;
  },

  async update(ctx, id, prior, desired) {
    const body: Record<string, unknown> = { key: id, productUid: desired.productUid, singleUse: desired.singleUse, active: desired.active };
    if (desired.validFor && !sameWindow(desired.validFor, prior.inputs.validFor)) body.validFor = toWindow(desired.validFor);
    const { data } = await ctx.client.put<ApiKey>('/v2/service/key', body);
    const observed = data?.key === id ? data : await getKey(ctx, id);
    if (!observed) throw new Error(`service key ${id} disappeared while it was being updated`);
    return toOutputs(observed, desired);
  },

  async delete(ctx, id) {
    const found = await getKey(ctx, id);
    if (!found || !found.active) return;
    // A key dies with its port; the API refuses changes to a key whose port is gone.
    const port = found.productDto as { provisioningStatus?: string } | null | undefined;
    if (!port || GONE.includes(String(port.provisioningStatus)) || port.provisioningStatus === 'CANCELLED') return;
    try {
      await ctx.client.put('/v2/service/key', { key: id, productUid: found.productUid, singleUse: found.singleUse, active: false });
    } catch (err) {
      if (!isRemote(err, 'not-found')) throw err;
    }
  },

  async list(ctx) {
    const { data } = await ctx.client.get<ApiKey[]>('/v2/service/key');
    return (data ?? []).filter((k) => k.active).map((k) => ({ id: k.key, outputs: toOutputs(k) }));
  },

  // A key carries no tags. The one an interrupted create made is the only key of its kind
  // (sameKey) on that port created since the order began that state does not already hold.
  // With several, none is taken for it: the run stops saying when each was made (never its
  // value), since each works until it is deactivated.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const made = (await keysOn(ctx, inputs.productUid)).filter((k) => sameKey(k, inputs) && Number(k.createDate) >= order.earliestMs && !order.recorded(k.key));
    if (made.length > 1) {
      throw new AmbiguousOrder(
        `active service key on ${inputs.productUid}`,
        made.map((k) => `one made at ${isoDate(k.createDate)}`),
        'plumb import --discover interconnect:index/serviceKey:ServiceKey --out FILE writes their keys to FILE; deactivate the ones not needed (each works until then)',
      );
    }
    return made[0] && { id: made[0].key, outputs: toOutputs(made[0], inputs) };
  },
};

/** A service key import id: the key value, a UUID. */
export function parseKey(id: string): string {
  const trimmed = id.trim();
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(trimmed)) {
    throw new UserError(`invalid import id "${id}": expected <service_key>, the key value, e.g. e19de6a6-5354-4b9a-a957-3a4e0caa1513`);
  }
  return trimmed;
}

/** The keys of one port. */
async function keysOn(ctx: Ctx, productUid: string): Promise<ApiKey[]> {
  const { data } = await ctx.client.get<ApiKey[]>('/v2/service/key', { productIdOrUid: productUid });
  return data ?? [];
}

/**
 * Whether an active key is of the kind these inputs order: same use and VLAN (a key without a
 * VLAN may come back with 0). The API's echo of speed and description is unreliable, so they are
 * not compared.
 */
function sameKey(k: ApiKey, inputs: ServiceKeyInputs): boolean {
  return k.active && Boolean(k.singleUse) === inputs.singleUse && (k.vlan || undefined) === inputs.vlan;
}

/** One key by value; undefined when the API does not know it. */
async function getKey(ctx: Ctx, key: string): Promise<ApiKey | undefined> {
  try {
    const { data } = await ctx.client.get<ApiKey | ApiKey[]>('/v2/service/key', { key });
    // The API answers one object; tolerate a one-element list.
    const found = Array.isArray(data) ? data.find((k) => k.key === key) : data;
    return found?.key === key ? found : undefined;
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

function toWindow(v: { startTime: string; endTime: string }): { start: number; end: number } {
  return { start: Date.parse(v.startTime), end: Date.parse(v.endTime) };
}

function sameWindow(a: { startTime: string; endTime: string } | undefined, b: { startTime: string; endTime: string } | undefined): boolean {
  if (!a || !b) return a === b;
  if (typeof a.startTime !== 'string' || typeof b.startTime !== 'string') return false;
  return Date.parse(a.startTime) === Date.parse(b.startTime) && Date.parse(a.endTime) === Date.parse(b.endTime);
}

/** An API instant as RFC 3339 in UTC, fractions of a second only when there are any (as a manifest writes it). */
function instant(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function toOutputs(k: ApiKey, inputs?: Partial<ServiceKeyInputs>): ServiceKeyOutputs {
  const window = k.validFor && typeof k.validFor.start === 'number' && typeof k.validFor.end === 'number' ? { startTime: instant(k.validFor.start), endTime: instant(k.validFor.end) } : undefined;
  return {
    productUid: k.productUid,
    active: Boolean(k.active),
    // The API's echo of maxSpeed (sometimes the port speed) and description (sometimes empty) is
    // unreliable: what was asked for is kept.
    maxSpeed: inputs?.maxSpeed ?? k.maxSpeed,
    singleUse: Boolean(k.singleUse),
    vlan: k.vlan ?? undefined,
    description: inputs ? inputs.description : k.description || undefined,
    preApproved: k.preApproved ?? undefined,
    // The same instants written another way (offset, fractions) are no change.
    validFor: window && inputs?.validFor && sameWindow(window, inputs.validFor) ? inputs.validFor : window,
    key: k.key,
    companyId: k.companyId ?? undefined,
    companyUid: k.companyUid ?? undefined,
    createDate: isoDate(k.createDate),
    lastUpdated: isoDate(k.lastUpdated),
    lastUsed: isoDate(k.lastUsed),
    expired: k.expired ?? undefined,
    valid: k.valid ?? undefined,
  };
}
