/**
 * getPrivateLink: one private link by id, with its service-specific config map.
 */
import * as z from 'zod';
import { privateLinkFields, toPrivateLinkSummary, type WirePrivateLink } from './shapes/agents.js';
import { idArg, orNotFound, pipelineLookup, seg } from './shapes/lookup.js';

/** Arguments of getPrivateLink. */
export const getPrivateLinkArgs = z.object({
  id: idArg('Id of the private link.'),
});

/** Result of getPrivateLink. */
export const getPrivateLinkResult = z
  .object({
    ...privateLinkFields,
    configMap: z.record(z.string(), z.string()).describe('Service-specific settings (e.g. connection_service_name, workspace_url), keys as the API spells them.'),
  })
  .describe('A private link with its config.');

/** Looks up one private link (GET /private-links/{id}). */
export const getPrivateLink = pipelineLookup({
  name: 'getPrivateLink',
  description: 'One private link: service, region, state, host and config.',
  args: getPrivateLinkArgs,
  result: getPrivateLinkResult,
  async call(client, args) {
    const wire = await orNotFound('getPrivateLink', 'private link', args.id, () => client.get<WirePrivateLink>(`/private-links/${seg(args.id)}`));
    // A map of strings, as the upstream provider types it: non-string values are written out.
    const configMap = Object.fromEntries(
      Object.entries(wire.config ?? {})
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
    return { ...toPrivateLinkSummary(wire), configMap };
  },
});
