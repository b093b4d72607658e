/**
 * Label: a custom key/value label of the account, which LabelAttachment binds to resources.
 *
 * No Action changes a label: a new key or value is a new label (CreateLabels, DeleteLabels). A
 * label still bound to a resource cannot be deleted, so its attachments go first. Creating one
 * that already exists is refused with the import to use instead, so that plumb never deletes a
 * label it did not make. The id and import format is `<key>#<value>`.
 */
import * as z from 'zod';
import { RemoteError, UserError } from '../../kernel/errors.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { defaultsAsDeclared } from '../as-declared.js';
import { LABEL_CALL, listLabels, type LabelInfo } from '../../providers/cloud/api/label.js';
import { deleteListed, vanished, type CloudCtx } from './kit.js';

/** A label key or value: 1-63 characters without `#` (it separates them in ids). */
export const labelPart = (what: string) =>
  z
    .string()
    .min(1, `a label ${what} is 1-63 characters`)
    .max(63, `a label ${what} is 1-63 characters`)
    .refine((v) => !v.includes('#'), `a label ${what} cannot contain # (it separates key and value in ids)`);

/** The category input: labels made through the API are custom ones (system labels are the platform's). */
export const categoryField = z.enum(['custom']).optional().describe('Label category: only `custom` (the platform makes the `system` ones). Default `custom`; writing it out is no change.');

/** Inputs of a label. */
export const labelInputs = z.object({
  key: labelPart('key')
    .refine((k) => !k.toLowerCase().startsWith('ucloud:'), 'keys starting with ucloud: are system labels')
    .describe('Label key: 1-63 characters, no `#`, not starting with `ucloud:`. Required.'),
  value: labelPart('value').describe('Label value: 1-63 characters, no `#`. Required.'),
  category: categoryField,
});

/** Inputs of a label. */
export type LabelInputs = z.output<typeof labelInputs>;

/** What is read back about a label. */
export const labelOutputs = z.object({
  labelId: z.string().describe('`<key>#<value>`.'),
  key: z.string().describe('Key.'),
  value: z.string().describe('Value.'),
  category: z.literal('custom').describe('`custom`.'),
  resourceCount: z.number().describe('Resources the label is bound to.'),
});

/** Observed label. */
export type LabelOutputs = z.output<typeof labelOutputs>;

/** Splits `<key>#<value>`; a UserError naming the format otherwise. */
export function parseLabelId(id: string): { key: string; value: string } {
  const parts = id.split('#');
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new UserError(`invalid label id "${id}": expected <key>#<value>`, 'e.g. env#prod');
  return { key: parts[0], value: parts[1] };
}

/** Every custom label, through every page (the upstream provider reads only the first). */
export function customLabels(ctx: CloudCtx, fresh = false): Promise<LabelInfo[]> {
  const list = () => listLabels(ctx.client);
  return fresh ? list() : ctx.shared('custom-labels', list);
}

const toOutputs = (l: LabelInfo): LabelOutputs => ({ labelId: `${l.Key}#${l.Value}`, key: l.Key, value: l.Value, category: 'custom', resourceCount: Number(l.ResourceCount ?? 0) });

async function observe(ctx: CloudCtx, key: string, value: string, fresh = true): Promise<LabelOutputs | undefined> {
  const found = (await customLabels(ctx, fresh)).find((l) => l.Key === key && l.Value === value);
  return found && toOutputs(found);
}

/** The Label resource type. */
export const label: ResourceType<LabelInputs, LabelOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/label:Label',
  provider: 'cloud',
  description: 'A custom key/value label of the account, bound to resources with LabelAttachment.',
  inputs: labelInputs,
  outputs: labelOutputs,
  diff: {
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { category: 'custom' }),
    remoteManaged: ['resourceCount'],
  },
  replace: {
    on: [
      { path: 'key', reason: 'no Action changes a label (CreateLabels and DeleteLabels only)' },
      { path: 'value', reason: 'no Action changes a label (CreateLabels and DeleteLabels only)' },
    ],
    // The same key and value is the same label: replaced as it is (--replace), it is deleted first.
    holds: [{ what: 'label', paths: ['key', 'value'] }],
  },
  provisioning: {
    // A label is listed as soon as CreateLabels answers.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: {
    format: '<key>#<value>',
    parse(id) {
      const { key, value } = parseLabelId(id.trim());
      return `${key}#${value}`;
    },
  },

  async create(ctx, inputs) {
    const { key, value } = inputs;
    const id = `${key}#${value}`;
    if (await observe(ctx, key, value)) {
      throw new RemoteError('conflict', `label ${id} already exists; adopt it with plumb import (id ${id}) rather than create it`, { provider: 'cloud' });
    }
    // It did not exist a moment ago: one listed after a lost answer is the one this call made.
    const recover = async () => ((await observe(ctx, key, value)) ? { RetCode: 0 } : undefined);
    await ctx.client.call('CreateLabels', { Labels: [{ Key: key, Value: value }] }, { ...LABEL_CALL, recover });
    ctx.recordId(id);
    const made = await observe(ctx, key, value);
    if (!made) throw vanished('label', id);
    return { id, outputs: made };
  },

  read(ctx, id) {
    const { key, value } = parseLabelId(id);
    return observe(ctx, key, value);
  },

  // One listing of the account's labels serves every label of the pass.
  async readMany(ctx, targets) {
    const byId = new Map((await customLabels(ctx)).map((l) => [`${l.Key}#${l.Value}`, toOutputs(l)]));
    return new Map(targets.filter((t) => byId.has(t.id)).map((t) => [t.id, byId.get(t.id)]));
  },

  async list(ctx) {
    return (await customLabels(ctx)).map((l) => ({ id: `${l.Key}#${l.Value}`, outputs: toOutputs(l) }));
  },

  // A key and value identify a label, and create refuses one that exists: one listed now and not
  // recorded anywhere is what the interrupted create made.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const id = `${inputs.key}#${inputs.value}`;
    const found = order.recorded(id) ? undefined : await observe(ctx, inputs.key, inputs.value);
    return found && { id, outputs: found };
  },

  // Every input but the one-valued category replaces the label: nothing to send.
  async update(ctx, id) {
    const { key, value } = parseLabelId(id);
    const live = await observe(ctx, key, value);
    if (!live) throw vanished('label', id);
    return live;
  },

  async delete(ctx, id) {
    const { key, value } = parseLabelId(id);
    await deleteListed(
      ctx,
      `label ${id}`,
      async () => (await observe(ctx, key, value)) !== undefined,
      () => ctx.client.call('DeleteLabels', { Labels: [{ Key: key, Value: value }] }, LABEL_CALL),
    );
  },
};
