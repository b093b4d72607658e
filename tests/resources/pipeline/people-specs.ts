/**
 * The lifecycle specs of the pipeline's people and notification types: users, teams, the five
 * memberships and webhooks (listed in specs.ts, run by tests/resources/lifecycle.test.ts).
 */
import { expect } from 'vitest';
import type { PipelineClient } from '../../../src/providers/pipeline/index.js';
import { connection } from '../../../src/resources/pipeline/connection.js';
import { group } from '../../../src/resources/pipeline/group.js';
import { team } from '../../../src/resources/pipeline/team.js';
import { teamConnectionMembership } from '../../../src/resources/pipeline/team-connection-membership.js';
import { teamGroupMembership } from '../../../src/resources/pipeline/team-group-membership.js';
import { teamUserMembership } from '../../../src/resources/pipeline/team-user-membership.js';
import { user } from '../../../src/resources/pipeline/user.js';
import { userConnectionMembership } from '../../../src/resources/pipeline/user-connection-membership.js';
import { userGroupMembership } from '../../../src/resources/pipeline/user-group-membership.js';
import { webhook } from '../../../src/resources/pipeline/webhook.js';
import { lifecycleSpec, type LifecycleWorld, type MakeContext } from '../../support/lifecycle.js';

async function client(world: LifecycleWorld): Promise<PipelineClient> {
  return (await world.ctx('census')).client as PipelineClient;
}

/** The ids of a collection as the API lists it to anyone. */
async function ids(world: LifecycleWorld, path: string): Promise<string[]> {
  return (await (await client(world)).list<{ id: string }>(path)).map((item) => item.id);
}

/** The `<holder>:<target>` ids of one holder's memberships, as the API lists them. */
async function pairs(world: LifecycleWorld, holderPath: string, key: 'id' | 'user_id'): Promise<string[]> {
  const holder = holderPath.split('/')[2];
  return (await (await client(world)).list<Record<string, string>>(holderPath)).map((m) => `${holder}:${m[key]}`);
}

const newUser = async (ctx: MakeContext, name: string) => (await user.create(await ctx(`user-${name}`), { email: `${name}@acme.test`, givenName: 'Suite', familyName: name })).id;
const newTeam = async (ctx: MakeContext, name: string) => (await team.create(await ctx(`team-${name}`), { name, role: 'Account Reviewer' })).id;
const newGroup = async (ctx: MakeContext, name: string) => (await group.create(await ctx(`group-${name}`), { name })).id;

async function twoConnections(ctx: MakeContext, name: string): Promise<[string, string]> {
  const groupId = await newGroup(ctx, name);
  const make = async (schema: string) => (await connection.create(await ctx(schema), { service: 'stripe', groupId, destinationSchema: { name: schema } })).id;
  return [await make(`${name}_one`), await make(`${name}_two`)];
}

/** The lifecycle spec of User. */
export const userSpec = lifecycleSpec({
  type: user,
  create: () => ({ email: 'ada.suite@acme.test', givenName: 'Ada', familyName: 'Suite', role: 'Account Analyst' }),
  update: () => ({ email: 'ada.suite@acme.test', givenName: 'Ada', familyName: 'Lovelace', phone: '+1 415 555 0100', role: 'Account Reviewer' }),
  replace: () => ({ email: 'ada.moved@acme.test', givenName: 'Ada', familyName: 'Suite', role: 'Account Analyst' }),
  another: () => ({ email: 'bo.suite@acme.test', givenName: 'Bo', familyName: 'Suite' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ email: inputs.email, givenName: inputs.givenName, familyName: inputs.familyName, invited: true });
    if (inputs.role) expect(outputs.role).toBe(inputs.role);
    expect(outputs.phone).toBe(inputs.phone);
  },
  badImportId: 'no such/id',
  ghostId: () => 'ghost_user',
  createCall: 'POST /v1/users',
  census: (world) => ids(world, '/users'),
});

/** The lifecycle spec of Team. */
export const teamSpec = lifecycleSpec({
  type: team,
  create: () => ({ name: 'Suite Team', role: 'Account Reviewer' }),
  update: () => ({ name: 'Suite Team Renamed', description: 'Runs the suite', role: 'Account Analyst' }),
  another: () => ({ name: 'Suite Team Other', role: 'Account Reviewer' }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ name: inputs.name, role: inputs.role, description: inputs.description ?? '' });
  },
  badImportId: 'a:b',
  ghostId: () => 'ghost_team',
  createCall: 'POST /v1/teams',
  census: (world) => ids(world, '/teams'),
});

/** Reflects a membership's holder, target and role. */
function reflectsMembership<In extends object>(outputs: Record<string, unknown>, inputs: In): void {
  expect(outputs).toMatchObject(inputs);
  expect(outputs.id).toBe(Object.values(inputs).slice(0, 2).join(':'));
}

/** The lifecycle spec of TeamUserMembership, in a team with two users made first. */
export const teamUserMembershipSpec = lifecycleSpec({
  type: teamUserMembership,
  setup: async (ctx) => ({ team: await newTeam(ctx, 'Members Suite'), one: await newUser(ctx, 'member.one'), two: await newUser(ctx, 'member.two') }),
  create: (env) => ({ teamId: env.team, userId: env.one, role: 'Team Member' }),
  update: (env) => ({ teamId: env.team, userId: env.one, role: 'Team Manager' }),
  replace: (env) => ({ teamId: env.team, userId: env.two, role: 'Team Member' }),
  another: (env) => ({ teamId: env.team, userId: env.two, role: 'Team Manager' }),
  reflects: reflectsMembership,
  badImportId: 'team_only',
  ghostId: (env) => `${env.team}:ghost_user`,
  createCall: 'POST /v1/teams/',
  census: (world, env) => pairs(world, `/teams/${env.team}/users`, 'user_id'),
});

/** The lifecycle spec of TeamGroupMembership, for a team and two groups made first. */
export const teamGroupMembershipSpec = lifecycleSpec({
  type: teamGroupMembership,
  setup: async (ctx) => ({ team: await newTeam(ctx, 'Groups Suite'), one: await newGroup(ctx, 'team_groups_one'), two: await newGroup(ctx, 'team_groups_two') }),
  create: (env) => ({ teamId: env.team, groupId: env.one, role: 'Destination Analyst' }),
  update: (env) => ({ teamId: env.team, groupId: env.one, role: 'Destination Administrator' }),
  replace: (env) => ({ teamId: env.team, groupId: env.two, role: 'Destination Analyst' }),
  another: (env) => ({ teamId: env.team, groupId: env.two, role: 'Destination Reviewer' }),
  reflects: reflectsMembership,
  badImportId: 'a:b:c',
  ghostId: (env) => `${env.team}:ghost_group`,
  createCall: 'POST /v1/teams/',
  census: (world, env) => pairs(world, `/teams/${env.team}/groups`, 'id'),
});

/** The lifecycle spec of TeamConnectionMembership, for a team and two connections made first. */
export const teamConnectionMembershipSpec = lifecycleSpec({
  type: teamConnectionMembership,
  setup: async (ctx) => {
    const [one, two] = await twoConnections(ctx, 'team_conns');
    return { team: await newTeam(ctx, 'Connections Suite'), one, two };
  },
  create: (env) => ({ teamId: env.team, connectionId: env.one, role: 'Connector Reviewer' }),
  update: (env) => ({ teamId: env.team, connectionId: env.one, role: 'Connector Administrator' }),
  replace: (env) => ({ teamId: env.team, connectionId: env.two, role: 'Connector Reviewer' }),
  another: (env) => ({ teamId: env.team, connectionId: env.two, role: 'Connector Collaborator' }),
  reflects: reflectsMembership,
  badImportId: ':x',
  ghostId: (env) => `${env.team}:ghost_connection`,
  createCall: 'POST /v1/teams/',
  census: (world, env) => pairs(world, `/teams/${env.team}/connections`, 'id'),
});

/** The lifecycle spec of UserGroupMembership, for a user and two groups made first. */
export const userGroupMembershipSpec = lifecycleSpec({
  type: userGroupMembership,
  setup: async (ctx) => ({ user: await newUser(ctx, 'grouped'), one: await newGroup(ctx, 'user_groups_one'), two: await newGroup(ctx, 'user_groups_two') }),
  create: (env) => ({ userId: env.user, groupId: env.one, role: 'Destination Analyst' }),
  update: (env) => ({ userId: env.user, groupId: env.one, role: 'Destination Administrator' }),
  replace: (env) => ({ userId: env.user, groupId: env.two, role: 'Destination Analyst' }),
  another: (env) => ({ userId: env.user, groupId: env.two, role: 'Destination Reviewer' }),
  reflects: reflectsMembership,
  badImportId: 'user only',
  ghostId: (env) => `${env.user}:ghost_group`,
  createCall: 'POST /v1/users/',
  census: (world, env) => pairs(world, `/users/${env.user}/groups`, 'id'),
});

/** The lifecycle spec of UserConnectionMembership, for a user and two connections made first. */
export const userConnectionMembershipSpec = lifecycleSpec({
  type: userConnectionMembership,
  setup: async (ctx) => {
    const [one, two] = await twoConnections(ctx, 'user_conns');
    return { user: await newUser(ctx, 'connected'), one, two };
  },
  create: (env) => ({ userId: env.user, connectionId: env.one, role: 'Connector Reviewer' }),
  update: (env) => ({ userId: env.user, connectionId: env.one, role: 'Connector Administrator' }),
  replace: (env) => ({ userId: env.user, connectionId: env.two, role: 'Connector Reviewer' }),
  another: (env) => ({ userId: env.user, connectionId: env.two, role: 'Connector Collaborator' }),
  reflects: reflectsMembership,
  badImportId: 'user only',
  ghostId: (env) => `${env.user}:ghost_connection`,
  createCall: 'POST /v1/users/',
  census: (world, env) => pairs(world, `/users/${env.user}/connections`, 'id'),
});

/** The lifecycle spec of Webhook, in groups made first. */
export const webhookSpec = lifecycleSpec({
  type: webhook,
  setup: async (ctx) => ({ one: await newGroup(ctx, 'hooks_one'), two: await newGroup(ctx, 'hooks_two') }),
  create: (env) => ({ groupId: env.one, url: 'https://hooks.acme.test/suite', events: ['sync_start', 'sync_end'], secret: 'whsec-suite' }),
  update: (env) => ({ groupId: env.one, url: 'https://hooks.acme.test/suite-2', events: ['sync_end'], active: false, secret: 'whsec-suite-2' }),
  replace: (env) => ({ groupId: env.two, url: 'https://hooks.acme.test/suite', events: ['sync_start', 'sync_end'], secret: 'whsec-suite' }),
  another: (env) => ({ groupId: env.two, url: 'https://hooks.acme.test/other', events: ['connection_failure'] }),
  reflects(outputs, inputs) {
    expect(outputs).toMatchObject({ groupId: inputs.groupId, url: inputs.url, events: inputs.events, active: inputs.active ?? true, type: 'group' });
    expect(JSON.stringify(outputs)).not.toContain('whsec');
  },
  badImportId: 'a b',
  ghostId: () => 'ghost_webhook',
  createCall: 'POST /v1/webhooks/group/',
  census: (world) => ids(world, '/webhooks'),
});

/** The specs of this file, in registry order. */
export const peopleSpecs = [userSpec, teamSpec, teamUserMembershipSpec, teamGroupMembershipSpec, teamConnectionMembershipSpec, userGroupMembershipSpec, userConnectionMembershipSpec, webhookSpec];
