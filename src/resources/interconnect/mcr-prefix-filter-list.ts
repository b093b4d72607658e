import * as z from 'zod';
import { UserError } from '../../kernel/errors.js';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { createPrefixList, knownPrefixLists, listPrefixLists, readPrefixList, updatePrefixList, type ApiPrefixList } from '../../providers/interconnect/api/prefix-lists.js';
import { GONE, isType } from '../../providers/interconnect/api/products.js';
import { type Ctx, mapLimited, sharedList, sharedProduct, splitId } from './kit.js';
import { ALWAYS, checkPrefixEntries, deletePrefixList, findByDescription, observedEntries, prefixListFields } from './prefix-lists.js';

const fields = z
  .object({
    mcrId: z.string().min(1).describe('Product UID of the MCR that owns the list.'),
    ...prefixListFields,
  })
  .strict();

/** Inputs of one prefix filter list; every entry is checked against the address family. */
export const mcrPrefixFilterListInputs = fields.superRefine(checkPrefixEntries, ALWAYS);

/** The list as it is now, plus its numeric id. */
export const mcrPrefixFilterListOutputs = fields.extend({
  prefixFilterListId: z.number().describe('Numeric id the API gave the list; VXC BGP settings may use it.'),
});

type Inputs = z.infer<typeof mcrPrefixFilterListInputs>;
type Outputs = z.infer<typeof mcrPrefixFilterListOutputs>;

const FORMAT = '<mcr_uid>:<prefix_list_id>';
const EXAMPLE = '11111111-1111-1111-1111-111111111111:123';

/** Parses `<mcr_uid>:<prefix_list_id>`; the list id must be a positive integer. */
export function parsePrefixListId(id: string): { mcrUid: string; listId: number } {
  const [mcrUid, raw] = splitId(id, FORMAT, EXAMPLE);
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) {
    throw new UserError(`invalid import id "${id}": expected ${FORMAT} where prefix_list_id is a positive integer, e.g. ${EXAMPLE}`);
  }
  return { mcrUid, listId: Number(raw) };
}

/** A prefix filter list on an MCR, for VXC BGP import/export filters. Its id is `<mcr_uid>:<prefix_list_id>`. */
export const mcrPrefixFilterList: ResourceType<Inputs, Outputs, Ctx['client'], InterconnectSettings> = {
  token: 'interconnect:index/mcrPrefixFilterList:McrPrefixFilterList',
  provider: 'interconnect',
  description: 'A prefix filter list on an MCR. Several lists may exist on one MCR; VXC BGP connections refer to them by description.',
  inputs: mcrPrefixFilterListInputs,
  outputs: mcrPrefixFilterListOutputs,
  diff: {
    remoteManaged: ['prefixFilterListId'],
  },
  replace: {
    on: [{ path: 'mcrId', reason: 'a prefix filter list belongs to one MCR and cannot move' }],
    // A description is unique on its MCR: replaced in place (--replace), the old list goes first.
    holds: [{ what: 'prefix filter list description on an MCR', paths: ['mcrId', 'description'] }],
  },
  cost: { unpriced: "not billed on its own: part of its MCR's price" },
  importId: {
    format: FORMAT,
    parse(id) {
      const { mcrUid, listId } = parsePrefixListId(id);
      return `${mcrUid}:${listId}`;
    },
  },

  async create(ctx, inputs) {
    // Descriptions are names: BGP filters resolve them, so a second list of the same name would be ambiguous.
    const existing = findByDescription(await knownPrefixLists(ctx.client, inputs.mcrId), inputs.description);
    if (existing) {
      throw new UserError(
        `MCR ${inputs.mcrId} already has a prefix filter list named "${inputs.description}" (id ${existing.id})`,
        `import it (options.import: ${inputs.mcrId}:${existing.id}) or choose another description`,
      );
    }
    const made = await createPrefixList(ctx.client, inputs.mcrId, inputs);
    const id = `${inputs.mcrId}:${made.id}`;
    ctx.recordId(id);
    return { id, outputs: toOutputs(inputs.mcrId, made, inputs) };
  },

  async read(ctx, id, prior) {
    const { mcrUid, listId } = parsePrefixListId(id);
    // A list on a cancelled MCR is gone with it, even while the API still answers for it.
    if (!(await sharedProduct(ctx, mcrUid))) return undefined;
    const current = await readPrefixList(ctx.client, mcrUid, listId);
    return current && toOutputs(mcrUid, current, prior?.inputs);
  },

  // The summary of an MCR's lists carries no entries, so each list is one call by id; whether its
  // MCR is still there comes from the product list. A list whose MCR the product list does not
  // show is left for the read by id.
  async readMany(ctx, targets) {
    const products = await sharedList(ctx);
    const out = new Map<string, Outputs | undefined>();
    await mapLimited(targets, async (target) => {
      const { mcrUid, listId } = parsePrefixListId(target.id);
      const mcr = products.byUid.get(mcrUid);
      if (!mcr || !isType(mcr, 'MCR2')) return;
      if (GONE.includes(mcr.provisioningStatus)) return void out.set(target.id, undefined);
      const current = await readPrefixList(ctx.client, mcrUid, listId);
      out.set(target.id, current && toOutputs(mcrUid, current, target.prior?.inputs));
    });
    return out;
  },

  async update(ctx, id, _prior, desired) {
    const { mcrUid, listId } = parsePrefixListId(id);
    await updatePrefixList(ctx.client, mcrUid, listId, desired);
    const current = await readPrefixList(ctx.client, mcrUid, listId);
    if (!current) throw new Error(`prefix filter list ${listId} disappeared from MCR ${mcrUid} during the update`);
    return toOutputs(mcrUid, current, desired);
  },

  async delete(ctx, id) {
    const { mcrUid, listId } = parsePrefixListId(id);
    await deletePrefixList(ctx, mcrUid, listId);
  },

  // A list carries no tags, but its description is unique on its MCR (create refuses a second):
  // after an interrupted create, the list there of that description is the one it made.
  async findOwned(ctx, inputs) {
    if (!inputs) return undefined;
    const summaries = await ctx.shared(`prefix-lists:${inputs.mcrId}`, () => listPrefixLists(ctx.client, inputs.mcrId));
    const existing = findByDescription(summaries, inputs.description);
    const current = existing && (await readPrefixList(ctx.client, inputs.mcrId, existing.id));
    return current && { id: `${inputs.mcrId}:${current.id}`, outputs: toOutputs(inputs.mcrId, current, inputs) };
  },
};

function toOutputs(mcrUid: string, list: ApiPrefixList, prior?: Partial<Inputs>): Outputs {
  return {
    mcrId: mcrUid,
    description: list.description,
    addressFamily: list.addressFamily,
    entries: observedEntries(list.entries, prior?.entries),
    prefixFilterListId: list.id,
  };
}
