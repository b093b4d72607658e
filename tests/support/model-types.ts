/**
 * The resource types of the model, written as a provider's types are: each verb goes through its
 * connection's client (the process's view of the world, see model-process.ts), observes before it
 * acts, and is idempotent where the contract says so.
 *
 * - port: listed only once provisioned (appearsWithinMs), read in bulk, found by its order's token;
 *   replaced create-first (speed).
 * - vxc: on a port (`ref`, moved in place), holds its VLAN on that port, which the API keeps a while
 *   after it is let go (`released`); replaced create-first for a new VLAN, delete-first for a new rate.
 * - gateway: its name is unique (a claim without a release check); found by that name; replaced
 *   delete-first when it keeps its name, create-first for a new one.
 * - link: on a gateway (`ref`, replaced), replaced delete-first whatever changes; cannot find what
 *   an interrupted create ordered (no findOwned).
 * - route: on a link (`ref`, replaced), ready at once, found by token; replaced create-first.
 */
import { z } from 'zod';
import type { Created, Provisioning, ResourceContext, ResourceType } from '../../src/engine/contracts/resource-type.js';
import { AmbiguousOrder, isRemote } from '../../src/kernel/errors.js';
import type { Api } from './model-process.js';
import { PORT_APPEARS_WITHIN_MS, type Kind, type Seen } from './model-world.js';

const state = z.enum(['PROVISIONING', 'READY', 'FAILED']);
const label = z.string();
const ref = z.string();

const SCHEMAS = {
  port: z.object({ speed: z.number(), label }).strict(),
  vxc: z.object({ ref, vlan: z.number(), rate: z.number(), label }).strict(),
  gateway: z.object({ name: z.string(), zone: z.string(), label }).strict(),
  link: z.object({ ref, size: z.number(), label }).strict(),
  route: z.object({ ref, size: z.number(), label }).strict(),
} satisfies Record<Kind, z.ZodObject>;

/** The token of a kind's type: `model:Port` in a manifest. */
export function tokenOf(kind: Kind): string {
  return `model:index/${kind}:${kind[0].toUpperCase()}${kind.slice(1)}`;
}

const api = (ctx: ResourceContext): Api => ctx.client as Api;

/** How every kind reports readiness: its state. */
const readiness: Provisioning = {
  ready: (outputs) => outputs.state === 'READY',
  failed: (outputs) => (outputs.state === 'FAILED' ? 'FAILED' : undefined),
};

/** The verbs every kind shares: order then wait for readiness, read, update, delete. */
function verbs(kind: Kind): Pick<ResourceType, 'create' | 'read' | 'update' | 'delete' | 'provisioning'> {
  return {
    provisioning: readiness,
    async create(ctx, inputs) {
      const id = await api(ctx).order(kind, ctx.address, inputs, ctx.operationToken);
      ctx.recordId(id);
      const seen = await ctx.wait(`${kind} ${id} to be ready`, async () => {
        const now = await api(ctx).get(kind, ctx.address, id);
        return now && now.state !== 'PROVISIONING' ? { done: true, value: now } : { done: false, status: now?.state ?? 'not listed' };
      });
      if (seen.state === 'FAILED') throw new Error(`${kind} ${id} FAILED`);
      return { id, outputs: seen };
    },
    read: (ctx, id) => api(ctx).get(kind, ctx.address, id),
    update: (ctx, id, _prior, desired) => api(ctx).change(kind, ctx.address, id, desired),
    async delete(ctx, id) {
      try {
        await api(ctx).remove(kind, ctx.address, id);
      } catch (err) {
        if (!isRemote(err, 'not-found')) throw err;
      }
    },
  };
}

/** Finds what an interrupted create ordered by the token its order carried. */
function byToken(kind: Kind): ResourceType['findOwned'] {
  return async (ctx) => {
    const found = await api(ctx).findByToken(kind, ctx.address, ctx.operationToken);
    return found && { id: found.id, outputs: found.seen };
  };
}

function base(kind: Kind, description: string): Omit<ResourceType, 'replace'> {
  const inputs = SCHEMAS[kind];
  return {
    token: tokenOf(kind),
    provider: 'model',
    description,
    inputs,
    outputs: inputs.extend({ state }),
    ...verbs(kind),
  };
}

const port: ResourceType = {
  ...base('port', 'a port, listed once provisioned'),
  replace: {
    on: [{ path: 'speed', reason: 'a port cannot change speed' }],
  },
  provisioning: {
    ...readiness,
    appearsWithinMs: PORT_APPEARS_WITHIN_MS,
  },
  findOwned: byToken('port'),
  async readMany(ctx, targets) {
    const listed = await api(ctx).list('port');
    const out = new Map<string, Seen | undefined>();
    for (const t of targets) if (listed.has(t.id)) out.set(t.id, listed.get(t.id));
    return out;
  },
};

const vxc: ResourceType = {
  ...base('vxc', 'a connection on a port, holding a VLAN there'),
  replace: {
    on: [
      { path: 'vlan', reason: 'a VLAN is fixed once ordered' },
      { path: 'rate', reason: 'a rate is fixed once ordered' },
    ],
    holds: [{ what: 'VLAN on a port', paths: ['ref', 'vlan'], released: (ctx, [on, vlan]) => api(ctx).vlanFree(ctx.address, on, vlan) }],
  },
  findOwned: byToken('vxc'),
};

const gateway: ResourceType = {
  ...base('gateway', 'a gateway whose name is unique'),
  replace: {
    on: [
      { path: 'name', reason: 'a gateway cannot be renamed' },
      { path: 'zone', reason: 'a gateway cannot move' },
    ],
    holds: [{ what: 'gateway name', paths: ['name'] }],
  },
  // No tags: the only gateway of that name ordered since the order began that state does not hold.
  async findOwned(ctx, inputs, order): Promise<Created<Seen> | undefined> {
    if (!inputs) return undefined;
    const found = (await api(ctx).findByName('gateway', ctx.address, inputs.name)).filter((g) => g.orderedAt >= order.earliestMs && !order.recorded(g.id));
    if (found.length > 1)
      throw new AmbiguousOrder(
        `gateway named "${String(inputs.name)}"`,
        found.map((g) => g.id),
      );
    return found[0] && { id: found[0].id, outputs: found[0].seen };
  },
};

const link: ResourceType = {
  ...base('link', 'a link on a gateway, replaced delete-first'),
  replace: {
    on: [
      { path: 'ref', reason: 'a link cannot move to another gateway' },
      { path: 'size', reason: 'a link cannot be resized' },
    ],
    deleteFirst: true,
  },
};

const route: ResourceType = {
  ...base('route', 'a route over a link'),
  replace: {
    on: [
      { path: 'ref', reason: 'a route cannot move to another link' },
      { path: 'size', reason: 'a route cannot be resized' },
    ],
  },
  findOwned: byToken('route'),
};

/** The model's types by token. */
export const MODEL_TYPES: ReadonlyMap<string, ResourceType> = new Map([port, vxc, gateway, link, route].map((t) => [t.token, t]));

/** The kind a type token names. */
export function kindOf(token: string): Kind {
  return token.split(':')[1].split('/')[1] as Kind;
}
