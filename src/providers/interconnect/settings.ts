import * as z from 'zod';
import { rateLimitSetting, type DefaultLimits } from '../limiter.js';

/** The remote environments and their API base and token URLs. */
export const environments = {
  production: { baseUrl: 'https://api.megaport.com', tokenUrl: 'https://auth-m2m.megaport.com/oauth2/token' },
  staging: { baseUrl: 'https://api-staging.megaport.com', tokenUrl: 'https://auth-m2m-staging.megaport.com/oauth2/token' },
  development: { baseUrl: 'https://api-mpone-dev.megaport.com', tokenUrl: 'https://auth-m2m-mpone-dev.megaport.com/oauth2/token' },
} as const;

const boolish = z.preprocess((v) => (typeof v === 'string' ? ['true', 'yes', '1'].includes(v.toLowerCase()) : v), z.boolean());

/** Interconnect provider settings (`config: interconnect:<name>`). */
export const interconnectSettings = z.object({
  accessKey: z
    .string()
    .optional()
    .describe(
      'API access key. Env INTERCONNECT_ACCESS_KEY. With none of accessKey, secretKey, environment and acceptPurchaseTerms set, the built-in sandbox is used; with any, accessKey and secretKey are both required.',
    ),
  secretKey: z.string().optional().describe('API secret key (secret). Env INTERCONNECT_SECRET_KEY.'),
  acceptPurchaseTerms: boolish.optional().describe('Acceptance of the API purchase terms; must be true for a real environment. Env INTERCONNECT_ACCEPT_PURCHASE_TERMS.'),
  environment: z
    .enum(['production', 'staging', 'development'])
    .default('staging')
    .describe('Remote environment: production, staging (default) or development. Env INTERCONNECT_ENVIRONMENT. Set, it needs accessKey and secretKey (the built-in sandbox never serves it).'),
  cancelAtEndOfTerm: boolish
    .default(false)
    .describe(
      'Cancel Ports and LAG Ports at the end of their term (CANCEL) instead of now (CANCEL_NOW). Ignored by other resources. The API has refused CANCEL for Ports and LAG Ports since 2026-05: the delete then fails and cancels nothing. Default false.',
    ),
  waitTime: z.coerce.number().positive().default(10).describe('Minutes to wait for create and update to provision; fractions allowed. Default 10.'),
  maxConcurrency: z.coerce.number().int().positive().optional().describe('Most API calls in flight at once. Default 10 (unlimited against the sandbox).'),
  rateLimit: rateLimitSetting('default 500/5m, the 500 requests per rolling 5 minutes per IP address the API allows; counted per API address for every account on this machine.'),
  requestsPerSecond: z.coerce
    .number()
    .positive()
    .optional()
    .describe(
      'The older way to pace calls: a token bucket of this many calls a second (bursts of up to 10), kept alongside rateLimit. Not needed: rateLimit paces calls by the window the API counts. Unlimited against the sandbox.',
    ),
});

/** Limits for a real environment when the settings give none: the published window of 500 calls per rolling 5 minutes. */
export const INTERCONNECT_LIMITS: DefaultLimits = { maxConcurrency: 10, window: { limit: 500, windowMs: 5 * 60_000 } };

/** Parsed interconnect settings. */
export type InterconnectSettings = z.infer<typeof interconnectSettings>;
