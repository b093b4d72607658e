import { createHash } from 'node:crypto';
import type { SandboxApi, SandboxResponse } from './types.js';

/**
 * One fault for one call: the first call whose `METHOD /path?query` (below the provider prefix)
 * contains `match` gets it, then the fault is used up. Deterministic where rates are random.
 */
interface ScriptedFault {
  match?: string;
  /** Answer with this status, without handling the call. */
  status?: number;
  /** Retry-After sent with `status` (seconds or an HTTP date). */
  retryAfter?: string;
  /** `request`: close the connection without handling the call; `reply`: handle it, then close without answering. */
  drop?: 'request' | 'reply';
}

/** The faults set through `POST /_sandbox/faults`. */
interface Faults {
  provider?: string;
  latencyMs?: number;
  rates?: Record<string, number>;
  retryAfterSeconds?: number;
  /** Share of calls whose connection closes before they are handled. */
  dropRate?: number;
  /** Share of calls that are handled but whose answer is lost (the connection closes instead). */
  dropReplyRate?: number;
  /** Faults for particular calls, each used once, in order. */
  next?: ScriptedFault[];
  /**
   * Makes the random faults reproducible: the nth call of one shape (provider, method, path and
   * query with ids left out) gets the same fault in every run with this seed, whatever order
   * concurrent calls of other shapes arrive in. Without it, faults are drawn from Math.random.
   */
  seed?: number;
}

/** What befalls one call: its connection closes unhandled, it gets an answer without being handled, or its answer is lost. */
export interface FaultVerdict {
  dropRequest?: boolean;
  answer?: SandboxResponse;
  dropReply?: boolean;
}

/** Draws the numbers in [0, 1) that decide one call's random faults, one per purpose. */
type Dice = (purpose: 'drop' | 'status' | 'reply') => number;

/** Ids in a path or query (UUIDs, hex and decimal numbers), left out of a call's shape. */
const ID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b\d+\b/gi;

/** The faults the sandbox injects, as `/_sandbox/faults` set them: latency, error rates, lost connections, scripted faults. */
export class SandboxFaults {
  private faults: Faults | undefined;
  /** Calls of each shape seen since the faults were set, for seeded dice. */
  private readonly shapes = new Map<string, number>();

  /** Replaces the faults with a `POST /_sandbox/faults` body; a malformed one is refused. */
  set(body: unknown): SandboxResponse {
    const given = (body ?? {}) as Faults;
    if (given.next !== undefined && !Array.isArray(given.next)) return { status: 400, body: { message: 'next must be a list of {match?, status?, retryAfter?, drop?}' } };
    if (given.seed !== undefined && !Number.isFinite(given.seed)) return { status: 400, body: { message: 'seed must be a number' } };
    this.faults = { ...given, next: given.next?.slice() };
    this.shapes.clear();
    return { status: 200, body: this.faults };
  }

  clear(): void {
    this.faults = undefined;
  }

  /** Latency to add to a call of this provider, in milliseconds. */
  latencyMs(provider: string): number {
    return this.for(provider)?.latencyMs ?? 0;
  }

  /** Decides the fate of one call (`METHOD /path?query` below the provider prefix). */
  verdict(api: SandboxApi, call: string): FaultVerdict {
    const injected = this.for(api.provider);
    if (!injected) return {};
    const scripted = this.takeScripted(injected, call);
    if (scripted) {
      return { dropRequest: scripted.drop === 'request', answer: scripted.status ? faultAnswer(api, scripted.status, scripted.retryAfter) : undefined, dropReply: scripted.drop === 'reply' };
    }
    const dice = this.diceFor(injected, api.provider, call);
    return {
      dropRequest: !!injected.dropRate && dice('drop') < injected.dropRate,
      answer: randomAnswer(api, injected, dice),
      dropReply: !!injected.dropReplyRate && dice('reply') < injected.dropReplyRate,
    };
  }

  private for(provider: string): Faults | undefined {
    return this.faults && (!this.faults.provider || this.faults.provider === provider) ? this.faults : undefined;
  }

  private takeScripted(injected: Faults, call: string): ScriptedFault | undefined {
    const at = injected.next?.findIndex((f) => !f.match || call.includes(f.match)) ?? -1;
    return at < 0 ? undefined : injected.next?.splice(at, 1)[0];
  }

  /** Random dice, or, with a seed, dice fixed by the call's shape and how many of that shape came before. */
  private diceFor(injected: Faults, provider: string, call: string): Dice {
    if (injected.seed === undefined) return () => Math.random();
    const shape = `${provider} ${call.replace(ID_PATTERN, '#')}`;
    const n = this.shapes.get(shape) ?? 0;
    this.shapes.set(shape, n + 1);
    return (purpose) => createHash('sha256').update(`${injected.seed}|${shape}|${n}|${purpose}`).digest().readUInt32BE(0) / 2 ** 32;
  }
}

function randomAnswer(api: SandboxApi, injected: Faults, dice: Dice): SandboxResponse | undefined {
  if (!injected.rates) return undefined;
  let roll = dice('status');
  for (const [status, rate] of Object.entries(injected.rates)) {
    if (roll < rate) {
      const code = Number(status);
      return faultAnswer(api, code, code === 429 ? String(injected.retryAfterSeconds ?? 1) : undefined);
    }
    roll -= rate;
  }
  return undefined;
}

function faultAnswer(api: SandboxApi, code: number, retryAfter?: string): SandboxResponse {
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': retryAfter };
  return { status: code, headers, body: api.faultBody?.(code) ?? { message: `injected ${code}` } };
}
