import { RemoteError, isRemote } from '../../../kernel/errors.js';
import type { Envelope, InterconnectClient } from '../client.js';

/**
 * Orders (reference §3.4): `POST /v3/networkdesign/validate` takes a list of order items and
 * `POST /v4/networkdesign/buy` a network design of them, all or nothing. Items ordered within a
 * short window of each other (the steps of one dependency level start together) are validated
 * and bought together. A refused design is validated item by item, so each refusal reaches the
 * order it is about and the others are still bought. A buy whose answer is lost is never sent
 * again blindly: each item's finder looks for what it made first.
 */

/** Values one recovery attempt shares between the finders of its items (one product list, each product's tags once). */
export interface Memo {
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
}

/** Finds the product an item's order made, after its answer was lost; undefined when there is none. */
export type Finder = (memo: Memo) => Promise<string | undefined>;

interface Queued {
  item: Record<string, unknown>;
  find?: Finder;
  resolve(uids: string[]): void;
  reject(err: unknown): void;
}

/**
 * How long the window stays open after the last item joined it, and at most from its first. The
 * steps of one level order close together, but on a busy machine (a CI runner) their journal
 * writes can spread them over tens of milliseconds: a window that closes too soon splits one
 * order into several, and under the API's rate limit each extra call costs more than the wait.
 */
const QUIET_MS = 100;
const MAX_WAIT_MS = 1000;
/** Most items in one design. */
const MAX_ITEMS = 50;

const batchers = new WeakMap<InterconnectClient, Batcher>();

/**
 * Validates and buys one order item, with the items other steps order at the same moment, and
 * returns the product UIDs the API assigned it (one per member for a LAG).
 */
export function order(client: InterconnectClient, item: Record<string, unknown>, find?: Finder): Promise<string[]> {
  const batcher = batcherOf(client);
  return batcher.answering(new Promise((resolve, reject) => batcher.add({ item, find, resolve, reject })));
}

/** Resolves once every order of this client has been answered (at once when none waits for one). */
export function ordersAnswered(client: InterconnectClient): Promise<void> {
  return batcherOf(client).answered();
}

function batcherOf(client: InterconnectClient): Batcher {
  let batcher = batchers.get(client);
  if (!batcher) batchers.set(client, (batcher = new Batcher(client)));
  return batcher;
}

class Batcher {
  private queued: Queued[] = [];
  private quiet: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  /** Orders not yet answered (queued, validating or buying), and who waits for there to be none. */
  private unanswered = 0;
  private idle: Array<() => void> = [];

  constructor(private readonly client: InterconnectClient) {}

  answering<T>(answer: Promise<T>): Promise<T> {
    this.unanswered++;
    return answer.finally(() => {
      if (--this.unanswered === 0) for (const wake of this.idle.splice(0)) wake();
    });
  }

  answered(): Promise<void> {
    return this.unanswered === 0 ? Promise.resolve() : new Promise((wake) => this.idle.push(wake));
  }

  add(entry: Queued): void {
    // A LAG's reply has an entry per member: bought alone, its entries are all its own.
    if (Number(entry.item.lagPortCount) > 0 || this.client.endpoint.oneAtATime) {
      this.dispatch([entry]);
      return;
    }
    this.queued.push(entry);
    if (this.queued.length >= MAX_ITEMS) return this.flush();
    clearTimeout(this.quiet);
    this.quiet = setTimeout(() => this.flush(), QUIET_MS);
    this.deadline ??= setTimeout(() => this.flush(), MAX_WAIT_MS);
  }

  private flush(): void {
    clearTimeout(this.quiet);
    clearTimeout(this.deadline);
    this.quiet = this.deadline = undefined;
    const batch = this.queued;
    this.queued = [];
    if (batch.length) this.dispatch(batch);
  }

  private dispatch(batch: Queued[]): void {
    // A promise settles once: an error escaping the send rejects only the orders still waiting.
    this.send(batch).catch((err) => rejectAll(batch, err));
  }

  /** Validates then buys a batch; every entry is settled, whatever happens. */
  private async send(batch: Queued[]): Promise<void> {
    try {
      await this.validate(batch);
    } catch (err) {
      if (batch.length === 1 || !refusal(err)) return rejectAll(batch, err);
      // Validated one by one, each refusal reaches its own order; the rest are bought.
      const valid = await this.validateEach(batch);
      return valid.length ? this.buy(valid) : undefined;
    }
    await this.buy(batch);
  }

  private validate(batch: Queued[]): Promise<unknown> {
    return this.client.post(
      '/v3/networkdesign/validate',
      batch.map((q) => q.item),
      undefined,
      { safe: true, shared: true },
    );
  }

  private async validateEach(batch: Queued[]): Promise<Queued[]> {
    const valid: Queued[] = [];
    await Promise.all(
      batch.map(async (q) => {
        try {
          await this.validate([q]);
          valid.push(q);
        } catch (err) {
          q.reject(err);
        }
      }),
    );
    return batch.filter((q) => valid.includes(q));
  }

  private async buy(batch: Queued[]): Promise<void> {
    let data: Array<Record<string, string> | null>;
    try {
      ({ data } = await this.client.post<Array<Record<string, string> | null>>('/v4/networkdesign/buy', { networkDesign: batch.map((q) => q.item), discountCodes: [] }, undefined, {
        // Without a finder for every item, a lost answer is final: its products are settled by the next plan.
        recover: batch.every((q) => q.find) ? () => recover(batch) : undefined,
        shared: true,
      }));
    } catch (err) {
      // All or nothing: a refused design made nothing, so each item may be bought on its own.
      if (batch.length === 1 || !refusal(err)) return rejectAll(batch, err);
      await Promise.all(batch.map((q) => this.buy([q])));
      return;
    }
    await this.assign(batch, data ?? []);
  }

  /** Hands each item its UIDs: in the order of the design, while the reply's names agree; else each item's finder says. */
  private async assign(batch: Queued[], data: Array<Record<string, string> | null>): Promise<void> {
    if (batch.length === 1 && data.every(Boolean)) {
      const uids = data.map(uidOf).filter((uid): uid is string => Boolean(uid));
      return uids.length ? batch[0].resolve(uids) : batch[0].reject(new Error('the order was accepted but no product UID came back'));
    }
    const positional = data.length === batch.length && data.every((entry, i) => !entry?.serviceName || String(entry.serviceName).trim() === String(nameOf(batch[i].item)).trim());
    const memo = newMemo();
    await Promise.all(
      batch.map(async (q, i) => {
        const uid = positional && data[i] ? uidOf(data[i]) : await q.find?.(memo).catch(() => undefined);
        settle(q, uid ? [uid] : []);
      }),
    );
  }
}

/**
 * After a lost answer: what each item's finder finds. Nothing found means nothing was bought
 * (the buy is all or nothing), so it may be sent again; an item not found while others were is
 * left unanswered (null), its fate for the next plan to settle.
 */
async function recover(batch: Queued[]): Promise<Envelope<Array<Record<string, string> | null>> | undefined> {
  const memo = newMemo();
  const found = await Promise.all(batch.map((q) => q.find!(memo)));
  if (found.every((uid) => uid === undefined)) return undefined;
  return { message: 'found after a lost answer', data: found.map((uid) => (uid === undefined ? null : { technicalServiceUid: uid })) };
}

function settle(q: Queued, uids: string[]): void {
  if (uids.length) return q.resolve(uids);
  q.reject(
    new RemoteError('unavailable', 'the order went through with others, but its answer was lost and what it made is not found yet; the next plan settles it', {
      provider: 'interconnect',
      path: '/v4/networkdesign/buy',
    }),
  );
}

function rejectAll(batch: Queued[], err: unknown): void {
  for (const q of batch) q.reject(err);
}

/** A refusal of the design's content (a rule broken, a UID unknown, a VLAN taken), which names no item. */
function refusal(err: unknown): boolean {
  return isRemote(err, 'invalid', 'conflict', 'not-found');
}

function uidOf(entry: Record<string, string> | null): string | undefined {
  return entry?.technicalServiceUid ?? entry?.vxcJTechnicalServiceUid;
}

/** The name an item orders its product under (a VXC or IX item names it in its connection). */
function nameOf(item: Record<string, unknown>): unknown {
  const connection = ((item.associatedVxcs ?? item.associatedIxs) as Array<Record<string, unknown>> | undefined)?.[0];
  return connection?.productName ?? item.productName;
}

function newMemo(): Memo {
  const values = new Map<string, Promise<unknown>>();
  return {
    shared<T>(key: string, make: () => Promise<T>): Promise<T> {
      if (!values.has(key)) values.set(key, make());
      return values.get(key) as Promise<T>;
    },
  };
}
