/**
 * LbSsl: a TLS certificate uploaded for the HTTPS listeners of load balancers.
 *
 * The private key is a secret input: `[secret]` in plans, sealed in state, sent only with the
 * upload and never read back (DescribeSSL reports the certificate chain and its hash, not the
 * key). The name changes in place (UpdateSSLAttribute; the upstream provider replaces the
 * certificate for it). No Action changes a certificate's content, so a new key or certificate
 * replaces it; a certificate bound to a listener cannot be deleted (4108), so its bindings go
 * first. Import by the certificate id (`ssl-…`): the key and certificate are the manifest's.
 */
import * as z from 'zod';
import { describeSsl, listSsls, type SslInfo } from '../../providers/cloud/api/ssl.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { unreportedFromManifest } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { autoName, deleteListed, listedVerbs, nameField, ownedAmong, prefixedId, vanished, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/;
const PEM_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+-----END [A-Z ]*PRIVATE KEY-----/;

/** Inputs of a certificate. */
export const lbSslInputs = z.object({
  name: nameField(),
  privateKey: z.string().regex(PEM_KEY, 'privateKey must be a PEM private key (-----BEGIN PRIVATE KEY-----…)').describe('PEM private key. A secret. Required.'),
  userCert: z.string().regex(PEM_CERT, 'userCert must be a PEM certificate (-----BEGIN CERTIFICATE-----…)').describe('PEM certificate of the server. Required.'),
  caCert: z.string().regex(PEM_CERT, 'caCert must be a PEM certificate (-----BEGIN CERTIFICATE-----…)').optional().describe('PEM certificate chain of the issuer.'),
});

/** Inputs of a certificate. */
export type LbSslInputs = z.output<typeof lbSslInputs>;

/** What is read back about a certificate (never its key). */
export const lbSslOutputs = z.object({
  sslId: z.string().describe('Certificate id, e.g. `ssl-1a2b3c4d`.'),
  name: z.string().describe('Name.'),
  hashValue: z.string().describe("The API's hash of the certificate content."),
  createTime: z.string().describe('When it was uploaded (RFC 3339).'),
});

/** Observed certificate. */
export type LbSslOutputs = z.output<typeof lbSslOutputs>;

function toOutputs(s: SslInfo): LbSslOutputs {
  return { sslId: s.SSLId, name: str(s.SSLName), hashValue: str(s.HashValue), createTime: rfc3339(s.CreateTime) };
}

/** Every certificate, read once per pass (DescribeSSL takes one SSLId or none). */
export function allSsls(ctx: CloudCtx): Promise<SslInfo[]> {
  return ctx.shared('cloud:ssls', () => listSsls(ctx.client));
}

/** The certificates, listed afresh (a search for what an upload made polls this). */
const listAfresh = (ctx: CloudCtx) => listSsls(ctx.client);

/** The LbSsl resource type. */
export const lbSsl: ResourceType<LbSslInputs, LbSslOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/lbSsl:LbSsl',
  provider: 'cloud',
  description: 'A TLS certificate for HTTPS listeners; its private key is a secret input, never read back. Renamed in place. Import id: the certificate id (`ssl-…`).',
  inputs: lbSslInputs,
  outputs: lbSslOutputs,
  secrets: {
    paths: ['privateKey'],
  },
  diff: {
    computedInputs: ['name'],
    // The API never reports the key or the certificates sent: an imported certificate takes the manifest's.
    asDeclared: (recorded, _outputs, desired, origin) => unreportedFromManifest(recorded, desired, ['privateKey', 'userCert', 'caCert'], origin),
    remoteManaged: ['hashValue', 'createTime'],
  },
  replace: {
    on: [
      { path: 'privateKey', reason: "no Action changes a certificate's content (UpdateSSLAttribute renames it only)" },
      { path: 'userCert', reason: "no Action changes a certificate's content (UpdateSSLAttribute renames it only)" },
      { path: 'caCert', reason: "no Action changes a certificate's content (UpdateSSLAttribute renames it only)" },
    ],
  },
  provisioning: {
    // An uploaded certificate is listed as soon as CreateSSL answers.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: prefixedId('ssl', 'certificate'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'certificate',
      action: 'CreateSSL',
      params: { SSLName: inputs.name ?? autoName(ctx.address, ctx.operationToken), SSLType: 'Pem', UserCert: inputs.userCert, PrivateKey: inputs.privateKey, CaCert: inputs.caCert },
      idAt: 'SSLId',
      within: 0,
      findOwned: (order) => lbSsl.findOwned!(ctx, inputs, order),
      read: (id) => lbSsl.read(ctx, id),
    }),

  ...listedVerbs<LbSslOutputs>(
    async (ctx) => (await allSsls(ctx)).map((s) => ({ id: s.SSLId, outputs: toOutputs(s) })),
    async (ctx, id) => {
      const seen = await describeSsl(ctx.client, id);
      return seen && toOutputs(seen);
    },
  ),

  // A default name carries the order's token; a given one identifies the upload made since the order.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `certificate ${name}`,
      await listAfresh(ctx),
      (s) => s.SSLName === name,
      order,
      (s) => s.SSLId,
    );
    return found && { id: found.SSLId, outputs: toOutputs(found) };
  },

  async update(ctx, id, _prior, desired) {
    const live = await describeSsl(ctx.client, id);
    if (!live) throw vanished('certificate', id);
    if (desired.name !== undefined && desired.name !== live.SSLName) await ctx.client.call('UpdateSSLAttribute', { SSLId: id, SSLName: desired.name });
    const after = await describeSsl(ctx.client, id);
    if (!after) throw vanished('certificate', id);
    return toOutputs(after);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `certificate ${id}`,
      async () => (await describeSsl(ctx.client, id)) !== undefined,
      () => ctx.client.call('DeleteSSL', { SSLId: id }),
    );
  },
};
