/**
 * Connection: one source syncing into a group's destination (`/v1/connections`).
 *
 * The service, the group and the destination schema are fixed at create; everything else is a
 * PATCH carrying only what changed. `config` is compared by meaning and its secrets are those
 * the service's metadata marks, so no service's echo of its config is a perpetual diff. `auth` is
 * never returned by the API: sealed, and changed only when the manifest changes it. Setup tests
 * run when asked (`runSetupTests`); failures are warnings. Creations keep within the API's 20 a
 * minute (the client's window limit). A create whose answer was lost is found by its schema name,
 * unique in its group. Imported by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { defaultsAsDeclared, unreportedFromManifest } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, changedConfig, configSecretPaths, declaredConfig, deleteIfPresent, fieldsSchema, findMade, sameMeaning, serviceSecretPaths, unlessGone, warnSetupTests } from './kit.js';
import { connectionServiceCheck } from './service-check.js';
import { connectionPath, listConnections, readConnection, type WireConnection } from '../../providers/pipeline/api/connections.js';
import { created, findByName, observe, readAll, schemaName, toOutputs } from './connection-wire.js';

const NETWORKING = ['Directly', 'SshTunnel', 'ProxyAgent', 'PrivateLink'] as const;

/** Where the connection lands in the destination: a prefix (databases) or a schema, with a table for file services. */
export const destinationSchemaInput = z
  .object({
    prefix: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be lower-case letters, digits and underscores')
      .optional()
      .describe('Schema prefix, for services that name schemas by prefix (databases): `pg_orders` gives `pg_orders_public`...'),
    name: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be lower-case letters, digits and underscores')
      .optional()
      .describe('Schema name, for services that load into one schema.'),
    table: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be lower-case letters, digits and underscores')
      .optional()
      .describe('Table name, for file services that load into one table.'),
  })
  .strict()
  .refine((s) => (s.prefix === undefined) !== (s.name === undefined), { message: 'give either prefix or name' })
  .refine((s) => s.table === undefined || s.name !== undefined, { message: 'table goes with name' });

/** Inputs of a connection. */
export const connectionInputs = z.object({
  service: z.string().min(1).describe('Connector type, e.g. `postgres`, `salesforce`, `s3` (getConnectorsMetadata lists them; plan refuses one it does not list). Required.'),
  groupId: z.string().min(1).describe('Id of the group (and destination) it loads into. Required.'),
  destinationSchema: destinationSchemaInput.describe('Where it lands: `{prefix}` or `{name, table?}` as the service takes (its metadata says which). Required.'),
  config: fieldsSchema(
    'Service-specific settings, as the API names them (snake_case). Compared by meaning: values the API drops (empty), masks (`******`), fills by default, types differently (`"5432"`) or reorders (lists kept as sets) are not changes; keys left out, or a config left out, are left to the API; a key given as null is cleared. Keys the service\'s metadata marks secret are sealed.',
  ),
  auth: fieldsSchema('Credentials of OAuth services (client_access, refresh_token, access_token...). The API never returns them: sealed, and sent only when the manifest changes them.'),
  paused: z.boolean().optional().describe("Whether syncs are paused. Default: the API's (not paused); a connection created paused stays paused."),
  networkingMethod: z
    .enum(NETWORKING)
    .optional()
    .describe("How the vendor reaches the source: `Directly`, `SshTunnel` (tunnel_* in config), `ProxyAgent` (proxyAgentId) or `PrivateLink` (privateLinkId). Default: the API's."),
  proxyAgentId: z.string().optional().describe('Proxy agent to reach the source through (networkingMethod `ProxyAgent`).'),
  privateLinkId: z.string().optional().describe('Private link to reach the source through (networkingMethod `PrivateLink`).'),
  hybridDeploymentAgentId: z.string().optional().describe("Hybrid deployment agent that runs its syncs. Default: the destination's."),
  dataDelaySensitivity: z.enum(['LOW', 'NORMAL', 'HIGH', 'CUSTOM', 'SYNC_FREQUENCY']).optional().describe('When a late sync is reported. Default `NORMAL`.'),
  dataDelayThreshold: z.number().int().min(0).optional().describe('Minutes of delay reported, with dataDelaySensitivity `CUSTOM`. Default 0.'),
  runSetupTests: z.boolean().optional().describe('Run the setup tests when created or changed; each failure is a warning naming the test. Default false. Not stored by the API.'),
  trustCertificates: z.boolean().optional().describe('Trust the certificates the setup tests meet. Default false. Not stored by the API.'),
  trustFingerprints: z.boolean().optional().describe('Trust the SSH host keys the setup tests meet. Default false. Not stored by the API.'),
});

/** Inputs of a connection. */
export type ConnectionInputs = z.output<typeof connectionInputs>;

/** What the API reports about a connection. */
export const connectionOutputs = connectionInputs.omit({ auth: true, runSetupTests: true, trustCertificates: true, trustFingerprints: true }).extend({
  id: z.string().describe('Connection id.'),
  name: z.string().describe('Its name: the destination schema (`prefix`, `name` or `name.table`).'),
  syncFrequency: z.number().describe('Minutes between syncs (managed by ConnectionSchedule).'),
  scheduleType: z.string().describe('`auto` or `manual` (managed by ConnectionSchedule).'),
  setupState: z.string().describe('`incomplete`, `connected` or `broken`.'),
  syncState: z.string().describe('`scheduled`, `syncing`, `paused` or `rescheduled`.'),
  createdAt: z.string().describe('When it was created (RFC 3339).'),
});

/** Observed connection. */
export type ConnectionOutputs = z.output<typeof connectionOutputs>;

/** The persistent fields a PATCH sends for what changed between two sets of inputs (empty: nothing to send). */
function changes(prior: ConnectionInputs, desired: ConnectionInputs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const config = changedConfig(prior.config, desired.config);
  if (Object.keys(config).length) out.config = config;
  if (desired.auth && !sameMeaning(prior.auth, desired.auth)) out.auth = desired.auth;
  const fields: Array<[keyof ConnectionInputs, string]> = [
    ['paused', 'paused'],
    ['networkingMethod', 'networking_method'],
    ['proxyAgentId', 'proxy_agent_id'],
    ['privateLinkId', 'private_link_id'],
    ['hybridDeploymentAgentId', 'hybrid_deployment_agent_id'],
    ['dataDelaySensitivity', 'data_delay_sensitivity'],
    ['dataDelayThreshold', 'data_delay_threshold'],
  ];
  for (const [input, wire] of fields) if (desired[input] !== undefined && desired[input] !== prior[input]) out[wire] = desired[input];
  return out;
}

/** The Connection resource type. */
export const connection: ResourceType<ConnectionInputs, ConnectionOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/connection:Connection',
  provider: 'pipeline',
  description:
    "A source syncing into a group's destination: config compared by meaning, its secrets (and all of auth) sealed as the service's metadata says, setup tests as warnings, creations within 20 a minute. Import id: <connection_id> (e.g. ample_kitten).",
  inputs: connectionInputs,
  outputs: connectionOutputs,
  secrets: {
    paths: [...configSecretPaths(), 'auth'],
    pathsFor: (desired, ctx) => serviceSecretPaths(ctx, desired.service),
  },
  diff: {
    computedInputs: ['paused', 'networkingMethod', 'hybridDeploymentAgentId', 'dataDelaySensitivity', 'dataDelayThreshold'],
    recordOnly: ['runSetupTests', 'trustCertificates', 'trustFingerprints'],
    remoteManaged: ['name', 'syncFrequency', 'scheduleType', 'setupState', 'syncState', 'createdAt'],
    asDeclared(recorded, outputs, desired, origin) {
      const given = unreportedFromManifest(recorded, desired, ['auth'], origin);
      const defaults = defaultsAsDeclared(given, desired, { dataDelaySensitivity: 'NORMAL', dataDelayThreshold: 0, runSetupTests: false, trustCertificates: false, trustFingerprints: false });
      return { ...defaults, config: declaredConfig(defaults.config, desired.config, outputs.config) };
    },
    // Its config is read for the keys declared: a plan reads it again for the keys the manifest names.
    readsDeclared: true,
  },
  replace: {
    on: [
      { path: 'service', reason: "the API cannot change a connection's service" },
      { path: 'groupId', reason: 'the API cannot move a connection to another group' },
      { path: 'destinationSchema', reason: 'the API sets the destination schema only when the connection is created' },
    ],
  },
  cost: { unpriced: 'usage-priced: monthly active rows' },
  crossCheck: connectionServiceCheck,
  importId: apiIdFormat('connection', 'ample_kitten'),

  async create(ctx, inputs) {
    const name = schemaName(inputs.destinationSchema);
    const sent = {
      group_id: inputs.groupId,
      service: inputs.service,
      config: {
        ...inputs.config,
        ...(inputs.destinationSchema.prefix ? { schema_prefix: inputs.destinationSchema.prefix } : { schema: inputs.destinationSchema.name, table: inputs.destinationSchema.table }),
      },
      ...(inputs.auth ? { auth: inputs.auth } : {}),
      ...changes({} as ConnectionInputs, { ...inputs, config: undefined, auth: undefined }),
      run_setup_tests: inputs.runSetupTests ?? false,
      trust_certificates: inputs.trustCertificates ?? false,
      trust_fingerprints: inputs.trustFingerprints ?? false,
    };
    // The schema name is unique in its group: a connection of that name made since is the lost send's.
    const started = Date.now();
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => connection.findOwned!(ctx, inputs, order),
        (made) => readConnection(ctx.client, made.id),
      );
    const made = await ctx.client.write<WireConnection>('POST', '/connections', sent, { recover });
    ctx.recordId(made.id);
    warnSetupTests(ctx, `connection ${made.id}`, made.setup_tests);
    return created(made, await toOutputs(ctx, made, inputs));
  },

  read(ctx, id, prior) {
    return observe(ctx, id, prior?.inputs);
  },

  readMany(ctx, targets) {
    return readAll(ctx, targets);
  },

  async update(ctx, id, prior, desired) {
    const sent = changes(prior.inputs, desired);
    const flags = { trust_certificates: desired.trustCertificates ?? false, trust_fingerprints: desired.trustFingerprints ?? false };
    let wire: WireConnection | undefined;
    // A PATCH needs a persistent field; setup tests alone are their own call.
    if (Object.keys(sent).length) wire = await ctx.client.write<WireConnection>('PATCH', connectionPath(id), { ...sent, run_setup_tests: desired.runSetupTests ?? false, ...flags });
    if (desired.runSetupTests && !wire) wire = await ctx.client.write<WireConnection>('POST', `${connectionPath(id)}/test`, flags, { safe: true });
    if (desired.runSetupTests) warnSetupTests(ctx, `connection ${id}`, wire?.setup_tests);
    wire ??= await unlessGone(readConnection(ctx.client, id));
    if (!wire) throw new Error(`connection ${id} is gone`);
    return toOutputs(ctx, wire, desired);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, connectionPath(id));
  },

  async list(ctx) {
    const items = await listConnections(ctx.client);
    return Promise.all(items.map(async (item) => ({ id: item.id, outputs: await toOutputs(ctx, item, undefined) })));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = await findByName(ctx, inputs.groupId, schemaName(inputs.destinationSchema), order.earliestMs, order.recorded);
    return found ? created(found, await toOutputs(ctx, found, inputs)) : undefined;
  },
};
