/**
 * ConnectionSchedule: the schedule slice of a connection (paused, syncFrequency, dailySyncTime,
 * scheduleType, pauseAfterTrial), which the API keeps on the connection itself and changes with
 * `PATCH /connections/{id}`; there is no schedule object of its own.
 *
 * Creating it PATCHes the fields the manifest gives (a PATCH is safe to send again, so a lost
 * answer needs no search); deleting it leaves the connection's schedule as it is, as the vendor's
 * Terraform provider does: the schedule goes with the connection. Its id, and import id, is the
 * connection's. A field left out is the API's to choose and is never a change.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { oneOf, oneOfText } from '../schema.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, unlessGone, type Ctx } from './kit.js';
import { connectionPath, readConnection, type WireConnection } from '../../providers/pipeline/api/connections.js';
import { listed } from './connection-wire.js';

const FREQUENCIES = [1, 5, 15, 30, 60, 120, 180, 360, 480, 720, 1440] as const;
const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

/** Inputs of a connection schedule. */
export const connectionScheduleInputs = z.object({
  connectionId: z.string().min(1).describe('Id of the connection whose schedule this is. Required.'),
  syncFrequency: oneOf(FREQUENCIES, "Minutes between syncs: 1, 5, 15, 30, 60, 120, 180, 360, 480, 720 or 1440. Default: the API's (360).").optional(),
  dailySyncTime: oneOfText(HOURS, 'Hour a daily sync starts, `00:00`..`23:00`; only with syncFrequency 1440 (the API ignores it otherwise).').optional(),
  scheduleType: z.enum(['auto', 'manual']).optional().describe("`auto` (syncs on the schedule) or `manual` (only when triggered). Default: the API's (`auto`)."),
  paused: z.boolean().optional().describe('Whether syncs are paused. Pausing and resuming are changes in place. Do not also set `paused` on the Connection.'),
  pauseAfterTrial: z.boolean().optional().describe("Pause the connection when its free trial ends. Default: the API's (false)."),
});

/** Inputs of a connection schedule. */
export type ConnectionScheduleInputs = z.output<typeof connectionScheduleInputs>;

/** What the API reports of a connection's schedule. */
export const connectionScheduleOutputs = connectionScheduleInputs.extend({
  id: z.string().describe("The connection's id."),
});

/** Observed connection schedule. */
export type ConnectionScheduleOutputs = z.output<typeof connectionScheduleOutputs>;

function toOutputs(wire: WireConnection): ConnectionScheduleOutputs {
  return {
    id: wire.id,
    connectionId: wire.id,
    syncFrequency: wire.sync_frequency as ConnectionScheduleOutputs['syncFrequency'],
    dailySyncTime: wire.daily_sync_time ?? undefined,
    scheduleType: (wire.schedule_type ?? 'auto') as ConnectionScheduleOutputs['scheduleType'],
    paused: wire.paused,
    pauseAfterTrial: wire.pause_after_trial,
  };
}

/** The PATCH body for the fields `desired` gives that differ from `prior`'s. */
function patch(prior: Partial<ConnectionScheduleInputs>, desired: ConnectionScheduleInputs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields: Array<[keyof ConnectionScheduleInputs, string]> = [
    ['syncFrequency', 'sync_frequency'],
    ['scheduleType', 'schedule_type'],
    ['paused', 'paused'],
    ['pauseAfterTrial', 'pause_after_trial'],
  ];
  for (const [input, wire] of fields) if (desired[input] !== undefined && desired[input] !== prior[input]) out[wire] = desired[input];
  // The API keeps a start hour only for daily syncs: sent with the frequency it belongs to.
  const daily = (desired.syncFrequency ?? prior.syncFrequency) === 1440;
  if (daily && desired.dailySyncTime !== undefined && (desired.dailySyncTime !== prior.dailySyncTime || out.sync_frequency !== undefined)) out.daily_sync_time = desired.dailySyncTime;
  return out;
}

async function apply(ctx: Ctx, id: string, prior: Partial<ConnectionScheduleInputs>, desired: ConnectionScheduleInputs): Promise<ConnectionScheduleOutputs> {
  const body = patch(prior, desired);
  const wire = Object.keys(body).length ? await ctx.client.write<WireConnection>('PATCH', connectionPath(id), body) : await readConnection(ctx.client, id);
  return toOutputs(wire);
}

/** The ConnectionSchedule resource type. */
export const connectionSchedule: ResourceType<ConnectionScheduleInputs, ConnectionScheduleOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/connectionSchedule:ConnectionSchedule',
  provider: 'pipeline',
  description: 'The schedule of a connection (paused, frequency, daily start, type): PATCHes of the connection; removing it leaves the schedule as it is. Import id: <connection_id>.',
  inputs: connectionScheduleInputs,
  outputs: connectionScheduleOutputs,
  diff: {
    computedInputs: ['syncFrequency', 'dailySyncTime', 'scheduleType', 'paused', 'pauseAfterTrial'],
  },
  replace: {
    on: [{ path: 'connectionId', reason: 'a schedule is part of one connection' }],
  },
  cost: { unpriced: "not billed on its own: part of its connection's monthly active rows" },
  importId: apiIdFormat('connection', 'ample_kitten'),

  async create(ctx, inputs) {
    ctx.recordId(inputs.connectionId);
    // Every given field is sent: what the connection has now is not what this schedule declared.
    const outputs = await apply(ctx, inputs.connectionId, {}, inputs);
    return { id: inputs.connectionId, outputs };
  },

  async read(ctx, id) {
    const wire = await unlessGone(readConnection(ctx.client, id));
    return wire && toOutputs(wire);
  },

  async readMany(ctx, targets) {
    const all = await listed(ctx);
    const out = new Map<string, ConnectionScheduleOutputs | undefined>();
    for (const { id } of targets) {
      const wire = all.get(id);
      if (wire) out.set(id, toOutputs(wire));
    }
    return out;
  },

  update(ctx, id, prior, desired) {
    return apply(ctx, id, prior.outputs, desired);
  },

  async delete() {
    // The schedule is the connection's: it stays until the connection goes.
  },

  async list(ctx) {
    return [...(await listed(ctx)).values()].map((wire) => ({ id: wire.id, outputs: toOutputs(wire) }));
  },
};
