import * as z from 'zod';
import type { InterconnectClient } from '../../providers/interconnect/client.js';
import { interconnectProvider } from '../../providers/interconnect/index.js';
import type { InterconnectSettings } from '../../providers/interconnect/settings.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

const args = z.object({
  __self__: z
    .unknown()
    .optional()
    .describe('The provider instance the method is called on. The upstream signature requires it; plumb accepts any value (or none) and always answers for the configured provider.'),
});

const result = z.object({
  result: z
    .record(z.string(), z.unknown())
    .describe('Effective settings with upstream names (access_key, secret_key, accept_purchase_terms, environment, cancel_at_end_of_term, wait_time); secrets shown as [secret].'),
});

/** The provider method `interconnect:providers:interconnect/terraformConfig`: the effective settings, upstream names, secrets masked. */
export const terraformConfig: LookupFunction<z.output<typeof args>, z.output<typeof result>, InterconnectClient, InterconnectSettings> = {
  token: 'interconnect:providers:interconnect/terraformConfig',
  provider: 'interconnect',
  description: 'The provider settings in effect, named as the upstream provider names them, with the secret key masked.',
  args,
  result,
  async invoke(ctx) {
    return { result: interconnectProvider.describeSettings!(ctx.settings) };
  },
};
