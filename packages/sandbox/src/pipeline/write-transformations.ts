/**
 * Transformation projects and transformations (REST v1). A dbt Core project is made with its git
 * remote and answers with the public key the vendor clones with; it reads `NOT_READY` until the
 * sandbox's provisioning time has passed, then `READY` (or `ERROR` with the reason, for a remote
 * that cannot be reached). Its dbt version, default schema and git remote are fixed at create.
 * A transformation runs steps of a project (or a quickstart package) on a schedule; run and cancel
 * change its status. A project still used by transformations cannot be deleted.
 */
import type { SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import { fail, notFound, ok, page } from './http.js';
import type { PipelineData, Transformation, TransformationProject } from './model.js';
import { route, type Route } from './route.js';
import { bodyOf, created, deleted, problem, timestamp } from './write-common.js';
import { newPlatformId, secretText } from './write-network.js';

const FIXED_PROJECT_KEYS = ['dbt_version', 'default_schema', 'git_remote_url'];
const SCHEDULE_TYPES = ['INTEGRATED', 'TIME_OF_DAY', 'INTERVAL', 'CRON'];
const DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const adminId = (data: PipelineData) => data.users.find((u) => u.role === 'Account Administrator')?.id ?? '';

function projectConfigProblems(config: Record<string, unknown>, creating: boolean): string[] {
  const problems: string[] = [];
  if (creating) for (const key of FIXED_PROJECT_KEYS) if (typeof config[key] !== 'string' || config[key] === '') problems.push(`Field 'project_config.${key}' is required.`);
  if (!creating) for (const key of FIXED_PROJECT_KEYS) if (key in config) problems.push(`Field 'project_config.${key}' cannot be changed.`);
  if (config.threads !== undefined && (!Number.isInteger(config.threads) || (config.threads as number) < 1)) problems.push("Field 'project_config.threads' must be a whole number, 1 or more.");
  const vars = config.environment_vars;
  if (vars !== undefined && (!Array.isArray(vars) || vars.some((x) => typeof x !== 'string' || !/^DBT_[A-Z0-9_]+=/.test(x)))) {
    problems.push("Field 'project_config.environment_vars' must be a list of 'DBT_<NAME>=<value>'.");
  }
  return problems;
}

/** The project's tests: cloning the remote, which fails for a host under `.invalid`. */
function projectTests(project: TransformationProject): TransformationProject['setup_tests'] {
  const remote = String(project.project_config.git_remote_url);
  if (/\.invalid[:/]/.test(remote)) return [{ title: 'Cloning the git repository', status: 'FAILED', message: `Could not reach ${remote}` }];
  return [{ title: 'Cloning the git repository', status: 'PASSED', message: '' }];
}

function createProject(req: SandboxRequest, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const config = isMap(v.project_config) ? v.project_config : {};
  const problems = [...(typeof v.group_id === 'string' ? [] : ["Field 'group_id' is required."]), ...(v.type === 'DBT_CORE' ? [] : ["Field 'type' is required: DBT_CORE."])];
  problems.push(...projectConfigProblems(config, true));
  if (problems.length) return problem(problems.join(' '));
  if (!data.groups.some((g) => g.id === v.group_id)) return notFound('NotFound_Group', 'Group', String(v.group_id));
  if (data.transformationProjects.some((p) => p.group_id === v.group_id)) return fail(409, 'Conflict', `Group '${String(v.group_id)}' already has a transformation project.`);
  const id = newPlatformId(data);
  const project: TransformationProject = {
    id,
    group_id: String(v.group_id),
    type: 'DBT_CORE',
    status: 'NOT_READY',
    errors: [],
    created_at: timestamp(world.now()),
    created_by_id: adminId(data),
    setup_tests: [],
    project_config: { folder_path: '', git_branch: 'main', threads: 1, target_name: '', environment_vars: [], ...config, public_key: `ssh-ed25519 ${secretText(32)} fivetran-${id}` },
  };
  const tests = projectTests(project);
  if (v.run_tests !== false) project.setup_tests = tests;
  const failed = tests.find((t) => t.status === 'FAILED');
  data.pending[`transformation-projects/${id}`] = { at: world.now() + world.provisioningMs(), to: failed ? 'ERROR' : 'READY', summary: failed?.message ?? '' };
  data.transformationProjects.push(project);
  return created(structuredClone(project), 'Transformation project has been created');
}

function updateProject(req: SandboxRequest, project: TransformationProject): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const config = isMap(body.value.project_config) ? body.value.project_config : {};
  const problems = projectConfigProblems(config, false);
  if (problems.length) return problem(problems.join(' '));
  Object.assign(project.project_config, config);
  if (body.value.run_tests !== false) project.setup_tests = projectTests(project);
  return ok(structuredClone(project), 'Transformation project has been updated');
}

/** Runs the project's tests again; the project keeps their results. */
function testProject(project: TransformationProject): SandboxResponse {
  project.setup_tests = projectTests(project);
  return ok(structuredClone(project), 'Setup tests have been completed');
}

function withProject(id: string, data: PipelineData, act: (p: TransformationProject) => SandboxResponse): SandboxResponse {
  const project = data.transformationProjects.find((p) => p.id === id);
  return project ? act(project) : notFound('NotFound_TransformationProject', 'TransformationProject', id);
}

function deleteProject(project: TransformationProject, data: PipelineData): SandboxResponse {
  if (data.transformations.some((t) => t.transformation_config.project_id === project.id))
    return fail(409, 'Conflict', `Transformation project '${project.id}' still has transformations; delete them first.`);
  data.transformationProjects = data.transformationProjects.filter((p) => p !== project);
  return deleted(`Transformation project with id '${project.id}' has been deleted`);
}

function scheduleProblems(s: unknown): string[] {
  if (!isMap(s)) return ["Field 'schedule' is required: an object with schedule_type."];
  const problems: string[] = [];
  if (!SCHEDULE_TYPES.includes(String(s.schedule_type))) problems.push(`Field 'schedule.schedule_type' is required: one of ${SCHEDULE_TYPES.join(', ')}.`);
  if (s.schedule_type === 'INTERVAL' && !(Number.isInteger(s.interval) && (s.interval as number) > 0)) problems.push("Field 'schedule.interval' (minutes) is required for INTERVAL.");
  if (s.schedule_type === 'CRON' && !(Array.isArray(s.cron) && s.cron.length)) problems.push("Field 'schedule.cron' is required for CRON.");
  if (s.schedule_type === 'TIME_OF_DAY' && !/^([01]\d|2[0-3]):(00|30)$/.test(String(s.time_of_day))) problems.push("Field 'schedule.time_of_day' is required for TIME_OF_DAY: HH:00 or HH:30.");
  if (s.schedule_type === 'INTEGRATED' && !(Array.isArray(s.connection_ids) && s.connection_ids.length)) problems.push("Field 'schedule.connection_ids' is required for INTEGRATED.");
  if (s.days_of_week !== undefined && (!Array.isArray(s.days_of_week) || s.days_of_week.some((d) => !DAYS.includes(String(d)))))
    problems.push(`Field 'schedule.days_of_week' takes ${DAYS.join(', ')}.`);
  return problems;
}

function configProblems(type: string, c: Record<string, unknown>, data: PipelineData): string[] {
  if (type === 'QUICKSTART') return data.packages.some((p) => p.name === c.package_name) ? [] : [`Unknown quickstart package '${String(c.package_name)}'.`];
  const problems: string[] = [];
  if (typeof c.name !== 'string' || c.name === '') problems.push("Field 'transformation_config.name' is required.");
  const steps = c.steps;
  if (!Array.isArray(steps) || steps.length === 0) problems.push("Field 'transformation_config.steps' is required: a list of {name, command}.");
  else if (steps.some((s) => !isMap(s) || typeof s.name !== 'string' || typeof s.command !== 'string' || !s.command.startsWith('dbt '))) {
    problems.push("Each step needs a name and a command starting with 'dbt ', e.g. 'dbt run'.");
  }
  return problems;
}

function createTransformation(req: SandboxRequest, data: PipelineData, world: SandboxWorld): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const type = String(v.type ?? 'DBT_CORE');
  const config = isMap(v.transformation_config) ? v.transformation_config : {};
  const problems = [...(['DBT_CORE', 'QUICKSTART'].includes(type) ? [] : ["Field 'type' must be DBT_CORE or QUICKSTART."]), ...scheduleProblems(v.schedule), ...configProblems(type, config, data)];
  if (problems.length) return problem(problems.join(' '));
  if (type === 'DBT_CORE' && !data.transformationProjects.some((p) => p.id === config.project_id))
    return notFound('NotFound_TransformationProject', 'TransformationProject', String(config.project_id));
  const transformation: Transformation = {
    id: newPlatformId(data),
    type: type as Transformation['type'],
    status: 'NEW',
    paused: v.paused === true,
    schedule: structuredClone(v.schedule as Record<string, unknown>),
    created_at: timestamp(world.now()),
    created_by_id: adminId(data),
    last_started_at: null,
    last_ended_at: null,
    output_model_names: [],
    transformation_config: { ...structuredClone(config), upgrade_available: false },
  };
  data.transformations.push(transformation);
  return created(structuredClone(transformation), 'Transformation has been created');
}

function updateTransformation(req: SandboxRequest, t: Transformation, data: PipelineData): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const config = isMap(v.transformation_config) ? { ...t.transformation_config, ...v.transformation_config } : t.transformation_config;
  const problems = [...(v.schedule === undefined ? [] : scheduleProblems(v.schedule)), ...configProblems(t.type, config, data)];
  if (v.paused !== undefined && typeof v.paused !== 'boolean') problems.push("Field 'paused' must be true or false.");
  if (problems.length) return problem(problems.join(' '));
  if (t.type === 'DBT_CORE' && !data.transformationProjects.some((p) => p.id === config.project_id))
    return notFound('NotFound_TransformationProject', 'TransformationProject', String(config.project_id));
  if (v.schedule !== undefined) t.schedule = structuredClone(v.schedule as Record<string, unknown>);
  if (typeof v.paused === 'boolean') t.paused = v.paused;
  t.transformation_config = structuredClone(config);
  return ok(structuredClone(t), 'Transformation has been updated');
}

function withTransformation(id: string, data: PipelineData, act: (t: Transformation) => SandboxResponse): SandboxResponse {
  const t = data.transformations.find((x) => x.id === id);
  return t ? act(t) : notFound('NotFound_Transformation', 'Transformation', id);
}

function run(t: Transformation, now: number): SandboxResponse {
  t.status = 'RUNNING';
  t.last_started_at = timestamp(now);
  return ok(undefined, 'Transformation run has been started');
}

function cancel(t: Transformation, now: number): SandboxResponse {
  if (t.status !== 'RUNNING') return fail(409, 'Conflict', `Transformation '${t.id}' is not running.`);
  t.status = 'CANCELED';
  t.last_ended_at = timestamp(now);
  return ok(undefined, 'Transformation run has been canceled');
}

/** Lists filtered as documented: `group_id`, `project_id`, `type`. */
function listTransformations(req: SandboxRequest, data: PipelineData): SandboxResponse {
  const [group, project, type] = ['group_id', 'project_id', 'type'].map((k) => req.query.get(k) || undefined);
  const groupOf = (t: Transformation) => data.transformationProjects.find((p) => p.id === t.transformation_config.project_id)?.group_id;
  const items = data.transformations.filter((t) => (!group || groupOf(t) === group) && (!project || t.transformation_config.project_id === project) && (!type || t.type === type));
  return page(req.query, structuredClone(items));
}

/** The transformation project and transformation routes. */
export const transformationRoutes: Route[] = [
  route('GET', '/v1/transformation-projects', (req, _, d) =>
    page(
      req.query,
      d.transformationProjects.map((p) => ({ id: p.id, type: p.type, created_at: p.created_at, created_by_id: p.created_by_id, group_id: p.group_id })),
    ),
  ),
  route('POST', '/v1/transformation-projects', (req, _, d, w) => createProject(req, d, w)),
  route('GET', '/v1/transformation-projects/:id', (_, p, d) => withProject(p.id, d, (x) => ok(structuredClone(x)))),
  route('PATCH', '/v1/transformation-projects/:id', (req, p, d) => withProject(p.id, d, (x) => updateProject(req, x))),
  route('DELETE', '/v1/transformation-projects/:id', (_, p, d) => withProject(p.id, d, (x) => deleteProject(x, d))),
  route('POST', '/v1/transformation-projects/:id/test', (_, p, d) => withProject(p.id, d, testProject)),
  route('GET', '/v1/transformations', (req, _, d) => listTransformations(req, d)),
  route('POST', '/v1/transformations', (req, _, d, w) => createTransformation(req, d, w)),
  route('GET', '/v1/transformations/:id', (_, p, d) => withTransformation(p.id, d, (t) => ok(structuredClone(t)))),
  route('PATCH', '/v1/transformations/:id', (req, p, d) => withTransformation(p.id, d, (t) => updateTransformation(req, t, d))),
  route('DELETE', '/v1/transformations/:id', (_, p, d) =>
    withTransformation(p.id, d, (t) => {
      d.transformations = d.transformations.filter((x) => x !== t);
      return deleted(`Transformation with id '${t.id}' has been deleted`);
    }),
  ),
  route('POST', '/v1/transformations/:id/run', (_, p, d, w) => withTransformation(p.id, d, (t) => run(t, w.now()))),
  route('POST', '/v1/transformations/:id/cancel', (_, p, d, w) => withTransformation(p.id, d, (t) => cancel(t, w.now()))),
];
