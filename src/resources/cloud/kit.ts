/**
 * What every cloud resource type repeats: name/tag/remark fields as the console allows them, the
 * default name that carries an order's token, import ids of one prefix, bulk reads by id list,
 * finding what a create whose answer was lost made, and deletes that wait for the object to go.
 */
import * as z from 'zod';
import { AmbiguousOrder, isRemote, RemoteError, UserError, WaitTimedOut } from '../../kernel/errors.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { describeAll, describeIds, describeOne, type Listing } from '../../providers/cloud/api/listing.js';
import type { Created, ImportIdFormat, InterruptedOrder, Pace, ReadTarget, ResourceContext } from '../../engine/contracts/resource-type.js';

/** A cloud handler's context. */
export type CloudCtx = ResourceContext<CloudClient, CloudSettings>;

/**
 * How every cloud wait (ctx.wait) looks at the API: at once, then from 200 ms to 2 s apart, so
 * that what the API has ready is seen at once and a long provisioning is not polled hard.
 */
export const PACE: Pace = { firstMs: 200, maxMs: 2000 };

/**
 * How long after its order the API may go without listing a new object, for the types it lists
 * only once provisioned (VPCs, subnets, security groups, EIPs, load balancers, NAT and VPN
 * gateways, VPN connections and customer gateways, anti-DDoS instances) and those that read as
 * made only once settled (an EIP's binding, a disk's attachment): ten minutes, the one bound of
 * the provider. Upstream's provider waits 2 to 5 minutes for such an object to show before it
 * gives up, so one can take that long; one still unlisted after twice the longest of those waits
 * was not made. Until then a read that finds nothing is no evidence that an order made nothing
 * (see Provisioning.appearsWithinMs): an interrupted order is waited for, never bought again. The
 * price: an order interrupted before it reached the API holds its address that long.
 */
export const APPEARS_WITHIN_MS = 10 * 60_000;

/** Names and tags: 1–63 letters, digits, Chinese characters, `-`, `_` and `.` (the console's rule). */
const LABEL = /^[A-Za-z0-9\p{Script=Han}_.-]{1,63}$/u;
const LABEL_RULE = '1-63 letters, digits, Chinese characters, hyphens, underscores and dots';

/** A name input, updated in place or not as `how` says; left out, plumb names the object after its address. */
export function nameField(how = ''): z.ZodOptional<z.ZodString> {
  return z
    .string()
    .regex(LABEL, `name must be ${LABEL_RULE}`)
    .optional()
    .describe(`Name: ${LABEL_RULE}. ${how && `${how} `}Default: the resource address plus a suffix unique to the order.`);
}

/** A tag (business group) input; `Default` when left out, as the API sets it. */
export function tagField(how = ''): z.ZodOptional<z.ZodString> {
  return z
    .string()
    .regex(LABEL, `tag must be ${LABEL_RULE}`)
    .optional()
    .describe(`Tag (business group): ${LABEL_RULE}. ${how && `${how} `}Default \`Default\`.`);
}

/** A remark input of at most 255 characters. */
export function remarkField(how = ''): z.ZodOptional<z.ZodString> {
  return z
    .string()
    .max(255, 'remark must be at most 255 characters')
    .optional()
    .describe(`Remark, at most 255 characters.${how && ` ${how}`}`);
}

/** The tag the API gives an object created without one. */
export const DEFAULT_TAG = 'Default';

/**
 * A default name: the address, limited to what the API accepts, and the start of the order's
 * operation token, so that what an interrupted create made can be found by its name.
 */
export function autoName(address: string, operationToken: string): string {
  const base = address.replace(/[^A-Za-z0-9\p{Script=Han}_.-]/gu, '-').slice(0, 54) || 'plumb';
  return `${base}-${operationToken.replace(/[^0-9a-f]/g, '').slice(0, 8)}`;
}

/** The import format of a type whose id is one API id with a known prefix (`uvnet-…`). */
export function prefixedId(prefix: string, what: string): ImportIdFormat {
  const format = `<${what.replace(/ /g, '_')}_id>`;
  return {
    format,
    parse(id) {
      const trimmed = id.trim();
      if (!new RegExp(`^${prefix}-[A-Za-z0-9]+$`).test(trimmed)) throw new UserError(`invalid ${what} id "${id}": expected ${format}, e.g. ${prefix}-1a2b3c4d`);
      return trimmed;
    },
  };
}

/**
 * The import format of an object named by the ids of its parents and its own, joined by `/`
 * (`<lb_id>/<vserver_id>`): each part's prefix, or undefined where the API's ids have none.
 */
export function pathId(what: string, parts: Array<[name: string, prefix: string | undefined]>): ImportIdFormat & { split(id: string): string[] } {
  const format = parts.map(([name]) => `<${name}>`).join('/');
  const example = parts.map(([, prefix], i) => `${prefix ?? 'id'}-${(0x1a2b3c4d + i).toString(16)}`).join('/');
  const split = (id: string): string[] => {
    const found = id.trim().split('/');
    const fits = found.length === parts.length && found.every((p, i) => new RegExp(`^${parts[i][1] ? `${parts[i][1]}-` : ''}[A-Za-z0-9-]+$`).test(p));
    if (!fits) throw new UserError(`invalid ${what} id "${id}": expected ${format}, e.g. ${example}`);
    return found;
  };
  return { format, split, parse: (id) => split(id).join('/') };
}

/** One object as a listing shows it: its id and what a read reports of it. */
export interface Listed<Out> {
  id: string;
  outputs: Out;
}

/**
 * read, readMany and list of a type whose objects all show in one listing (objects nested in
 * another's record included): `all` lists them (sharing its calls within a pass through
 * ctx.shared), `one` reads one alone. An id the listing lacks is left out of a bulk read.
 */
export function listedVerbs<Out>(
  all: (ctx: CloudCtx) => Promise<Array<Listed<Out>>>,
  one: (ctx: CloudCtx, id: string) => Promise<Out | undefined>,
): {
  read(ctx: CloudCtx, id: string): Promise<Out | undefined>;
  readMany(ctx: CloudCtx, targets: ReadTarget[]): Promise<Map<string, Out | undefined>>;
  list(ctx: CloudCtx): Promise<Array<Listed<Out>>>;
} {
  return {
    read: (ctx, id) => one(ctx, id),
    async readMany(ctx, targets) {
      const byId = new Map((await all(ctx)).map((o) => [o.id, o.outputs]));
      const out = new Map<string, Out | undefined>();
      for (const t of targets) if (byId.has(t.id)) out.set(t.id, byId.get(t.id));
      return out;
    },
    list: (ctx) => all(ctx),
  };
}

/**
 * read, readMany and list of a type read through its Describe listing: one record by id, the
 * targets' records in pages of 100 ids (an id the listing lacks is left out of a bulk read), and
 * every record. `toOutputs` turns a record into the type's outputs, given what state recorded of
 * the object when there is a record (a read for import or adoption has none).
 */
export function listingVerbs<T extends Record<string, unknown>, Out>(
  listing: Listing,
  toOutputs: (record: T, prior?: Partial<Out>) => Out,
): {
  read(ctx: CloudCtx, id: string, prior?: { outputs: Out }): Promise<Out | undefined>;
  readMany(ctx: CloudCtx, targets: ReadTarget[]): Promise<Map<string, Out | undefined>>;
  list(ctx: CloudCtx): Promise<Array<Listed<Out>>>;
} {
  const idOf = (record: T) => String(record[listing.idField]);
  return {
    async read(ctx, id, prior) {
      const seen = await describeOne<T>(ctx.client, listing, id);
      return seen && toOutputs(seen, prior?.outputs);
    },
    async readMany(ctx, targets) {
      const records = await describeIds<T>(
        ctx.client,
        listing,
        targets.map((t) => t.id),
      );
      const byId = new Map(records.map((r) => [idOf(r), r]));
      const out = new Map<string, Out | undefined>();
      for (const t of targets) {
        const record = byId.get(t.id);
        if (record) out.set(t.id, toOutputs(record, (t.prior as { outputs?: Out } | undefined)?.outputs));
      }
      return out;
    },
    async list(ctx) {
      return (await describeAll<T>(ctx.client, listing)).map((r) => ({ id: idOf(r), outputs: toOutputs(r) }));
    },
  };
}

/** Waits until `read` lists the object (a new object of many types shows once provisioned), and returns it. */
export function waitListed<T>(ctx: CloudCtx, what: string, read: () => Promise<T | undefined>): Promise<T> {
  return ctx.wait(
    `${what} to be listed`,
    async () => {
      const seen = await read();
      return seen ? { done: true, value: seen } : { done: false, status: 'not listed yet' };
    },
    PACE,
  );
}

/** Waits until what `read` reports is `settled`, and returns that. */
export function waitUntilRead<T>(ctx: CloudCtx, what: string, read: () => Promise<T | undefined>, settled: (seen: T | undefined) => boolean): Promise<T> {
  return ctx.wait(
    what,
    async () => {
      const seen = await read();
      return settled(seen) ? { done: true, value: seen as T } : { done: false, status: 'Pending' };
    },
    PACE,
  );
}

/** How long an object made by a create whose answer was lost is looked for, at most. */
const RECOVER_WAIT_MS = 60_000;
/** Allowance for the API's clock (whole seconds) against this machine's. */
const CLOCK_SLACK_MS = 5_000;

/** What a create whose answer was lost is looked for by: see findMade. */
export interface MadeQuery<Out> {
  /** What the object is, for messages (`VPC`). */
  what: string;
  /** When the order was sent (epoch milliseconds). */
  sentAt: number;
  /** How long after its order the API may not list such an object yet (the type's provisioning.appearsWithinMs). */
  within: number;
  /** The type's own findOwned, for the inputs the order was sent with. */
  findOwned(order: InterruptedOrder): Promise<Created<Out> | undefined>;
}

/**
 * After a create that may have been carried out (5xx, lost answer): what the type's findOwned
 * finds for an order sent at `sentAt`, so that the answer in the call and the answer after a
 * crash are one answer (an object recorded at any address is not it; several candidates are an
 * AmbiguousOrder). Looked for until it would have been listed (a minute for objects listed at
 * once, whose lists may lag), within the wait time. Undefined when none shows up by then: the
 * order made nothing, and is sent again. When the wait time ends first, whether it made one is
 * not known: an 'unavailable' RemoteError, so that the order stays pending and the next apply
 * waits for what it may have made, never buying twice.
 */
export async function findMade<Out>(ctx: CloudCtx, query: MadeQuery<Out>): Promise<Created<Out> | undefined> {
  const { what, sentAt } = query;
  const until = sentAt + Math.max(query.within, RECOVER_WAIT_MS);
  const order: InterruptedOrder = { earliestMs: sentAt - CLOCK_SLACK_MS, recorded: (id) => ctx.isRecorded?.(id) ?? false };
  try {
    return await ctx.wait(
      `the ${what} the create may have made to be listed`,
      async () => {
        const found = await query.findOwned(order);
        return found ? { done: true, value: found } : { done: false, status: 'checking whether the create went through' };
      },
      { ...PACE, limitMs: Math.min(until - Date.now(), ctx.waitTimeMs) },
    );
  } catch (err) {
    if (!(err instanceof WaitTimedOut)) throw err;
    if (Date.now() >= until) return undefined;
    throw new RemoteError('unavailable', `the ${what} a create whose answer was lost may have made is not listed yet; it is looked for again by the next apply`, { provider: 'cloud' });
  }
}

/**
 * What an interrupted create made, when no id was recorded: the record `made` says matches its
 * inputs, made since the order was journaled and not recorded at another address. With several,
 * none is taken: AmbiguousOrder names them, and the run stops for the user to say which.
 */
export function ownedAmong<T extends { CreateTime?: unknown }>(what: string, records: T[], made: (r: T) => boolean, order: InterruptedOrder, idOf: (r: T) => string): T | undefined {
  const found = records.filter((r) => made(r) && Number(r.CreateTime) * 1000 >= order.earliestMs && !order.recorded(idOf(r)));
  if (found.length > 1)
    throw new AmbiguousOrder(
      what,
      found.map((r) => `${idOf(r)} (made ${new Date(Number(r.CreateTime) * 1000).toISOString()})`),
    );
  return found[0];
}

/**
 * Deletes an object and waits until it is no longer listed. An object already gone is done, and
 * so is one that another delete removes between the read and the call.
 */
export async function deleteListed(ctx: CloudCtx, what: string, exists: () => Promise<boolean>, remove: () => Promise<unknown>): Promise<void> {
  if (!(await exists())) return;
  try {
    await remove();
  } catch (err) {
    if (!isRemote(err, 'not-found') || (await exists())) throw err;
    return;
  }
  await ctx.wait(`${what} to be deleted`, async () => ((await exists()) ? { done: false, status: 'Deleting' } : { done: true, value: undefined }), PACE);
}

/** A RemoteError for a create whose answer lacks the new object's id. */
export function noId(action: string, field: string): RemoteError {
  return new RemoteError('invalid', `${action} answered without ${field}`, { provider: 'cloud' });
}

/** A list the API keeps in its own order, as the manifest orders it when both hold the same items. */
export function inDeclaredOrder(recorded: string[] | undefined, desired: string[] | undefined): string[] | undefined {
  if (!recorded || !desired || recorded.length !== desired.length) return recorded;
  return [...recorded].sort().join('\n') === [...desired].sort().join('\n') ? desired : recorded;
}

/** A RemoteError saying the object vanished during an operation. */
export function vanished(what: string, id: string): RemoteError {
  return new RemoteError('not-found', `${what} ${id} no longer exists`, { provider: 'cloud' });
}
