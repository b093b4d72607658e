/**
 * The cloud provider: settings, checks and how a client is connected. Against a sandbox it signs
 * with the keys configured, or the sandbox account without any.
 */
import { createHash } from 'node:crypto';
import { UserError } from '../../kernel/errors.js';
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

/** Connects a client for these settings (throws a UserError for settings that cannot work): the sandbox the runtime gives, else the real API. */
async function connect(settings: CloudSettings, rt: ProviderRuntime): Promise<CloudClient> {
  const problems = checkCloudSettings(settings);
  if (problems.length > 0) throw new UserError(problems.join('; '));
  const { keys, origin } = resolveBaseKeys(settings, rt.env);
  const sandbox = Boolean(rt.sandboxUrl);
  let baseUrl: string;
  if (rt.sandboxUrl) baseUrl = `${(await rt.sandboxUrl()).replace(/\/+$/, '')}/cloud/`;
  else if (origin === 'sandbox') throw new UserError(`the cloud API needs a key pair: cloud:publicKey and cloud:privateKey (UCLOUD_PUBLIC_KEY, UCLOUD_PRIVATE_KEY), or cloud:profile (UCLOUD_PROFILE)`);
  else if (settings.baseUrl) baseUrl = settings.baseUrl;
  else baseUrl = settings.insecure ? DEFAULT_BASE_URL.replace('https:', 'http:') : DEFAULT_BASE_URL;
  if (sandbox) rt.log.info({ baseUrl }, 'cloud: using the sandbox');
  const client = new CloudClient({
    baseUrl,
    region: settings.region as string,
    projectId: settings.projectId as string,
    credentials: new StaticCredentials(keys),
    maxRetries: settings.maxRetries,
    log: rt.log.child({ provider: 'cloud' }),
    limiter: limiterFor(settings, CLOUD_LIMITS, sandbox, rt.env, { key: `cloud ${baseUrl} account ${createHash('sha256').update(keys.publicKey).digest('hex').slice(0, 16)}`, ...rt.rates }),
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
  // An endpoint, plain HTTP to the real one, or a role to assume in an account means the real API as much as a key does.
  real: {
    settings: ['publicKey', 'privateKey', 'profile', 'sharedCredentialsFile', 'baseUrl', 'insecure', 'assumeRole'],
    credentials: [['publicKey', 'privateKey'], ['profile'], ['sharedCredentialsFile']],
  },
  check: checkCloudSettings,
  connect,
  describeSettings: describeCloudSettings,
};
