/**
 * getGroupSshKey: the public key the vendor uses for SSH tunnels of one group.
 */
import * as z from 'zod';
import { idArg, orNotFound, pipelineLookup, seg } from './shapes/lookup.js';

/** Arguments of getGroupSshKey. */
export const getGroupSshKeyArgs = z.object({
  id: idArg('Id of the group.'),
});

/** Result of getGroupSshKey. */
export const getGroupSshKeyResult = z
  .object({
    id: z.string().describe('The group id, echoed.'),
    publicKey: z.string().describe('SSH public key to authorize on the tunnel host (ssh-rsa ... fivetran user key).'),
  })
  .describe('The SSH public key of a group.');

/** Looks up the key (GET /groups/{id}/public-key). */
export const getGroupSshKey = pipelineLookup({
  name: 'getGroupSshKey',
  description: 'The SSH public key of a group, to authorize on SSH tunnel hosts.',
  args: getGroupSshKeyArgs,
  result: getGroupSshKeyResult,
  async call(client, args) {
    const data = await orNotFound('getGroupSshKey', 'group', args.id, () => client.get<{ public_key: string }>(`/groups/${seg(args.id)}/public-key`));
    return { id: args.id, publicKey: data.public_key };
  },
});
