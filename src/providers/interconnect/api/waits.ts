import type { InterconnectClient } from '../client.js';
import { ordersAnswered } from './orders.js';
import { listAllProducts, readProduct, type ApiProduct } from './products.js';

/**
 * Provisioning looks. Every look at a product a command waits for (each wait's pace is its own:
 * see ResourceContext.wait) goes through one poller per client: each round is one
 * `GET /v2/products`, which answers every look waiting, however many there are (the API allows 500
 * calls per 5 minutes, and a product read one by one per look would spend them all on waiting).
 * A product the list does not show is read once by id that round, as a list can lag behind a buy.
 * A round due while orders are still being answered waits for them, so that the products they buy
 * are looked at in the same round.
 */

interface Watcher {
  uid: string;
  /** When it asked for this look, in epoch milliseconds: only a round sent later answers it. */
  since: number;
  resolve(product: ApiProduct | undefined): void;
  reject(err: unknown): void;
}

const pollers = new WeakMap<InterconnectClient, Poller>();

/**
 * The product as the next round reports it, or undefined when it is gone. Rounds are shared (one
 * sent for any look answers them all) and at least the client's poll interval apart.
 */
export function lookAt(client: InterconnectClient, uid: string): Promise<ApiProduct | undefined> {
  if (client.endpoint.oneAtATime) return readProduct(client, uid);
  let poller = pollers.get(client);
  if (!poller) pollers.set(client, (poller = new Poller(client)));
  return poller.watch(uid);
}

class Poller {
  private readonly watchers = new Set<Watcher>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private running = false;
  /**
   * When the last round was sent. Rounds are at least the client's poll interval apart, whoever
   * waits: products bought in several orders, each answered at its own moment, would otherwise
   * have the account listed once per order, a few milliseconds apart.
   */
  private lastSent = 0;

  constructor(private readonly client: InterconnectClient) {}

  watch(uid: string): Promise<ApiProduct | undefined> {
    return new Promise((resolve, reject) => {
      this.watchers.add({ uid, since: Date.now(), resolve, reject });
      this.schedule();
    });
  }

  /** Sets the timer for the earliest look asked for (but not before the poll interval since the last round), unless a round is running (it schedules the next one when done). */
  private schedule(): void {
    if (this.running || this.watchers.size === 0) return;
    let due = Infinity;
    for (const w of this.watchers) due = Math.min(due, w.since);
    due = Math.max(due, this.lastSent + this.client.pollEveryMs());
    if (this.timer && due >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = due;
    this.timer = setTimeout(() => void this.round(), Math.max(0, due - Date.now()));
  }

  /** One list call answers every watcher that started waiting before it was sent. */
  private async round(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Infinity;
    this.running = true;
    await this.untilOrdersAnswered();
    const sent = Date.now();
    this.lastSent = sent;
    const answered = [...this.watchers].filter((w) => w.since <= sent);
    for (const w of answered) this.watchers.delete(w);
    try {
      const list = await listAllProducts(this.client);
      const missing = new Map<string, Promise<ApiProduct | undefined>>();
      for (const w of answered) {
        const listed = list.byUid.get(w.uid);
        if (listed) {
          w.resolve(listed);
          continue;
        }
        if (!missing.has(w.uid)) missing.set(w.uid, readProduct(this.client, w.uid));
        missing.get(w.uid)!.then(w.resolve, w.reject);
      }
      await Promise.allSettled(missing.values());
    } catch (err) {
      for (const w of answered) w.reject(err);
    } finally {
      this.running = false;
      this.schedule();
    }
  }

  /**
   * Waits for the client's orders in flight to be answered, and then for the end of that turn of
   * the event loop, in which their buyers start to wait. Orders keep coming while steps that
   * waited go on to order more, so the wait is bounded: a second, or one poll interval if longer.
   */
  private async untilOrdersAnswered(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((wake) => (timer = setTimeout(wake, Math.max(1000, this.client.pollEveryMs()))));
    await Promise.race([ordersAnswered(this.client), bound]);
    clearTimeout(timer);
    await new Promise((next) => setImmediate(next));
  }
}
