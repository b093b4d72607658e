import { UserError, isRemote } from '../../errors.js';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { sleep } from '../../providers/interconnect/client.js';
import type { Ownership, ResourceContext } from '../handler.js';

/** Handler context of every interconnect resource. */
export type Ctx = ResourceContext<InterconnectClient>;

/** A product as `GET /v2/product/{uid}` returns it (the fields plumb reads). */
export type ApiProduct = Record<string, any> & { productUid: string; provisioningStatus: string };

/** Statuses in which a product is ready for use. */
export const READY = ['CONFIGURED', 'LIVE'];
/** Statuses in which a product no longer exists for plumb's purposes. */
export const GONE = ['DECOMMISSIONED', 'DECOMMISSIONING', 'CANCELLED_PARENT'];

/**
 * Tag keys plumb adds to every taggable product to recognise its own orders, and whose they are:
 * the project (the manifest's name) and stack whose state records it, at which address.
 */
export const OWNER_TAGS = { project: 'plumb-project', stack: 'plumb-stack', address: 'plumb-address', token: 'plumb-token' } as const;

/** Contract terms the API accepts. */
export const CONTRACT_TERMS = [1, 12, 24, 36, 48, 60] as const;

/** Reads a product; undefined when the API does not know it or reports it gone. */
export async function readProduct(ctx: Ctx, uid: string): Promise<ApiProduct | undefined> {
  try {
    const { data } = await ctx.client.get<ApiProduct>(`/v2/product/${encodeURIComponent(uid)}`);
    if (!data || GONE.includes(data.provisioningStatus)) return undefined;
    return data;
  } catch (err) {
    if (isRemote(err, 'not-found')) return undefined;
    throw err;
  }
}

/**
 * Polls until the product is CONFIGURED or LIVE. Checks at once, then waits an eighth of the time
 * waited so far between checks (from the client's base interval up to 10 s), never past the
 * provider's waitTime.
 */
export async function waitReady(ctx: Ctx, uid: string, what: string): Promise<ApiProduct> {
  const started = Date.now();
  const deadline = started + ctx.waitTimeMs;
  for (;;) {
    const product = await readProduct(ctx, uid);
    if (!product) throw new Error(`${what} ${uid} disappeared while waiting for it to provision`);
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
    // The next poll comes after an eighth of the time waited so far (at least the base interval,
    // at most 10 s): a product that becomes ready is noticed within an eighth of the time it took
    // (or one base interval), while a long provisioning is polled less and less often.
    const interval = Math.min(10_000, Math.max(ctx.client.pollBaseMs, (Date.now() - started) / 8));
    await sleep(Math.min(interval, left));
  }
}

/**
 * Validates then buys one order and returns the product UIDs the API assigned. A buy whose
 * answer is lost (5xx, dropped connection) is never repeated blindly: the client's retry policy
 * first asks `findExisting` (by default: a product of the order's type carrying this operation's
 * ownership tag) whether it went through, and sends it again only when nothing was made.
 */
export async function order(ctx: Ctx, item: Record<string, unknown>, findExisting?: () => Promise<string | undefined>): Promise<string[]> {
  await ctx.client.post('/v3/networkdesign/validate', [item], undefined, { safe: true });
  const existing =
    findExisting ??
    (typeof item.productType === 'string'
      ? async () => (await findByToken(ctx, await listProducts(ctx, String(item.productType).toUpperCase())))?.productUid
      : undefined);
  const recover = existing && (async () => {
    const found = await existing();
    return found === undefined ? undefined : { message: 'found after a lost answer', data: [{ technicalServiceUid: found }] };
  });
  const { data } = await ctx.client.post<Array<Record<string, string>>>('/v4/networkdesign/buy', { networkDesign: [item], discountCodes: [] }, undefined, { recover });
  const uids = (data ?? []).map((d) => d.technicalServiceUid ?? d.vxcJTechnicalServiceUid).filter(Boolean);
  if (uids.length === 0) throw new Error('the order was accepted but no product UID came back');
  return uids;
}

/**
 * Cancels a product now or at the end of its term; an already-gone product is success. A
 * cancel whose answer is lost is checked by reading the product before it is sent again.
 */
export async function cancel(ctx: Ctx, uid: string, mode: 'CANCEL' | 'CANCEL_NOW', safeDelete: boolean): Promise<void> {
  const done = (product: ApiProduct | undefined) => !product || (mode === 'CANCEL' && product.provisioningStatus === 'CANCELLED');
  if (done(await readProduct(ctx, uid))) return;
  try {
    await ctx.client.post(`/v3/product/${encodeURIComponent(uid)}/action/${mode}`, undefined, safeDelete ? { safeDelete: 'true' } : undefined, {
      recover: async () => (done(await readProduct(ctx, uid)) ? { message: 'cancelled', data: undefined } : undefined),
    });
  } catch (err) {
    if (isRemote(err, 'not-found')) return;
    if (isRemote(err, 'invalid', 'conflict') && safeDelete) {
      throw new UserError(`${err.message} (the product still has attached services; delete them first)`);
    }
    throw err;
  }
}

/** Live top-level products of one productType (`MEGAPORT`, `MCR2`, `MVE`), as `/v2/products` lists them. */
export async function listProducts(ctx: Ctx, productType: string): Promise<ApiProduct[]> {
  const { data } = await ctx.client.get<ApiProduct[]>('/v2/products');
  return (data ?? []).filter(
    (p) => String(p.productType).toUpperCase() === productType && !GONE.includes(p.provisioningStatus) && p.provisioningStatus !== 'CANCELLED',
  );
}

/** The product among `candidates` whose ownership tag carries this operation's token. */
export async function findByToken(ctx: Ctx, candidates: ApiProduct[]): Promise<ApiProduct | undefined> {
  for (const p of candidates) {
    const { data } = await ctx.client.get<{ resourceTags?: Array<{ key: string; value: string }> }>(`/v2/product/${encodeURIComponent(p.productUid)}/tags`);
    if ((data?.resourceTags ?? []).some((t) => t.key === OWNER_TAGS.token && t.value === ctx.operationToken)) return p;
  }
  return undefined;
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

/** The product's user tags, without plumb's ownership tags. */
export async function readTags(ctx: Ctx, uid: string): Promise<Record<string, string>> {
  const { data } = await ctx.client.get<{ resourceTags?: Array<{ key: string; value: string }> }>(`/v2/product/${encodeURIComponent(uid)}/tags`);
  const owned = new Set<string>(Object.values(OWNER_TAGS));
  return Object.fromEntries((data?.resourceTags ?? []).filter((t) => !owned.has(t.key)).map((t) => [t.key, t.value]));
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
  await ctx.client.put(`/v2/product/${encodeURIComponent(uid)}/tags`, { resourceTags: tagList(ctx, tags) });
}

/** The tag list sent at order time: user tags plus ownership tags. */
export function tagList(ctx: Ctx, tags: Record<string, string> | undefined): Array<{ key: string; value: string }> {
  return [
    ...Object.entries(tags ?? {}).map(([key, value]) => ({ key, value })),
    { key: OWNER_TAGS.project, value: ctx.project },
    { key: OWNER_TAGS.stack, value: ctx.stack },
    { key: OWNER_TAGS.address, value: ctx.address },
    { key: OWNER_TAGS.token, value: ctx.operationToken },
  ];
}

/** Whose product plumb's ownership tags say it is; undefined for one without them (not ordered by plumb). */
export async function productOwner(ctx: Ctx, uid: string): Promise<Ownership | undefined> {
  const { data } = await ctx.client.get<{ resourceTags?: Array<{ key: string; value: string }> }>(`/v2/product/${encodeURIComponent(uid)}/tags`);
  const tags = new Map((data?.resourceTags ?? []).map((t) => [t.key, t.value]));
  if (!tags.has(OWNER_TAGS.project) && !tags.has(OWNER_TAGS.stack)) return undefined;
  return { project: tags.get(OWNER_TAGS.project), stack: tags.get(OWNER_TAGS.stack), address: tags.get(OWNER_TAGS.address) };
}

/** An API timestamp (epoch ms, or already a string) as RFC 3339, or undefined. */
export function isoDate(value: unknown): string | undefined {
  if (value === null || value === undefined || value === 0) return undefined;
  if (typeof value === 'number') return new Date(value).toISOString();
  return String(value);
}

/** Reads a key the API spells in either casing (`vxcpermitted` / `vxcPermitted`). */
export function either(obj: Record<string, unknown>, ...keys: string[]): unknown {
  for (const k of keys) if (obj[k] !== undefined) return obj[k];
  return undefined;
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
  const product = await readProduct(ctx, uid);
  if (product && String(product.productType).toUpperCase() !== productType) {
    throw new UserError(`${uid} is a ${product.productType} product, not ${what}`);
  }
  return product;
}

/** Live IX connections, which `/v2/products` nests under the ports they attach to (each listed once). */
export async function listIxs(ctx: Ctx): Promise<ApiProduct[]> {
  const { data } = await ctx.client.get<ApiProduct[]>('/v2/products');
  const seen = new Map<string, ApiProduct>();
  for (const p of data ?? []) {
    for (const ix of (p.associatedIxs ?? []) as ApiProduct[]) {
      if (!GONE.includes(ix.provisioningStatus) && ix.provisioningStatus !== 'CANCELLED') seen.set(ix.productUid, ix);
    }
  }
  return [...seen.values()];
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
 * Live VXCs the account can see. They are not top-level products: `/v2/products` nests them under
 * both of their ends, so they are collected from there and de-duplicated by UID.
 */
export async function listVxcs(ctx: Pick<Ctx, 'client'>): Promise<ApiProduct[]> {
  const { data } = await ctx.client.get<ApiProduct[]>('/v2/products');
  const found = new Map<string, ApiProduct>();
  for (const parent of data ?? []) {
    for (const vxc of (parent.associatedVxcs ?? []) as ApiProduct[]) {
      if (!vxc?.productUid || GONE.includes(vxc.provisioningStatus) || vxc.provisioningStatus === 'CANCELLED') continue;
      if (!found.has(vxc.productUid)) found.set(vxc.productUid, vxc);
    }
  }
  return [...found.values()];
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
