/**
 * VpnCustomerGateway: the customer's end of IPSec tunnels (the API's remote VPN gateway).
 *
 * The API has no Action that changes one, so any change replaces it; one that still has tunnels
 * cannot be deleted (the connections go first). Import by its id (`remotevpngw-…`).
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ReplaceRule, ResourceType } from '../../engine/contracts/resource-type.js';
import { APPEARS_WITHIN_MS, autoName, DEFAULT_TAG, deleteListed, listingVerbs, nameField, ownedAmong, prefixedId, remarkField, tagField, vanished, type CloudCtx } from './kit.js';
import { createAndWait } from './create.js';
import { describeAll, describeOne } from '../../providers/cloud/api/listing.js';
import { REMOTE_GATEWAY_LISTING as LISTING, type RemoteGatewayInfo } from '../../providers/cloud/api/vpn.js';

const NO_ACTION = 'the API has no Action that changes a customer (remote) VPN gateway';

/** Inputs of a VPN customer gateway. */
export const vpnCustomerGatewayInputs = z.object({
  ipAddress: z.ipv4({ message: 'ipAddress must be an IPv4 address such as 203.0.113.10' }).describe("Public IPv4 address of the customer's VPN device. Required."),
  name: nameField(),
  tag: tagField('Another value replaces the gateway; the default written out is no change.'),
  remark: remarkField('Another value replaces the gateway; an empty one written out is no change. Default empty.'),
});

/** Inputs of a VPN customer gateway. */
export type VpnCustomerGatewayInputs = z.output<typeof vpnCustomerGatewayInputs>;

/** What is read back about a VPN customer gateway. */
export const vpnCustomerGatewayOutputs = z.object({
  customerGatewayId: z.string().describe('Customer gateway id, e.g. `remotevpngw-1a2b3c4d`.'),
  ipAddress: z.string().describe("The customer device's address."),
  name: z.string().describe('Name.'),
  tag: z.string().describe('Tag.'),
  remark: z.string().describe('Remark.'),
  tunnelCount: z.number().describe('Connections that end on it.'),
  createTime: z.string().describe('When it was made (RFC 3339).'),
});

/** Observed VPN customer gateway. */
export type VpnCustomerGatewayOutputs = z.output<typeof vpnCustomerGatewayOutputs>;

function toOutputs(r: RemoteGatewayInfo): VpnCustomerGatewayOutputs {
  return {
    customerGatewayId: r.RemoteVPNGatewayId,
    ipAddress: str(r.RemoteVPNGatewayAddr),
    name: str(r.RemoteVPNGatewayName),
    tag: str(r.Tag) || DEFAULT_TAG,
    remark: str(r.Remark),
    tunnelCount: Number(r.TunnelCount ?? 0),
    createTime: rfc3339(r.CreateTime),
  };
}

const describe = (ctx: CloudCtx, id: string) => describeOne<RemoteGatewayInfo>(ctx.client, LISTING, id);
const isFor = (r: RemoteGatewayInfo, name: string, inputs: VpnCustomerGatewayInputs) => r.RemoteVPNGatewayName === name && r.RemoteVPNGatewayAddr === inputs.ipAddress;

/** The VpnCustomerGateway resource type. */
export const vpnCustomerGateway: ResourceType<VpnCustomerGatewayInputs, VpnCustomerGatewayOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/vpnCustomerGateway:VpnCustomerGateway',
  provider: 'cloud',
  description: "A VPN customer gateway: the address of the customer's VPN device, which VPN connections end on.",
  inputs: vpnCustomerGatewayInputs,
  outputs: vpnCustomerGatewayOutputs,
  diff: {
    computedInputs: ['name'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { tag: DEFAULT_TAG, remark: '' }),
    remoteManaged: ['tunnelCount', 'createTime'],
  },
  replace: {
    on: [
      { path: 'ipAddress', reason: NO_ACTION },
      { path: 'name', reason: NO_ACTION },
    ],
    when: {
      inputs: ['tag', 'remark'],
      // The default written out (tag `Default`, an empty remark) is no change.
      rules(prior, desired): ReplaceRule[] {
        const rules: ReplaceRule[] = [];
        if ((prior.tag ?? DEFAULT_TAG) !== (desired.tag ?? DEFAULT_TAG)) rules.push({ path: 'tag', reason: NO_ACTION });
        if ((prior.remark ?? '') !== (desired.remark ?? '')) rules.push({ path: 'remark', reason: NO_ACTION });
        return rules;
      },
    },
  },
  provisioning: {
    // The API lists a new customer gateway only once it is provisioned.
    appearsWithinMs: APPEARS_WITHIN_MS,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: prefixedId('remotevpngw', 'VPN customer gateway'),

  create: (ctx, inputs) =>
    createAndWait(ctx, {
      what: 'VPN customer gateway',
      action: 'CreateRemoteVPNGateway',
      params: { RemoteVPNGatewayName: inputs.name ?? autoName(ctx.address, ctx.operationToken), RemoteVPNGatewayAddr: inputs.ipAddress, Tag: inputs.tag, Remark: inputs.remark },
      idAt: 'RemoteVPNGatewayId',
      within: APPEARS_WITHIN_MS,
      findOwned: (order) => vpnCustomerGateway.findOwned!(ctx, inputs, order),
      read: (id) => vpnCustomerGateway.read(ctx, id),
    }),

  ...listingVerbs<RemoteGatewayInfo, VpnCustomerGatewayOutputs>(LISTING, (record) => toOutputs(record)),

  // No ownership marks: the one of this name and address made since the order was journaled.
  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const found = ownedAmong(
      `VPN customer gateway named "${name}"`,
      await describeAll<RemoteGatewayInfo>(ctx.client, LISTING),
      (r) => isFor(r, name, inputs),
      order,
      (r) => r.RemoteVPNGatewayId,
    );
    return found && { id: found.RemoteVPNGatewayId, outputs: toOutputs(found) };
  },

  // Every input replaces it: an update only reads it back.
  async update(ctx, id) {
    const seen = await describe(ctx, id);
    if (!seen) throw vanished('VPN customer gateway', id);
    return toOutputs(seen);
  },

  async delete(ctx, id) {
    await deleteListed(
      ctx,
      `VPN customer gateway ${id}`,
      async () => (await describe(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteRemoteVPNGateway', { RemoteVPNGatewayId: id }),
    );
  },
};
