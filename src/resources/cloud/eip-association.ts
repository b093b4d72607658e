/**
 * EipAssociation: an EIP bound to a resource (an instance, a load balancer, a NAT or VPN gateway).
 *
 * Binding settles over time: the EIP reads `free` until the bind takes, then `used` with the
 * resource; unbinding likewise. Nothing changes in place: another EIP or resource is another
 * association, and one EIP binds one resource at a time, so re-binding the same EIP unbinds it
 * first. Import by `<eip_id>:<resource_id>`.
 */
import * as z from 'zod';
import { isRemote, RemoteError, UserError } from '../../kernel/errors.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { str } from '../../providers/cloud/wire.js';
import type { ReplaceRule, ResourceType } from '../../engine/contracts/resource-type.js';
import { EIP_LISTING, type EipInfo } from '../../providers/cloud/api/eip.js';
import { APPEARS_WITHIN_MS, PACE, type CloudCtx } from './kit.js';
import { describeAll, describeIds, describeOne } from '../../providers/cloud/api/listing.js';

const TYPES = ['uhost', 'ulb', 'natgw', 'vpngw'] as const;
type BoundType = (typeof TYPES)[number];

/** Inputs of an EIP association. */
export const eipAssociationInputs = z
  .object({
    eipId: z.string().min(1).describe('Id of the EIP (`eip-…`). Required. Changing it binds another EIP (a new association).'),
    resourceId: z.string().min(1).describe('Id of the resource to bind to (`uhost-…`, `ulb-…`, `natgw-…`, `vpngw-…`). Required.'),
    resourceType: z
      .enum(TYPES)
      .optional()
      .describe("`uhost`, `ulb`, `natgw` or `vpngw`: the kind the resource id's prefix names. Default: read from that prefix. Naming another kind for the same resource id replaces the binding."),
  })
  .superRefine((v, ctx) => {
    // The id's prefix names the resource's kind: a type that contradicts it is refused by the API.
    if (typeof v.resourceId !== 'string') return;
    const named = typeOf(v.resourceId);
    if (named && typeof v.resourceType === 'string' && v.resourceType !== named)
      ctx.addIssue({ code: 'custom', path: ['resourceType'], message: `${v.resourceId} is a ${named} (its id's prefix): set resourceType ${named}, or leave it out` });
    if (!named && v.resourceType === undefined)
      ctx.addIssue({ code: 'custom', path: ['resourceId'], message: `cannot tell the type of resource ${v.resourceId} from its id: set resourceType to one of ${TYPES.join(', ')}` });
  });

/** Inputs of an EIP association. */
export type EipAssociationInputs = z.output<typeof eipAssociationInputs>;

/** What is read back about an EIP association. */
export const eipAssociationOutputs = z.object({
  eipId: z.string().describe('Id of the EIP.'),
  resourceId: z.string().describe('Id of the resource it is bound to.'),
  resourceType: z.string().describe('Type of that resource.'),
  publicIp: z.string().describe("The EIP's address."),
});

/** Observed EIP association. */
export type EipAssociationOutputs = z.output<typeof eipAssociationOutputs>;

type Ctx = CloudCtx;

/** The resource type of an id, from its prefix; undefined when the prefix names none. */
function typeOf(resourceId: string): BoundType | undefined {
  const prefix = resourceId.split('-')[0];
  return (TYPES as readonly string[]).includes(prefix) ? (prefix as BoundType) : undefined;
}

function resourceTypeFor(inputs: EipAssociationInputs): BoundType {
  const type = inputs.resourceType ?? typeOf(inputs.resourceId);
  if (!type) throw new UserError(`cannot tell the type of resource ${inputs.resourceId}`, `set resourceType to one of ${TYPES.join(', ')}`);
  return type;
}

/** Splits `<eip_id>:<resource_id>`. */
function parseId(id: string): { eipId: string; resourceId: string } {
  const [eipId, resourceId, extra] = id.split(':');
  if (!eipId?.startsWith('eip-') || !resourceId || extra !== undefined) {
    throw new UserError(`invalid EIP association id "${id}": expected <eip_id>:<resource_id>, e.g. eip-1a2b3c4d:uhost-5e6f7a8b`);
  }
  return { eipId, resourceId };
}

/** The association an EIP's record shows, if it is bound (settled). */
function bound(e: EipInfo | undefined): EipAssociationOutputs | undefined {
  if (!e || e.Status !== 'used' || !e.Resource?.ResourceID) return undefined;
  return { eipId: e.EIPId, resourceId: e.Resource.ResourceID, resourceType: str(e.Resource.ResourceType), publicIp: str(e.EIPAddr?.[0]?.IP) };
}

async function readBinding(ctx: Ctx, id: string): Promise<EipAssociationOutputs | undefined> {
  const { eipId, resourceId } = parseId(id);
  const seen = bound(await describeOne<EipInfo>(ctx.client, EIP_LISTING, eipId));
  return seen?.resourceId === resourceId ? seen : undefined;
}

/** Waits until the EIP is bound to the resource; a bind that took another resource is a conflict. */
function waitBound(ctx: Ctx, eipId: string, resourceId: string): Promise<EipAssociationOutputs> {
  return ctx.wait(
    `EIP ${eipId} to be bound to ${resourceId}`,
    async () => {
      const seen = bound(await describeOne<EipInfo>(ctx.client, EIP_LISTING, eipId));
      if (!seen) return { done: false, status: 'Binding' };
      if (seen.resourceId !== resourceId) throw new RemoteError('conflict', `EIP ${eipId} is bound to ${seen.resourceType} ${seen.resourceId}; unbind it there first`, { provider: 'cloud' });
      return { done: true, value: seen };
    },
    PACE,
  );
}

/** The EipAssociation resource type. */
export const eipAssociation: ResourceType<EipAssociationInputs, EipAssociationOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/eipAssociation:EipAssociation',
  provider: 'cloud',
  description: 'An EIP bound to an instance, load balancer, NAT gateway or VPN gateway.',
  inputs: eipAssociationInputs,
  outputs: eipAssociationOutputs,
  diff: {
    computedInputs: ['resourceType'],
    remoteManaged: ['publicIp'],
  },
  replace: {
    on: [
      { path: 'eipId', reason: 'a binding is of one EIP: another EIP is another binding' },
      { path: 'resourceId', reason: 'a binding is to one resource: UnBindEIP, then BindEIP' },
    ],
    // The EIP can be bound to one resource at a time: the old binding must go first.
    holds: [{ what: 'binding of an EIP', paths: ['eipId'] }],
    when: {
      inputs: ['resourceType'],
      // A type written out that the id's prefix already says is no change.
      rules(prior, desired): ReplaceRule[] {
        const was = prior.resourceType ?? typeOf(prior.resourceId);
        const now = desired.resourceType ?? typeOf(desired.resourceId);
        return was !== now && prior.resourceId === desired.resourceId ? [{ path: 'resourceType', reason: 'a binding is to one resource: UnBindEIP, then BindEIP' }] : [];
      },
    },
  },
  provisioning: {
    // A binding reads as one only once it has taken (the EIP `used`), which upstream allows five
    // minutes for: until then an association not read is no evidence that the bind did nothing.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: {
    format: '<eip_id>:<resource_id>',
    parse(id) {
      const { eipId, resourceId } = parseId(id.trim());
      return `${eipId}:${resourceId}`;
    },
  },

  async create(ctx, inputs) {
    const type = resourceTypeFor(inputs);
    try {
      await ctx.client.call('BindEIP', { EIPId: inputs.eipId, ResourceType: type, ResourceId: inputs.resourceId });
    } catch (err) {
      // A bind sent again after a lost answer meets the first one (already bound or binding):
      // waiting tells whether it was ours.
      if (!isRemote(err, 'conflict')) throw err;
    }
    const id = `${inputs.eipId}:${inputs.resourceId}`;
    ctx.recordId(id);
    return { id, outputs: await waitBound(ctx, inputs.eipId, inputs.resourceId) };
  },

  read: (ctx, id) => readBinding(ctx, id),

  async readMany(ctx, targets) {
    const ids = targets.map((t) => parseId(t.id));
    const eips = await describeIds<EipInfo>(ctx.client, EIP_LISTING, [...new Set(ids.map((i) => i.eipId))]);
    const seen = new Map(eips.map((e) => [e.EIPId, bound(e)]));
    const out = new Map<string, EipAssociationOutputs | undefined>();
    ids.forEach(({ eipId, resourceId }, i) => {
      const b = seen.get(eipId);
      // Listed but bound elsewhere (or free): this binding is gone.
      if (seen.has(eipId)) out.set(targets[i].id, b?.resourceId === resourceId ? b : undefined);
    });
    return out;
  },

  async list(ctx) {
    const all = (await describeAll<EipInfo>(ctx.client, EIP_LISTING)).map(bound).filter((b) => b !== undefined);
    return all.map((b) => ({ id: `${b.eipId}:${b.resourceId}`, outputs: b }));
  },

  // The id says what the binding is: an interrupted bind made this one if the EIP is bound there.
  async findOwned(ctx, inputs) {
    if (!inputs) return undefined;
    const id = `${inputs.eipId}:${inputs.resourceId}`;
    const seen = await readBinding(ctx, id);
    return seen && { id, outputs: seen };
  },

  async update(ctx, id) {
    const seen = await readBinding(ctx, id);
    if (!seen) throw new RemoteError('not-found', `EIP association ${id} no longer exists`, { provider: 'cloud' });
    return seen;
  },

  async delete(ctx, id) {
    const seen = await readBinding(ctx, id);
    if (!seen) return;
    try {
      await ctx.client.call('UnBindEIP', { EIPId: seen.eipId, ResourceType: seen.resourceType, ResourceId: seen.resourceId });
    } catch (err) {
      if (!isRemote(err, 'not-found', 'invalid') || (await readBinding(ctx, id))) throw err;
      return;
    }
    await ctx.wait(
      `EIP ${seen.eipId} to be unbound from ${seen.resourceId}`,
      async () => ((await readBinding(ctx, id)) ? { done: false, status: 'Unbinding' } : { done: true, value: undefined }),
      PACE,
    );
  },
};
