/** The provider method `cloud:providers:cloud/terraformConfig`: the effective settings, upstream names, secrets masked. */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import { describeCloudSettings, type CloudSettings } from '../../providers/cloud/settings.js';
import type { LookupFunction } from '../../engine/contracts/lookup.js';

const args = z.object({
  __self__: z.unknown().optional().describe('The provider instance the method is called on (accepted for Pulumi compatibility; plumb uses the configured provider). Default: the configured provider.'),
});

const result = z.object({
  result: z.record(z.string(), z.unknown()).describe('Effective settings with upstream snake_case names (`public_key`, `max_retries`, `assume_role`…); secrets shown as [secret].'),
});

/** Returns the effective settings as the upstream provider names them; privateKey is always `[secret]`. */
export const terraformConfig: LookupFunction<z.output<typeof args>, z.output<typeof result>, CloudClient, CloudSettings> = {
  token: 'cloud:providers:cloud/terraformConfig',
  provider: 'cloud',
  description: 'The provider settings in effect, named as the upstream provider names them, with secrets masked.',
  args,
  result,
  async invoke(ctx) {
    return { result: describeCloudSettings(ctx.settings) };
  },
};
