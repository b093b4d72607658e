/**
 * Vpc: a virtual private cloud of the region, with its private address ranges.
 *
 * Ranges are added (AddVPCNetwork) and removed (UpdateVPCNetwork, sent the ranges to keep) in
 * place. The API has no Action that renames or retags a VPC, so a new name or tag replaces it,
 * and with it every subnet (and later every instance) made in it: the plan lists them all.
 * Import by the VPC id (`uvnet-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, inDeclaredOrder, listingVerbs, nameField, ownedAmong, prefixedId, tagField, vanished, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, describeOne } from '../../providers/cloud/api/listing.js';
import { VPC_LISTING as LISTING, type VpcInfo } from '../../providers/cloud/api/vpc.js';

const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** Inputs of a VPC. */
export const vpcInputs = z.object({
  name: nameField('Replacing the VPC replaces every subnet in it too.'),
  cidrBlocks: z
    .array(z.string().regex(CIDR, 'a CIDR block such as 10.0.0.0/16'))
    .min(1, 'at least one CIDR block')
    .describe(
      'Private address ranges (10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16, prefix /8 to /29). Required. Ranges are added and removed in place; a range still used by a subnet cannot be removed.',
    ),
  tag: tagField('Replacing the VPC replaces every subnet in it too.'),
});

/** Inputs of a VPC. */
export type VpcInputs = z.output<typeof vpcInputs>;

/** What is read back about a VPC. */
export const vpcOutputs = z.object({
  vpcId: z.string().describe('VPC id, e.g. `uvnet-1a2b3c4d`.'),
  name: z.string().describe('Name.'),
  cidrBlocks: z.array(z.string()).describe('Address ranges, in the order the API lists them.'),
  tag: z.string().describe('Tag.'),
  subnetCount: z.number().describe('How many subnets the VPC holds.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
  updateTime: z.string().describe('When it last changed (RFC 3339).'),
});

/** Observed VPC. */
export type VpcOutputs = z.output<typeof vpcOutputs>;

function toOutputs(v: VpcInfo): VpcOutputs {
  return {
    vpcId: v.VPCId,
    name: str(v.Name),
    cidrBlocks: v.Network ?? [],
    tag: str(v.Tag) || DEFAULT_TAG,
    subnetCount: Number(v.SubnetCount ?? 0),
    createTime: rfc3339(v.CreateTime),
    updateTime: rfc3339(v.UpdateTime),
  };
}

const describe = (ctx: CloudCtx, id: string) => describeOne<VpcInfo>(ctx.client, LISTING, id);

/** Whether a listed VPC is the one these inputs (and this name) ask for: same name and ranges. */
function isFor(v: VpcInfo, name: string, inputs: VpcInputs): boolean {
  const ranges = [...(v.Network ?? [])].sort();
  return v.Name === name && JSON.stringify(ranges) === JSON.stringify([...inputs.cidrBlocks].sort());
}

/** The Vpc resource type. */
export const vpc: ResourceType<VpcInputs, VpcOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/vpc:Vpc',
  provider: 'cloud',
  description: 'A virtual private cloud: private address ranges that subnets are cut from.',
  inputs: vpcInputs,
  outputs: vpcOutputs,
  diff: {
    computedInputs: ['name'],
    // The API lists ranges in its own order: the same ranges in another order are no change.
    asDeclared: (recorded, _outputs, desired) => ({ ...defaultsAsDeclared(recorded, desired, { tag: DEFAULT_TAG }), cidrBlocks: inDeclaredOrder(recorded.cidrBlocks, desired.cidrBlocks)! }),
    remoteManaged: ['subnetCount', 'createTime', 'updateTime'],
  },
  replace: {
    on: [
      { path: 'name', reason: 'the API has no Action that renames a VPC' },
      { path: 'tag', reason: 'the API has no Action that retags a VPC' },
    ],
  },
  provisioning: {
    // The API lists a new VPC only once it is provisioned.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: prefixedId('uvnet', 'VPC'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'VPC',
      action: 'CreateVPC',
      params: { Name: inputs.name ?? autoName(ctx.address, ctx.operationToken), Network: inputs.cidrBlocks, Tag: inputs.tag },
      idAt: 'VPCId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => vpc.findOwned!(ctx, inputs, order),
      read: (id) => vpc.read(ctx, id),
    }),

  ...listingVerbs<VpcInfo, VpcOutputs>(LISTING, (record) => toOutputs(record)),

  // A VPC carries no ownership marks: an auto-named one carries its order's token in the name;
  // a named one is the one of that name and ranges made since the order was journaled.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `VPC named "${name}"`,
      await describeAll<VpcInfo>(ctx.client, LISTING),
      (v) => isFor(v, name, inputs),
      order,
      (v) => v.VPCId,
    );
    return found && { id: found.VPCId, outputs: toOutputs(found) };
  },

  async update(ctx, id, _prior, desired) {
    const live = await describe(ctx, id);
    if (!live) throw vanished('VPC', id);
    const current = live.Network ?? [];
    const added = desired.cidrBlocks.filter((n) => !current.includes(n));
    // Added first, so that a range swapped for another never leaves the VPC with none.
    if (added.length) await ctx.client.call('AddVPCNetwork', { VPCId: id, Network: added });
    if (current.some((n) => !desired.cidrBlocks.includes(n))) await ctx.client.call('UpdateVPCNetwork', { VPCId: id, Network: desired.cidrBlocks });
    const after = await describe(ctx, id);
    if (!after) throw vanished('VPC', id);
    return toOutputs(after);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `VPC ${id}`,
      async () => (await describe(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteVPC', { VPCId: id }),
    );
  },
};
