/**
 * The pipeline provider's settings: manifest keys `pipeline:<setting>`, overridden by the
 * environment variables the Terraform provider reads. Given none of apiKey, apiSecret and apiUrl,
 * the built-in sandbox serves them.
 */
import * as z from 'zod';
import { rateLimitSetting, type DefaultLimits } from '../limiter.js';
import { DEFAULT_API_URL } from './protocol.js';

/** An empty string (an exported but blank env variable) means "not set", not "empty credential". */
const optionalText = (description: string) => z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().optional()).describe(description);

/** Settings schema; every field documents its default and where else it can come from. */
export const pipelineSettings = z.object({
  apiKey: optionalText(
    'API key of the account (env FIVETRAN_APIKEY). With none of apiKey, apiSecret and apiUrl set, plumb uses its built-in sandbox; with any, apiKey and apiSecret are both required.',
  ),
  apiSecret: optionalText('API secret paired with apiKey (env FIVETRAN_APISECRET). Secret: never shown or logged.'),
  apiUrl: z
    .preprocess((v) => (v === '' || v === null ? undefined : v), z.url().default(DEFAULT_API_URL))
    .describe(`Base address of the REST API including /v1 (env FIVETRAN_API_URL). Default ${DEFAULT_API_URL}. Set, it needs apiKey and apiSecret (the built-in sandbox never serves it).`),
  maxConcurrency: z.coerce.number().int().positive().optional().describe('Most API calls in flight at once. Default 5 (unlimited against the sandbox).'),
  rateLimit: rateLimitSetting(
    'default 20000/1h, the rolling hour of a paid account; a trial account allows 500/1h. Counted per account. A lower limit the API states in its X-Rate-Limit header is followed, and the calls its X-Rate-Limit-Remaining header says were made elsewhere are counted.',
  ),
  requestsPerSecond: z.coerce
    .number()
    .positive()
    .optional()
    .describe(
      'The older way to pace calls: a token bucket of this many calls a second (bursts of up to 10), kept alongside rateLimit (a trial account used to set 0.13; rateLimit: 500/1h now says it as the API does). Unlimited against the sandbox.',
    ),
});

/** Limits for the real API when the settings give none: the rolling hour of a paid account. */
export const PIPELINE_LIMITS: DefaultLimits = { maxConcurrency: 5, window: { limit: 20_000, windowMs: 3_600_000 } };

/** Parsed pipeline settings. */
export type PipelineSettings = z.output<typeof pipelineSettings>;

/** Environment variable → setting name, as the Terraform provider names them. */
export const pipelineEnvVars: Record<string, string> = {
  FIVETRAN_APIKEY: 'apiKey',
  FIVETRAN_APISECRET: 'apiSecret',
  FIVETRAN_API_URL: 'apiUrl',
};

/** The settings under the Terraform provider's attribute names, with the secret masked. */
export function describePipelineSettings(settings: PipelineSettings): Record<string, unknown> {
  return {
    api_key: settings.apiKey,
    api_secret: settings.apiSecret ? '[secret]' : undefined,
    api_url: settings.apiUrl,
  };
}
