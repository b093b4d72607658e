/**
 * Settings of the cloud provider: the zod schema (with a doc on every field), the environment
 * variables that override it, the checks that need no remote call, and the upstream-style view
 * used by the `terraformConfig` method.
 */
import * as z from 'zod';
import { Secret } from '../../kernel/values.js';
import { rateLimitSetting, type DefaultLimits } from '../limiter.js';

/** Default number of times a failed call is sent again (the upstream provider's code default). */
export const DEFAULT_MAX_RETRIES = 3;

/** Default lifetime of assumed-role credentials. */
export const DEFAULT_ASSUME_ROLE_DURATION = '900s';

const GO_DURATION = /^(\d+(\.\d+)?(h|m|s|ms))+$/;

/** Seconds in a Go duration string such as `900s`, `15m` or `1h30m`. */
export function durationSeconds(text: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(h|ms|m|s)/g)) total += Number(amount) * units[unit];
  return Math.round(total);
}

/** A plain string from a config value that may have been marked secret in the manifest. */
const unwrapSecret = (value: unknown): unknown => (value instanceof Secret ? value.value : value);

/** `"true"`/`"false"` from the environment as booleans (z.coerce.boolean would turn "false" into true). */
const boolish = (value: unknown): unknown => (value === 'true' ? true : value === 'false' ? false : value);

/** The `assumeRole` block: an STS AssumeRole call whose temporary keys sign every later call. */
export const assumeRoleSchema = z.object({
  roleUrn: z.string().min(1).describe('URN of the role to assume, e.g. `ucs:iam::12345:role/deployer`. Required.'),
  sessionName: z.string().min(1).describe('Name of the role session, recorded in the audit log. Required.'),
  duration: z
    .string()
    .regex(GO_DURATION, 'duration must be a duration such as 900s, 15m or 1h')
    .default(DEFAULT_ASSUME_ROLE_DURATION)
    .describe('Lifetime of the temporary credentials as a duration (`900s`, `15m`, `1h`). Default `900s`. They are renewed before they expire.'),
  policy: z
    .string()
    .refine(isJsonObject, 'policy must be a JSON policy document (an object)')
    .optional()
    .describe("JSON policy document that further restricts the assumed role. Default: none (the role's own permissions)."),
});

/** Settings of the cloud provider (manifest `cloud:<setting>`, overridden by UCLOUD_* variables). */
export const cloudSettingsSchema = z.object({
  publicKey: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Public key of the API key pair (env UCLOUD_PUBLIC_KEY). Default: none. With none of publicKey, privateKey, profile, sharedCredentialsFile, baseUrl, insecure and assumeRole set, the built-in sandbox is used; with any, a key pair, a profile or a shared credentials file is required.',
    ),
  privateKey: z.preprocess(unwrapSecret, z.string().min(1).optional()).describe('Private key of the API key pair; secret, never shown (env UCLOUD_PRIVATE_KEY). Default: none.'),
  profile: z.string().min(1).optional().describe('Profile to load the key pair from in the shared credentials file (env UCLOUD_PROFILE). Takes precedence over publicKey/privateKey. Default: none.'),
  sharedCredentialsFile: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Path of the shared credentials file, a JSON array of {public_key, private_key, profile} (env UCLOUD_SHARED_CREDENTIAL_FILE). A leading `~/` is expanded. Default `~/.ucloud/credential.json`.',
    ),
  baseUrl: z
    .string()
    .refine(isHttpUrl, 'baseUrl must be an http(s) URL')
    .optional()
    .describe(
      'Address of the API (env UCLOUD_API_BASE_URL). Default `https://api.ucloud.cn` (`http://` with insecure). Set, it needs a key pair, a profile or a shared credentials file (the built-in sandbox never serves it). Conflicts with insecure.',
    ),
  insecure: z.preprocess(boolish, z.boolean()).default(false).describe('Use plain HTTP to the default address. Default false. Conflicts with baseUrl.'),
  maxRetries: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(DEFAULT_MAX_RETRIES)
    .describe(
      'How many times a failed call is sent again: throttling (429, RetCode 153) for any Action; 5xx, lost connections and server-side codes for Actions safe to repeat. A buy or add (Buy*, Add*, Create*...) is sent again only once plumb has checked that the first one made nothing. 0–10, default 3.',
    ),
  assumeRole: assumeRoleSchema.optional().describe('Assume an IAM role with STS before any other call: {roleUrn, sessionName, duration, policy}. Default: none.'),
  region: z.string().min(1).optional().describe('Region every call is made in, e.g. `cn-bj2` (env UCLOUD_REGION). Required.'),
  projectId: z.string().min(1).optional().describe('Project every call is made in, e.g. `org-xxxxxx` (env UCLOUD_PROJECT_ID). Required.'),
  maxConcurrency: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe('Most API calls in flight at once, halved while the API throttles (HTTP 429, RetCode 153) and raised back gradually. Default 10 (unlimited against the sandbox).'),
  requestsPerSecond: z.coerce
    .number()
    .positive()
    .optional()
    .describe(
      'Sustained API calls per second (token bucket, bursts of up to 10), halved while the API throttles and raised back gradually. Default 10: the API publishes no window. Unlimited against the sandbox.',
    ),
  rateLimit: rateLimitSetting('none by default, as the API publishes none (only its throttling RetCode 153); set one to keep within a window the account was given.'),
});

/** Limits for the real API when the settings give none: it publishes no numbers, so a modest rate that throttling feedback can lower further. */
export const CLOUD_LIMITS: DefaultLimits = { maxConcurrency: 10, requestsPerSecond: 10, burst: 10 };

/** Parsed cloud provider settings. */
export type CloudSettings = z.output<typeof cloudSettingsSchema>;

/** The assumeRole block after defaults. */
export type AssumeRole = z.output<typeof assumeRoleSchema>;

/** Environment variable → setting name. */
export const cloudEnvVars: Record<string, string> = {
  UCLOUD_PUBLIC_KEY: 'publicKey',
  UCLOUD_PRIVATE_KEY: 'privateKey',
  UCLOUD_PROFILE: 'profile',
  UCLOUD_SHARED_CREDENTIAL_FILE: 'sharedCredentialsFile',
  UCLOUD_API_BASE_URL: 'baseUrl',
  UCLOUD_REGION: 'region',
  UCLOUD_PROJECT_ID: 'projectId',
};

/** Problems in the settings that need no remote call, as sentences naming the settings. */
export function checkCloudSettings(settings: CloudSettings): string[] {
  const problems: string[] = [];
  const missing = [settings.region ? undefined : 'cloud:region', settings.projectId ? undefined : 'cloud:projectId'].filter((name): name is string => name !== undefined);
  if (missing.length === 2) problems.push('cloud:region and cloud:projectId are required (set them in the manifest config or UCLOUD_REGION / UCLOUD_PROJECT_ID)');
  else if (missing.length === 1) {
    const env = missing[0] === 'cloud:region' ? 'UCLOUD_REGION' : 'UCLOUD_PROJECT_ID';
    problems.push(`${missing[0]} is required (set it in the manifest config or ${env})`);
  }
  if (settings.insecure && settings.baseUrl) {
    problems.push('cloud:insecure conflicts with cloud:baseUrl (the scheme of baseUrl decides)');
  }
  return problems;
}

/** The effective settings with upstream snake_case names, secrets masked as `[secret]`. */
export function describeCloudSettings(settings: CloudSettings): Record<string, unknown> {
  const role = settings.assumeRole;
  const view: Record<string, unknown> = {
    public_key: settings.publicKey,
    private_key: settings.privateKey ? '[secret]' : undefined,
    profile: settings.profile,
    shared_credentials_file: settings.sharedCredentialsFile,
    base_url: settings.baseUrl,
    insecure: settings.insecure,
    max_retries: settings.maxRetries,
    assume_role: role && {
      role_urn: role.roleUrn,
      session_name: role.sessionName,
      duration: role.duration,
      policy: role.policy,
    },
    region: settings.region,
    project_id: settings.projectId,
  };
  return JSON.parse(JSON.stringify(view)) as Record<string, unknown>;
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
