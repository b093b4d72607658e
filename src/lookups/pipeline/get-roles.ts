/**
 * getRoles: every predefined and custom role of the account.
 */
import * as z from 'zod';
import { LIST_ID, listId, pipelineLookup } from './shapes/lookup.js';

interface WireRole {
  name: string;
  description?: string | null;
  scope?: string[] | null;
  is_custom: boolean;
  is_deprecated?: boolean | null;
  replacement_role_name?: string | null;
}

/** Arguments of getRoles: none. */
export const getRolesArgs = z.object({});

/** One role. */
export const roleSchema = z
  .object({
    name: z.string().describe('Role name, e.g. Destination Administrator.'),
    description: z.string().describe('What the role allows.'),
    isCustom: z.boolean().describe('True for custom roles, false for predefined ones.'),
    scopes: z.array(z.string()).describe('Where the role applies: ACCOUNT, DESTINATION, CONNECTOR and/or TEAM.'),
    isDeprecated: z.boolean().describe('Whether the role is deprecated.'),
    replacementRoleName: z.string().nullable().describe('Role that replaces a deprecated one; null otherwise.'),
  })
  .describe('A role.');

/** Result of getRoles. */
export const getRolesResult = z
  .object({
    id: listId,
    roles: z.array(roleSchema).describe('Every role, in the order the API lists them.'),
  })
  .describe('A list of roles.');

/** Lists roles (GET /roles, every page). */
export const getRoles = pipelineLookup({
  name: 'getRoles',
  description: 'Every predefined and custom role, with its scopes.',
  args: getRolesArgs,
  result: getRolesResult,
  async call(client) {
    const items = await client.list<WireRole>('/roles');
    const roles = items.map((r) => ({
      name: r.name,
      description: r.description ?? '',
      isCustom: r.is_custom,
      scopes: r.scope ?? [],
      isDeprecated: r.is_deprecated ?? false,
      replacementRoleName: r.replacement_role_name || null,
    }));
    return { id: LIST_ID, roles };
  },
});
