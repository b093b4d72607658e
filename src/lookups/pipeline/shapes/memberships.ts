/**
 * Team memberships: the role a team holds on a connection or group, and its users' roles in
 * the team. The four membership lookups share the fetch and the role/createdAt fields; only
 * the name of the member id differs (connectionId, connectorId, groupId, userId).
 */
import * as z from 'zod';
import type { PipelineClient } from '../../../providers/pipeline/client.js';
import { orNotFound, seg } from './lookup.js';

/** What a team can be a member of, as the API path names it. */
export type MembershipKind = 'connections' | 'groups' | 'users';

/** A membership as the API sends it: connections and groups by `id`, users by `user_id`. */
interface WireMembership {
  id?: string;
  user_id?: string;
  role: string;
  created_at?: string | null;
}

/** The fields every membership result has besides the member id. */
export const membershipFields = {
  role: z.string().describe('Role held through the membership, e.g. Connector Administrator or Team Member.'),
  createdAt: z.string().nullable().describe('When the membership was created (RFC 3339 UTC timestamp); null if the API did not say.'),
};

/** One membership with the member id under a neutral name; each lookup renames `memberId`. */
export interface Membership {
  memberId: string;
  role: string;
  createdAt: string | null;
}

/** Every membership of one kind of a team, across all pages. */
export async function listTeamMemberships(client: PipelineClient, lookup: string, teamId: string, kind: MembershipKind): Promise<Membership[]> {
  const items = await orNotFound(lookup, 'team', teamId, () => client.list<WireMembership>(`/teams/${seg(teamId)}/${kind}`));
  return items.map((m) => ({ memberId: (kind === 'users' ? m.user_id : m.id) ?? '', role: m.role, createdAt: m.created_at ?? null }));
}

/** The id argument naming the team (`id` or `teamId`, as the upstream lookup calls it). */
export const teamIdDescription = 'Id of the team whose memberships to list.';
