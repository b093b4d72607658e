/**
 * LbListener: a listener (VServer) of a load balancer: a protocol and port it accepts traffic on,
 * and how it spreads that traffic over its backends.
 *
 * Name, method, persistence, idle timeout and health check change in place (one
 * UpdateVServerAttribute call). The API has no Action that changes a listener's protocol or port,
 * or moves it to another balancer, so those replace it. Import by `<lb_id>/<vserver_id>`.
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { int, snake, str, upperCamel } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { autoName, deleteListed, listedVerbs, nameField, noId, pathId, vanished, waitListed, type CloudCtx } from './kit.js';
import { allLbs, allVServers, describeLb, vserverOf, type VServerInfo } from './ulb.js';

const PROTOCOLS = ['http', 'https', 'tcp', 'udp'] as const;
const METHODS = ['roundrobin', 'source', 'consistent_hash', 'source_port', 'consistent_hash_port', 'weight_roundrobin', 'leastconn'] as const;
const PERSISTENCE = ['none', 'server_insert', 'user_defined'] as const;
const HEALTH_CHECKS = ['port', 'path', 'ping', 'customize'] as const;

/** Inputs of a listener. */
export const lbListenerInputs = z.object({
  lbId: z.string().min(1).describe('Id of the load balancer (`ulb-…`). Required.'),
  protocol: z.enum(PROTOCOLS).optional().describe('`http` (default), `https`, `tcp` or `udp`; `packets_transmit` balancers take `tcp` and `udp`.'),
  port: z.number().int().min(1).max(65535).optional().describe('Port it listens on, once per balancer. Default 80 for http, 443 for https, 1024 otherwise.'),
  name: nameField(),
  method: z.enum(METHODS).optional().describe('How requests are spread over the backends. Default `roundrobin`.'),
  persistenceType: z.enum(PERSISTENCE).optional().describe('Session persistence: `none` (default), `server_insert` or `user_defined` (with `persistence`, the cookie name).'),
  persistence: z.string().optional().describe('The cookie name of `user_defined` persistence.'),
  idleTimeout: z.number().int().min(0).max(86400).optional().describe('Seconds an idle connection is kept. Default 60.'),
  healthCheckType: z.enum(HEALTH_CHECKS).optional().describe('How backends are checked: `port` (default), `path` (with `domain` and `path`), `ping` or `customize`.'),
  domain: z.string().optional().describe('Host header of a `path` health check. Emptying it replaces the listener (the API cannot clear it).'),
  path: z.string().optional().describe('Path of a `path` health check. Emptying it replaces the listener (the API cannot clear it).'),
});

/** Inputs of a listener. */
export type LbListenerInputs = z.output<typeof lbListenerInputs>;

/** What is read back about a listener. */
export const lbListenerOutputs = z.object({
  listenerId: z.string().describe('Listener (VServer) id, e.g. `vserver-1a2b3c4d`.'),
  lbId: z.string().describe('Id of its load balancer.'),
  protocol: z.enum(PROTOCOLS).describe('Protocol.'),
  port: z.number().describe('Port.'),
  name: z.string().describe('Name.'),
  method: z.string().describe('How requests are spread.'),
  persistenceType: z.string().describe('Session persistence.'),
  persistence: z.string().describe('Cookie name of `user_defined` persistence.'),
  idleTimeout: z.number().describe('Idle timeout in seconds.'),
  healthCheckType: z.string().describe('Health check.'),
  domain: z.string().describe('Host header of the health check.'),
  path: z.string().describe('Path of the health check.'),
  status: z.enum(['healthy', 'unhealthy', 'partly_unhealthy']).describe('Health of its backends: all healthy, none, or some.'),
});

/** Observed listener. */
export type LbListenerOutputs = z.output<typeof lbListenerOutputs>;

const ID = pathId('listener', [
  ['lb_id', 'ulb'],
  ['vserver_id', 'vserver'],
]);

function toOutputs(lbId: string, v: VServerInfo): LbListenerOutputs {
  return {
    listenerId: v.VServerId,
    lbId,
    protocol: str(v.Protocol).toLowerCase() as LbListenerOutputs['protocol'],
    port: int(v.FrontendPort),
    name: str(v.VServerName),
    method: snake(v.Method),
    persistenceType: snake(v.PersistenceType) || 'none',
    persistence: str(v.PersistenceInfo),
    idleTimeout: int(v.ClientTimeout),
    healthCheckType: snake(v.MonitorType) || 'port',
    domain: str(v.Domain),
    path: str(v.Path),
    status: (['healthy', 'unhealthy', 'partly_unhealthy'] as const)[int(v.Status)] ?? 'healthy',
  };
}

/** The port a listener of these inputs listens on. */
function portOf(inputs: LbListenerInputs): number {
  return inputs.port ?? (inputs.protocol === 'https' ? 443 : (inputs.protocol ?? 'http') === 'http' ? 80 : 1024);
}

/** Whether a protocol is known now (left out is `http`); a reference not resolved yet is not. */
function isProtocol(protocol: unknown): boolean {
  return protocol === undefined || (PROTOCOLS as readonly unknown[]).includes(protocol);
}

/** The in-place settings as UpdateVServerAttribute (and CreateVServer) name them. */
function settings(inputs: Pick<LbListenerInputs, 'method' | 'persistenceType' | 'persistence' | 'idleTimeout' | 'healthCheckType' | 'domain' | 'path'>): Record<string, string | number | undefined> {
  return {
    Method: inputs.method && upperCamel(inputs.method),
    PersistenceType: inputs.persistenceType && upperCamel(inputs.persistenceType),
    PersistenceInfo: inputs.persistence,
    ClientTimeout: inputs.idleTimeout,
    MonitorType: inputs.healthCheckType && upperCamel(inputs.healthCheckType),
    Domain: inputs.domain,
    Path: inputs.path,
  };
}

/** The API's defaults of the in-place settings. */
const IN_PLACE_DEFAULTS = { method: 'roundrobin', persistenceType: 'none', idleTimeout: 60, healthCheckType: 'port' } as const;

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

async function readListener(ctx: CloudCtx, id: string): Promise<LbListenerOutputs | undefined> {
  const [lbId, vserverId] = ID.split(id);
  const vs = vserverOf(await describeLb(ctx, lbId), vserverId);
  return vs && toOutputs(lbId, vs);
}

/** The listener of the balancer on this protocol and port with this name: what a create of them made. */
async function made(ctx: CloudCtx, inputs: LbListenerInputs, name: string): Promise<VServerInfo | undefined> {
  const protocol = (inputs.protocol ?? 'http').toUpperCase();
  return (await describeLb(ctx, inputs.lbId))?.VServerSet?.find((v) => v.FrontendPort === portOf(inputs) && v.Protocol === protocol && v.VServerName === name);
}

/** The LbListener resource type. */
export const lbListener: ResourceType<LbListenerInputs, LbListenerOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/lbListener:LbListener',
  provider: 'cloud',
  description:
    'A listener (VServer) of a load balancer: protocol, port, balancing method, persistence and health check, all but protocol and port changed in place. Import id: `<lb_id>/<vserver_id>`.',
  inputs: lbListenerInputs,
  outputs: lbListenerOutputs,
  diff: {
    computedInputs: ['name'],
    asDeclared: (recorded, _outputs, desired) =>
      defaultsAsDeclared(recorded, desired, {
        protocol: 'http',
        // The port a listener made without one has: its protocol's, never the manifest's port.
        port: portOf({ protocol: recorded.protocol } as LbListenerInputs),
        method: 'roundrobin',
        persistenceType: 'none',
        persistence: '',
        idleTimeout: 60,
        healthCheckType: 'port',
        domain: '',
        path: '',
      }),
    remoteManaged: ['status'],
  },
  replace: {
    on: [
      { path: 'lbId', reason: 'a listener cannot move to another balancer (no API Action)' },
      { path: 'protocol', reason: "UpdateVServerAttribute cannot change a listener's protocol" },
      { path: 'port', reason: 'UpdateVServerAttribute takes no FrontendPort' },
    ],
    // A balancer takes one listener per port (4107; a UDP one beside a TCP-family one): a listener
    // replaced keeping its port is deleted first.
    holds: [
      {
        what: 'port on a load balancer',
        paths: ['lbId', 'port', 'transport'],
        defaults: {
          port: (inputs: LbListenerInputs) => (isProtocol(inputs.protocol) ? portOf(inputs) : undefined),
          transport: (inputs: LbListenerInputs) => (isProtocol(inputs.protocol) ? ((inputs.protocol ?? 'http') === 'udp' ? 'udp' : 'tcp') : undefined),
        },
      },
    ],
    when: {
      inputs: ['domain', 'path'],
      // The API takes an empty value as no change, so a health-check domain or path cannot be cleared.
      rules: (prior, desired) =>
        (['domain', 'path'] as const)
          .filter((f) => (prior[f] ?? '') !== '' && (desired[f] ?? '') === '')
          .map((f) => ({ path: f, reason: `UpdateVServerAttribute takes an empty ${f === 'domain' ? 'Domain' : 'Path'} as no change, so no Action clears one` })),
    },
  },
  provisioning: {
    // A listener is part of its balancer's record, listed as soon as CreateVServer answers.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: ID,

  async create(ctx, inputs) {
    const name = inputs.name ?? autoName(ctx.address, ctx.operationToken);
    const body = await ctx.client.call<{ VServerId?: string }>(
      'CreateVServer',
      { ULBId: inputs.lbId, VServerName: name, Protocol: (inputs.protocol ?? 'http').toUpperCase(), FrontendPort: portOf(inputs), ...settings(inputs) },
      {
        // A port is used once per balancer (4107), so a listener of this name on it is the one sent.
        recover: async () => {
          const found = await made(ctx, inputs, name);
          return found && { RetCode: 0, VServerId: found.VServerId };
        },
      },
    );
    if (!body.VServerId) throw noId('CreateVServer', 'VServerId');
    const id = `${inputs.lbId}/${body.VServerId}`;
    ctx.recordId(id);
    return { id, outputs: await waitListed(ctx, `listener ${id}`, () => readListener(ctx, id)) };
  },

  ...listedVerbs<LbListenerOutputs>(async (ctx) => allVServers(await allLbs(ctx)).map(({ lb, vs }) => ({ id: `${lb.ULBId}/${vs.VServerId}`, outputs: toOutputs(lb.ULBId, vs) })), readListener),

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = await made(ctx, inputs, inputs.name ?? autoName(ctx.address, ctx.operationToken));
    const id = found && `${inputs.lbId}/${found.VServerId}`;
    return id && !order.recorded(id) ? { id, outputs: toOutputs(inputs.lbId, found) } : undefined;
  },

  async update(ctx, id, _prior, desired) {
    const [lbId, vserverId] = ID.split(id);
    const seen = await readListener(ctx, id);
    if (!seen) throw vanished('listener', id);
    // A setting left out goes back to the API's default, as the plan compares it.
    const wanted: Record<string, string | number | undefined> = { VServerName: desired.name, ...settings({ ...IN_PLACE_DEFAULTS, ...definedOnly(desired) }) };
    const current: Record<string, string | number> = { VServerName: seen.name, ...(settings(seen as never) as Record<string, string | number>) };
    const changes = Object.fromEntries(Object.entries(wanted).filter(([k, v]) => v !== undefined && v !== current[k]));
    if (Object.keys(changes).length) await ctx.client.call('UpdateVServerAttribute', { ULBId: lbId, VServerId: vserverId, ...changes });
    const after = await readListener(ctx, id);
    if (!after) throw vanished('listener', id);
    return after;
  },

  async delete(ctx, id) {
    const [lbId, vserverId] = ID.split(id);
    await deleteListed(
      ctx,
      `listener ${id}`,
      async () => (await readListener(ctx, id)) !== undefined,
      () => ctx.client.call('DeleteVServer', { ULBId: lbId, VServerId: vserverId }),
    );
  },
};
