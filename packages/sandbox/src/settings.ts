import { SandboxSettingError } from './setting-error.js';
import { limitsFrom, type LimitsOption } from './limits.js';
import type { SandboxResponse } from './types.js';

export { SandboxSettingError };

/** Settings of the simulated world: changed with `POST /_sandbox/settings`, kept in settings.json. */
export interface SandboxSettings {
  /** How long a product takes to provision, in ms (0 = instant). */
  provisioningMs: number;
  /**
   * Whether the interconnect API refuses CANCEL (cancel at the end of the term) for Ports and LAG
   * Ports, as the real API has since 2026-05 (its SDK and Terraform provider dropped delayed
   * cancellation then). False models the API as it was before.
   */
  refuseEndOfTermCancel: boolean;
}

/** The settings of a new world: today's API. */
export const DEFAULT_SETTINGS: SandboxSettings = { provisioningMs: 2000, refuseEndOfTermCancel: true };

const KEYS = Object.keys(DEFAULT_SETTINGS) as Array<keyof SandboxSettings>;

/**
 * A settings change as `POST /_sandbox/settings` takes it: any of the settings, each checked;
 * every problem is named together, and nothing changes unless all are valid.
 */
export function parseSettings(body: unknown): { patch: Partial<SandboxSettings> } | { problems: string[] } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { problems: [`expected a JSON object with any of ${KEYS.join(', ')}`] };
  const problems: string[] = [];
  const patch: Partial<SandboxSettings> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'provider') continue;
    if (key === 'provisioningMs') {
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) patch.provisioningMs = value;
      else problems.push('provisioningMs must be a number >= 0');
    } else if (key === 'refuseEndOfTermCancel') {
      if (typeof value === 'boolean') patch.refuseEndOfTermCancel = value;
      else problems.push('refuseEndOfTermCancel must be true or false');
    } else problems.push(`unknown setting ${key}; settings are ${KEYS.join(', ')}`);
  }
  if (!problems.length && !Object.keys(patch).length) problems.push(`no setting given; settings are ${KEYS.join(', ')}`);
  return problems.length ? { problems } : { patch };
}

/** The admin answer to a settings change: 400 naming every problem, or the settings now in force. */
export function settingsAnswer(body: unknown, world: { settings(): SandboxSettings; updateSettings(patch: Partial<SandboxSettings>): void }): SandboxResponse {
  const parsed = parseSettings(body);
  if ('problems' in parsed) return { status: 400, body: { message: parsed.problems.join('; ') } };
  world.updateSettings(parsed.patch);
  return { status: 200, body: world.settings() };
}

/**
 * Sandbox settings from the environment (`PLUMB_SANDBOX_PROVISIONING_MS`,
 * `PLUMB_SANDBOX_END_OF_TERM_CANCEL` = `refuse` or `accept`, `PLUMB_SANDBOX_LIMITS` = `real` or
 * `off`), with command-line values first. A value that is not valid is a SandboxSettingError naming where
 * it came from and what is valid.
 */
export function settingsFrom(
  env: Record<string, string | undefined>,
  flags: { provisioningMs?: string; endOfTermCancel?: string; limits?: string } = {},
): Partial<SandboxSettings> & { limits?: LimitsOption } {
  const out: Partial<SandboxSettings> & { limits?: LimitsOption } = {};
  const limits = limitsFrom(env, flags.limits);
  if (limits !== undefined) out.limits = limits;
  const ms = flags.provisioningMs ?? env.PLUMB_SANDBOX_PROVISIONING_MS;
  if (ms !== undefined) {
    if (!/^\d+$/.test(ms)) throw new SandboxSettingError(`provisioning time ${ms}: expected whole milliseconds, 0 or more (set with --provisioning-ms or PLUMB_SANDBOX_PROVISIONING_MS)`);
    out.provisioningMs = Number(ms);
  }
  const cancel = flags.endOfTermCancel ?? env.PLUMB_SANDBOX_END_OF_TERM_CANCEL;
  if (cancel !== undefined) {
    const mode = cancel.trim().toLowerCase();
    if (mode !== 'refuse' && mode !== 'accept') {
      throw new SandboxSettingError(
        `end-of-term cancellation "${cancel}": expected refuse (today's API) or accept (the API before 2026-05) (set with --end-of-term-cancel or PLUMB_SANDBOX_END_OF_TERM_CANCEL)`,
      );
    }
    out.refuseEndOfTermCancel = mode === 'refuse';
  }
  return out;
}
