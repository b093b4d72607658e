import type { ProviderDef } from '../../engine/contracts/provider.js';
import { UserError } from '../../kernel/errors.js';
import { InterconnectClient } from './client.js';
import { limiterFor } from '../limiter.js';
import { INTERCONNECT_LIMITS, environments, interconnectSettings, type InterconnectSettings } from './settings.js';

/** The sandbox account's key and secret (README): the sandbox's token endpoint refuses any other pair. */
const SANDBOX_ACCESS_KEY = 'sandbox-key';
const SANDBOX_SECRET_KEY = 'sandbox-secret';

/** The interconnect provider: ports, MCRs, VXCs, IX, service keys and their lookups. */
export const interconnectProvider: ProviderDef<InterconnectSettings, InterconnectClient> = {
  name: 'interconnect',
  description: 'Network interconnect products: ports, LAG ports, cloud routers, virtual cross connects, IX, service keys.',
  settings: interconnectSettings,
  envVars: {
    INTERCONNECT_ACCESS_KEY: 'accessKey',
    INTERCONNECT_SECRET_KEY: 'secretKey',
    INTERCONNECT_ACCEPT_PURCHASE_TERMS: 'acceptPurchaseTerms',
    INTERCONNECT_ENVIRONMENT: 'environment',
  },
  secretSettings: ['secretKey'],
  // An environment named, or purchase terms accepted, means the real API as much as a key does.
  real: { settings: ['accessKey', 'secretKey', 'environment', 'acceptPurchaseTerms'], credentials: [['accessKey', 'secretKey']] },
  check(settings) {
    const real = Boolean(settings.accessKey && settings.secretKey);
    if (real && settings.acceptPurchaseTerms !== true) {
      return [`interconnect:acceptPurchaseTerms must be true to order in the ${settings.environment} environment (set it in config or INTERCONNECT_ACCEPT_PURCHASE_TERMS=true)`];
    }
    return [];
  },
  async connect(settings, rt) {
    // A sandbox is always reached as its own account.
    if (rt.sandboxUrl) {
      const base = `${await rt.sandboxUrl()}/interconnect`;
      return new InterconnectClient(
        { baseUrl: base, tokenUrl: `${base}/oauth2/token`, accessKey: SANDBOX_ACCESS_KEY, secretKey: SANDBOX_SECRET_KEY, sandbox: true, oneAtATime: oneAtATime(rt.env) },
        rt.log,
        undefined,
        limiterFor(settings, INTERCONNECT_LIMITS, true, rt.env, { key: addressKey(base), ...rt.rates }),
        { retrying: rt.retrying },
      );
    }
    if (!settings.accessKey || !settings.secretKey) {
      throw new UserError(`the ${settings.environment} environment needs interconnect:accessKey and interconnect:secretKey (INTERCONNECT_ACCESS_KEY, INTERCONNECT_SECRET_KEY)`);
    }
    const env = environments[settings.environment];
    return new InterconnectClient(
      { ...env, accessKey: settings.accessKey, secretKey: settings.secretKey, sandbox: false, oneAtATime: oneAtATime(rt.env) },
      rt.log,
      undefined,
      limiterFor(settings, INTERCONNECT_LIMITS, false, rt.env, { key: addressKey(env.baseUrl), ...rt.rates }),
      {
        retrying: rt.retrying,
      },
    );
  },
  waitTimeMs: (settings) => settings.waitTime * 60_000,
  describeSettings(settings) {
    return {
      access_key: settings.accessKey ?? null,
      secret_key: settings.secretKey ? '[secret]' : null,
      accept_purchase_terms: settings.acceptPurchaseTerms ?? false,
      environment: settings.environment,
      cancel_at_end_of_term: settings.cancelAtEndOfTerm,
      wait_time: settings.waitTime,
    };
  },
};

/**
 * Whose calls the API counts together: it counts per client address, and every account called
 * from this machine (or from machines sharing a ledger in the state's database) is taken to share
 * one, the reading that never exceeds it.
 */
function addressKey(baseUrl: string): string {
  return `interconnect ${new URL(baseUrl).host} per address`;
}

/** PLUMB_READS=one-by-one: every product ordered and waited for alone (the diagnostic; the session checks the value). */
function oneAtATime(env: Record<string, string | undefined>): boolean {
  return env.PLUMB_READS?.trim().toLowerCase() === 'one-by-one';
}
