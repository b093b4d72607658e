import { z } from 'zod';

/** The remote environments and their API base and token URLs. */
export const environments = {
  production: { baseUrl: 'https://api.megaport.com', tokenUrl: 'https://auth-m2m.megaport.com/oauth2/token' },
  staging: { baseUrl: 'https://api-staging.megaport.com', tokenUrl: 'https://auth-m2m-staging.megaport.com/oauth2/token' },
  development: { baseUrl: 'https://api-mpone-dev.megaport.com', tokenUrl: 'https://auth-m2m-mpone-dev.megaport.com/oauth2/token' },
} as const;

const boolish = z.preprocess((v) => (typeof v === 'string' ? ['true', 'yes', '1'].includes(v.toLowerCase()) : v), z.boolean());

/** Interconnect provider settings (`config: interconnect:<name>`). */
export const interconnectSettings = z.object({
  accessKey: z.string().optional().describe('API access key. Env INTERCONNECT_ACCESS_KEY. Without keys the built-in sandbox is used.'),
  secretKey: z.string().optional().describe('API secret key (secret). Env INTERCONNECT_SECRET_KEY.'),
  acceptPurchaseTerms: boolish.optional().describe('Acceptance of the API purchase terms; must be true for a real environment. Env INTERCONNECT_ACCEPT_PURCHASE_TERMS.'),
  environment: z.enum(['production', 'staging', 'development']).default('staging').describe('Remote environment: production, staging (default) or development.'),
  cancelAtEndOfTerm: boolish.default(false).describe('Cancel Ports and LAG Ports at the end of their term (CANCEL) instead of now (CANCEL_NOW). Ignored by other resources. Default false.'),
  waitTime: z.coerce.number().positive().default(10).describe('Minutes to wait for create and update to provision; fractions allowed. Default 10.'),
  maxConcurrency: z.coerce.number().int().positive().default(10).describe('Most calls in flight at once. Default 10.'),
  requestsPerSecond: z.coerce.number().positive().default(20).describe('Request rate ceiling, lowered automatically while the API answers 429. Default 20.'),
});

/** Parsed interconnect settings. */
export type InterconnectSettings = z.infer<typeof interconnectSettings>;
