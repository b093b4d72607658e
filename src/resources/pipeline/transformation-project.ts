/**
 * Transformation project: a dbt Core project a group's transformations run from
 * (`/v1/transformation-projects`). The API answers with the public key it clones the git remote
 * with (add it as a deploy key), and reads `NOT_READY` until it has checked the project, then
 * `READY` or `ERROR` (with the errors). Folder, branch, threads, target and environment variables
 * change in place (PATCH); the group, dbt version, default schema and git remote are fixed at
 * create. Its setup tests run unless `runTests` is false; failures are warnings. A group holds one
 * project, so a create whose answer was lost is found by its group. Imported by its id.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { apiIdFormat, deleteIfPresent, findMade, onlyCandidate, sameMeaning, unlessGone, warnSetupTests, type Ctx } from './kit.js';
import type { SetupTest } from '../../providers/pipeline/api/setup-tests.js';

/** Inputs of a transformation project. */
export const transformationProjectInputs = z.object({
  groupId: z.string().min(1).describe('Id of the group (destination) it transforms. Required; a group holds one project.'),
  dbtVersion: z.string().min(1).describe('dbt Core version, e.g. `1.7.3`. Required.'),
  defaultSchema: z.string().min(1).describe('Schema models are built in by default. Required.'),
  gitRemoteUrl: z.string().min(1).describe('Git remote the project is cloned from, e.g. `git@github.com:acme/dbt.git`. Required.'),
  folderPath: z.string().optional().describe('Folder of the project in the repository. Default: its root.'),
  gitBranch: z.string().optional().describe('Branch to run. Default `main`.'),
  threads: z.number().int().min(1).optional().describe('dbt threads. Default 1.'),
  targetName: z.string().optional().describe('dbt target name.'),
  environmentVars: z
    .array(z.string().regex(/^DBT_[A-Z0-9_]+=/, 'must be DBT_<NAME>=<value>'))
    .optional()
    .describe('Environment variables, each `DBT_<NAME>=<value>`.'),
  runTests: z.boolean().optional().describe('Run the setup tests (clone, parse) when created or changed; failures are warnings. Default true. Not stored by the API.'),
});

/** Inputs of a transformation project. */
export type TransformationProjectInputs = z.output<typeof transformationProjectInputs>;

/** What the API reports about a transformation project. */
export const transformationProjectOutputs = transformationProjectInputs.omit({ runTests: true }).extend({
  id: z.string().describe('Project id.'),
  publicKey: z.string().describe('Public SSH key the vendor clones with: add it to the repository as a deploy key.'),
  status: z.string().describe('`NOT_READY`, `READY` or `ERROR`.'),
  errors: z.array(z.string()).describe('Why the project is in error.'),
  createdAt: z.string().describe('When it was made (RFC 3339).'),
  createdById: z.string().describe('Id of the user whose key made it.'),
});

/** Observed transformation project. */
export type TransformationProjectOutputs = z.output<typeof transformationProjectOutputs>;

interface WireProject {
  id: string;
  group_id: string;
  status: string;
  errors: string[];
  created_at: string;
  created_by_id: string;
  setup_tests?: SetupTest[];
  project_config: {
    dbt_version: string;
    default_schema: string;
    git_remote_url: string;
    folder_path?: string;
    git_branch?: string;
    threads?: number;
    target_name?: string;
    environment_vars?: string[];
    public_key: string;
  };
}

const path = (id: string) => `/transformation-projects/${encodeURIComponent(id)}`;

/** Input name → the API's project_config key, for the fields a PATCH may send. */
const CHANGEABLE: Array<[keyof TransformationProjectInputs, string]> = [
  ['folderPath', 'folder_path'],
  ['gitBranch', 'git_branch'],
  ['threads', 'threads'],
  ['targetName', 'target_name'],
  ['environmentVars', 'environment_vars'],
];

function toOutputs(w: WireProject, declared?: TransformationProjectInputs): TransformationProjectOutputs {
  const c = w.project_config;
  const vars = c.environment_vars ?? [];
  return {
    id: w.id,
    groupId: w.group_id,
    dbtVersion: c.dbt_version,
    defaultSchema: c.default_schema,
    gitRemoteUrl: c.git_remote_url,
    ...(c.folder_path ? { folderPath: c.folder_path } : {}),
    ...(c.git_branch ? { gitBranch: c.git_branch } : {}),
    ...(c.threads !== undefined ? { threads: c.threads } : {}),
    ...(c.target_name ? { targetName: c.target_name } : {}),
    ...(vars.length ? { environmentVars: declared?.environmentVars && sameMeaning(declared.environmentVars, vars) ? declared.environmentVars : vars } : {}),
    publicKey: c.public_key,
    status: w.status,
    errors: w.errors ?? [],
    createdAt: w.created_at,
    createdById: w.created_by_id,
  };
}

/** Projects of this group made since `earliestMs` that state does not hold. */
async function madeSince(ctx: Ctx, groupId: string, earliestMs: number, recorded: (id: string) => boolean): Promise<Array<{ id: string }>> {
  const projects = await ctx.client.list<{ id: string; group_id: string; created_at: string }>('/transformation-projects');
  return projects.filter((p) => p.group_id === groupId && Date.parse(p.created_at) >= earliestMs && !recorded(p.id));
}

/** The TransformationProject resource type. */
export const transformationProject: ResourceType<TransformationProjectInputs, TransformationProjectOutputs, PipelineClient, PipelineSettings> = {
  token: 'pipeline:index/transformationProject:TransformationProject',
  provider: 'pipeline',
  description:
    "A group's dbt Core project, with the public key to add as a deploy key. Folder, branch, threads, target and environment variables change in place; group, dbt version, default schema and git remote replace it. Import id: <project_id> (e.g. keen_ibex).",
  inputs: transformationProjectInputs,
  outputs: transformationProjectOutputs,
  diff: {
    computedInputs: ['folderPath', 'gitBranch', 'threads', 'targetName'],
    recordOnly: ['runTests'],
    remoteManaged: ['publicKey', 'status', 'errors', 'createdAt', 'createdById'],
    // Never waited for (no provisioning.ready or failed): its status is the API's check of the repository,
    // NOT_READY until the user adds the public key this create returns as a deploy key; ERROR is
    // that check failing, put right in the repository, not by a new project (whose new key would
    // undo the deploy key added).
    asDeclared: (recorded, _outputs, desired) => defaultsAsDeclared(recorded, desired, { runTests: true }),
  },
  replace: {
    on: [
      { path: 'groupId', reason: 'the API cannot move a project to another group' },
      { path: 'dbtVersion', reason: "the API's PATCH of a project takes no dbt version" },
      { path: 'defaultSchema', reason: "the API's PATCH of a project takes no default schema" },
      { path: 'gitRemoteUrl', reason: "the API's PATCH of a project takes no git remote" },
    ],
    // A group holds one project: the new one needs the old one gone.
    holds: [{ what: 'dbt project of a group', paths: ['groupId'] }],
  },
  cost: { unpriced: 'not billed on its own' },
  importId: apiIdFormat('project', 'keen_ibex'),

  async create(ctx, inputs) {
    const started = Date.now();
    const config: Record<string, unknown> = { dbt_version: inputs.dbtVersion, default_schema: inputs.defaultSchema, git_remote_url: inputs.gitRemoteUrl };
    for (const [input, wire] of CHANGEABLE) if (inputs[input] !== undefined) config[wire] = inputs[input];
    const sent = { group_id: inputs.groupId, type: 'DBT_CORE', run_tests: inputs.runTests ?? true, project_config: config };
    const recover = () =>
      findMade(
        ctx,
        started,
        (order) => transformationProject.findOwned!(ctx, inputs, order),
        (made) => ctx.client.get<WireProject>(path(made.id)),
      );
    const made = await ctx.client.write<WireProject>('POST', '/transformation-projects', sent, { recover });
    ctx.recordId(made.id);
    if (inputs.runTests ?? true) warnSetupTests(ctx, `transformation project ${made.id}`, made.setup_tests);
    return { id: made.id, outputs: toOutputs(made, inputs) };
  },

  async read(ctx, id, prior) {
    const found = await unlessGone(ctx.client.get<WireProject>(path(id)));
    return found && toOutputs(found, prior?.inputs);
  },

  async update(ctx, id, prior, desired) {
    const config: Record<string, unknown> = {};
    for (const [input, wire] of CHANGEABLE) {
      if (desired[input] !== undefined && !sameMeaning(desired[input], prior.inputs[input])) config[wire] = desired[input];
      else if (input === 'environmentVars' && desired[input] === undefined && prior.inputs[input]?.length) config[wire] = [];
    }
    const runTests = desired.runTests ?? true;
    const wire = Object.keys(config).length ? await ctx.client.write<WireProject>('PATCH', path(id), { run_tests: runTests, project_config: config }) : await ctx.client.get<WireProject>(path(id));
    if (runTests && Object.keys(config).length) warnSetupTests(ctx, `transformation project ${id}`, wire.setup_tests);
    return toOutputs(wire, desired);
  },

  async delete(ctx, id) {
    await deleteIfPresent(ctx, path(id));
  },

  async list(ctx) {
    const items = await ctx.client.list<{ id: string }>('/transformation-projects');
    const found = await Promise.all(items.map((p) => unlessGone(ctx.client.get<WireProject>(path(p.id)))));
    return found.filter((w): w is WireProject => w !== undefined).map((w) => ({ id: w.id, outputs: toOutputs(w) }));
  },

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    const found = onlyCandidate(`transformation project of group ${inputs.groupId}`, await madeSince(ctx, inputs.groupId, order.earliestMs, order.recorded));
    if (!found) return undefined;
    const project = await unlessGone(ctx.client.get<WireProject>(path(found.id)));
    return project && { id: project.id, outputs: toOutputs(project, inputs) };
  },
};
