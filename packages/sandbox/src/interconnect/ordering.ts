import { isObject, ok, validationFailed } from './envelope.js';
import type { OrderChecker, OrderPlan, OrderScope } from './order-common.js';
import { checkIxOrder, checkVxcOrder } from './order-connections.js';
import { checkMcrOrder, checkMveOrder, checkPortOrder } from './order-services.js';
import type { Clock } from './provisioning.js';
import { validateLineItems } from './pricebook.js';
import type { Handler } from './router.js';
import { indexConnection, type InterconnectDb } from './store.js';

/** Which checker an order item needs: by productType, else by the connection list it carries. */
function checkerFor(item: Record<string, unknown>): OrderChecker | undefined {
  const type = typeof item.productType === 'string' ? item.productType.toUpperCase() : undefined;
  if (type === 'MEGAPORT') return checkPortOrder;
  if (type === 'MCR2' || type === 'MCR') return checkMcrOrder;
  if (type === 'MVE') return checkMveOrder;
  if (item.associatedVxcs !== undefined || type === 'VXC') return checkVxcOrder;
  if (item.associatedIxs !== undefined || type === 'IX') return checkIxOrder;
  return undefined;
}

/** Checks a whole network design; items see the VLANs and tunnels of the items before them. */
function checkDesign(items: unknown[], db: InterconnectDb, clock: Clock): { scope: OrderScope; plans: OrderPlan[]; ordered: Array<Record<string, unknown>>; errors: string[] } {
  const scope: OrderScope = {
    db,
    clock,
    nextProductId: db.nextProductId,
    nextAggregationId: db.nextAggregationId,
    pendingVlans: [],
    pendingTunnels: new Map(),
  };
  const errors: string[] = [];
  const plans: OrderPlan[] = [];
  /** The order item each plan came from, in step with `plans`. */
  const ordered: Array<Record<string, unknown>> = [];
  if (!items.length) errors.push('At least one order is required');
  for (const item of items) {
    if (!isObject(item)) {
      errors.push('Each order must be an object');
      continue;
    }
    const checker = checkerFor(item);
    if (!checker) {
      errors.push(`Unknown productType ${String(item.productType ?? '(none)')}`);
      continue;
    }
    const plan = checker(item, scope, errors);
    if (plan) {
      plans.push(plan);
      ordered.push(item);
    }
  }
  return { scope, plans, ordered, errors };
}

/**
 * `POST /v3/networkdesign/validate`: takes the bare array of orders; 400 `Validation failed` lists
 * every broken rule; a valid design answers one line item with its `price` per product it orders.
 */
export const validateDesign: Handler = (ctx) => {
  const body = ctx.req.body;
  if (!Array.isArray(body)) throw validationFailed(['The request body must be a JSON list of orders']);
  const { plans, ordered, errors } = checkDesign(body, ctx.db, ctx.clock);
  if (errors.length) throw validationFailed(errors);
  return ok(
    'Validation passed',
    plans.flatMap((plan, i) => validateLineItems(ordered[i], plan, ctx.db)),
  );
};

function buyMessage(plans: OrderPlan[]): string {
  if (plans.length !== 1) return `${plans.reduce((n, p) => n + p.records.length, 0)} services created.`;
  const [plan] = plans;
  return `${plan.kind} [${plan.records.map((r) => r.productUid).join(', ')}] created.`;
}

/**
 * `POST /v4/networkdesign/buy`: `{networkDesign: [...], discountCodes: []}`. All or nothing: the
 * design is checked as validate does, then every product is created DEPLOYABLE (NEW for pre-orders).
 */
export const buyDesign: Handler = (ctx) => {
  const body = ctx.req.body;
  if (!isObject(body) || !Array.isArray(body.networkDesign)) {
    throw validationFailed(['The request body must be {"networkDesign": [orders], "discountCodes": []}']);
  }
  if (body.discountCodes !== undefined && !Array.isArray(body.discountCodes)) throw validationFailed(['discountCodes must be a list']);
  const { scope, plans, errors } = checkDesign(body.networkDesign, ctx.db, ctx.clock);
  if (errors.length) throw validationFailed(errors);
  for (const plan of plans) {
    for (const record of plan.records) {
      ctx.db.products[record.productUid] = record;
      indexConnection(ctx.db, record);
    }
    for (const effect of plan.effects) effect(ctx.db);
  }
  ctx.db.nextProductId = scope.nextProductId;
  ctx.db.nextAggregationId = scope.nextAggregationId;
  return ok(
    buyMessage(plans),
    plans.flatMap((p) => p.reply),
  );
};
