/**
 * Memberships (REST v1): a team's users, groups and connections (`/teams/{id}/users|groups|
 * connections`) and a user's groups and connections (`/users/{id}/groups|connections`). Each is
 * created with POST (201), read one at a time or as a page, its role changed with PATCH, and
 * removed with DELETE. A team names its users by `user_id`, everything else by `id`. A role must
 * exist at the membership's scope; a membership made twice is a 409. A group also takes users
 * by email (`POST /groups/{id}/users`, 200 with a message) and lets one go by id.
 */
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { fail, notFound, ok, page } from './http.js';
import type { PipelineData, Role } from './model.js';
import { route, type Route } from './route.js';
import { bodyOf, created, deleted, done, problem, timestamp } from './write-common.js';
import { roleProblem } from './write-people.js';

/** One membership as stored, whatever its collection. */
interface Member {
  target: string;
  role: string;
  created_at?: string;
}

/** A membership collection: who holds it, what it points at, the role scope, and its storage. */
interface Kind {
  parent: 'teams' | 'users';
  path: 'users' | 'groups' | 'connections';
  /** The body field naming the target. */
  key: 'user_id' | 'id';
  scope: Role['scope'][number];
  /** The role a POST without one gets, where the API gives one. */
  defaultRole?: string;
  targetExists(data: PipelineData, id: string): boolean;
  targetCode: [string, string];
  members(data: PipelineData, parent: string): Member[];
  add(data: PipelineData, parent: string, member: Required<Member>): void;
  setRole(data: PipelineData, parent: string, target: string, role: string): void;
  remove(data: PipelineData, parent: string, target: string): void;
}

function teamKind(path: 'users' | 'groups' | 'connections', scope: Kind['scope'], exists: Kind['targetExists'], targetCode: [string, string]): Kind {
  const matching = (parent: string, target?: string) => (m: PipelineData['teamMemberships'][number]) => m.team_id === parent && m.kind === path && (target === undefined || m.target_id === target);
  return {
    parent: 'teams',
    path,
    key: path === 'users' ? 'user_id' : 'id',
    scope,
    defaultRole: path === 'users' ? 'Team Member' : undefined,
    targetExists: exists,
    targetCode,
    members: (d, parent) => d.teamMemberships.filter(matching(parent)).map((m) => ({ target: m.target_id, role: m.role, created_at: m.created_at })),
    add: (d, parent, m) => void d.teamMemberships.push({ team_id: parent, kind: path, target_id: m.target, role: m.role, created_at: m.created_at }),
    setRole: (d, parent, target, role) => d.teamMemberships.filter(matching(parent, target)).forEach((m) => (m.role = role)),
    remove: (d, parent, target) => void (d.teamMemberships = d.teamMemberships.filter((m) => !matching(parent, target)(m))),
  };
}

const groupExists = (d: PipelineData, id: string) => d.groups.some((g) => g.id === id);
const connectionExists = (d: PipelineData, id: string) => d.connections.some((c) => c.id === id);

const KINDS: Kind[] = [
  teamKind('users', 'TEAM', (d, id) => d.users.some((u) => u.id === id), ['NotFound_User', 'User']),
  teamKind('groups', 'DESTINATION', groupExists, ['NotFound_Group', 'Group']),
  teamKind('connections', 'CONNECTOR', connectionExists, ['NotFound_Connection', 'Connection']),
  {
    parent: 'users',
    path: 'groups',
    key: 'id',
    scope: 'DESTINATION',
    targetExists: groupExists,
    targetCode: ['NotFound_Group', 'Group'],
    members: (d, user) => d.groupMembers.filter((m) => m.user_id === user).map((m) => ({ target: m.group_id, role: m.role, created_at: m.created_at })),
    add: (d, user, m) => void d.groupMembers.push({ group_id: m.target, user_id: user, role: m.role, created_at: m.created_at }),
    setRole: (d, user, group, role) => d.groupMembers.filter((m) => m.user_id === user && m.group_id === group).forEach((m) => (m.role = role)),
    remove: (d, user, group) => void (d.groupMembers = d.groupMembers.filter((m) => !(m.user_id === user && m.group_id === group))),
  },
  {
    parent: 'users',
    path: 'connections',
    key: 'id',
    scope: 'CONNECTOR',
    targetExists: connectionExists,
    targetCode: ['NotFound_Connection', 'Connection'],
    members: (d, user) => d.userConnections.filter((m) => m.user_id === user).map((m) => ({ target: m.connection_id, role: m.role, created_at: m.created_at })),
    add: (d, user, m) => void d.userConnections.push({ user_id: user, connection_id: m.target, role: m.role, created_at: m.created_at }),
    setRole: (d, user, conn, role) => d.userConnections.filter((m) => m.user_id === user && m.connection_id === conn).forEach((m) => (m.role = role)),
    remove: (d, user, conn) => void (d.userConnections = d.userConnections.filter((m) => !(m.user_id === user && m.connection_id === conn))),
  },
];

/** A membership as the API shows it: `{user_id|id, role, created_at}`. */
function shown(kind: Kind, m: Member): unknown {
  return { [kind.key]: m.target, role: m.role, ...(m.created_at ? { created_at: m.created_at } : {}) };
}

/** The parent's 404 when it does not exist. */
function missingParent(kind: Kind, data: PipelineData, id: string): SandboxResponse | undefined {
  if (kind.parent === 'teams') return data.teams.some((t) => t.id === id) ? undefined : notFound('NotFound_Team', 'Team', id);
  return data.users.some((u) => u.id === id) ? undefined : notFound('NotFound_User', 'User', id);
}

function membershipGone(kind: Kind, parent: string, target: string): SandboxResponse {
  return fail(404, 'NotFound', `Cannot find membership of '${target}' in ${kind.parent.slice(0, -1)} '${parent}' ${kind.path}.`);
}

function addMember(kind: Kind, req: SandboxRequest, parent: string, data: PipelineData, now: number): SandboxResponse {
  const missing = missingParent(kind, data, parent);
  if (missing) return missing;
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems: string[] = [];
  if (typeof v[kind.key] !== 'string' || v[kind.key] === '') problems.push(`Field '${kind.key}' is required.`);
  const role = v.role ?? kind.defaultRole;
  const roleIssue = roleProblem(data, role, kind.scope);
  if (roleIssue) problems.push(roleIssue);
  if (problems.length) return problem(problems.join(' '));
  const target = String(v[kind.key]);
  if (!kind.targetExists(data, target)) return notFound(kind.targetCode[0], kind.targetCode[1], target);
  if (kind.members(data, parent).some((m) => m.target === target)) return fail(409, 'Conflict', `'${target}' is already a member of ${kind.parent.slice(0, -1)} '${parent}'.`);
  const member = { target, role: String(role), created_at: timestamp(now) };
  kind.add(data, parent, member);
  return created(shown(kind, member), 'Membership has been created');
}

function readMember(kind: Kind, parent: string, target: string, data: PipelineData): SandboxResponse {
  const found = kind.members(data, parent).find((m) => m.target === target);
  return missingParent(kind, data, parent) ?? (found ? ok(shown(kind, found)) : membershipGone(kind, parent, target));
}

function updateMember(kind: Kind, req: SandboxRequest, parent: string, target: string, data: PipelineData): SandboxResponse {
  const missing = missingParent(kind, data, parent);
  if (missing) return missing;
  if (!kind.members(data, parent).some((m) => m.target === target)) return membershipGone(kind, parent, target);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const roleIssue = roleProblem(data, body.value.role, kind.scope);
  if (roleIssue) return problem(roleIssue);
  kind.setRole(data, parent, target, String(body.value.role));
  return ok(undefined, 'Membership has been updated');
}

function removeMember(kind: Kind, parent: string, target: string, data: PipelineData): SandboxResponse {
  const missing = missingParent(kind, data, parent);
  if (missing) return missing;
  if (!kind.members(data, parent).some((m) => m.target === target)) return membershipGone(kind, parent, target);
  kind.remove(data, parent, target);
  return deleted('Membership has been removed');
}

function routesOf(kind: Kind): Route[] {
  const base = `/v1/${kind.parent}/:parent/${kind.path}`;
  const list = route(
    'GET',
    base,
    (req, p, d) =>
      missingParent(kind, d, p.parent) ??
      page(
        req.query,
        kind.members(d, p.parent).map((m) => shown(kind, m)),
      ),
  );
  return [
    // Team member lists are served with the lookups' routes already; a user's are served here.
    ...(kind.parent === 'users' ? [list] : []),
    route('POST', base, (req, p, d, w) => addMember(kind, req, p.parent, d, w.now())),
    route('GET', `${base}/:target`, (_, p, d) => readMember(kind, p.parent, p.target, d)),
    route('PATCH', `${base}/:target`, (req, p, d) => updateMember(kind, req, p.parent, p.target, d)),
    route('DELETE', `${base}/:target`, (_, p, d) => removeMember(kind, p.parent, p.target, d)),
  ];
}

/**
 * `POST /groups/{id}/users`: an existing user, named by email, given a role in the group. It
 * answers 200 with a message only (go-fivetran groups/group_add_user.go expects 200 and decodes
 * a CommonResponse; the OpenAPI document's AddUserToGroupRequest is `{email, role}`).
 */
function addGroupUser(req: SandboxRequest, groupId: string, data: PipelineData, now: number): SandboxResponse {
  if (!groupExists(data, groupId)) return notFound('NotFound_Group', 'Group', groupId);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems: string[] = [];
  if (typeof v.email !== 'string' || v.email === '') problems.push("Field 'email' is required.");
  const roleIssue = roleProblem(data, v.role, 'DESTINATION');
  if (roleIssue) problems.push(roleIssue);
  if (problems.length) return problem(problems.join(' '));
  const user = data.users.find((u) => u.email.toLowerCase() === String(v.email).toLowerCase());
  if (!user) return notFound('NotFound_User', 'User', String(v.email));
  if (data.groupMembers.some((m) => m.group_id === groupId && m.user_id === user.id)) return fail(409, 'Conflict', `User '${user.id}' is already a member of group '${groupId}'.`);
  data.groupMembers.push({ group_id: groupId, user_id: user.id, role: String(v.role), created_at: timestamp(now) });
  return done('User has been added to the group');
}

/** `DELETE /groups/{id}/users/{userId}`: the user leaves the group (a message only). */
function removeGroupUser(groupId: string, userId: string, data: PipelineData): SandboxResponse {
  if (!groupExists(data, groupId)) return notFound('NotFound_Group', 'Group', groupId);
  if (!data.groupMembers.some((m) => m.group_id === groupId && m.user_id === userId)) return fail(404, 'NotFound', `Cannot find user '${userId}' in group '${groupId}'.`);
  data.groupMembers = data.groupMembers.filter((m) => !(m.group_id === groupId && m.user_id === userId));
  return deleted('User has been removed from the group');
}

/** Every membership route, a group's users by email among them. */
export const membershipRoutes: Route[] = [
  ...KINDS.flatMap(routesOf),
  route('POST', '/v1/groups/:id/users', (req, p, d, w) => addGroupUser(req, p.id, d, w.now())),
  route('DELETE', '/v1/groups/:id/users/:userId', (_, p, d) => removeGroupUser(p.id, p.userId, d)),
];

/** Drops every team's and user's membership of a deleted group or connection, as the API does. */
export function forgetMemberships(data: PipelineData, path: 'groups' | 'connections', id: string): void {
  for (const kind of KINDS) if (kind.path === path) for (const holder of data[kind.parent]) kind.remove(data, holder.id, id);
}
