/**
 * LbAttachment: an instance serving a listener of a load balancer on one of its ports (a backend).
 *
 * Port, weight, enabled and backup change in place (one UpdateBackendAttribute call); another
 * instance or listener is another backend (ReleaseBackend, then AllocateBackend). A backend a
 * rule forwards to cannot be released (the API refuses with 4110), so rules go first; replaced
 * keeping its instance's port on the listener (4109) while a rule the plan keeps forwards to it, it
 * can be replaced in neither order, and the plan is refused before any call (usedBy).
 * Import by `<lb_id>/<vserver_id>/<backend_id>`.
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { int, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { deleteListed, listedVerbs, noId, pathId, vanished, waitListed, type CloudCtx } from './kit.js';
import { lbRule } from './lb-rule.js';
import { allLbs, allVServers, describeLb, vserverOf, type BackendInfo } from './ulb.js';

/** Inputs of a backend. */
export const lbAttachmentInputs = z.object({
  lbId: z.string().min(1).describe('Id of the load balancer (`ulb-…`). Required.'),
  listenerId: z.string().min(1).describe('Id of the listener (`vserver-…`). Required.'),
  resourceId: z.string().min(1).describe('Id of the instance (`uhost-…`). Required.'),
  port: z.number().int().min(1).max(65535).optional().describe('Port of the instance the traffic goes to, once per instance on a listener. Default 80.'),
  weight: z.number().int().min(1).max(100).optional().describe('Share of the traffic, 1–100, for `weight_roundrobin` listeners. Default 1.'),
  enabled: z.boolean().optional().describe('Whether it takes traffic. Default true.'),
  backup: z.boolean().optional().describe('A standby, used only when the others fail. Default false.'),
});

/** Inputs of a backend. */
export type LbAttachmentInputs = z.output<typeof lbAttachmentInputs>;

/** What is read back about a backend. */
export const lbAttachmentOutputs = z.object({
  backendId: z.string().describe('Backend id, e.g. `backend-1a2b3c4d`.'),
  lbId: z.string().describe('Id of its load balancer.'),
  listenerId: z.string().describe('Id of its listener.'),
  resourceId: z.string().describe('Id of the instance.'),
  port: z.number().describe('Port.'),
  weight: z.number().describe('Weight.'),
  enabled: z.boolean().describe('Whether it takes traffic.'),
  backup: z.boolean().describe('Whether it is a standby.'),
  privateIp: z.string().describe('Address the traffic goes to.'),
  status: z.enum(['healthy', 'unhealthy']).describe('What the health check last found.'),
});

/** Observed backend. */
export type LbAttachmentOutputs = z.output<typeof lbAttachmentOutputs>;

const ID = pathId('load balancer attachment', [
  ['lb_id', 'ulb'],
  ['vserver_id', 'vserver'],
  ['backend_id', 'backend'],
]);

function toOutputs(lbId: string, listenerId: string, b: BackendInfo): LbAttachmentOutputs {
  return {
    backendId: b.BackendId,
    lbId,
    listenerId,
    resourceId: str(b.ResourceId),
    port: int(b.Port),
    weight: int(b.Weight ?? 1),
    enabled: int(b.Enabled ?? 1) === 1,
    backup: int(b.IsBackup) === 1,
    privateIp: str(b.PrivateIP),
    status: int(b.Status) === 0 ? 'healthy' : 'unhealthy',
  };
}

async function readBackend(ctx: CloudCtx, id: string): Promise<LbAttachmentOutputs | undefined> {
  const [lbId, vserverId, backendId] = ID.split(id);
  const b = vserverOf(await describeLb(ctx, lbId), vserverId)?.BackendSet?.find((x) => x.BackendId === backendId);
  return b && toOutputs(lbId, vserverId, b);
}

/** The backend of the instance on this port: one per listener (4109), so what a create of it made. */
async function made(ctx: CloudCtx, inputs: LbAttachmentInputs): Promise<BackendInfo | undefined> {
  const vs = vserverOf(await describeLb(ctx, inputs.lbId), inputs.listenerId);
  return vs?.BackendSet?.find((b) => b.ResourceId === inputs.resourceId && int(b.Port) === (inputs.port ?? 80));
}

/** The in-place settings as UpdateBackendAttribute (and AllocateBackend) name them, defaults filled. */
function settings(inputs: Pick<LbAttachmentInputs, 'port' | 'weight' | 'enabled' | 'backup'>): Record<string, number> {
  return { Port: inputs.port ?? 80, Weight: inputs.weight ?? 1, Enabled: inputs.enabled === false ? 0 : 1, IsBackup: inputs.backup ? 1 : 0 };
}

/** The LbAttachment resource type. */
export const lbAttachment: ResourceType<LbAttachmentInputs, LbAttachmentOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/lbAttachment:LbAttachment',
  provider: 'cloud',
  description: 'An instance serving a listener on one of its ports (a backend); port, weight, enabled and backup change in place. Import id: `<lb_id>/<vserver_id>/<backend_id>`.',
  inputs: lbAttachmentInputs,
  outputs: lbAttachmentOutputs,
  diff: {
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { port: 80, weight: 1, enabled: true, backup: false }),
    remoteManaged: ['privateIp', 'status'],
  },
  replace: {
    on: [
      { path: 'lbId', reason: 'a backend belongs to one balancer: another is another backend' },
      { path: 'listenerId', reason: 'a backend belongs to one listener: UpdateBackendAttribute cannot move it' },
      { path: 'resourceId', reason: 'UpdateBackendAttribute cannot change the instance a backend is' },
    ],
    // A listener takes an instance's port once (4109): a backend replaced keeping both is deleted first.
    holds: [{ what: 'port of an instance on a listener', paths: ['listenerId', 'resourceId', 'port'], defaults: { port: () => 80 } }],
    // A rule names its backends by backendId; a backend one forwards to cannot be released (4110).
    usedBy: [{ token: lbRule.token, path: 'backendIds[]', output: 'backendId', refusal: 'the API refuses to release a backend a rule forwards to (4110)' }],
  },
  provisioning: {
    // A backend is part of its listener's record, listed as soon as AllocateBackend answers.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: ID,

  async create(ctx, inputs) {
    const body = await ctx.client.call<{ BackendId?: string }>(
      'AllocateBackend',
      { ULBId: inputs.lbId, VServerId: inputs.listenerId, ResourceType: 'UHost', ResourceId: inputs.resourceId, ...settings(inputs) },
      {
        recover: async () => {
          const found = await made(ctx, inputs);
          return found && { RetCode: 0, BackendId: found.BackendId };
        },
      },
    );
    if (!body.BackendId) throw noId('AllocateBackend', 'BackendId');
    const id = `${inputs.lbId}/${inputs.listenerId}/${body.BackendId}`;
    ctx.recordId(id);
    return { id, outputs: await waitListed(ctx, `backend ${id}`, () => readBackend(ctx, id)) };
  },

  ...listedVerbs<LbAttachmentOutputs>(
    async (ctx) =>
      allVServers(await allLbs(ctx)).flatMap(({ lb, vs }) => (vs.BackendSet ?? []).map((b) => ({ id: `${lb.ULBId}/${vs.VServerId}/${b.BackendId}`, outputs: toOutputs(lb.ULBId, vs.VServerId, b) }))),
    readBackend,
  ),

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = await made(ctx, inputs);
    const id = found && `${inputs.lbId}/${inputs.listenerId}/${found.BackendId}`;
    return id && !order.recorded(id) ? { id, outputs: toOutputs(inputs.lbId, inputs.listenerId, found) } : undefined;
  },

  async update(ctx, id, _prior, desired) {
    const [lbId, , backendId] = ID.split(id);
    const seen = await readBackend(ctx, id);
    if (!seen) throw vanished('backend', id);
    const current = settings(seen);
    const changes = Object.fromEntries(Object.entries(settings(desired)).filter(([k, v]) => v !== current[k]));
    if (Object.keys(changes).length) await ctx.client.call('UpdateBackendAttribute', { ULBId: lbId, BackendId: backendId, ...changes });
    const after = await readBackend(ctx, id);
    if (!after) throw vanished('backend', id);
    return after;
  },

  async delete(ctx, id) {
    const [lbId, , backendId] = ID.split(id);
    await deleteListed(
      ctx,
      `backend ${id}`,
      async () => (await readBackend(ctx, id)) !== undefined,
      () => ctx.client.call('ReleaseBackend', { ULBId: lbId, BackendId: backendId }),
    );
  },
};
