/**
 * LabelAttachment: a custom label bound to one resource (a VPC, a host, an EIP...) by its id.
 *
 * Binding and unbinding are the only Actions (BindLabels, UnbindLabels), so every change is a new
 * attachment. The label must exist first (a Label, or one made in the console). A resource that
 * already carries the label is refused with the import to use instead, so that plumb never
 * unbinds what it did not bind. The id and import format is `<key>#<value>#<resource_id>`.
 */
import * as z from 'zod';
import { RemoteError, UserError } from '../../kernel/errors.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { defaultsAsDeclared } from '../as-declared.js';
import { deleteListed, vanished, type CloudCtx } from './kit.js';
import { labelExists } from './cross-checks.js';
import { LABEL_CALL, listLabelledResources } from '../../providers/cloud/api/label.js';
import { categoryField, customLabels, labelPart } from './label.js';

/** Inputs of a label attachment. */
export const labelAttachmentInputs = z.object({
  key: labelPart('key').describe("Key of the label to bind (a Label's `key`). Required. Changing it makes a new attachment: no Action changes a binding."),
  value: labelPart('value').describe("Value of the label to bind (a Label's `value`). Required."),
  resourceId: z.string().min(1).describe('Id of the resource to label, e.g. a VPC (`uvnet-…`) or host (`uhost-…`). Required.'),
  category: categoryField,
});

/** Inputs of a label attachment. */
export type LabelAttachmentInputs = z.output<typeof labelAttachmentInputs>;

/** What is read back about a label attachment. */
export const labelAttachmentOutputs = z.object({
  labelAttachmentId: z.string().describe('`<key>#<value>#<resource_id>`.'),
  key: z.string().describe('Label key.'),
  value: z.string().describe('Label value.'),
  resourceId: z.string().describe('The labelled resource.'),
  category: z.literal('custom').describe('`custom`.'),
});

/** Observed label attachment. */
export type LabelAttachmentOutputs = z.output<typeof labelAttachmentOutputs>;

interface BoundLabel {
  ResourceId: string;
  Key: string;
  Value: string;
  Category?: string;
}

/** Splits `<key>#<value>#<resource_id>`; a UserError naming the format otherwise. */
export function parseLabelAttachmentId(id: string): { key: string; value: string; resourceId: string } {
  const parts = id.split('#');
  if (parts.length !== 3 || parts.some((p) => !p)) throw new UserError(`invalid label attachment id "${id}": expected <key>#<value>#<resource_id>`, 'e.g. env#prod#uvnet-1a2b3c4d');
  return { key: parts[0], value: parts[1], resourceId: parts[2] };
}

const idOf = (l: { Key: string; Value: string; ResourceId: string }) => `${l.Key}#${l.Value}#${l.ResourceId}`;
const toOutputs = (l: BoundLabel): LabelAttachmentOutputs => ({ labelAttachmentId: idOf(l), key: l.Key, value: l.Value, resourceId: l.ResourceId, category: 'custom' });

/** The custom labels bound to these resources, 100 resource ids a call. */
async function boundTo(ctx: CloudCtx, resourceIds: string[]): Promise<BoundLabel[]> {
  const out: BoundLabel[] = [];
  for (let i = 0; i < resourceIds.length; i += 100) {
    const page = await ctx.client.pageAll<BoundLabel>('ListLabelsByResourceIds', { ResourceIds: resourceIds.slice(i, i + 100) }, 'Labels', { ...LABEL_CALL, pageSize: 100 });
    out.push(...page.filter((l) => (l.Category ?? 'custom') === 'custom'));
  }
  return out;
}

async function observe(ctx: CloudCtx, id: string): Promise<LabelAttachmentOutputs | undefined> {
  const { resourceId } = parseLabelAttachmentId(id);
  const found = (await boundTo(ctx, [resourceId])).find((l) => idOf(l) === id);
  return found && toOutputs(found);
}

const labels = (inputs: { key: string; value: string }) => [{ Key: inputs.key, Value: inputs.value }];

/** The LabelAttachment resource type. */
export const labelAttachment: ResourceType<LabelAttachmentInputs, LabelAttachmentOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/labelAttachment:LabelAttachment',
  provider: 'cloud',
  description: 'A custom label bound to a resource by its id.',
  inputs: labelAttachmentInputs,
  outputs: labelAttachmentOutputs,
  diff: {
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { category: 'custom' }),
  },
  replace: {
    on: [
      { path: 'key', reason: 'no Action changes a binding (BindLabels and UnbindLabels only)' },
      { path: 'value', reason: 'no Action changes a binding (BindLabels and UnbindLabels only)' },
      { path: 'resourceId', reason: 'no Action moves a binding to another resource' },
    ],
    // The same label on the same resource is the same binding: replaced as it is, it is unbound first.
    holds: [{ what: 'label on a resource', paths: ['key', 'value', 'resourceId'] }],
  },
  provisioning: {
    // A binding is listed as soon as BindLabels answers.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  // BindLabels refuses a label the account does not have: found before any order.
  crossCheck: labelExists,
  importId: {
    format: '<key>#<value>#<resource_id>',
    parse(id) {
      const { key, value, resourceId } = parseLabelAttachmentId(id.trim());
      return `${key}#${value}#${resourceId}`;
    },
  },

  async create(ctx, inputs) {
    const id = `${inputs.key}#${inputs.value}#${inputs.resourceId}`;
    if (await observe(ctx, id))
      throw new RemoteError('conflict', `${inputs.resourceId} already carries label ${inputs.key}#${inputs.value}; adopt the binding with plumb import (id ${id}) rather than create it`, {
        provider: 'cloud',
      });
    // Binding is idempotent: sent again after a lost answer, it changes nothing.
    await ctx.client.call('BindLabels', { ResourceIds: [inputs.resourceId], Labels: labels(inputs) }, LABEL_CALL);
    ctx.recordId(id);
    const made = await observe(ctx, id);
    if (!made) throw vanished('label attachment', id);
    return { id, outputs: made };
  },

  read: (ctx, id) => observe(ctx, id),

  // One call per 100 labelled resources serves every attachment of the pass.
  async readMany(ctx, targets) {
    const resources = [...new Set(targets.map((t) => parseLabelAttachmentId(t.id).resourceId))];
    const byId = new Map((await boundTo(ctx, resources)).map((l) => [idOf(l), toOutputs(l)]));
    return new Map(targets.filter((t) => byId.has(t.id)).map((t) => [t.id, byId.get(t.id)]));
  },

  async list(ctx) {
    const found = [];
    for (const l of await customLabels(ctx)) {
      for (const r of await listLabelledResources(ctx.client, { Labels: labels({ key: l.Key, value: l.Value }) })) {
        const bound = { Key: l.Key, Value: l.Value, ResourceId: r.ResourceId };
        found.push({ id: idOf(bound), outputs: toOutputs(bound) });
      }
    }
    return found;
  },

  // Create refuses a binding that exists: one found now and not recorded anywhere is what the
  // interrupted create made.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const id = `${inputs.key}#${inputs.value}#${inputs.resourceId}`;
    const found = order.recorded(id) ? undefined : await observe(ctx, id);
    return found && { id, outputs: found };
  },

  // Every input but the one-valued category makes a new attachment: nothing to send.
  async update(ctx, id) {
    const live = await observe(ctx, id);
    if (!live) throw vanished('label attachment', id);
    return live;
  },

  async delete(ctx, id) {
    const { key, value, resourceId } = parseLabelAttachmentId(id);
    await deleteListed(
      ctx,
      `label attachment ${id}`,
      async () => (await observe(ctx, id)) !== undefined,
      () => ctx.client.call('UnbindLabels', { ResourceIds: [resourceId], Labels: labels({ key, value }) }, LABEL_CALL),
    );
  },
};
