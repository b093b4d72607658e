/**
 * Groups as the API sends them (`GET /groups/{id}`, items of `GET /groups`), and the calls that
 * read them: shared by the Group resource and the group lookups.
 */
import type { PipelineClient } from '../client.js';

/** A group on the wire. */
export interface WireGroup {
  id: string;
  name: string;
  created_at: string;
}

/** The API path of a group. */
export const groupPath = (id: string) => `/groups/${encodeURIComponent(id)}`;

/** One group by id (a not-found RemoteError when it is gone). */
export function readGroup(client: PipelineClient, id: string): Promise<WireGroup> {
  return client.get<WireGroup>(groupPath(id));
}

/** Every group of the account, through every page. */
export function listGroups(client: PipelineClient): Promise<WireGroup[]> {
  return client.list<WireGroup>('/groups');
}
