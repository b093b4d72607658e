/**
 * The pipeline provider: settings, and a client for either the configured account or the
 * sandbox the runtime gives.
 */
import { UserError } from '../../kernel/errors.js';
import type { ProviderDef, ProviderRuntime } from '../../engine/contracts/provider.js';
import { PipelineClient, pipelineAccountKey } from './client.js';
import { limiterFor, sandboxEnforcesRealLimits } from '../limiter.js';
import { ALWAYS_ENDPOINT_LIMITS, ENDPOINT_LIMITS } from './protocol.js';
import { PIPELINE_LIMITS, describePipelineSettings, pipelineEnvVars, pipelineSettings, type PipelineSettings } from './settings.js';

/** The client and its options, for lookups and tests that build one directly. */
export { PipelineClient, type PipelineClientOptions, type Query } from './client.js';
/** Parsed settings, as `connect` receives them. */
export type { PipelineSettings } from './settings.js';

/** The sandbox account's key and secret (README): the sandbox refuses any other pair with a 401. */
const SANDBOX_KEY = 'sandbox-key';
const SANDBOX_SECRET = 'sandbox-secret';

/** Builds the client: the sandbox's `/pipeline/v1` with its account when the runtime gives a sandbox, else the configured account at apiUrl. */
export async function connectPipeline(settings: PipelineSettings, rt: ProviderRuntime): Promise<PipelineClient> {
  if (rt.sandboxUrl) {
    const baseUrl = `${(await rt.sandboxUrl()).replace(/\/+$/, '')}/pipeline/v1`;
    rt.log.debug({ provider: 'pipeline', baseUrl }, 'using the sandbox');
    return new PipelineClient({
      baseUrl,
      apiKey: SANDBOX_KEY,
      apiSecret: SANDBOX_SECRET,
      log: rt.log,
      limiter: limiterFor(settings, PIPELINE_LIMITS, true, rt.env, { key: pipelineAccountKey(baseUrl, SANDBOX_KEY), ...rt.rates }),
      ledger: rt.rates?.ledger,
      // A sandbox enforces only the limits met in ordinary use, unless told to enforce the real ones.
      endpointLimits: sandboxEnforcesRealLimits(rt.env) ? ENDPOINT_LIMITS : ALWAYS_ENDPOINT_LIMITS,
      retry: { retrying: rt.retrying },
    });
  }
  if (!settings.apiKey || !settings.apiSecret) throw new UserError(`${settings.apiUrl} needs pipeline:apiKey and pipeline:apiSecret (FIVETRAN_APIKEY, FIVETRAN_APISECRET)`);
  return new PipelineClient({
    baseUrl: settings.apiUrl,
    apiKey: settings.apiKey,
    apiSecret: settings.apiSecret,
    log: rt.log,
    limiter: limiterFor(settings, PIPELINE_LIMITS, false, rt.env, { key: pipelineAccountKey(settings.apiUrl, settings.apiKey), ...rt.rates }),
    ledger: rt.rates?.ledger,
    retry: { retrying: rt.retrying },
  });
}

/** The pipeline provider as the registry sees it. */
export const pipelineProvider: ProviderDef<PipelineSettings, PipelineClient> = {
  name: 'pipeline',
  description:
    'Data-pipeline platform (Fivetran REST API v1): groups, destinations, connections with their schedules, schema configs, certificates and fingerprints, users, teams and memberships, webhooks, private links, proxy and hybrid agents, external logging and dbt transformations; lookups of connections, destinations, groups, users, teams, roles, private links, agents and quickstart packages.',
  settings: pipelineSettings,
  envVars: pipelineEnvVars,
  secretSettings: ['apiSecret'],
  real: { settings: ['apiKey', 'apiSecret', 'apiUrl'], credentials: [['apiKey', 'apiSecret']] },
  connect: connectPipeline,
  describeSettings: describePipelineSettings,
};
