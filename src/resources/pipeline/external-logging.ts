/**
 * External logging: where a group's logs are sent (Datadog, CloudWatch, Splunk...;
 * `/v1/external-logging`). Its id is its group's, so a group has at most one, and a create whose
 * answer was lost is found by reading its group's. `enabled` and `config` change in place (PATCH);
 * group and service are fixed at create. `config` is compared by meaning, as a connection's is;
 * its keys that are secret for some service (api_key, primary_key, token...) are sealed, and the
 * API reads them back masked, so the manifest's stand. Setup tests (a test event) run when asked
 * (`runSetupTests`); a failure is a warning naming the test. Imported by its id (the group's).
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, changedConfig, configSecretPaths, declaredConfig, deleteIfPresent, fieldsSchema, findMade, observedConfig, unlessGone, warnSetupTests, type Ctx } from './kit.js';
import type { SetupTest } from '../../providers/pipeline/api/setup-tests.js';

/** The log services the API takes. */
export const LOG_SERVICES = ['azure_monitor_log', 'cloudwatch', 'datadog_log', 'grafana_loki', 'new_relic_log', 'splunkLog', 'stackdriver'] as const;

/** The config keys each log service needs (the API refuses a config without them). */
export const LOG_SERVICE_NEEDS: Record<(typeof LOG_SERVICES)[number], string[]> = {
  azure_monitor_log: ['workspace_id', 'primary_key'],
  cloudwatch: ['log_group_name', 'role_arn', 'region'],
  datadog_log: ['api_key'],
  grafana_loki: ['host'],
  new_relic_log: ['api_key'],
  splunkLog: ['host', 'token'],
  stackdriver: ['project_id'],
};

const externalLoggingFields = z.object({
  groupId: z.string().min(1).describe('Id of the group whose logs are sent. Required; a group has one.'),
  service: z.enum(LOG_SERVICES).describe('Where logs go: `datadog_log`, `cloudwatch`, `splunkLog`... Required.'),
  enabled: z.boolean().optional().describe('Whether logs are sent. Default true.'),
  config: fieldsSchema(
    "The service's settings as the API names them (datadog_log: api_key, region; cloudwatch: log_group_name, role_arn, region...). Compared by meaning; api_key, primary_key, token and other secret keys are sealed. Keys left out, or a config left out, are left to the API; a key given as null is cleared.",
  ),
  runSetupTests: z.boolean().optional().describe('Send a test event when created or changed; a failure is a warning naming the test. Default false. Not stored by the API.'),
});

/** Inputs of an external log service: the config gives every key its service needs. */
export const externalLoggingInputs = externalLoggingFields.superRefine((v, ctx) => {
  const missing = (LOG_SERVICE_NEEDS[v.service] ?? []).filter((key) => v.config?.[key] === undefined || v.config[key] === '' || v.config[key] === null);
  if (missing.length) ctx.addIssue({ code: 'custom', path: ['config'], message: `service ${v.service} needs config ${missing.join(', ')} (it needs ${LOG_SERVICE_NEEDS[v.service].join(', ')})` });
});

/** Inputs of an external log service. */
export type ExternalLoggingInputs = z.output<typeof externalLoggingInputs>;

/** What the API reports about a log service. */
export const externalLoggingOutputs = externalLoggingFields.omit({ runSetupTests: true }).extend({
  id: z.string().describe("Log service id: its group's."),
});

/** Observed log service. */
export type ExternalLoggingOutputs = z.output<typeof externalLoggingOutputs>;

interface WireLog {
  id: string;
  group_id?: string;
  service: ExternalLoggingInputs['service'];
  enabled: boolean;
  config: Record<string, unknown>;
  setup_tests?: SetupTest[];
}

const path = (id: string) => `/external-logging/${encodeURIComponent(id)}`;

function toOutputs(w: WireLog, declared?: ExternalLoggingInputs): ExternalLoggingOutputs {
  return { id: w.id, groupId: w.group_id ?? w.id, service: w.service, enabled: w.enabled, config: observedConfig(declared?.config, w.config ?? {}) };
}

/** Sends a test event when asked; failures are warnings. */
async function test(ctx: Ctx, id: string, inputs: ExternalLoggingInputs, answered: SetupTest[] | undefined): Promise<void> {
  if (!inputs.runSetupTests) return;
  const tests = answered ?? (await ctx.client.write<{ setup_tests: SetupTest[] }>('POST', `${path(id)}/test`, {}, { safe: true })).setup_tests;
  warnSetupTests(ctx, `external logging ${id}`, tests);
}

/** The ExternalLogging resource type. */
export const externalLogging: ResourceType<ExternalLoggingInputs, ExternalLoggingOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/externalLogging:ExternalLogging',
  provider: 'pipeline',
  description:
    "A group's external log service. enabled and config change in place; config is compared by meaning and its secret keys are sealed; setup tests are warnings. Import id: <group_id> (a log service's id is its group's, e.g. decent_dropsy).",
  inputs: externalLoggingInputs,
  outputs: externalLoggingOutputs,
  secrets: {
    paths: [...configSecretPaths(), 'config.primary_key', 'config.token'],
  },
  diff: {
    recordOnly: ['runSetupTests'],
    asDeclared(recorded, outputs, desired) {
      const defaults = defaultsAsDeclared(recorded, desired, { enabled: true });
      return { ...defaults, config: declaredConfig(defaults.config, desired.config, outputs.config) };
    },
    // Its config is read for the keys declared: a plan reads it again for the keys the manifest names.
    readsDeclared: true,
  },
  replace: {
    on: [
      { path: 'groupId', reason: "a log service's id is its group's: the API cannot move it" },
      { path: 'service', reason: "the API's PATCH of a log service takes only enabled and config" },
    ],
    // A group holds one log service (under its id): the new one needs the old one gone.
    holds: [{ what: 'log service of a group', paths: ['groupId'] }],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('group', 'decent_dropsy'),

  async create(ctx, inputs) {
    // The create takes no run_setup_tests: the tests run through their own call once it exists.
    const sent = { group_id: inputs.groupId, service: inputs.service, enabled: inputs.enabled ?? true, config: inputs.config ?? {} };
    // A group has one log service, under the group's id: if the send went through, it reads.
    const recover = () =>
      findMade(
        ctx,
        Date.now(),
        (order) => externalLogging.findOwned!(ctx, inputs, order),
        (made) => ctx.client.get<WireLog>(path(made.id)),
      );
    const made = await ctx.client.write<WireLog>('POST', '/external-logging', sent, { recover });
    ctx.recordId(made.id);
    await test(ctx, made.id, inputs, undefined);
    return { id: made.id, outputs: toOutputs(made, inputs) };
  },

  async read(ctx, id, prior) {
    const found = await unlessGone(ctx.client.get<WireLog>(path(id)));
    return found && toOutputs(found, prior?.inputs);
  },

  async update(ctx, id, prior, desired) {
    const sent: Record<string, unknown> = {};
    if ((desired.enabled ?? true) !== (prior.inputs.enabled ?? true)) sent.enabled = desired.enabled ?? true;
    const config = changedConfig(prior.inputs.config, desired.config);
    if (Object.keys(config).length) sent.config = config;
    let wire: WireLog | undefined;
    if (Object.keys(sent).length) wire = await ctx.client.write<WireLog>('PATCH', path(id), { ...sent, run_setup_tests: desired.runSetupTests ?? false });
    await test(ctx, id, desired, wire?.setup_tests);
    wire ??= await ctx.client.get<WireLog>(path(id));
    return toOutputs(wire, desired);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  // The list carries only id, service and enabled: each is read for its group and config.
  async list(ctx) {
    const listed = await ctx.client.list<{ id: string }>('/external-logging');
    const found = await Promise.all(listed.map((l) => unlessGone(ctx.client.get<WireLog>(path(l.id)))));
    return found.filter((w): w is WireLog => w !== undefined).map((w) => ({ id: w.id, outputs: toOutputs(w) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs || order.recorded(inputs.groupId)) return undefined;
    const found = await unlessGone(ctx.client.get<WireLog>(path(inputs.groupId)));
    return found && found.service === inputs.service ? { id: found.id, outputs: toOutputs(found, inputs) } : undefined;
  },
};
