/** What the engine asks of every interconnect product: whether it is ready or failed, what it holds, and what its delete means. */
import type { Claim, Provisioning } from '../../engine/contracts/resource-type.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { READY } from '../../providers/interconnect/api/products.js';
import { vlanFree } from '../../providers/interconnect/api/vlans.js';

/** Whether the product ever went live: the API dates it then (`liveDate`; an IX's `deployDate`). */
function everLive(outputs: Record<string, unknown>): boolean {
  return Boolean(outputs.liveDate ?? outputs.deployDate);
}

/**
 * Whether a product is ready for use: CONFIGURED or LIVE (a type without a status always is). A
 * product cancelled at the end of its term after it went live is ready too: it stays in service
 * until then, and waiting would never see it any readier.
 */
export function productReady(outputs: Record<string, unknown>): boolean {
  const status = outputs.provisioningStatus;
  return status === undefined || READY.includes(String(status)) || (status === 'CANCELLED' && everLive(outputs));
}

/**
 * The API's word for a product that will never be ready: FAILED (it could not be deployed), or
 * CANCELLED before it ever went live (its termination was requested while it was still on its
 * way). One that went live and was then cancelled at the end of its term is not failed: it is in
 * service until then, and replacing it would cut it now.
 */
export function productFailed(outputs: Record<string, unknown>): string | undefined {
  const status = outputs.provisioningStatus;
  if (status === 'FAILED') return 'FAILED';
  if (status === 'CANCELLED' && !everLive(outputs)) return 'CANCELLED before it was ever live';
  return undefined;
}

/** How every interconnect product provisions: ready, failed and its status, as the three above read them. */
export const productProvisioning: Provisioning = {
  ready: productReady,
  failed: productFailed,
  status: (outputs) => String(outputs.provisioningStatus),
};

/**
 * What deleting a product means for its contract: cancelled at the end of the term (it stays live
 * until then), or now, possibly with an early termination charge.
 */
export function contractNotes(outputs: Record<string, unknown>, atEndOfTerm: boolean): string[] {
  const end = outputs.contractEndDate;
  if (typeof end !== 'string' || !(Date.parse(end) > Date.now())) return [];
  return [atEndOfTerm ? `cancelled at the end of its term: it stays live until ${end.slice(0, 10)}` : `contract ends ${end.slice(0, 10)}; cancelling now may incur early termination`];
}

/**
 * A VLAN on the product an IX or a VXC end lands on, at `[product, vlan]` input paths: one
 * service per VLAN per product, and the API holds a VLAN a while after its service is cancelled
 * (reference §6.7). Free again once the Port's VLAN list offers it.
 */
export function vlanClaim(product: string, vlan: string): Claim {
  return {
    what: 'VLAN on a port',
    paths: [product, vlan],
    released: (ctx, [uid, tag]) => (typeof uid === 'string' && typeof tag === 'number' && tag > 1 ? vlanFree(ctx.client as InterconnectClient, uid, tag) : Promise.resolve(undefined)),
  };
}
