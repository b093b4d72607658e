/**
 * Proxy agent: a program the customer runs in their network, through which the vendor reaches
 * sources there (`/v1/proxy`). The API has no PATCH: display name and region are fixed at
 * create. Its auth token and client private key are in the create answer only (and in that of
 * `regenerate-secrets`): plumb seals them in state as outputs (`[secret]` wherever shown; a
 * stack output can hand them to the agent's installer). Once lost (an imported agent, or a create
 * whose answer was lost and that was found again), the API cannot show them again: the outputs
 * are absent, and raising `regenerationCounter` has the API issue new ones (the old ones stop
 * working). Names are unique in an account, so a lost create is found by its name. Imported by
 * its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { reveal } from '../../kernel/values.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, byId, deleteIfPresent, findMade, onlyCandidate, unlessGone, type Ctx } from './kit.js';

/** Inputs of a proxy agent. */
export const proxyAgentInputs = z.object({
  displayName: z.string().min(1).describe('Name, unique in the account. Required.'),
  groupRegion: z.string().min(1).describe('Region of the groups it serves, e.g. `AWS_US_EAST_1`. Required.'),
  regenerationCounter: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Raise it to have the API issue a new auth token and client certificate (the old ones stop working). Default 0. Not stored by the API.'),
});

/** Inputs of a proxy agent. */
export type ProxyAgentInputs = z.output<typeof proxyAgentInputs>;

/** What the API reports about a proxy agent, with the secrets its create answered. */
export const proxyAgentOutputs = proxyAgentInputs.extend({
  id: z.string().describe('Proxy agent id.'),
  status: z.string().describe('`NOT_FOUND`, `CONNECTED` or `NOT_CONNECTED`.'),
  version: z.string().describe('Version the running agent reports (empty until it runs).'),
  registeredAt: z.string().describe('When it was registered (RFC 3339).'),
  createdBy: z.string().describe('Id of the user whose key made it.'),
  authToken: z.string().optional().describe('Token the agent authenticates with. Secret; shown by the API only when made or regenerated.'),
  clientCert: z.string().optional().describe('Client certificate of the agent (PEM), from the same answer.'),
  clientPrivateKey: z.string().optional().describe('Private key of the client certificate (PEM). Secret; shown by the API only when made or regenerated.'),
});

/** Observed proxy agent. */
export type ProxyAgentOutputs = z.output<typeof proxyAgentOutputs>;

interface WireAgent {
  id: string;
  display_name: string;
  region: string;
  status: string;
  version: string;
  registered_at: string;
  created_by: string;
}

interface WireSecrets {
  agent_id: string;
  auth_token: string;
  client_cert: string;
  client_private_key: string;
}

type Secrets = Pick<ProxyAgentOutputs, 'authToken' | 'clientCert' | 'clientPrivateKey'>;

const path = (id: string) => `/proxy/${encodeURIComponent(id)}`;

function toOutputs(w: WireAgent, inputs: Partial<ProxyAgentInputs> | undefined, secrets: Secrets | undefined): ProxyAgentOutputs {
  return {
    id: w.id,
    displayName: w.display_name,
    groupRegion: w.region,
    ...(inputs?.regenerationCounter !== undefined ? { regenerationCounter: inputs.regenerationCounter } : {}),
    status: w.status,
    version: w.version,
    registeredAt: w.registered_at,
    createdBy: w.created_by,
    ...pickSecrets(secrets),
  };
}

/** The secrets kept so far (state's), which no read returns. */
function pickSecrets(s: Secrets | undefined): Secrets {
  if (!s) return {};
  const out: Secrets = {};
  if (s.authToken !== undefined) out.authToken = s.authToken;
  if (s.clientCert !== undefined) out.clientCert = s.clientCert;
  if (s.clientPrivateKey !== undefined) out.clientPrivateKey = s.clientPrivateKey;
  return out;
}

const fromWire = (s: WireSecrets): Secrets => ({ authToken: s.auth_token, clientCert: s.client_cert, clientPrivateKey: s.client_private_key });

/** Agents of this name made since `earliestMs` that state does not hold. */
async function namedSince(ctx: Ctx, name: string, earliestMs: number, recorded: (id: string) => boolean): Promise<WireAgent[]> {
  const agents = await ctx.client.list<WireAgent>('/proxy');
  return agents.filter((a) => a.display_name === name && Date.parse(a.registered_at) >= earliestMs && !recorded(a.id));
}

const LOST = 'its auth token and private key were in the lost answer and the API shows them only once: raise regenerationCounter to have new ones issued';

/** The ProxyAgent resource type. */
export const proxyAgent: ResourceType<ProxyAgentInputs, ProxyAgentOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/proxyAgent:ProxyAgent',
  provider: 'pipeline',
  description:
    'A proxy agent in your network. Its auth token and private key are sealed outputs, shown by the API only on create; raising regenerationCounter issues new ones. Name and region replace it. Import id: <proxy_agent_id> (e.g. hidden_marten).',
  inputs: proxyAgentInputs,
  outputs: proxyAgentOutputs,
  secrets: {
    paths: ['authToken', 'clientPrivateKey'],
  },
  diff: {
    remoteManaged: ['status', 'version', 'registeredAt', 'createdBy', 'authToken', 'clientCert', 'clientPrivateKey'],
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { regenerationCounter: 0 }),
  },
  replace: {
    on: [
      { path: 'displayName', reason: 'the API cannot change a proxy agent: it has no update, only create, delete and regenerate-secrets' },
      { path: 'groupRegion', reason: 'the API cannot change a proxy agent: it has no update, only create, delete and regenerate-secrets' },
    ],
    // Names are unique in the account: a new agent of the same name needs the old one gone.
    holds: [{ what: 'proxy agent name', paths: ['displayName'] }],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('proxy_agent', 'hidden_marten'),

  async create(ctx, inputs) {
    const started = Date.now();
    // The agent findOwned finds comes without its secrets: findOwned warns how to get new ones.
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => proxyAgent.findOwned!(ctx, inputs, order),
        (made) => ({ agent_id: made.id, auth_token: '', client_cert: '', client_private_key: '' }),
      );
    const made = await ctx.client.write<WireSecrets>('POST', '/proxy', { display_name: inputs.displayName, group_region: inputs.groupRegion }, { recover });
    ctx.recordId(made.agent_id);
    const agent = await ctx.client.get<WireAgent>(path(made.agent_id));
    return { id: made.agent_id, outputs: toOutputs(agent, inputs, made.auth_token ? fromWire(made) : undefined) };
  },

  async read(ctx, id, prior) {
    const found = await unlessGone(ctx.client.get<WireAgent>(path(id)));
    return found && toOutputs(found, prior?.inputs, prior?.outputs);
  },

  async readMany(ctx, targets) {
    const listed = byId(await ctx.client.list<WireAgent>('/proxy'));
    const out = new Map<string, ProxyAgentOutputs | undefined>();
    for (const { id, prior } of targets) {
      const found = listed.get(id);
      if (found) out.set(id, toOutputs(found, prior?.inputs, prior?.outputs));
    }
    return out;
  },

  async update(ctx, id, prior, desired) {
    let secrets: Secrets | undefined = prior.outputs;
    if ((desired.regenerationCounter ?? 0) !== (prior.inputs.regenerationCounter ?? 0)) {
      // Sent twice, the second answer's secrets are the valid ones, and they are what is kept.
      secrets = fromWire(await ctx.client.write<WireSecrets>('POST', `${path(id)}/regenerate-secrets`, {}, { safe: true }));
    }
    const agent = await ctx.client.get<WireAgent>(path(id));
    return toOutputs(agent, desired, secrets && { ...secrets, authToken: reveal(secrets.authToken), clientPrivateKey: reveal(secrets.clientPrivateKey) });
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  async list(ctx) {
    return (await ctx.client.list<WireAgent>('/proxy')).map((a) => ({ id: a.id, outputs: toOutputs(a, undefined, undefined) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = onlyCandidate(`proxy agent named "${inputs.displayName}"`, await namedSince(ctx, inputs.displayName, order.earliestMs, order.recorded));
    if (!found) return undefined;
    ctx.warn(`proxy agent ${found.id}: ${LOST}`);
    return { id: found.id, outputs: toOutputs(found, inputs, undefined) };
  },
};
