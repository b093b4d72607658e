/**
 * Transformation: dbt Core steps of a transformation project, run on a schedule
 * (`/v1/transformations`). Name, steps, schedule and paused change in place (PATCH); the project
 * is fixed at create. Steps are an ordered list (each `{name, command}`); the schedule's lists
 * (cron, days, connections) are sets. Names are taken as unique in a project, so a create whose
 * answer was lost is found by its project and name. Imported by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, byId, deleteIfPresent, findMade, onlyCandidate, sameMeaning, unlessGone, type Ctx } from './kit.js';

const DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;

/** The field each schedule type runs by, and what it takes. */
const SCHEDULE_NEEDS = {
  INTEGRATED: { field: 'connectionIds', what: 'the connections whose syncs trigger it, at least one' },
  TIME_OF_DAY: { field: 'timeOfDay', what: 'the time of the run, HH:00 or HH:30' },
  INTERVAL: { field: 'interval', what: 'the minutes between runs, 1 or more' },
  CRON: { field: 'cron', what: 'cron expressions, at least one' },
} as const;

/** When a transformation runs. */
export const transformationSchedule = z
  .object({
    scheduleType: z
      .enum(['INTEGRATED', 'TIME_OF_DAY', 'INTERVAL', 'CRON'])
      .describe('`INTEGRATED` (after its connections sync; needs connectionIds), `TIME_OF_DAY` (needs timeOfDay), `INTERVAL` (needs interval) or `CRON` (needs cron).'),
    interval: z.number().int().min(1).optional().describe('Minutes between runs (`INTERVAL`).'),
    timeOfDay: z
      .string()
      .regex(/^([01]\d|2[0-3]):(00|30)$/, 'must be HH:00 or HH:30')
      .optional()
      .describe('Time of the run, `HH:00` or `HH:30` (`TIME_OF_DAY`).'),
    cron: z.array(z.string().min(1)).optional().describe('Cron expressions (`CRON`).'),
    daysOfWeek: z.array(z.enum(DAYS)).optional().describe('Days it runs on, e.g. `[MONDAY, FRIDAY]`.'),
    connectionIds: z.array(z.string().min(1)).optional().describe('Connections whose syncs trigger it (`INTEGRATED`).'),
    smartSyncing: z.boolean().optional().describe('Run only models whose sources changed.'),
  })
  .strict()
  .superRefine((s, ctx) => {
    // What each type needs, as the API refuses a schedule without it.
    const need = SCHEDULE_NEEDS[s.scheduleType];
    const value = s[need.field];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) {
      ctx.addIssue({ code: 'custom', path: [need.field], message: `scheduleType ${s.scheduleType} needs ${need.field}: ${need.what}` });
    }
  });

/** Inputs of a transformation. */
export const transformationInputs = z.object({
  projectId: z.string().min(1).describe('Id of the transformation project it runs. Required.'),
  name: z.string().min(1).describe('Name, unique in its project. Required.'),
  steps: z
    .array(z.object({ name: z.string().min(1), command: z.string().regex(/^dbt /, "must be a dbt command, e.g. 'dbt run'") }).strict())
    .min(1)
    .describe('dbt commands run in order, each `{name, command}`. Required.'),
  schedule: transformationSchedule.describe('When it runs. Required.'),
  paused: z.boolean().optional().describe('Whether runs are paused. Default false.'),
});

/** Inputs of a transformation. */
export type TransformationInputs = z.output<typeof transformationInputs>;
type Schedule = TransformationInputs['schedule'];

/** What the API reports about a transformation. */
export const transformationOutputs = transformationInputs.extend({
  id: z.string().describe('Transformation id.'),
  status: z.string().describe('`NEW`, `RUNNING`, `SUCCEEDED`, `FAILED`, `CANCELED`...'),
  createdAt: z.string().describe('When it was made (RFC 3339).'),
  lastStartedAt: z.string().optional().describe('When its last run started.'),
  outputModelNames: z.array(z.string()).describe('Models its runs build.'),
});

/** Observed transformation. */
export type TransformationOutputs = z.output<typeof transformationOutputs>;

interface WireTransformation {
  id: string;
  status: string;
  paused: boolean;
  created_at: string;
  last_started_at: string | null;
  output_model_names: string[];
  schedule: Record<string, unknown>;
  transformation_config: { project_id: string; name: string; steps: Array<{ name: string; command: string }> };
}

/** Schedule field → the API's key. */
const SCHEDULE_KEYS: Array<[keyof Schedule, string]> = [
  ['scheduleType', 'schedule_type'],
  ['interval', 'interval'],
  ['timeOfDay', 'time_of_day'],
  ['cron', 'cron'],
  ['daysOfWeek', 'days_of_week'],
  ['connectionIds', 'connection_ids'],
  ['smartSyncing', 'smart_syncing'],
];

const path = (id: string) => `/transformations/${encodeURIComponent(id)}`;

function wireSchedule(s: Schedule): Record<string, unknown> {
  return Object.fromEntries(SCHEDULE_KEYS.filter(([k]) => s[k] !== undefined).map(([k, wire]) => [wire, s[k]]));
}

/** The schedule as reported, each list in the manifest's order where it is the same set. */
function readSchedule(w: Record<string, unknown>, declared?: Schedule): Schedule {
  const out: Record<string, unknown> = {};
  for (const [key, wire] of SCHEDULE_KEYS) {
    const got = w[wire];
    if (got === undefined || got === null || (Array.isArray(got) && got.length === 0)) continue;
    out[key] = declared && sameMeaning(declared[key], got) ? declared[key] : got;
  }
  return out as Schedule;
}

function toOutputs(w: WireTransformation, declared?: TransformationInputs): TransformationOutputs {
  const c = w.transformation_config;
  return {
    id: w.id,
    projectId: c.project_id,
    name: c.name,
    steps: c.steps.map((s) => ({ name: s.name, command: s.command })),
    schedule: readSchedule(w.schedule, declared?.schedule),
    paused: w.paused,
    status: w.status,
    createdAt: w.created_at,
    ...(w.last_started_at ? { lastStartedAt: w.last_started_at } : {}),
    outputModelNames: w.output_model_names ?? [],
  };
}

/** Transformations of this project and name made since `earliestMs` that state does not hold. */
async function namedSince(ctx: Ctx, inputs: TransformationInputs, earliestMs: number, recorded: (id: string) => boolean): Promise<WireTransformation[]> {
  const all = await ctx.client.list<WireTransformation>('/transformations', { project_id: inputs.projectId });
  return all.filter((t) => t.transformation_config.project_id === inputs.projectId && t.transformation_config.name === inputs.name && Date.parse(t.created_at) >= earliestMs && !recorded(t.id));
}

/** The Transformation resource type. */
export const transformation: ResourceType<TransformationInputs, TransformationOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/transformation:Transformation',
  provider: 'pipeline',
  description:
    'dbt Core steps of a transformation project on a schedule. Name, steps, schedule and paused change in place; the project replaces it. Import id: <transformation_id> (e.g. merry_koala).',
  inputs: transformationInputs,
  outputs: transformationOutputs,
  diff: {
    remoteManaged: ['status', 'createdAt', 'lastStartedAt', 'outputModelNames'],
    asDeclared(recorded, _outputs, desired) {
      return defaultsAsDeclared(recorded, desired, { paused: false });
    },
  },
  replace: {
    on: [{ path: 'projectId', reason: 'the API cannot move a transformation to another project' }],
  },
  cost: { unpriced: 'usage-priced: monthly model runs' },
  importId: apiIdFormat('transformation', 'merry_koala'),

  async create(ctx, inputs) {
    const started = Date.now();
    const sent = {
      type: 'DBT_CORE',
      paused: inputs.paused ?? false,
      schedule: wireSchedule(inputs.schedule),
      transformation_config: { project_id: inputs.projectId, name: inputs.name, steps: inputs.steps },
    };
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => transformation.findOwned!(ctx, inputs, order),
        (made) => ctx.client.get<WireTransformation>(path(made.id)),
      );
    const made = await ctx.client.write<WireTransformation>('POST', '/transformations', sent, { recover });
    ctx.recordId(made.id);
    return { id: made.id, outputs: toOutputs(made, inputs) };
  },

  async read(ctx, id, prior) {
    const found = await unlessGone(ctx.client.get<WireTransformation>(path(id)));
    return found && toOutputs(found, prior?.inputs);
  },

  async readMany(ctx, targets) {
    const listed = byId(await ctx.client.list<WireTransformation>('/transformations'));
    const out = new Map<string, TransformationOutputs | undefined>();
    for (const { id, prior } of targets) {
      const found = listed.get(id);
      if (found) out.set(id, toOutputs(found, prior?.inputs));
    }
    return out;
  },

  async update(ctx, id, prior, desired) {
    const sent: Record<string, unknown> = {};
    if (!sameMeaning(prior.inputs.schedule, desired.schedule)) sent.schedule = wireSchedule(desired.schedule);
    if ((desired.paused ?? false) !== (prior.inputs.paused ?? false)) sent.paused = desired.paused ?? false;
    if (desired.name !== prior.inputs.name || !sameMeaning(prior.inputs.steps, desired.steps)) {
      sent.transformation_config = { project_id: desired.projectId, name: desired.name, steps: desired.steps };
    }
    const wire = Object.keys(sent).length ? await ctx.client.write<WireTransformation>('PATCH', path(id), sent) : await ctx.client.get<WireTransformation>(path(id));
    return toOutputs(wire, desired);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  async list(ctx) {
    return (await ctx.client.list<WireTransformation>('/transformations')).filter((t) => t.transformation_config.project_id).map((t) => ({ id: t.id, outputs: toOutputs(t) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = onlyCandidate(`transformation named "${inputs.name}"`, await namedSince(ctx, inputs, order.earliestMs, order.recorded));
    return found && { id: found.id, outputs: toOutputs(found, inputs) };
  },
};
