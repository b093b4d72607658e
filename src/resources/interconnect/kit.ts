/**
 * What every interconnect resource type repeats: products listed and read once per pass, orders
 * and the finding of what a lost one made, waits for provisioning, cancellation, tags as the
 * user's and as plumb's ownership marks, and import ids of two parts.
 */
import { UserError, WaitTimedOut, isRemote } from '../../kernel/errors.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { order as orderItem, type Finder, type Memo } from '../../providers/interconnect/api/orders.js';
import { GONE, READY, isType, listAllProducts, readProduct, type ApiProduct, type ProductList } from '../../providers/interconnect/api/products.js';
import { carriesToken, ownerOf, readTagList, tagList as ownedTagList, userTags, withoutOwnerTags, writeTagList, type ApiTag } from '../../providers/interconnect/api/tags.js';
import { lookAt } from '../../providers/interconnect/api/waits.js';
import type { Disowned, Ownership, ReadTarget, ResourceContext } from '../../engine/contracts/resource-type.js';

/** Handler context of every interconnect resource. */
export type Ctx = ResourceContext<InterconnectClient>;

/** Contract terms the API accepts. */
export const CONTRACT_TERMS = [1, 12, 24, 36, 48, 60] as const;

/** The diversity zones the API knows; it refuses any other name in an order. */
export const DIVERSITY_ZONES = ['red', 'blue'] as const;

/** Every product the account sees, listed once per pass of reads (see ResourceContext.shared). */
export function sharedList(ctx: Ctx): Promise<ProductList> {
  return ctx.shared('products', () => listAllProducts(ctx.client));
}

/** A product read by id, once per pass of reads; undefined when it is gone. */
export function sharedProduct(ctx: Ctx, uid: string): Promise<ApiProduct | undefined> {
  return ctx.shared(`product:${uid}`, () => readProduct(ctx.client, uid));
}

/** A product's tags, plumb's own included, read once per pass of reads. */
function sharedTagList(ctx: Pick<Ctx, 'client' | 'shared'>, uid: string): Promise<ApiTag[]> {
  return ctx.shared(`tags:${uid}`, () => readTagList(ctx.client, uid));
}

/**
 * The user tags of a product as read: read from the API (no list carries them) only when they are
 * managed, recorded in state or asked for without a record (an import); else as last recorded.
 */
export async function observedTags(ctx: Ctx, uid: string, prior: { inputs: { resourceTags?: unknown }; outputs: { resourceTags?: unknown } } | undefined): Promise<Record<string, string>> {
  if (!prior || prior.inputs.resourceTags !== undefined) return userTags(await sharedTagList(ctx, uid));
  return (prior.outputs.resourceTags ?? {}) as Record<string, string>;
}

/** The user tags once an update has run: the desired ones (written when they changed), else as recorded. */
export function tagsAfterUpdate(
  prior: { inputs: { resourceTags?: Record<string, string> }; outputs: { resourceTags?: unknown } },
  desired: { resourceTags?: Record<string, string> },
): Record<string, string> {
  if (desired.resourceTags !== undefined || prior.inputs.resourceTags !== undefined) return { ...desired.resourceTags };
  return (prior.outputs.resourceTags ?? {}) as Record<string, string>;
}

/**
 * The bulk read of a product type: each target the shared product list shows as a product of
 * this type (and `accept`s), described by `observe`; one it shows gone is undefined, and one it
 * does not show (or shows as something else) is left for a read by id.
 */
export async function readListed<Out>(
  ctx: Ctx,
  targets: Array<ReadTarget<any, any>>,
  productType: string,
  observe: (p: ApiProduct, target: ReadTarget<any, any>, list: ProductList) => Promise<Out> | Out,
  accept: (p: ApiProduct) => boolean = () => true,
): Promise<Map<string, Out | undefined>> {
  const list = await sharedList(ctx);
  const out = new Map<string, Out | undefined>();
  await mapLimited(targets, async (target) => {
    const p = list.byUid.get(target.id);
    if (!p || !isType(p, productType) || !accept(p)) return;
    out.set(target.id, GONE.includes(p.provisioningStatus) ? undefined : await observe(p, target, list));
  });
  return out;
}

/** Runs `fn` for each item, ten at a time (the per-object calls of a bulk read never flood the API), results in the items' order. */
export async function mapLimited<T, R>(items: T[], fn: (item: T) => Promise<R>, limit = 10): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Waits until the product is CONFIGURED or LIVE and returns it, within `limitMs` (default: the
 * operation's wait time), paced as ResourceContext.wait paces (from the client's poll interval to
 * 10 s apart). Each look goes through the shared poller: every product waiting is answered by one
 * product list per round (see api/waits.ts). Throws WaitTimedOut when the time runs out (the
 * product is still on its way), and a plain error when the API says it never will be ready:
 * CANCELLED, FAILED, or no longer listed.
 */
export function waitReady(ctx: Ctx, uid: string, what: string, limitMs?: number): Promise<ApiProduct> {
  const pace = { firstMs: ctx.client.pollEveryMs(), maxMs: 10_000, ...(limitMs === undefined ? {} : { limitMs }) };
  return ctx.wait<ApiProduct>(
    `${what} ${uid} to be ready`,
    async () => {
      const product = await lookAt(ctx.client, uid);
      if (!product || GONE.includes(product.provisioningStatus)) {
        throw new Error(`${what} ${uid} is no longer listed by the API (cancelled or decommissioned) while waiting for it to be ready; run plan to see what the next apply makes of it`);
      }
      const status = product.provisioningStatus;
      if (status === 'CANCELLED' || status === 'FAILED') {
        throw new Error(`${what} ${uid} is ${status} instead of ready: the API will not make it ready; run plan to see what the next apply makes of it`);
      }
      if (!READY.includes(status)) return { done: false, status };
      ctx.progress(status);
      return { done: true, value: product };
    },
    pace,
  );
}

/** How long is left of a wait of `limitMs` from now, for a create that waits several times within its one wait time. */
export function timeLeft(limitMs: number): () => number {
  const until = Date.now() + limitMs;
  return () => Math.max(0, until - Date.now());
}

/**
 * Validates then buys one order item, with whatever other steps order at the same moment, and
 * returns the product UIDs the API assigned. A buy whose answer is lost is never repeated
 * blindly: `find` (by default: a product of the item's type, under its name first, carrying
 * this operation's ownership tag) says first whether it went through.
 */
export async function order(ctx: Ctx, item: Record<string, unknown>, find?: Finder): Promise<string[]> {
  const type = typeof item.productType === 'string' ? item.productType.toUpperCase() : undefined;
  const byToken: Finder | undefined =
    type === undefined
      ? undefined
      : async (memo) =>
          (
            await findByToken(
              ctx,
              (await freshList(ctx, memo)).top.filter((p) => isType(p, type)),
              String(item.productName),
              memo,
            )
          )?.productUid;
  return orderItem(ctx.client, item, find ?? byToken);
}

/** The product list of one recovery attempt: fresh, since it must show what the lost answer made. */
export function freshList(ctx: Pick<Ctx, 'client'>, memo: Memo): Promise<ProductList> {
  return memo.shared('products', () => listAllProducts(ctx.client));
}

/**
 * The live product among `candidates` whose ownership tag carries this operation's token. Those
 * of the ordered name are looked at first: the rest only when none of them is it.
 */
export async function findByToken(ctx: Pick<Ctx, 'client' | 'operationToken'>, candidates: ApiProduct[], name: string | undefined, memo: Memo): Promise<ApiProduct | undefined> {
  const live = candidates.filter((p) => !GONE.includes(p.provisioningStatus) && p.provisioningStatus !== 'CANCELLED');
  const named = live.filter((p) => p.productName === name);
  for (const p of [...named, ...live.filter((p) => !named.includes(p))]) {
    const tags = await memo.shared(`tags:${p.productUid}`, () => readTagList(ctx.client, p.productUid));
    if (carriesToken(tags, ctx.operationToken)) return p;
  }
  return undefined;
}

/**
 * Cancels a product now or at the end of its term; an already-gone product is success. A
 * cancel whose answer is lost is checked by reading the product before it is sent again.
 */
export async function cancel(ctx: Ctx, uid: string, mode: 'CANCEL' | 'CANCEL_NOW', safeDelete: boolean): Promise<void> {
  const done = (product: ApiProduct | undefined) => !product || (mode === 'CANCEL' && product.provisioningStatus === 'CANCELLED');
  if (done(await readProduct(ctx.client, uid))) return;
  try {
    await ctx.client.post(`/v3/product/${encodeURIComponent(uid)}/action/${mode}`, undefined, safeDelete ? { safeDelete: 'true' } : undefined, {
      recover: async () => (done(await readProduct(ctx.client, uid)) ? { message: 'cancelled', data: undefined } : undefined),
    });
  } catch (err) {
    if (isRemote(err, 'not-found')) return;
    if (isRemote(err, 'invalid', 'conflict') && safeDelete) {
      throw new UserError(`${err.message} (the product still has attached services; delete them first)`);
    }
    throw err;
  }
}

/**
 * The modify call of a Port, LAG, MCR or MVE (`PUT /v2/product/{kind}/{uid}`), sent when any of
 * `fields` (input name → wire name) or `extra` changed, then the tags PUT when they changed. The
 * cost centre is always in the body: the API clears it when it is left out.
 */
export async function modifyProduct(
  ctx: Ctx,
  kind: 'megaport' | 'mcr2' | 'mve',
  uid: string,
  prior: { inputs: Record<string, any>; outputs: Record<string, any> },
  desired: Record<string, any>,
  fields: Array<[string, string]>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const body: Record<string, unknown> = { ...extra };
  for (const [field, wire] of fields) if (desired[field] !== undefined && desired[field] !== prior.inputs[field]) body[wire] = desired[field];
  if ((desired.costCentre ?? '') !== (prior.inputs.costCentre ?? '')) body.costCentre = desired.costCentre ?? '';
  if (Object.keys(body).length) {
    body.costCentre ??= desired.costCentre ?? prior.outputs.costCentre ?? '';
    await ctx.client.put(`/v2/product/${kind}/${encodeURIComponent(uid)}`, body);
  }
  if (!sameTags(desired.resourceTags, prior.inputs.resourceTags)) await writeTags(ctx, uid, desired.resourceTags);
}

/**
 * The user tags of a product this operation just ordered with `tagList(ctx, tags)`. The API
 * stores an order's tags as sent (reference §3.11), so reading them back right after the order
 * (a GET per created product) would only return these again.
 */
export function orderedTags(tags: Record<string, string> | undefined): Record<string, string> {
  return { ...tags };
}

/** Replaces the product's tags with the user's tags plus plumb's ownership tags. */
export async function writeTags(ctx: Ctx, uid: string, tags: Record<string, string> | undefined): Promise<void> {
  await writeTagList(ctx.client, uid, tagList(ctx, tags));
}

/** The tag list sent at order time: user tags plus ownership tags. */
export function tagList(ctx: Ctx, tags: Record<string, string> | undefined): ApiTag[] {
  return ownedTagList(ctx, tags);
}

/** Whose product plumb's ownership tags say it is; undefined for one without them (not ordered by plumb). */
export async function productOwner(ctx: Ctx, uid: string): Promise<Ownership | undefined> {
  return ownerOf(await sharedTagList(ctx, uid));
}

/**
 * Removes plumb's ownership tags from a product, keeping the user's: its tags are read (fresh, not
 * from the pass) and written back without them, with one PUT, only when it carries some. A product
 * that is gone is left alone.
 */
export async function productDisown(ctx: Ctx, uid: string): Promise<Disowned> {
  if (!(await readProduct(ctx.client, uid))) return 'gone';
  const tags = await readTagList(ctx.client, uid);
  const kept = withoutOwnerTags(tags);
  if (kept.length === tags.length) return 'unmarked';
  await writeTagList(ctx.client, uid, kept);
  return 'removed';
}

/** Whether two tag maps hold the same tags (absent and empty are the same). */
export function sameTags(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const left = Object.entries(a ?? {}).sort(([x], [y]) => x.localeCompare(y));
  const right = Object.entries(b ?? {}).sort(([x], [y]) => x.localeCompare(y));
  return JSON.stringify(left) === JSON.stringify(right);
}

/**
 * Reads a product that must be of one productType (`MEGAPORT`, `IX`, `MVE`...); undefined when it
 * is gone. Another type is a UserError, so an import of the wrong UID never adopts a stranger.
 */
export async function readProductOfType(ctx: Ctx, uid: string, productType: string, what: string): Promise<ApiProduct | undefined> {
  const product = await sharedProduct(ctx, uid);
  if (product && !isType(product, productType)) {
    throw new UserError(`${uid} is a ${product.productType} product, not ${what}`);
  }
  return product;
}

/** The observed value, but in the prior spelling when the two differ only in case (the API normalises case; that is no change). */
export function sameSpelling(observed: unknown, prior: unknown): unknown {
  if (typeof observed === 'string' && typeof prior === 'string' && observed.toLowerCase() === prior.toLowerCase()) return prior;
  return observed ?? undefined;
}

/**
 * Runs `attempt` until it succeeds, trying again while `retryable` says its refusal is temporary
 * (a VLAN still held, a list still referenced), paced as ResourceContext.wait paces, within the
 * operation's wait time. When that runs out, the last refusal is thrown: the attempt never went
 * through, so nothing is on its way.
 */
export async function retryWithin<T>(ctx: Ctx, what: string, attempt: () => Promise<T>, retryable: (err: unknown) => boolean | Promise<boolean>): Promise<T> {
  let refusal: { err: unknown } | undefined;
  let final = false;
  try {
    return await ctx.wait<T>(
      what,
      async () => {
        try {
          return { done: true, value: await attempt() };
        } catch (err) {
          final = !(await retryable(err));
          if (final) throw err;
          refusal = { err };
          ctx.log.debug({ err: (err as Error).message, what }, 'trying again until the wait time runs out');
          return { done: false, status: what };
        }
      },
      { firstMs: ctx.client.pollBaseMs, maxMs: 10_000 },
    );
  } catch (err) {
    if (!final && err instanceof WaitTimedOut && refusal) throw refusal.err;
    throw err;
  }
}

/**
 * Splits a two-part id such as `<mcr_uid>:<prefix_list_id>` at its last colon; a missing part is
 * a UserError naming `format`.
 */
export function splitId(id: string, format: string, example: string): [string, string] {
  const trimmed = id.trim();
  const at = trimmed.lastIndexOf(':');
  const first = at > 0 ? trimmed.slice(0, at) : '';
  const second = at > 0 ? trimmed.slice(at + 1) : '';
  if (!/^[0-9a-zA-Z][0-9a-zA-Z-]{3,}$/.test(first) || !second) {
    throw new UserError(`invalid import id "${id}": expected ${format}, e.g. ${example}`);
  }
  return [first, second];
}
