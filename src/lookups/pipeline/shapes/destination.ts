/**
 * Destination fields shared by getDestination (with config) and getDestinations (without).
 */
import * as z from 'zod';
import type { WireDestination } from '../../../providers/pipeline/api/destinations.js';
import { orNull } from './wire.js';

/** The fields of a destination result, config aside. */
export const destinationFields = {
  id: z.string().describe('Unique id of the destination (the same as its group id).'),
  groupId: z.string().describe('Id of the group the destination belongs to.'),
  service: z.string().describe('Destination type, e.g. snowflake, big_query, databricks, redshift.'),
  region: z.string().describe('Processing region, e.g. AWS_US_EAST_1 or GCP_EUROPE_WEST3.'),
  timeZoneOffset: z.string().describe('Time zone offset from UTC as a string, "-11" to "+12" ("0" for UTC).'),
  setupStatus: z.string().describe('connected, incomplete or broken (reported in lower case whatever case the API uses).'),
  daylightSavingTimeEnabled: z.boolean().describe('Whether the offset shifts with (US) daylight saving time.'),
  networkingMethod: z.string().nullable().describe('How the vendor reaches the destination: Directly, SshTunnel, ProxyAgent or PrivateLink.'),
  privateLinkId: z.string().nullable().describe('Private link used; set exactly when networkingMethod is PrivateLink, else null.'),
  proxyAgentId: z.string().nullable().describe('Proxy agent used; set exactly when networkingMethod is ProxyAgent, else null.'),
  hybridDeploymentAgentId: z.string().nullable().describe('Hybrid deployment agent of the destination; null when none.'),
};

/** A destination result object without config (list items). */
export const destinationSummarySchema = z.object(destinationFields).describe('A destination.');

/** The destination's fields in result form; ids of unused networking paths are dropped, as for connections. */
export function toDestinationSummary(wire: WireDestination): z.input<typeof destinationSummarySchema> {
  const method = orNull(wire.networking_method);
  return {
    id: wire.id,
    groupId: wire.group_id,
    service: wire.service,
    region: wire.region,
    timeZoneOffset: wire.time_zone_offset,
    setupStatus: wire.setup_status.toLowerCase(),
    daylightSavingTimeEnabled: wire.daylight_saving_time_enabled ?? false,
    networkingMethod: method,
    privateLinkId: method === 'PrivateLink' ? orNull(wire.private_link_id) : null,
    proxyAgentId: method === 'ProxyAgent' ? orNull(wire.proxy_agent_id) : null,
    hybridDeploymentAgentId: orNull(wire.hybrid_deployment_agent_id),
  };
}
