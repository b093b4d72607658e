/**
 * Destinations as the API sends them (`GET /destinations/{id}`, items of `GET /destinations`),
 * and the calls that read them: shared by the Destination resource and the destination lookups.
 */
import type { PipelineClient } from '../client.js';
import type { SetupTest } from './setup-tests.js';

/**
 * A destination on the wire. The vendor's OpenAPI document requires the first six fields; the
 * networking fields and the daylight-saving flag may be absent or null.
 */
export interface WireDestination {
  id: string;
  group_id: string;
  service: string;
  region: string;
  time_zone_offset: string;
  setup_status: string;
  daylight_saving_time_enabled?: boolean | null;
  networking_method?: string | null;
  private_link_id?: string | null;
  proxy_agent_id?: string | null;
  hybrid_deployment_agent_id?: string | null;
  /** Only in a destination's details: list items carry no config. */
  config?: Record<string, unknown>;
  /** Only in the answers of a create, an update or a test. */
  setup_tests?: SetupTest[];
}

/** The API path of a destination. */
export const destinationPath = (id: string) => `/destinations/${encodeURIComponent(id)}`;

/** One destination's details by id, its config included (a not-found RemoteError when it is gone). */
export function readDestination(client: PipelineClient, id: string): Promise<WireDestination> {
  return client.get<WireDestination>(destinationPath(id));
}

/** Every destination of the account, without config, through every page. */
export function listDestinations(client: PipelineClient): Promise<WireDestination[]> {
  return client.list<WireDestination>('/destinations');
}
