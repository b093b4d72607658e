/**
 * The cloud provider: settings, checks and how a client is connected. With no keys configured
 * it signs with the sandbox account and talks to the built-in sandbox.
 */
import { UserError } from '../../errors.js';
import type { ProviderDef, ProviderRuntime } from '../../engine/contracts/provider.js';
import { AssumedRoleCredentials } from './assume-role.js';
import { CloudClient } from './client.js';
import { resolveBaseKeys, StaticCredentials } from './credentials.js';
import { limiterFor } from '../limiter.js';
import { CLOUD_LIMITS, checkCloudSettings, cloudEnvVars, cloudSettingsSchema, describeCloudSettings, type CloudSettings } from './settings.js';

/** The client `connect` returns (handlers and lookups receive it as `ctx.client`). */
export { CloudClient } from './client.js';
/** Parsed settings (handlers and lookups receive them as `ctx.settings`). */
export type { CloudSettings } from './settings.js';

/** The upstream default endpoint. */
const DEFAULT_BASE_URL = 'https://api.ucloud.cn';

/** Connects a client for these settings (throws a UserError for settings that cannot work). */
async function connect(settings: CloudSettings, rt: ProviderRuntime): Promise<CloudClient> {
  const problems = checkCloudSettings(settings);
  if (problems.length > 0) throw new UserError(problems.join('; '));
  const { keys, origin } = resolveBaseKeys(settings, rt.env);
  // PLUMB_SANDBOX_URL points every provider at a standalone sandbox, credentials or not.
  const sandbox = !settings.baseUrl && (origin === 'sandbox' || Boolean(rt.env.PLUMB_SANDBOX_URL));
  let baseUrl: string;
  if (settings.baseUrl) baseUrl = settings.baseUrl;
  else if (sandbox) baseUrl = `${(await rt.sandboxUrl()).replace(/\/+$/, '')}/cloud/`;
  else baseUrl = settings.insecure ? DEFAULT_BASE_URL.replace('https:', 'http:') : DEFAULT_BASE_URL;
  if (sandbox) rt.log.info({ baseUrl }, 'cloud: using the sandbox');
  const client = new CloudClient({
    baseUrl,
    region: settings.region as string,
    projectId: settings.projectId as string,
    credentials: new StaticCredentials(keys),
    maxRetries: settings.maxRetries,
    log: rt.log.child({ provider: 'cloud' }),
    limiter: limiterFor(settings, CLOUD_LIMITS, sandbox, rt.env),
    retry: { retrying: rt.retrying },
  });
  if (settings.assumeRole) client.useCredentials(new AssumedRoleCredentials(client, keys, settings.assumeRole));
  return client;
}

/** The cloud provider definition registered with the engine. */
export const cloudProvider: ProviderDef<CloudSettings, CloudClient> = {
  name: 'cloud',
  description:
    'A cloud platform reached through one signed action endpoint: VPCs, subnets, security groups, EIPs, instances, disks, load balancers, NAT and VPN gateways, anti-DDoS protection and labels; read-only lookups across compute, network, database, storage, identity and labels.',
  settings: cloudSettingsSchema,
  envVars: cloudEnvVars,
  secretSettings: ['privateKey'],
  check: checkCloudSettings,
  connect,
  describeSettings: describeCloudSettings,
};
