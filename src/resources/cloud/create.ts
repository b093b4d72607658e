/**
 * The create most cloud types share: send the create Action, which after a failure it may have
 * carried out (5xx, lost answer) answers with what the type's own findOwned finds (findMade);
 * take the new id from the answer and record it before anything else; then wait until the
 * object is listed (or ready as the type says) and return it.
 */
import type { Created, InterruptedOrder } from '../../engine/contracts/resource-type.js';
import type { CallOptions } from '../../providers/cloud/client.js';
import type { Params } from '../../providers/cloud/signature.js';
import { findMade, noId, waitListed, type CloudCtx } from './kit.js';

/** What differs between the creates of the cloud types. */
export type CreateOrder<Out> = SentOrder<Out> & ReadyWhen<Out>;

/** The create Action, and how its answer, or the object a lost answer stood for, gives the id. */
interface SentOrder<Out> {
  /** What the object is, for messages (`VPC`). */
  what: string;
  /** The create Action. */
  action: string;
  /** Its parameters. */
  params: Params;
  /** Other choices for the call than its recovery (`UADS_CALL`). */
  options?: Omit<CallOptions, 'recover'>;
  /**
   * Where the answer holds the new id: a field (`VPCId`), or a path through fields and the first
   * item of lists (`EIPSet[0].EIPId`). A recovered answer is built on the same path.
   */
  idAt: string;
  /** How long after its order the API may not list such an object yet (the type's provisioning.appearsWithinMs; 0 for one listed at once). */
  within: number;
  /** The type's own findOwned, for the inputs the order is sent with. */
  findOwned(order: InterruptedOrder): Promise<Created<Out> | undefined>;
}

/**
 * What the new object is once made, given its recorded id: `read`, waited for until it finds the
 * object (`<what> <id> to be listed`), or `settle`, the type's own steps until it is ready.
 */
type ReadyWhen<Out> = { read(id: string): Promise<Out | undefined> } | { settle(id: string): Promise<Out> };

/** Creates an object as `order` says: see the top of this file. */
export async function createAndWait<Out>(ctx: CloudCtx, order: CreateOrder<Out>): Promise<Created<Out>> {
  const { what, action, idAt } = order;
  const sentAt = Date.now();
  const recover = async () => {
    const made = await findMade(ctx, { what, sentAt, within: order.within, findOwned: order.findOwned });
    return made && { RetCode: 0, ...answerWith(idAt, made.id) };
  };
  const body = await ctx.client.call(action, order.params, { ...order.options, recover });
  const id = idIn(body, idAt);
  if (!id) throw noId(action, idAt);
  ctx.recordId(id);
  const outputs = 'settle' in order ? await order.settle(id) : await waitListed(ctx, `${what} ${id}`, () => order.read(id));
  return { id, outputs };
}

/** The steps of an id path: each field, and whether its value is a list whose first item is meant. */
function steps(path: string): Array<{ field: string; first: boolean }> {
  return path.split('.').map((step) => ({ field: step.replace(/\[0\]$/, ''), first: step.endsWith('[0]') }));
}

/** The id an answer holds at `path`, or undefined. */
function idIn(answer: object, path: string): string | undefined {
  let value: unknown = answer;
  for (const { field, first } of steps(path)) {
    value = (value as Record<string, unknown> | undefined)?.[field];
    if (first) value = (value as unknown[] | undefined)?.[0];
  }
  return value ? String(value) : undefined;
}

/** An answer holding `id` at `path`, as the Action would have answered. */
function answerWith(path: string, id: string): Record<string, unknown> {
  let value: unknown = id;
  for (const { field, first } of steps(path).reverse()) value = { [field]: first ? [value] : value };
  return value as Record<string, unknown>;
}
