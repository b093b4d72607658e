/**
 * Private link: a private endpoint between the vendor's network and the customer's cloud
 * (`/v1/private-links`), which connections and destinations reach their hosts through.
 *
 * Made asynchronously: the create answers in state `CREATING`, and the link is usable once it
 * reads `OK`. plumb waits for that, within the create's wait time (customTimeouts.create), and a
 * link that ends `FAIL` is an error naming its state summary (it is recorded, so the next apply
 * replaces it); one still being made when that time runs out or a run is interrupted is kept as
 * still provisioning, and the next apply waits for it: never made twice.
 * Only `config` changes in place (PATCH; the link passes through `UPDATING`); name, region and
 * service are fixed at create. A delete marks it for deletion (`DESTROYING`),
 * and plumb waits until it is gone. Names are unique in an account, so a create whose answer was
 * lost is found by its name. Imported by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { freeForm } from '../../engine/contracts/strict.js';
import { apiIdFormat, declaredConfig, deleteIfPresent, findMade, observedConfig, onlyCandidate, sameMeaning, unlessGone, type Ctx } from './kit.js';

/** The services a private link is made for. */
export const PRIVATE_LINK_SERVICES = [
  'DATABRICKS_AWS',
  'SNOWFLAKE_AWS',
  'REDSHIFT_AWS',
  'SOURCE_AWS',
  'DATABRICKS_AZURE',
  'SNOWFLAKE_AZURE',
  'ONELAKE_AZURE',
  'POSTGRES_WAREHOUSE_AZURE',
  'SQL_DATA_WAREHOUSE_AZURE',
  'SOURCE_AZURE',
  'SNOWFLAKE_GCP',
  'SOURCE_GCP',
  'DATABRICKS_GCP',
] as const;

/** The config keys each private link service needs (the API refuses a create without them). */
export const PRIVATE_LINK_NEEDS: Record<(typeof PRIVATE_LINK_SERVICES)[number], string[]> = {
  DATABRICKS_AWS: ['workspace_url'],
  SNOWFLAKE_AWS: ['account_url', 'vpce_id'],
  REDSHIFT_AWS: ['aws_account_id', 'cluster_identifier'],
  SOURCE_AWS: ['connection_service_name'],
  DATABRICKS_AZURE: ['workspace_url'],
  SNOWFLAKE_AZURE: ['account_url'],
  ONELAKE_AZURE: ['workspace_url'],
  POSTGRES_WAREHOUSE_AZURE: ['sub_resource_name'],
  SQL_DATA_WAREHOUSE_AZURE: ['sub_resource_name'],
  SOURCE_AZURE: ['pls_id'],
  SNOWFLAKE_GCP: ['account_url'],
  SOURCE_GCP: ['private_connection_service_id'],
  DATABRICKS_GCP: ['workspace_url'],
};

const privateLinkFields = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,22}$/, 'must start with a letter or underscore and hold letters, digits and underscores, at most 23 characters')
    .describe('Name, unique in the account. Required.'),
  region: z.string().min(1).describe("Region of the vendor side, e.g. `AWS_US_EAST_1` (as a destination's region). Required."),
  service: z.enum(PRIVATE_LINK_SERVICES).describe('What it reaches: `SOURCE_AWS`, `SNOWFLAKE_AWS`, `DATABRICKS_AZURE`... Required.'),
  config: freeForm(z.record(z.string(), z.string()), "the service's settings, keys as the API spells them (POST /v1/private-links)").describe(
    "The service's settings, e.g. `connection_service_name` (SOURCE_AWS), `account_url` and `vpce_id` (SNOWFLAKE_AWS), `pls_id` (SOURCE_AZURE). Required. Keys left out are left to the API.",
  ),
});

/** Inputs of a private link: the config gives every key its service needs. */
export const privateLinkInputs = privateLinkFields.superRefine((v, ctx) => {
  const missing = (PRIVATE_LINK_NEEDS[v.service] ?? []).filter((key) => !v.config?.[key]);
  if (missing.length) ctx.addIssue({ code: 'custom', path: ['config'], message: `service ${v.service} needs config ${missing.join(', ')} (it needs ${PRIVATE_LINK_NEEDS[v.service].join(', ')})` });
});

/** Inputs of a private link. */
export type PrivateLinkInputs = z.output<typeof privateLinkInputs>;

/** What the API reports about a private link. */
export const privateLinkOutputs = privateLinkFields.extend({
  id: z.string().describe('Private link id.'),
  cloudProvider: z.string().describe('`AWS`, `GCP` or `AZURE`.'),
  state: z.string().describe('`CREATING`, `UPDATING`, `OK` or `FAIL`.'),
  stateSummary: z.string().describe('What the state means now, e.g. why it failed.'),
  host: z.string().optional().describe('Host name connections use to reach the other side, once `OK`.'),
  createdAt: z.string().describe('When it was made (RFC 3339).'),
  createdBy: z.string().describe('Id of the user whose key made it.'),
});

/** Observed private link. */
export type PrivateLinkOutputs = z.output<typeof privateLinkOutputs>;

interface WireLink {
  id: string;
  name: string;
  region: string;
  service: string;
  cloud_provider: string;
  state: string;
  state_summary: string;
  host: string | null;
  created_at: string;
  created_by: string;
  config?: Record<string, string>;
}

const path = (id: string) => `/private-links/${encodeURIComponent(id)}`;

function toOutputs(w: WireLink, declared?: PrivateLinkInputs): PrivateLinkOutputs {
  return {
    id: w.id,
    name: w.name,
    region: w.region,
    service: w.service as PrivateLinkInputs['service'],
    config: observedConfig(declared?.config, w.config ?? {}) as Record<string, string>,
    cloudProvider: w.cloud_provider,
    state: w.state,
    stateSummary: w.state_summary,
    ...(w.host ? { host: w.host } : {}),
    createdAt: w.created_at,
    createdBy: w.created_by,
  };
}

/** The link as it reads now; one being destroyed is gone. */
async function readLink(ctx: Ctx, id: string): Promise<WireLink | undefined> {
  const found = await unlessGone(ctx.client.get<WireLink>(path(id)));
  return found?.state === 'DESTROYING' ? undefined : found;
}

/** How often a wait looks at a link: 200 ms apart at first, then an eighth of the time waited, 5 s apart at most. */
const PACE = { maxMs: 5_000 };

/**
 * Waits until the link is `OK` and returns it, within the operation's wait time (WaitTimedOut
 * after that: it is still on its way). `FAIL`, or its disappearance, is a plain error naming why.
 */
function settled(ctx: Ctx, id: string, what: string): Promise<WireLink> {
  return ctx.wait<WireLink>(
    `private link ${id} to be ${what}`,
    async () => {
      const link = await unlessGone(ctx.client.get<WireLink>(path(id)));
      if (!link) throw new Error(`private link ${id} disappeared while it was being ${what}; run plan to see what the next apply makes of it`);
      if (link.state === 'FAIL') throw new Error(`private link ${id} (${link.name}) is FAIL instead of ${what}: ${link.state_summary}`);
      if (link.state !== 'OK') return { done: false, status: link.state };
      ctx.progress(link.state);
      return { done: true, value: link };
    },
    PACE,
  );
}

/** Links of this name made since `earliestMs` that state does not hold. */
async function namedSince(ctx: Ctx, name: string, earliestMs: number, recorded: (id: string) => boolean): Promise<WireLink[]> {
  const links = await ctx.client.list<WireLink>('/private-links');
  return links.filter((l) => l.name === name && Date.parse(l.created_at) >= earliestMs && !recorded(l.id));
}

/** The PrivateLink resource type. */
export const privateLink: ResourceType<PrivateLinkInputs, PrivateLinkOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/privateLink:PrivateLink',
  provider: 'pipeline',
  description:
    'A private link to a source or destination in your cloud. Waits until it is OK (customTimeouts.create); FAIL is an error naming why. Config changes in place; name, region and service replace it. Import id: <private_link_id> (e.g. tidy_marmot).',
  inputs: privateLinkInputs,
  outputs: privateLinkOutputs,
  diff: {
    remoteManaged: ['cloudProvider', 'state', 'stateSummary', 'host', 'createdAt', 'createdBy'],
    asDeclared(recorded, outputs, desired) {
      return { ...recorded, config: declaredConfig(recorded.config, desired.config, outputs.config) as Record<string, string> };
    },
    // Its config is read for the keys declared: a plan reads it again for the keys the manifest names.
    readsDeclared: true,
  },
  replace: {
    on: [
      { path: 'name', reason: "the API's PATCH of a private link takes only its config: the name is fixed at create" },
      { path: 'region', reason: "the API's PATCH of a private link takes only its config: the region is fixed at create" },
      { path: 'service', reason: "the API's PATCH of a private link takes only its config: the service is fixed at create" },
    ],
    // A new link of the same name waits for the old one to be gone: names are unique in the account.
    holds: [{ what: 'private link name', paths: ['name'] }],
  },
  provisioning: {
    // A link still being made (or changed) is waited for, never replaced: a new one would start
    // over, and the API allows five creations an hour. Only one that failed is of no use.
    ready: (outputs) => outputs.state === 'OK',
    status: (outputs) => String(outputs.state),
    failed: (outputs) => (outputs.state === 'FAIL' ? `FAIL (${String(outputs.stateSummary)})` : undefined),
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('private_link', 'tidy_marmot'),

  async create(ctx, inputs) {
    const started = Date.now();
    const sent = { name: inputs.name, region: inputs.region, service: inputs.service, config: inputs.config };
    // Names are unique in the account: a link of this name made since the send is the send's.
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => privateLink.findOwned!(ctx, inputs, order),
        (made) => readLink(ctx, made.id),
      );
    const made = await ctx.client.write<WireLink>('POST', '/private-links', sent, { recover });
    ctx.recordId(made.id);
    return { id: made.id, outputs: toOutputs(await settled(ctx, made.id, 'created'), inputs) };
  },

  async read(ctx, id, prior) {
    const found = await readLink(ctx, id);
    return found && toOutputs(found, prior?.inputs);
  },

  async update(ctx, id, prior, desired) {
    if (!sameMeaning(prior.inputs.config, desired.config)) await ctx.client.write('PATCH', path(id), { config: desired.config });
    return toOutputs(await settled(ctx, id, 'updated'), desired);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
    // The API only marks it for deletion: it is gone once a read says so.
    await ctx.wait(
      `private link ${id} to be deleted`,
      async () => {
        const link = await unlessGone(ctx.client.get<WireLink>(path(id)));
        return link ? { done: false, status: link.state } : { done: true, value: undefined };
      },
      PACE,
    );
  },

  async list(ctx) {
    const items = await ctx.client.list<WireLink>('/private-links');
    const read = await Promise.all(items.map((item) => readLink(ctx, item.id)));
    return read.filter((l): l is WireLink => l !== undefined).map((l) => ({ id: l.id, outputs: toOutputs(l) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = onlyCandidate(`private link named "${inputs.name}"`, await namedSince(ctx, inputs.name, order.earliestMs, order.recorded));
    if (!found) return undefined;
    // Adopted as it is: one still CREATING is waited for by the apply (see provisioning.ready), not here.
    const link = await readLink(ctx, found.id);
    return link && { id: link.id, outputs: toOutputs(link, inputs) };
  },
};
