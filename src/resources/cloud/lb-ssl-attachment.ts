/**
 * LbSslAttachment: the certificate of an HTTPS listener (BindSSL), unbound on delete.
 *
 * An HTTPS listener holds one certificate, so a binding is named by its listener. Another
 * certificate is swapped in place: one UpdateSSLBinding call, with no moment without one (the API
 * documents it for every CLB and ALB listener; it was once open on request only). Where the API
 * does not offer it to the account, the old certificate is unbound and the new one bound
 * (UnbindSSL, BindSSL), leaving the listener without one between the two calls, and the run says
 * so; the plan says both. Another listener is another binding. Import by `<lb_id>/<vserver_id>`.
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { ActionNotOffered } from '../../providers/cloud/retcodes.js';
import { deleteListed, listedVerbs, pathId, vanished, waitUntilRead, type CloudCtx } from './kit.js';
import { allLbs, allVServers, describeLb, vserverOf, type VServerInfo } from './ulb.js';

/** Inputs of a certificate binding. */
export const lbSslAttachmentInputs = z.object({
  lbId: z.string().min(1).describe('Id of the load balancer (`ulb-…`). Required.'),
  listenerId: z.string().min(1).describe('Id of the HTTPS listener (`vserver-…`). Required.'),
  sslId: z
    .string()
    .min(1)
    .describe(
      'Id of the certificate (`ssl-…`). Required. Swapped in place (UpdateSSLBinding); where the API does not offer that Action to the account, unbound and bound again (UnbindSSL, BindSSL), the listener without a certificate in between.',
    ),
});

/** Inputs of a certificate binding. */
export type LbSslAttachmentInputs = z.output<typeof lbSslAttachmentInputs>;

/** What is read back about a certificate binding. */
export const lbSslAttachmentOutputs = z.object({
  lbId: z.string().describe('Id of the load balancer.'),
  listenerId: z.string().describe('Id of the listener.'),
  sslId: z.string().describe('Id of the certificate bound.'),
});

/** Observed certificate binding. */
export type LbSslAttachmentOutputs = z.output<typeof lbSslAttachmentOutputs>;

const ID = pathId('certificate binding', [
  ['lb_id', 'ulb'],
  ['vserver_id', 'vserver'],
]);

function toOutputs(lbId: string, vs: VServerInfo | undefined): LbSslAttachmentOutputs | undefined {
  const ssl = vs?.SSLSet?.[0]?.SSLId;
  return vs && ssl ? { lbId, listenerId: vs.VServerId, sslId: ssl } : undefined;
}

async function readBinding(ctx: CloudCtx, id: string): Promise<LbSslAttachmentOutputs | undefined> {
  const [lbId, vserverId] = ID.split(id);
  return toOutputs(lbId, vserverOf(await describeLb(ctx, lbId), vserverId));
}

/** Waits until the listener holds this certificate. */
function waitBound(ctx: CloudCtx, id: string, sslId: string): Promise<LbSslAttachmentOutputs> {
  return waitUntilRead(
    ctx,
    `certificate ${sslId} on ${id}`,
    () => readBinding(ctx, id),
    (b) => b?.sslId === sslId,
  );
}

/** What the plan says of a certificate swap, and of the way it takes where the swap Action is not offered. */
export const SWAP_NOTE =
  'swapped in one call (UpdateSSLBinding), the listener never without a certificate; where the API does not offer UpdateSSLBinding to the account, the old one is unbound and the new one bound (UnbindSSL, BindSSL), and the listener serves no certificate between the two calls';

/** The LbSslAttachment resource type. */
export const lbSslAttachment: ResourceType<LbSslAttachmentInputs, LbSslAttachmentOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/lbSslAttachment:LbSslAttachment',
  provider: 'cloud',
  description: 'The certificate of an HTTPS listener (BindSSL); another certificate is swapped in place (UpdateSSLBinding). Import id: `<lb_id>/<vserver_id>`.',
  inputs: lbSslAttachmentInputs,
  outputs: lbSslAttachmentOutputs,
  replace: {
    on: [
      { path: 'lbId', reason: 'a binding is of one listener: UnbindSSL there, then BindSSL' },
      { path: 'listenerId', reason: 'a binding is of one listener: UnbindSSL there, then BindSSL' },
    ],
    // A listener holds one certificate: a binding replaced on the same listener is unbound first.
    holds: [{ what: 'certificate of a listener', paths: ['listenerId'] }],
  },
  notes: {
    update: (prior, desired) => (prior.sslId === desired.sslId ? [] : [SWAP_NOTE]),
  },
  provisioning: {
    // A bound certificate shows on its listener as soon as BindSSL answers.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: ID,

  async create(ctx, inputs) {
    await ctx.client.call('BindSSL', { SSLId: inputs.sslId, ULBId: inputs.lbId, VServerId: inputs.listenerId });
    const id = `${inputs.lbId}/${inputs.listenerId}`;
    ctx.recordId(id);
    return { id, outputs: await waitBound(ctx, id, inputs.sslId) };
  },

  ...listedVerbs<LbSslAttachmentOutputs>(
    async (ctx) =>
      allVServers(await allLbs(ctx)).flatMap(({ lb, vs }) => {
        const outputs = toOutputs(lb.ULBId, vs);
        return outputs ? [{ id: `${lb.ULBId}/${vs.VServerId}`, outputs }] : [];
      }),
    readBinding,
  ),

  // The id says what the binding is: an interrupted bind made this one if the listener holds the certificate.
  async findOwned(ctx, inputs) {
    if (!inputs) return undefined;
    const id = `${inputs.lbId}/${inputs.listenerId}`;
    const seen = await readBinding(ctx, id);
    return seen?.sslId === inputs.sslId ? { id, outputs: seen } : undefined;
  },

  async update(ctx, id, _prior, desired) {
    const [lbId, vserverId] = ID.split(id);
    const seen = await readBinding(ctx, id);
    if (!seen) throw vanished('certificate binding', id);
    if (seen.sslId === desired.sslId) return seen;
    try {
      await ctx.client.call('UpdateSSLBinding', { OldSSLId: seen.sslId, NewSSLId: desired.sslId, LoadBalancerId: lbId, ListenerId: vserverId });
    } catch (err) {
      if (!(err instanceof ActionNotOffered)) throw err;
      await ctx.client.call('UnbindSSL', { SSLId: seen.sslId, ULBId: lbId, VServerId: vserverId });
      await ctx.client.call('BindSSL', { SSLId: desired.sslId, ULBId: lbId, VServerId: vserverId });
      ctx.warn(
        `the API does not offer UpdateSSLBinding to this account: certificate ${seen.sslId} was unbound from listener ${vserverId} and ${desired.sslId} bound (UnbindSSL, BindSSL); the listener served no certificate between the two calls`,
      );
    }
    return waitBound(ctx, id, desired.sslId);
  },

  async delete(ctx, id) {
    const [lbId, vserverId] = ID.split(id);
    const unbind = async () => {
      const seen = await readBinding(ctx, id);
      if (seen) await ctx.client.call('UnbindSSL', { SSLId: seen.sslId, ULBId: lbId, VServerId: vserverId });
    };
    await deleteListed(ctx, `certificate binding ${id}`, async () => (await readBinding(ctx, id)) !== undefined, unbind);
  },
};
