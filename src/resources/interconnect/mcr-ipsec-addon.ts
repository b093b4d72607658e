import * as z from 'zod';
import { RemoteError, UserError, isRemote } from '../../kernel/errors.js';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { oneOf } from '../schema.js';
import { readProduct, type ApiProduct } from '../../providers/interconnect/api/products.js';
import { type Ctx, readListed, retryWithin, sharedProduct, splitId, waitReady } from './kit.js';
import { PRICEBOOK, pricebookQuote } from './cost.js';
import { knownBeforeApply } from '../quote.js';

/** Tunnel counts an IPsec add-on can allow. */
export const TUNNEL_COUNTS = [10, 20, 30] as const;

/** Inputs of the IPsec add-on of an MCR. */
export const mcrIpsecAddonInputs = z
  .object({
    mcrId: z.string().min(1).describe('Product UID of the MCR.'),
    tunnelCount: oneOf(TUNNEL_COUNTS, 'Most IPsec tunnels the MCR may carry: 10, 20 or 30.'),
  })
  .strict();

/** The add-on as it is now, plus its UID. */
export const mcrIpsecAddonOutputs = mcrIpsecAddonInputs.extend({
  addOnUid: z.string().describe('UID the API gave the add-on.'),
});

type Inputs = z.infer<typeof mcrIpsecAddonInputs>;
type Outputs = z.infer<typeof mcrIpsecAddonOutputs>;
type ApiAddOn = { addOnUid: string; addOnType: string; tunnelCount: number };

const FORMAT = '<mcr_uid>:<add_on_uid>';
const EXAMPLE = '11111111-1111-1111-1111-111111111111:22222222-2222-2222-2222-222222222222';

function parseId(id: string): { mcrUid: string; addOnUid: string } {
  const [mcrUid, addOnUid] = splitId(id, FORMAT, EXAMPLE);
  return { mcrUid, addOnUid };
}

function ipsecAddOns(mcr: ApiProduct): ApiAddOn[] {
  return ((mcr.addOns ?? []) as ApiAddOn[]).filter((a) => String(a.addOnType).toUpperCase() === 'IP_SEC');
}

function addOnPath(mcrUid: string, addOnUid?: string): string {
  return `/v3/product/${encodeURIComponent(mcrUid)}/addon${addOnUid ? `/${encodeURIComponent(addOnUid)}` : ''}`;
}

/**
 * The API refuses to lower the limit below the tunnels still configured on the MCR's VXCs (the
 * client classifies it as a conflict); those tunnels go away as the VXCs that carry them are
 * changed or deleted, so this refusal is worth waiting for.
 */
function tunnelsStillConfigured(err: unknown): boolean {
  return isRemote(err, 'conflict');
}

/** The IPsec add-on of an MCR. Its id is `<mcr_uid>:<add_on_uid>`. */
export const mcrIpsecAddon: ResourceType<Inputs, Outputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/mcrIpsecAddon:McrIpsecAddon',
  provider: 'interconnect',
  description: 'The IPsec add-on of an MCR, which allows VXC interfaces of type ipSecTunnel. Removed by setting its tunnel count to 0 once no tunnel uses it.',
  inputs: mcrIpsecAddonInputs,
  outputs: mcrIpsecAddonOutputs,
  diff: {
    remoteManaged: ['addOnUid'],
  },
  replace: {
    on: [{ path: 'mcrId', reason: 'an add-on belongs to one MCR and cannot move' }],
    // An MCR holds one IPsec add-on: replaced on the same MCR (--replace), the old one goes first.
    holds: [{ what: 'IPsec add-on of an MCR', paths: ['mcrId'] }],
  },
  cost: {
    source: PRICEBOOK,
    // Billed as an add-on charge on its MCR: what the MCR costs with these tunnels less what it costs without.
    async quote(inputs, ctx) {
      knownBeforeApply({ mcrId: inputs.mcrId });
      const mcr = await ctx.shared(`price:product:${inputs.mcrId}`, () => readProduct(ctx.client, inputs.mcrId));
      if (!mcr) throw new UserError(`the MCR ${inputs.mcrId} is not a product of the account, so its add-on cannot be priced`);
      const body = { productType: 'MCR2', locationId: mcr.locationId, speed: mcr.portSpeed, term: mcr.contractTermMonths };
      const [without, withTunnels] = await Promise.all([pricebookQuote(ctx, body), pricebookQuote(ctx, { ...body, addOns: [{ addOnType: 'IP_SEC', tunnelCount: inputs.tunnelCount }] })]);
      const monthly = Math.round((withTunnels.monthly - without.monthly) * 100) / 100;
      return { monthly, oneOff: withTunnels.oneOff - without.oneOff, currency: withTunnels.currency, basis: "the IP_SEC add-on charge on its MCR's price" };
    },
  },
  importId: {
    format: FORMAT,
    parse(id) {
      const { mcrUid, addOnUid } = parseId(id);
      return `${mcrUid}:${addOnUid}`;
    },
  },

  async create(ctx, inputs) {
    const mcr = await readProduct(ctx.client, inputs.mcrId);
    if (!mcr) throw new UserError(`MCR ${inputs.mcrId} does not exist (or is being cancelled); an IPsec add-on needs a live MCR`);
    const existing = ipsecAddOns(mcr)[0];
    if (existing) {
      throw new UserError(`MCR ${inputs.mcrId} already has an IPsec add-on (${existing.addOnUid})`, `import it (options.import: ${inputs.mcrId}:${existing.addOnUid}); an MCR has one IPsec add-on`);
    }
    // An MCR has one IPsec add-on and there was none: after a lost answer, one there now is this order's.
    const recover = async () => {
      const now = await readProduct(ctx.client, inputs.mcrId);
      return now && ipsecAddOns(now).length ? { message: 'found after a lost answer', data: undefined } : undefined;
    };
    await ctx.client.post(addOnPath(inputs.mcrId), { addOnType: 'IP_SEC', tunnelCount: inputs.tunnelCount }, undefined, { recover });
    // The API answers without the add-on's UID; the MCR lists it at once.
    const added = ipsecAddOns((await readProduct(ctx.client, inputs.mcrId)) ?? mcr)[0];
    // Accepted but not listed: it may show later, so the create is left for the next plan to find.
    if (!added) throw new RemoteError('unavailable', `the IPsec add-on was accepted but MCR ${inputs.mcrId} does not list it`, { provider: 'interconnect' });
    const id = `${inputs.mcrId}:${added.addOnUid}`;
    ctx.recordId(id);
    const ready = await waitReady(ctx, inputs.mcrId, 'MCR');
    return { id, outputs: toOutputs(inputs.mcrId, ipsecAddOns(ready).find((a) => a.addOnUid === added.addOnUid) ?? added) };
  },

  async read(ctx, id) {
    const { mcrUid, addOnUid } = parseId(id);
    const mcr = await sharedProduct(ctx, mcrUid);
    const addOn = mcr && ipsecAddOns(mcr).find((a) => a.addOnUid === addOnUid);
    return addOn && toOutputs(mcrUid, addOn);
  },

  // The product list shows each MCR with its add-ons; an add-on it does not show is read by id.
  async readMany(ctx, targets) {
    const byMcr = targets.map((t) => ({ ...t, id: parseId(t.id).mcrUid, addOn: t.id }));
    const mcrs = await readListed(ctx, byMcr, 'MCR2', (mcr) => mcr);
    const out = new Map<string, Outputs | undefined>();
    for (const t of byMcr) {
      if (!mcrs.has(t.id)) continue;
      const mcr = mcrs.get(t.id);
      const addOn = mcr && ipsecAddOns(mcr).find((a) => a.addOnUid === parseId(t.addOn).addOnUid);
      if (!mcr || addOn) out.set(t.addOn, addOn && toOutputs(t.id, addOn));
    }
    return out;
  },

  async update(ctx, id, _prior, desired) {
    const { mcrUid, addOnUid } = parseId(id);
    await ctx.client.put(addOnPath(mcrUid, addOnUid), { addOnType: 'IP_SEC', tunnelCount: desired.tunnelCount });
    const mcr = await waitReady(ctx, mcrUid, 'MCR');
    const addOn = ipsecAddOns(mcr).find((a) => a.addOnUid === addOnUid);
    if (!addOn) throw new Error(`IPsec add-on ${addOnUid} disappeared from MCR ${mcrUid} during the update`);
    return toOutputs(mcrUid, addOn);
  },

  async delete(ctx, id) {
    const { mcrUid, addOnUid } = parseId(id);
    const mcr = await readProduct(ctx.client, mcrUid);
    if (!mcr || !ipsecAddOns(mcr).some((a) => a.addOnUid === addOnUid)) return;
    try {
      await retryWithin(ctx, 'IPsec tunnels still configured', () => ctx.client.put(addOnPath(mcrUid, addOnUid), { addOnType: 'IP_SEC', tunnelCount: 0 }), tunnelsStillConfigured);
    } catch (err) {
      if (isRemote(err, 'not-found')) return;
      throw err;
    }
    // Whatever is next on this MCR (often its own deletion) needs it ready again.
    await waitReady(ctx, mcrUid, 'MCR');
  },

  // An add-on carries no tags, but an MCR has one IPsec add-on (create refuses a second): after
  // an interrupted create, the MCR's add-on is the one it made.
  async findOwned(ctx, inputs) {
    if (!inputs) return undefined;
    const mcr = await readProduct(ctx.client, inputs.mcrId);
    const addOn = mcr && ipsecAddOns(mcr)[0];
    return addOn && { id: `${inputs.mcrId}:${addOn.addOnUid}`, outputs: toOutputs(inputs.mcrId, addOn) };
  },
};

function toOutputs(mcrUid: string, addOn: ApiAddOn): Outputs {
  return { mcrId: mcrUid, tunnelCount: addOn.tunnelCount, addOnUid: addOn.addOnUid };
}
