import { badRequest, conflict, ok } from './envelope.js';
import { findProduct } from './products.js';
import { isActive, isVisible, provisioningStatus, type ProvisioningStatus } from './provisioning.js';
import type { Ctx, Handler } from './router.js';
import { connectionsOn, currentTermEnd, type ProductRecord } from './store.js';
import { isTransitVxc } from './vxc-view.js';

/** A LAG is one service: an action on any member applies to every member sharing its aggregationId. */
function serviceGroup(ctx: Ctx, p: ProductRecord): ProductRecord[] {
  if (p.productType !== 'MEGAPORT' || p.aggregationId === null) return [p];
  return Object.values(ctx.db.products).filter((m) => m.productType === 'MEGAPORT' && m.aggregationId === p.aggregationId && isVisible(m, ctx.db, ctx.clock));
}

/** VXCs and IXs landing on any product of the group, with their current status. */
function attached(ctx: Ctx, group: ProductRecord[]): Array<{ c: ProductRecord; status: ProvisioningStatus }> {
  const found = new Map<string, ProductRecord>();
  for (const g of group) for (const c of connectionsOn(ctx.db, g.productUid)) found.set(c.productUid, c);
  return [...found.values()].sort((a, b) => a.productId - b.productId).map((c) => ({ c, status: provisioningStatus(c, ctx.db, ctx.clock) }));
}

function done(action: string, uid: string) {
  return ok(`Action [${action} Service ${uid}] has been done.`);
}

function cancelNow(ctx: Ctx, p: ProductRecord, group: ProductRecord[], status: ProvisioningStatus) {
  if (status === 'DECOMMISSIONED') throw conflict(`Service ${p.productUid} has already been decommissioned`);
  if (status === 'DECOMMISSIONING' || status === 'CANCELLED_PARENT') return done('CANCEL_NOW', p.productUid);
  if (group.some((g) => g.locked)) throw conflict(`Service ${p.productUid} is locked; unlock it before cancelling`);
  const children = attached(ctx, group);
  const lockedChild = children.find(({ c, status: s }) => c.locked && s !== 'DECOMMISSIONED');
  if (lockedChild) throw conflict(`Service ${p.productUid} cannot be cancelled: the attached service ${lockedChild.c.productUid} is locked`);
  if (ctx.req.query.get('safeDelete') === 'true') {
    const live = children.filter(({ status: s }) => isActive(s) || s === 'CANCELLED').map(({ c }) => c.productUid);
    if (live.length) {
      throw badRequest(`Service ${p.productUid} cannot be deleted while services are attached to it (safeDelete): ${live.join(', ')}`);
    }
  }
  const now = ctx.clock.now;
  for (const g of group) g.cancel = { mode: 'now', requestedAt: now, terminateAt: now };
  return done('CANCEL_NOW', p.productUid);
}

/**
 * CANCEL keeps the service until the end of the running contract period. MCRs and Transit VXCs
 * refuse it; so do Ports and LAG Ports, as the API has since 2026-05, unless the world's
 * `refuseEndOfTermCancel` setting is off (the API as it was before). Other VXCs and IXs accept it.
 */
function cancelLater(ctx: Ctx, p: ProductRecord, group: ProductRecord[], status: ProvisioningStatus) {
  if (p.productType === 'MCR2') throw badRequest(`MCR ${p.productUid} cannot be cancelled at the end of its term; use CANCEL_NOW`);
  if (p.productType === 'MEGAPORT' && ctx.world.settings().refuseEndOfTermCancel) {
    const what = group.length > 1 || p.aggregationId !== null ? 'LAG Port' : 'Port';
    throw badRequest(`${what} ${p.productUid} cannot be cancelled at the end of its term: delayed cancellation (CANCEL) is no longer accepted for Ports and LAG Ports; use CANCEL_NOW`);
  }
  if (p.productType === 'VXC' && isTransitVxc(p, ctx.db)) {
    throw badRequest(`Transit VXC ${p.productUid} cannot be cancelled at the end of its term; use CANCEL_NOW`);
  }
  if (status === 'DECOMMISSIONED') throw conflict(`Service ${p.productUid} has already been decommissioned`);
  if (status === 'CANCELLED') return done('CANCEL', p.productUid);
  if (!isActive(status)) throw badRequest(`Service ${p.productUid} cannot be cancelled while it is ${status}`);
  if (group.some((g) => g.locked)) throw conflict(`Service ${p.productUid} is locked; unlock it before cancelling`);
  const now = ctx.clock.now;
  const terminateAt = currentTermEnd(group[0] ?? p, now);
  for (const g of group) g.cancel = { mode: 'end-of-term', requestedAt: now, terminateAt };
  return done('CANCEL', p.productUid);
}

function restore(p: ProductRecord, group: ProductRecord[], status: ProvisioningStatus) {
  if (status !== 'CANCELLED' && status !== 'DECOMMISSIONING') {
    throw badRequest(`Service ${p.productUid} cannot be restored: it is ${status}, not CANCELLED`);
  }
  for (const g of group) delete g.cancel;
  return done('UN_CANCEL', p.productUid);
}

/**
 * `POST /v3/product/{uid}/action/{CANCEL_NOW|CANCEL|UN_CANCEL}`. CANCEL_NOW with `safeDelete=true`
 * refuses while services are still attached; without it, attached VXCs and IXs go
 * CANCELLED_PARENT and then DECOMMISSIONED. The product stays readable as DECOMMISSIONED.
 */
export const productAction: Handler = (ctx) => {
  const p = findProduct(ctx, ctx.params.uid);
  const action = ctx.params.action.toUpperCase();
  const group = serviceGroup(ctx, p);
  const status = provisioningStatus(p, ctx.db, ctx.clock);
  if (action === 'CANCEL_NOW') return cancelNow(ctx, p, group, status);
  if (action === 'CANCEL') return cancelLater(ctx, p, group, status);
  if (action === 'UN_CANCEL') return restore(p, group, status);
  throw badRequest(`Unknown action ${ctx.params.action}; use CANCEL_NOW, CANCEL or UN_CANCEL`);
};
