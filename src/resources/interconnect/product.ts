import { UserError, isRemote } from '../../errors.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { sleep } from '../../providers/interconnect/client.js';
import { order as orderItem, type Finder, type Memo } from '../../providers/interconnect/api/orders.js';
import { GONE, READY, isType, listAllProducts, readProduct, type ApiProduct, type ProductList } from '../../providers/interconnect/api/products.js';
import { carriesToken, ownerOf, readTagList, tagList as ownedTagList, userTags, withoutOwnerTags, writeTagList, type ApiTag } from '../../providers/interconnect/api/tags.js';
import { lookAt } from '../../providers/interconnect/api/waits.js';
import type { Disowned, Ownership, ReadTarget, ResourceContext } from '../../engine/contracts/resource-type.js';

/** Handler context of every interconnect resource. */
export type Ctx = ResourceContext<InterconnectClient>;

/** Contract terms the API accepts. */
export const CONTRACT_TERMS = [1, 12, 24, 36, 48, 60] as const;

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
 * Polls until the product is CONFIGURED or LIVE. Looks at once, then after an eighth of the time
 * waited so far (from the client's base interval up to 10 s), never past the provider's waitTime.
 * Every product waiting is answered by one shared list call per round (see api/waits.ts).
 */
export async function waitReady(ctx: Ctx, uid: string, what: string): Promise<ApiProduct> {
  const started = Date.now();
  const deadline = started + ctx.waitTimeMs;
  let due = started;
  for (;;) {
    const product = await lookAt(ctx.client, uid, due);
    if (!product || GONE.includes(product.provisioningStatus)) throw new Error(`${what} ${uid} disappeared while waiting for it to provision`);
    ctx.progress(product.provisioningStatus);
    if (READY.includes(product.provisioningStatus)) return product;
    if (product.provisioningStatus === 'CANCELLED' || product.provisioningStatus === 'FAILED') {
      throw new Error(`${what} ${uid} is ${product.provisioningStatus} instead of provisioning`);
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new Error(
        `timed out after ${formatMinutes(ctx.waitTimeMs)} waiting for ${what} ${uid} to provision (last status ${product.provisioningStatus}); it is recorded as tainted and will be checked on the next run`,
      );
    }
    // A product that becomes ready is noticed within an eighth of the time it took (or one base
    // interval), while a long provisioning is polled less and less often.
    const interval = Math.min(10_000, Math.max(ctx.client.pollEveryMs(), (Date.now() - started) / 8));
    due = Date.now() + Math.min(interval, left);
  }
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

function formatMinutes(ms: number): string {
  const minutes = ms / 60_000;
  return minutes >= 1 ? `${Number(minutes.toFixed(2))} min` : `${Math.round(ms / 1000)} s`;
}

/**
 * Runs `attempt` until it succeeds, retrying while `retryable` says the failure is temporary
 * (a VLAN still held, a list still referenced). Polls with the same backoff as waitReady and
 * gives up with the last error once the provider's waitTime has passed.
 */
export async function retryWithin<T>(ctx: Ctx, what: string, attempt: () => Promise<T>, retryable: (err: unknown) => boolean | Promise<boolean>): Promise<T> {
  const deadline = Date.now() + ctx.waitTimeMs;
  let interval = ctx.client.pollBaseMs;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      const left = deadline - Date.now();
      if (left <= 0 || !(await retryable(err))) throw err;
      ctx.progress(what);
      ctx.log.debug({ err: (err as Error).message, what }, 'retrying until waitTime runs out');
      await sleep(Math.min(interval, left));
      interval = Math.min(10_000, interval * 1.5);
    }
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
