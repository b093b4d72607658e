import * as z from 'zod';
import { UserError } from '../../kernel/errors.js';
import type { ApiEnd } from '../../providers/interconnect/api/vxc-view.js';
import type { Ctx } from './kit.js';
import type { PartnerConfig } from './vxc-partner-config.js';

/**
 * The two ends of a VXC: the input shape, what the API reports about an end, and how an observed
 * end is expressed in input terms so that values the API fills in (an allocated VLAN, a B-End
 * found by service key) never show as changes.
 */

const vlanSchema = z
  .number()
  .int()
  .min(-1)
  .max(4093)
  .refine((v) => v !== 1, { message: 'VLAN 1 is reserved; use 2 to 4093, -1 (untagged) or 0 (allocate)' });

const endFields = {
  vlan: vlanSchema.optional().describe('VLAN at this end: 2 to 4093, -1 for untagged; omitted or 0 = allocated by the API. Changed in place, except at a cloud partner end (replace).'),
  innerVlan: z
    .number()
    .int()
    .min(-1)
    .max(4093)
    .refine((v) => v !== 0 && v !== 1, { message: 'innerVlan must be 2 to 4093, or -1 for none' })
    .optional()
    .describe('Inner (QinQ) VLAN: 2 to 4093, or -1 for none (the default).'),
  vnicIndex: z.number().int().min(0).optional().describe('vNIC of an MVE end, 0 (the default) to one less than its vNICs; plan refuses another at an end that is not an MVE.'),
};

/** The A-End as the user declares it. */
export const aEndSchema = z
  .object({
    requestedProductUid: z.string().min(1).describe('UID of the Port, MCR or MVE the VXC starts from.'),
    ...endFields,
  })
  .strict();

/** The B-End as the user declares it; the product may be found from a service key or a cloud key instead. */
export const bEndSchema = z
  .object({
    requestedProductUid: z
      .string()
      .min(1)
      .optional()
      .describe('UID of the product or partner port the VXC goes to. Optional with serviceKey or an azure/google/oracle partner config (the port is then looked up).'),
    ...endFields,
  })
  .strict();

/** One declared end. */
export type VxcEndInput = z.infer<typeof bEndSchema>;

/**
 * An observed end in input terms. After an import (no prior) everything set is reported. Otherwise
 * a field the prior left to the API (requested UID, VLAN, vNIC) is reported only if the prior had
 * it, so an allocated value is never a change; an untagged end reads as -1, and an inner VLAN the
 * API no longer has is left out, which shows as a change when one is wanted.
 */
export function observedEnd(api: ApiEnd | undefined, prior: VxcEndInput | undefined, imported: boolean): VxcEndInput | undefined {
  if (!api?.productUid || (!imported && !prior)) return undefined;
  const vlanNow = api.vlan === null || api.vlan === undefined ? -1 : api.vlan;
  const inner = api.innerVlan ? api.innerVlan : undefined;
  const vnic = typeof api.vNicIndex === 'number' ? api.vNicIndex : undefined;
  if (imported || !prior) {
    const out: VxcEndInput = { requestedProductUid: api.productUid, vlan: vlanNow };
    if (inner !== undefined) out.innerVlan = inner;
    if (vnic !== undefined) out.vnicIndex = vnic;
    return out;
  }
  const out = {} as VxcEndInput;
  if (prior.requestedProductUid !== undefined) out.requestedProductUid = api.productUid;
  if (prior.vlan !== undefined) out.vlan = prior.vlan === 0 ? 0 : vlanNow;
  if (inner !== undefined) out.innerVlan = inner;
  else if (prior.innerVlan === -1) out.innerVlan = -1;
  if (prior.vnicIndex !== undefined) out.vnicIndex = vnic ?? prior.vnicIndex;
  return out;
}

/** The end object of an order: 0/unset values left out, as the API reads a missing key as "allocate" or "none". */
export function orderEnd(end: VxcEndInput | undefined, productUid: string, partnerConfig?: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { productUid };
  if (end?.vlan) out.vlan = end.vlan;
  if (end?.innerVlan && end.innerVlan > 0) out.innerVlan = end.innerVlan;
  if (end?.vnicIndex !== undefined) out.vNicIndex = end.vnicIndex;
  if (partnerConfig) out.partnerConfig = partnerConfig;
  return out;
}

type KeyLookup = { productUid: string };
type CspLookup = { megaports?: Array<{ productUid: string; type?: string; vxc?: number | null; portSpeed?: number }> };

/**
 * The B-End to order to: the service key's port when a key is given (warning if it overrides a
 * different requested UID), else the requested UID, else the port an azure/google/oracle key
 * names (azure: the port of the chosen type; google/oracle: the first free port fast enough).
 */
export async function resolveBEnd(
  ctx: Pick<Ctx, 'client' | 'warn'>,
  requested: string | undefined,
  serviceKey: string | undefined,
  cfg: PartnerConfig | undefined,
  rateLimit: number,
): Promise<string> {
  if (serviceKey) {
    const { data } = await ctx.client.get<KeyLookup>('/v2/service/key', { key: serviceKey });
    if (requested && requested !== data.productUid) ctx.warn(`the service key belongs to port ${data.productUid}, which replaces the requested B-End ${requested}`);
    return data.productUid;
  }
  if (requested) return requested;
  const key = cfg?.partner === 'azure' ? cfg.serviceKey : cfg?.partner === 'google' ? cfg.pairingKey : cfg?.partner === 'oracle' ? cfg.virtualCircuitId : undefined;
  if (!cfg || key === undefined) {
    throw new UserError('bEnd.requestedProductUid is required', 'or give serviceKey, or an azure, google or oracle bEndPartnerConfig whose key finds the port');
  }
  const { data } = await ctx.client.get<CspLookup>(`/v2/secure/${cfg.partner}/${encodeURIComponent(key)}`);
  const ports = data?.megaports ?? [];
  const found = cfg.partner === 'azure' ? ports.find((p) => p.type === (cfg.portChoice ?? 'primary')) : ports.find((p) => !p.vxc && (p.portSpeed ?? 0) >= rateLimit);
  if (!found) throw new UserError(`there are no available ${cfg.partner} ports for this key to connect to`, 'check the key, or set bEnd.requestedProductUid');
  return found.productUid;
}
