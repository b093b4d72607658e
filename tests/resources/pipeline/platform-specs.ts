/**
 * The lifecycle specs of the pipeline's platform types: private links, proxy and hybrid agents,
 * external logging, transformation projects and transformations (listed in specs.ts, run by
 * tests/resources/lifecycle.test.ts).
 */
import { expect } from 'vitest';
import type { PipelineClient } from '../../../src/providers/pipeline/index.js';
import { externalLogging } from '../../../src/resources/pipeline/external-logging.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { hybridDeploymentAgent } from '../../../src/resources/pipeline/hybrid-deployment-agent.js';
import { privateLink } from '../../../src/resources/pipeline/private-link.js';
import { proxyAgent } from '../../../src/resources/pipeline/proxy-agent.js';
import { transformation } from '../../../src/resources/pipeline/transformation.js';
import { transformationProject } from '../../../src/resources/pipeline/transformation-project.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext } from '../../support/lifecycle.js';

/** The ids of a collection as the API lists it to anyone. */
async function ids(world: LifecycleWorld, path: string): Promise<string[]> {
  const client = (await world.ctx('census')).client as PipelineClient;
  return (await client.list<{ id: string }>(path)).map((item) => item.id);
}

const newGroup = async (ctx: MakeContext, name: string) => (await group.create(await ctx(`group-${name}`), { name })).id;

const endpoint = (id: string) => ({ connection_service_name: `com.amazonaws.vpce.us-east-1.vpce-svc-${id}` });

/** The lifecycle spec of PrivateLink. */
export const privateLinkSpec = lifecycleSpec({
  type: privateLink,
  create: () => ({ name: 'suite_link', region: 'AWS_US_EAST_1', service: 'SOURCE_AWS' as const, config: endpoint('0a1b2c3d4e5f60001') }),
  update: () => ({ name: 'suite_link', region: 'AWS_US_EAST_1', service: 'SOURCE_AWS' as const, config: endpoint('0a1b2c3d4e5f60002') }),
  replace: () => ({ name: 'suite_link_moved', region: 'AWS_US_EAST_1', service: 'SOURCE_AWS' as const, config: endpoint('0a1b2c3d4e5f60001') }),
  another: () => ({ name: 'suite_link_other', region: 'AWS_EU_CENTRAL_1', service: 'SOURCE_AWS' as const, config: endpoint('0a1b2c3d4e5f60003') }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name, region: inputs.region, service: inputs.service, config: inputs.config, state: 'OK' });
  },
  badImportId: 'no such/link',
  ghostId: () => 'ghost_link',
  createCall: 'POST /v1/private-links',
  census: (world) => ids(world, '/private-links'),
});

/** The lifecycle spec of ProxyAgent. */
export const proxyAgentSpec = lifecycleSpec({
  type: proxyAgent,
  create: () => ({ displayName: 'suite-proxy', groupRegion: 'AWS_US_EAST_1' }),
  update: () => ({ displayName: 'suite-proxy', groupRegion: 'AWS_US_EAST_1', regenerationCounter: 1 }),
  replace: () => ({ displayName: 'suite-proxy-moved', groupRegion: 'AWS_US_EAST_1' }),
  another: () => ({ displayName: 'suite-proxy-other', groupRegion: 'AWS_EU_CENTRAL_1' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ displayName: inputs.displayName, groupRegion: inputs.groupRegion });
  },
  badImportId: 'a b',
  ghostId: () => 'ghost_proxy',
  createCall: 'POST /v1/proxy',
  census: (world) => ids(world, '/proxy'),
});

/** The lifecycle spec of HybridDeploymentAgent, in groups made first. */
export const hybridDeploymentAgentSpec = lifecycleSpec({
  type: hybridDeploymentAgent,
  setup: async (ctx) => ({ one: await newGroup(ctx, 'agents_one'), two: await newGroup(ctx, 'agents_two') }),
  create: (env) => ({ groupId: env.one, displayName: 'suite-agent', envType: 'DOCKER' as const }),
  update: (env) => ({ groupId: env.one, displayName: 'suite-agent', envType: 'DOCKER' as const, authType: 'MANUAL' as const }),
  replace: (env) => ({ groupId: env.one, displayName: 'suite-agent', envType: 'KUBERNETES' as const }),
  another: (env) => ({ groupId: env.two, displayName: 'suite-agent', envType: 'PODMAN' as const }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ groupId: inputs.groupId, displayName: inputs.displayName, envType: inputs.envType });
  },
  badImportId: 'a/b',
  ghostId: () => 'ghost_agent',
  createCall: 'POST /v1/hybrid-deployment-agents',
  census: (world) => ids(world, '/hybrid-deployment-agents'),
});

const datadog = { api_key: 'dd-suite-key', hostname: 'logs.acme.test', region: 'US' };

/** The lifecycle spec of ExternalLogging, in groups made first (a group holds one log service). */
export const externalLoggingSpec = lifecycleSpec({
  type: externalLogging,
  setup: async (ctx) => ({ one: await newGroup(ctx, 'logs_one'), two: await newGroup(ctx, 'logs_two') }),
  create: (env) => ({ groupId: env.one, service: 'datadog_log' as const, config: datadog }),
  update: (env) => ({ groupId: env.one, service: 'datadog_log' as const, enabled: false, config: { ...datadog, region: 'EU' } }),
  // A log service's id is its group's: a replacement with another id is one in another group.
  replace: (env) => ({ groupId: env.two, service: 'cloudwatch' as const, config: { log_group_name: 'pipeline', role_arn: 'arn:aws:iam::1:role/logs', region: 'us-east-1' } }),
  another: (env) => ({ groupId: env.two, service: 'datadog_log' as const, config: datadog }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ groupId: inputs.groupId, service: inputs.service, enabled: inputs.enabled ?? true });
    expect(outputs.config).toMatchObject(Object.fromEntries(Object.entries(inputs.config ?? {}).filter(([k]) => k !== 'api_key')));
  },
  badImportId: 'a b',
  ghostId: () => 'ghost_group',
  createCall: 'POST /v1/external-logging',
  async census(world) {
    const client = (await world.ctx('census')).client as PipelineClient;
    const groups = await client.list<{ id: string }>('/groups');
    const found = await Promise.all(
      groups.map((g) =>
        client.get(`/external-logging/${g.id}`).then(
          () => g.id,
          () => undefined,
        ),
      ),
    );
    return found.filter((id): id is string => id !== undefined);
  },
});

const dbt = (groupId: string) => ({ groupId, dbtVersion: '1.7.3', defaultSchema: 'analytics', gitRemoteUrl: 'git@github.com:acme/dbt-suite.git' });

/** The lifecycle spec of TransformationProject, in groups made first (a group holds one project). */
export const transformationProjectSpec = lifecycleSpec({
  type: transformationProject,
  setup: async (ctx) => ({ one: await newGroup(ctx, 'dbt_one'), two: await newGroup(ctx, 'dbt_two') }),
  create: (env) => dbt(env.one),
  update: (env) => ({ ...dbt(env.one), gitBranch: 'release', threads: 4, environmentVars: ['DBT_TARGET_ENV=prod'] }),
  replace: (env) => ({ ...dbt(env.one), gitRemoteUrl: 'git@github.com:acme/dbt-moved.git' }),
  another: (env) => dbt(env.two),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject(Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined)));
    expect(outputs.publicKey).toMatch(/^ssh-ed25519 /);
  },
  badImportId: 'a b',
  ghostId: () => 'ghost_project',
  createCall: 'POST /v1/transformation-projects',
  census: (world) => ids(world, '/transformation-projects'),
});

/** Two projects made first, in groups of their own, for the transformations of each. */
async function twoProjects(ctx: MakeContext): Promise<{ one: string; two: string }> {
  const make = async (name: string) => (await transformationProject.create(await ctx(`project-${name}`), dbt(await newGroup(ctx, name)))).id;
  return { one: await make('runs_one'), two: await make('runs_two') };
}

const nightly = { scheduleType: 'TIME_OF_DAY' as const, timeOfDay: '02:30', daysOfWeek: ['MONDAY' as const, 'THURSDAY' as const] };

/** The lifecycle spec of Transformation, on projects made first. */
export const transformationSpec = lifecycleSpec({
  type: transformation,
  setup: twoProjects,
  create: (env) => ({ projectId: env.one, name: 'nightly', steps: [{ name: 'build', command: 'dbt build' }], schedule: nightly }),
  update: (env) => ({
    projectId: env.one,
    name: 'nightly',
    steps: [
      { name: 'seed', command: 'dbt seed' },
      { name: 'build', command: 'dbt build --full-refresh' },
    ],
    schedule: { scheduleType: 'INTERVAL' as const, interval: 120 },
    paused: true,
  }),
  replace: (env) => ({ projectId: env.two, name: 'nightly', steps: [{ name: 'build', command: 'dbt build' }], schedule: nightly }),
  another: (env) => ({ projectId: env.two, name: 'hourly', steps: [{ name: 'run', command: 'dbt run' }], schedule: { scheduleType: 'CRON' as const, cron: ['0 * * * *'] } }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ projectId: inputs.projectId, name: inputs.name, steps: inputs.steps, schedule: inputs.schedule, paused: inputs.paused ?? false });
  },
  badImportId: 'a/b',
  ghostId: () => 'ghost_transformation',
  createCall: 'POST /v1/transformations',
  census: (world) => ids(world, '/transformations'),
});

/** The specs of this file, in registry order. */
export const platformSpecs = [privateLinkSpec, proxyAgentSpec, hybridDeploymentAgentSpec, externalLoggingSpec, transformationProjectSpec, transformationSpec];
