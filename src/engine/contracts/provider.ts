import type { Logger } from 'pino';
import type { z } from 'zod';

/** What the engine gives a provider when it connects: where the sandbox is, and a logger. */
export interface ProviderRuntime {
  /** URL of the built-in sandbox (started on first call); the provider appends its own prefix. */
  sandboxUrl(): Promise<string>;
  log: Logger;
  /** Environment variables (process.env by default; tests pass their own). */
  env: Record<string, string | undefined>;
  /** Told each time the provider's client sends a call again, so the user sees why a step waits. */
  retrying?(notice: RetryNotice): void;
}

/** A call about to be sent again: the API limited the rate, or gave no answer (`reason` says what happened, without the call's path). */
export interface RetryNotice {
  kind: 'rate-limited' | 'unavailable';
  waitMs: number;
  attempt: number;
  reason: string;
}

/**
 * A provider: its settings and how to build a client from them.
 *
 * Settings come from manifest `config:` keys `<name>:<setting>`, overridden by the environment
 * variables in `envVars`. With no credentials, `connect` points the client at the sandbox.
 */
export interface ProviderDef<S = any, C = any> {
  name: string;
  description: string;
  settings: z.ZodType<S>;
  /** environment variable → setting name */
  envVars: Record<string, string>;
  /** settings never shown in output or written in plaintext */
  secretSettings: string[];
  /** Checks settings that need no remote call (e.g. terms accepted); returns problems as text. */
  check?(settings: S): string[];
  connect(settings: S, rt: ProviderRuntime): Promise<C>;
  /** How long a create or update may wait for an object to be ready, for these settings (default 10 minutes). */
  waitTimeMs?(settings: S): number;
  /** The settings as the upstream provider names them, secrets masked (terraformConfig method). */
  describeSettings?(settings: S): Record<string, unknown>;
}
