/**
 * The write side of users and teams (REST v1): a user is invited with `POST /users` (201) and
 * starts unverified; `PATCH` changes names, phone, picture and role (a `null` clears phone and
 * picture; the email cannot change); `DELETE` refuses the account's last administrator. A team
 * has a name unique in the account, a description and an account role. Roles must exist and be
 * of the scope asked for.
 */
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { fail, notFound, ok } from './http.js';
import type { PipelineData, Role, Team, User } from './model.js';
import { route, type Route } from './route.js';
import { bodyOf, created, deleted, done, newId, problem, timestamp } from './write-common.js';

const OWNER_ROLE = 'Account Administrator';

/** Why `role` cannot be given at this scope, or undefined when it can. */
export function roleProblem(data: PipelineData, role: unknown, scope: Role['scope'][number]): string | undefined {
  if (typeof role !== 'string' || role === '') return `Field 'role' is required: a role of scope ${scope}.`;
  const known = data.roles.find((r) => r.name === role);
  if (!known) return `Role '${role}' does not exist.`;
  if (!known.scope.includes(scope)) return `Role '${role}' cannot be granted at the ${scope} level.`;
  return undefined;
}

function text(v: Record<string, unknown>, key: string, problems: string[], required: boolean): void {
  if (v[key] === undefined ? required : typeof v[key] !== 'string' || (v[key] as string).trim() === '') problems.push(`Field '${key}' is required and must be text.`);
}

/** Phone and picture: text, or null to clear. */
function clearable(v: Record<string, unknown>, problems: string[]): void {
  if (v.phone !== undefined && v.phone !== null && (typeof v.phone !== 'string' || !/^\+?[0-9 ()-]{4,30}$/.test(v.phone))) problems.push(`Invalid phone '${String(v.phone)}'.`);
  if (v.picture !== undefined && v.picture !== null && (typeof v.picture !== 'string' || !/^(https?:\/\/|data:image\/)/.test(v.picture))) {
    problems.push(`Invalid picture '${String(v.picture)}': expected a URL or a data URI.`);
  }
}

function inviteUser(req: SandboxRequest, data: PipelineData, now: number): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems: string[] = [];
  if (typeof v.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v.email)) problems.push("Field 'email' is required: an email address.");
  text(v, 'given_name', problems, true);
  text(v, 'family_name', problems, true);
  clearable(v, problems);
  const roleIssue = v.role === undefined ? undefined : roleProblem(data, v.role, 'ACCOUNT');
  if (roleIssue) problems.push(roleIssue);
  if (problems.length) return problem(problems.join(' '));
  const email = String(v.email);
  if (data.users.some((u) => u.email.toLowerCase() === email.toLowerCase())) return fail(409, 'Conflict', `User with email '${email}' already exists.`);
  const user: User = {
    id: newId(data),
    email,
    given_name: String(v.given_name),
    family_name: String(v.family_name),
    verified: false,
    invited: true,
    picture: (v.picture as string | undefined) ?? null,
    phone: (v.phone as string | undefined) ?? null,
    role: (v.role as string | undefined) ?? 'Account Reviewer',
    active: true,
    logged_in_at: null,
    created_at: timestamp(now),
  };
  data.users.push(user);
  return created(structuredClone(user), 'User has been invited to the account');
}

function updateUser(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const user = data.users.find((u) => u.id === id);
  if (!user) return notFound('NotFound_User', 'User', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems: string[] = [];
  if (v.email !== undefined) problems.push("Field 'email' cannot be changed.");
  text(v, 'given_name', problems, false);
  text(v, 'family_name', problems, false);
  clearable(v, problems);
  const roleIssue = v.role === undefined ? undefined : roleProblem(data, v.role, 'ACCOUNT');
  if (roleIssue) problems.push(roleIssue);
  if (problems.length) return problem(problems.join(' '));
  for (const key of ['given_name', 'family_name', 'phone', 'picture', 'role'] as const) if (v[key] !== undefined) (user as unknown as Record<string, unknown>)[key] = v[key];
  return ok(structuredClone(user), 'User has been updated');
}

function deleteUser(id: string, data: PipelineData): SandboxResponse {
  const user = data.users.find((u) => u.id === id);
  if (!user) return notFound('NotFound_User', 'User', id);
  if (user.role === OWNER_ROLE && data.users.filter((u) => u.role === OWNER_ROLE).length === 1) return problem('The last account administrator cannot be deleted.');
  data.users = data.users.filter((u) => u.id !== id);
  data.groupMembers = data.groupMembers.filter((m) => m.user_id !== id);
  data.teamMemberships = data.teamMemberships.filter((m) => !(m.kind === 'users' && m.target_id === id));
  data.userConnections = data.userConnections.filter((m) => m.user_id !== id);
  return deleted(`User with id '${id}' has been deleted`);
}

function teamProblems(data: PipelineData, v: Record<string, unknown>, creating: boolean): string[] {
  const problems: string[] = [];
  text(v, 'name', problems, creating);
  if (v.description !== undefined && typeof v.description !== 'string') problems.push("Field 'description' must be text.");
  const roleIssue = v.role === undefined && !creating ? undefined : roleProblem(data, v.role, 'ACCOUNT');
  if (roleIssue) problems.push(roleIssue);
  return problems;
}

function createTeam(req: SandboxRequest, data: PipelineData): SandboxResponse {
  const body = bodyOf(req);
  if ('status' in body) return body;
  const problems = teamProblems(data, body.value, true);
  if (problems.length) return problem(problems.join(' '));
  const name = String(body.value.name);
  if (data.teams.some((t) => t.name.toLowerCase() === name.toLowerCase())) return fail(409, 'Conflict', `Team with name '${name}' already exists.`);
  const team: Team = { id: newId(data), name, description: String(body.value.description ?? ''), role: String(body.value.role) };
  data.teams.push(team);
  return created(structuredClone(team), 'Team has been created');
}

function updateTeam(req: SandboxRequest, id: string, data: PipelineData): SandboxResponse {
  const team = data.teams.find((t) => t.id === id);
  if (!team) return notFound('NotFound_Team', 'Team', id);
  const body = bodyOf(req);
  if ('status' in body) return body;
  const v = body.value;
  const problems = teamProblems(data, v, false);
  if (problems.length) return problem(problems.join(' '));
  if (typeof v.name === 'string' && data.teams.some((t) => t.id !== id && t.name.toLowerCase() === (v.name as string).toLowerCase())) {
    return fail(409, 'Conflict', `Team with name '${v.name}' already exists.`);
  }
  for (const key of ['name', 'description', 'role'] as const) if (v[key] !== undefined) team[key] = String(v[key]);
  return ok(structuredClone(team), 'Team has been updated');
}

function deleteTeam(id: string, data: PipelineData): SandboxResponse {
  if (!data.teams.some((t) => t.id === id)) return notFound('NotFound_Team', 'Team', id);
  data.teams = data.teams.filter((t) => t.id !== id);
  data.teamMemberships = data.teamMemberships.filter((m) => m.team_id !== id);
  return deleted(`Team with id '${id}' has been deleted`);
}

/**
 * `DELETE /teams/{id}/role`: the team loses its account role (go-fivetran
 * teams/teams_delete_role_in_account.go; the OpenAPI document's "Delete Team from Account",
 * delete_team_membership_in_account) and reads with none. The documents say only what goes: the
 * team itself and its memberships stay.
 */
function deleteTeamRole(id: string, data: PipelineData): SandboxResponse {
  const team = data.teams.find((t) => t.id === id);
  if (!team) return notFound('NotFound_Team', 'Team', id);
  team.role = null;
  return done(`Team with id '${id}' has been removed from the account`);
}

/** The user and team write routes. */
export const peopleRoutes: Route[] = [
  route('POST', '/v1/users', (req, _, d, w) => inviteUser(req, d, w.now())),
  route('PATCH', '/v1/users/:id', (req, p, d) => updateUser(req, p.id, d)),
  route('DELETE', '/v1/users/:id', (_, p, d) => deleteUser(p.id, d)),
  route('POST', '/v1/teams', (req, _, d) => createTeam(req, d)),
  route('PATCH', '/v1/teams/:id', (req, p, d) => updateTeam(req, p.id, d)),
  route('DELETE', '/v1/teams/:id', (_, p, d) => deleteTeam(p.id, d)),
  route('DELETE', '/v1/teams/:id/role', (_, p, d) => deleteTeamRole(p.id, d)),
];
