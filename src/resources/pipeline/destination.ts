/**
 * Destination: the warehouse a group's connections load into (`/v1/destinations`).
 *
 * Its id is its group's id, so a group holds one destination: changing the group or the service
 * replaces it, deleting the old one first. Everything else, the region included, is a PATCH.
 * `config` is compared by meaning (kit.ts); secrets come back masked and are kept as declared.
 */
import * as z from 'zod';
import { destinationPath as path, listDestinations, readDestination, type WireDestination } from '../../providers/pipeline/api/destinations.js';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { oneOfText } from '../schema.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import {
  apiIdFormat,
  byId,
  changedConfig,
  configSecretPaths,
  declaredConfig,
  deleteIfPresent,
  fieldsSchema,
  findMade,
  KNOWN_SECRET_KEYS,
  observedConfig,
  sealed,
  unlessGone,
  warnSetupTests,
  type Ctx,
} from './kit.js';

const NETWORKING = ['Directly', 'SshTunnel', 'ProxyAgent', 'PrivateLink'] as const;
const OFFSETS = [...Array.from({ length: 11 }, (_, i) => String(i - 11)), '0', ...Array.from({ length: 12 }, (_, i) => `+${i + 1}`)];

/** Inputs of a destination. */
export const destinationInputs = z.object({
  groupId: z.string().min(1).describe('Id of the group the destination belongs to; the destination takes its id. Required.'),
  service: z.string().min(1).describe('Destination service, e.g. `snowflake`, `big_query`, `databricks`, `redshift`, `postgres_warehouse`. Required.'),
  timeZoneOffset: oneOfText(OFFSETS, 'UTC offset the destination reports in, `-11`..`0`..`+12`. Required.'),
  region: z.string().optional().describe("Region that processes the data, e.g. `GCP_US_EAST4`, `AWS_EU_CENTRAL_1`. Default: the API's (`GCP_US_EAST4`)."),
  config: fieldsSchema(
    'Service-specific settings (host, port, user, password...). Compared by meaning: values the API drops, masks or types differently are not changes; keys left out, or a config left out, are left to the API; a key given as null is cleared. Secret keys are sealed.',
  ),
  daylightSavingTimeEnabled: z.boolean().optional().describe('Shift the offset with US daylight saving time. Default false.'),
  networkingMethod: z.enum(NETWORKING).optional().describe("How the vendor reaches the destination: `Directly`, `SshTunnel`, `ProxyAgent` or `PrivateLink`. Default: the API's (`Directly`)."),
  privateLinkId: z.string().optional().describe('Private link to reach it through (networkingMethod `PrivateLink`).'),
  proxyAgentId: z.string().optional().describe('Proxy agent to reach it through (networkingMethod `ProxyAgent`).'),
  hybridDeploymentAgentId: z.string().optional().describe('Hybrid deployment agent that loads it.'),
  runSetupTests: z.boolean().optional().describe('Run the setup tests when created or changed; failures are warnings. Default false. Not stored by the API.'),
  trustCertificates: z.boolean().optional().describe('Trust the certificates the setup tests meet. Default false. Not stored by the API.'),
  trustFingerprints: z.boolean().optional().describe('Trust the SSH host keys the setup tests meet. Default false. Not stored by the API.'),
});

/** Inputs of a destination. */
export type DestinationInputs = z.output<typeof destinationInputs>;

/** What the API reports about a destination. */
export const destinationOutputs = destinationInputs.omit({ runSetupTests: true, trustCertificates: true, trustFingerprints: true }).extend({
  id: z.string().describe("Destination id (its group's id)."),
  setupStatus: z.string().describe('`connected`, `incomplete` or `broken`.'),
});

/** Observed destination. */
export type DestinationOutputs = z.output<typeof destinationOutputs>;

function toOutputs(wire: WireDestination, declared: Record<string, unknown> | undefined): DestinationOutputs {
  return {
    id: wire.id,
    groupId: wire.group_id,
    service: wire.service,
    timeZoneOffset: wire.time_zone_offset,
    region: wire.region,
    config: sealed(observedConfig(declared, wire.config ?? {}), KNOWN_SECRET_KEYS),
    daylightSavingTimeEnabled: wire.daylight_saving_time_enabled ?? undefined,
    networkingMethod: (wire.networking_method ?? undefined) as DestinationOutputs['networkingMethod'],
    privateLinkId: wire.private_link_id ?? undefined,
    proxyAgentId: wire.proxy_agent_id ?? undefined,
    hybridDeploymentAgentId: wire.hybrid_deployment_agent_id ?? undefined,
    setupStatus: wire.setup_status.toLowerCase(),
  };
}

/** The fields every write sends, from inputs. */
function body(inputs: Partial<DestinationInputs>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    region: inputs.region,
    time_zone_offset: inputs.timeZoneOffset,
    daylight_saving_time_enabled: inputs.daylightSavingTimeEnabled,
    networking_method: inputs.networkingMethod,
    private_link_id: inputs.privateLinkId,
    proxy_agent_id: inputs.proxyAgentId,
    hybrid_deployment_agent_id: inputs.hybridDeploymentAgentId,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

async function observe(ctx: Ctx, id: string, declared: Record<string, unknown> | undefined): Promise<DestinationOutputs | undefined> {
  const wire = await unlessGone(readDestination(ctx.client, id));
  return wire && toOutputs(wire, declared);
}

/** The Destination resource type. */
export const destination: ResourceType<DestinationInputs, DestinationOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/destination:Destination',
  provider: 'pipeline',
  description: "The warehouse a group loads into; its id is the group's. Config compared by meaning; its password, keys and tokens sealed. Import id: <destination_id>, the group's id.",
  inputs: destinationInputs,
  outputs: destinationOutputs,
  secrets: {
    paths: configSecretPaths(),
  },
  diff: {
    computedInputs: ['region', 'networkingMethod', 'daylightSavingTimeEnabled'],
    recordOnly: ['runSetupTests', 'trustCertificates', 'trustFingerprints'],
    remoteManaged: ['setupStatus'],
    asDeclared(recorded, outputs, desired) {
      const defaults = defaultsAsDeclared(recorded, desired, {
        networkingMethod: 'Directly',
        daylightSavingTimeEnabled: false,
        runSetupTests: false,
        trustCertificates: false,
        trustFingerprints: false,
      });
      return { ...defaults, config: declaredConfig(defaults.config, desired.config, outputs.config) };
    },
    // Its config is read for the keys declared: a plan reads it again for the keys the manifest names.
    readsDeclared: true,
  },
  replace: {
    on: [
      { path: 'groupId', reason: "a destination's id is its group's: it cannot move to another group" },
      { path: 'service', reason: "the API cannot change a destination's service (UpdateDestinationRequest has none)" },
    ],
    // One destination per group: the old one must go before its group can take the new one.
    holds: [{ what: 'destination of a group', paths: ['groupId'] }],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('destination', 'decent_dropsy'),

  async create(ctx, inputs) {
    const sent = {
      group_id: inputs.groupId,
      service: inputs.service,
      ...body(inputs),
      config: inputs.config ?? {},
      run_setup_tests: inputs.runSetupTests ?? false,
      trust_certificates: inputs.trustCertificates ?? false,
      trust_fingerprints: inputs.trustFingerprints ?? false,
    };
    // The group holds one destination: one there now of this service is the lost send's.
    const recover = () =>
      findMade(
        ctx,
        Date.now(),
        (order) => destination.findOwned!(ctx, inputs, order),
        (made) => readDestination(ctx.client, made.id),
      );
    const made = await ctx.client.write<WireDestination>('POST', '/destinations', sent, { recover });
    ctx.recordId(made.id);
    warnSetupTests(ctx, `destination ${made.id}`, made.setup_tests);
    return { id: made.id, outputs: toOutputs(made, inputs.config) };
  },

  read(ctx, id, prior) {
    return observe(ctx, id, prior?.inputs.config);
  },

  async readMany(ctx, targets) {
    const listed = byId(await listDestinations(ctx.client));
    const out = new Map<string, DestinationOutputs | undefined>();
    for (const target of targets) {
      const found = listed.get(target.id);
      if (!found) continue;
      // The list carries no config: only a destination whose config is managed is read alone.
      const config = target.prior?.inputs.config;
      out.set(target.id, config && Object.keys(config).length ? await observe(ctx, target.id, config) : toOutputs(found, config ?? {}));
    }
    return out;
  },

  async update(ctx, id, prior, desired) {
    const changed = changedConfig(prior.inputs.config, desired.config);
    const sent = { ...body(desired), ...(Object.keys(changed).length ? { config: changed } : {}) };
    const flags = { trust_certificates: desired.trustCertificates ?? false, trust_fingerprints: desired.trustFingerprints ?? false };
    let wire = await ctx.client.write<WireDestination>('PATCH', path(id), { ...sent, run_setup_tests: desired.runSetupTests ?? false, ...flags });
    if (desired.runSetupTests && !prior.inputs.runSetupTests && !wire.setup_tests?.length) {
      wire = await ctx.client.write<WireDestination>('POST', `${path(id)}/test`, flags, { safe: true });
    }
    if (desired.runSetupTests) warnSetupTests(ctx, `destination ${id}`, wire.setup_tests);
    return toOutputs(wire, desired.config);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  async list(ctx) {
    const items = await listDestinations(ctx.client);
    return items.map((d) => ({ id: d.id, outputs: toOutputs(d, {}) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = await unlessGone(readDestination(ctx.client, inputs.groupId));
    return found?.service === inputs.service && !order.recorded(found.id) ? { id: found.id, outputs: toOutputs(found, inputs.config) } : undefined;
  },
};
