/**
 * Subnet: an address range cut from a VPC.
 *
 * Name and tag change in place (one UpdateSubnetAttribute call). The API has no Action that moves
 * a subnet, changes its range or its remark, so those replace it. A subnet that still holds
 * resources cannot be deleted (RetCode 4411, which the client waits out as the API asks).
 * Import by the subnet id (`subnet-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, listingVerbs, nameField, ownedAmong, prefixedId, remarkField, tagField, vanished, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, describeOne, type Listing } from '../../providers/cloud/api/listing.js';

const CIDR = /^(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\/(\d{1,2})$/;

/** Inputs of a subnet. */
export const subnetInputs = z.object({
  vpcId: z.string().min(1).describe('Id of the VPC (`uvnet-…`). Required.'),
  cidrBlock: z
    .string()
    .regex(CIDR, 'a CIDR block such as 10.0.1.0/24')
    .refine((c) => Number(CIDR.exec(c)?.[2]) >= 16 && Number(CIDR.exec(c)?.[2]) <= 29, 'the prefix must be /16 to /29')
    .describe("Address range within one of the VPC's ranges, prefix /16 to /29, not overlapping another subnet. Required."),
  name: nameField(),
  tag: tagField(),
  remark: remarkField('Default empty.'),
});

/** Inputs of a subnet. */
export type SubnetInputs = z.output<typeof subnetInputs>;

/** What is read back about a subnet. */
export const subnetOutputs = z.object({
  subnetId: z.string().describe('Subnet id, e.g. `subnet-1a2b3c4d`.'),
  vpcId: z.string().describe('Id of its VPC.'),
  cidrBlock: z.string().describe('Address range.'),
  name: z.string().describe('Name.'),
  tag: z.string().describe('Tag.'),
  remark: z.string().describe('Remark.'),
  gateway: z.string().describe('Gateway address.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
});

/** Observed subnet. */
export type SubnetOutputs = z.output<typeof subnetOutputs>;

interface SubnetInfo extends Record<string, unknown> {
  SubnetId: string;
  SubnetName: string;
  Subnet: string;
  Netmask: string | number;
  VPCId: string;
  Tag?: string;
  Remark?: string;
  Gateway?: string;
  CreateTime?: number;
}

const LISTING: Listing = { action: 'DescribeSubnet', idsParam: 'SubnetIds', listKey: 'DataSet', idField: 'SubnetId' };

function toOutputs(s: SubnetInfo): SubnetOutputs {
  return {
    subnetId: s.SubnetId,
    vpcId: s.VPCId,
    cidrBlock: `${s.Subnet}/${String(s.Netmask)}`,
    name: str(s.SubnetName),
    tag: str(s.Tag) || DEFAULT_TAG,
    remark: str(s.Remark),
    gateway: str(s.Gateway),
    createTime: rfc3339(s.CreateTime),
  };
}

const describe = (ctx: CloudCtx, id: string) => describeOne<SubnetInfo>(ctx.client, LISTING, id);

/** The subnets of a VPC (a range identifies a subnet there: two cannot overlap). */
const inVpc = (ctx: CloudCtx, vpcId: string) => describeAll<SubnetInfo>(ctx.client, { ...LISTING, params: { VPCId: vpcId } });

/** The Subnet resource type. */
export const subnet: ResourceType<SubnetInputs, SubnetOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/subnet:Subnet',
  provider: 'cloud',
  description: 'A subnet: an address range of a VPC that instances, load balancers and gateways are placed in.',
  inputs: subnetInputs,
  outputs: subnetOutputs,
  diff: {
    computedInputs: ['name'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { tag: DEFAULT_TAG, remark: '' }),
    remoteManaged: ['gateway', 'createTime'],
  },
  replace: {
    on: [
      { path: 'vpcId', reason: 'a subnet cannot move to another VPC (no API Action)' },
      { path: 'cidrBlock', reason: "the API has no Action that changes a subnet's range" },
      { path: 'remark', reason: 'UpdateSubnetAttribute takes no remark and no other Action changes it' },
    ],
    // Subnets of a VPC may not overlap: a new one with the old one's range needs the old one gone.
    holds: [{ what: 'address range in a VPC', paths: ['vpcId', 'cidrBlock'] }],
    // A NAT gateway names the subnets it serves; the API refuses to delete one it serves (4411).
    usedBy: [{ token: 'cloud:index/natGateway:NatGateway', path: 'subnetIds[]', output: 'subnetId', refusal: 'the API refuses to delete a subnet a NAT gateway serves (4411)' }],
  },
  provisioning: {
    // The API lists a new subnet only once it is provisioned.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: prefixedId('subnet', 'subnet'),

  create(ctx, inputs) {
    const [, address, netmask] = CIDR.exec(inputs.cidrBlock)!;
    return createAndWait(ctx, {
      what: 'subnet',
      action: 'CreateSubnet',
      params: { VPCId: inputs.vpcId, Subnet: address, Netmask: Number(netmask), SubnetName: inputs.name ?? autoName(ctx.address, ctx.operationToken), Tag: inputs.tag, Remark: inputs.remark },
      idAt: 'SubnetId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => subnet.findOwned!(ctx, inputs, order),
      read: (id) => subnet.read(ctx, id),
    });
  },

  ...listingVerbs<SubnetInfo, SubnetOutputs>(LISTING, (record) => toOutputs(record)),

  // A range identifies a subnet within its VPC, so what an interrupted create made is the subnet
  // of that range there, made since the order was journaled.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = ownedAmong(
      `subnet ${inputs.cidrBlock}`,
      await inVpc(ctx, inputs.vpcId),
      (s) => toOutputs(s).cidrBlock === inputs.cidrBlock,
      order,
      (s) => s.SubnetId,
    );
    return found && { id: found.SubnetId, outputs: toOutputs(found) };
  },

  async update(ctx, id, _prior, desired) {
    const live = await describe(ctx, id);
    if (!live) throw vanished('subnet', id);
    const seen = toOutputs(live);
    const name = desired.name !== undefined && desired.name !== seen.name ? desired.name : undefined;
    const tag = (desired.tag ?? DEFAULT_TAG) !== seen.tag ? (desired.tag ?? DEFAULT_TAG) : undefined;
    // Name and tag go in one call; the Action needs at least one of them.
    if (name !== undefined || tag !== undefined) await ctx.client.call('UpdateSubnetAttribute', { SubnetId: id, Name: name, Tag: tag });
    const after = await describe(ctx, id);
    if (!after) throw vanished('subnet', id);
    return toOutputs(after);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `subnet ${id}`,
      async () => (await describe(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteSubnet', { SubnetId: id }),
    );
  },
};
