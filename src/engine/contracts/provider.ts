import type { Logger } from 'pino';
import type { z } from 'zod';
import type { RateLedger, RateWindow } from './rate.js';

/** What the engine gives a provider when it connects: whether a sandbox serves it, and a logger. */
export interface ProviderRuntime {
  /**
   * Given when a sandbox serves this connection (nothing real is configured, or PLUMB_SANDBOX_URL
   * names one): its URL, started on first call; the provider appends its own prefix. Absent, the
   * provider connects to the real API its settings name, with their credentials.
   */
  sandboxUrl?(): Promise<string>;
  log: Logger;
  /** Environment variables (process.env by default; tests pass their own). */
  env: Record<string, string | undefined>;
  /** Told each time the provider's client sends a call again, so the user sees why a step waits. */
  retrying?(notice: RetryNotice): void;
  /** Where the API's rate window is counted with other processes, and who is told of waits for it. */
  rates?: RateRuntime;
}

/** The shared side of rate windows, as the session gives it to a provider. */
export interface RateRuntime {
  /** The ledger shared with other processes (a file in the user's cache, or the state's database). */
  ledger: RateLedger;
  /** Calls wait `waitMs` for the API's window to have room. */
  waiting?(waitMs: number, window: RateWindow): void;
  /** The shared ledger cannot be used: calls are counted by this process alone. */
  warn?(message: string): void;
}

/** A call about to be sent again: the API limited the rate, or gave no answer (`reason` says what happened, without the call's path). */
export interface RetryNotice {
  kind: 'rate-limited' | 'unavailable';
  waitMs: number;
  attempt: number;
  reason: string;
}

/**
 * Which settings reach a real account. The rule that applies it is the same for every provider
 * (engine/checking/provider-target.ts): given none of `settings`, nothing real is configured and the
 * built-in sandbox may serve; given any, one of `credentials` must be given whole, or the command
 * stops before any call, naming what is missing.
 */
export interface RealAccount {
  /** Settings that name a real account, environment or endpoint, the credentials among them. */
  settings: string[];
  /** Each way to sign in: the settings that, all given, complete the credentials. */
  credentials: string[][];
}

/**
 * A provider: its settings and how to build a client from them.
 *
 * Settings come from manifest `config:` keys `<name>:<setting>`, overridden by the environment
 * variables in `envVars`. Whether the sandbox serves them is decided from `real`, above the
 * provider; `connect` follows the runtime it is given.
 */
export interface ProviderDef<S = any, C = any> {
  name: string;
  description: string;
  settings: z.ZodType<S>;
  /** environment variable → setting name */
  envVars: Record<string, string>;
  /** settings never shown in output or written in plaintext */
  secretSettings: string[];
  /** Which settings reach a real account (see RealAccount). */
  real: RealAccount;
  /** Checks settings that need no remote call (e.g. terms accepted); returns problems as text. */
  check?(settings: S): string[];
  /** A client for the sandbox when `rt.sandboxUrl` is given, else for the real API (a UserError when the credentials are not complete). */
  connect(settings: S, rt: ProviderRuntime): Promise<C>;
  /** How long a create or update may wait for an object to be ready, for these settings (default 10 minutes). */
  waitTimeMs?(settings: S): number;
  /** The settings as the upstream provider names them, secrets masked (terraformConfig method). */
  describeSettings?(settings: S): Record<string, unknown>;
}
