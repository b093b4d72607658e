/**
 * Seeded people and permissions: groups, users and their group roles, teams with user, group
 * and connection memberships, and the predefined and custom roles of the account.
 */
import type { Group, GroupMember, Role, Team, TeamMembership, User } from '../model.js';
import { GROUP, TEAM, USER } from './ids.js';

/** The six groups, oldest first. */
export const groups: Group[] = [
  { id: GROUP.analytics, name: 'Analytics Warehouse', created_at: '2023-01-12T09:14:22.418263Z' },
  { id: GROUP.marketing, name: 'Marketing Insights', created_at: '2023-03-02T16:40:05.002114Z' },
  { id: GROUP.financeEu, name: 'Finance EU', created_at: '2023-05-19T08:03:51.771920Z' },
  { id: GROUP.apac, name: 'APAC Operations', created_at: '2023-08-07T23:12:44.150377Z' },
  { id: GROUP.productAzure, name: 'Product Analytics Azure', created_at: '2024-01-22T11:27:09.638001Z' },
  { id: GROUP.onPremLab, name: 'On-prem Lab', created_at: '2024-06-03T14:55:30.904512Z' },
];

function user(id: string, given: string, family: string, role: string, created: string, extra: Partial<User> = {}): User {
  return {
    id,
    email: `${given}.${family}`.toLowerCase().replace(/[^a-z.]/g, '') + '@acme-data.io',
    given_name: given,
    family_name: family,
    verified: true,
    invited: false,
    picture: null,
    phone: null,
    role,
    active: true,
    logged_in_at: '2025-06-13T17:22:41.902113Z',
    created_at: created,
    ...extra,
  };
}

/** Users of the account: an administrator, analysts, an invited user who never logged in, a deactivated one. */
export const users: User[] = [
  user(USER.maria, 'Maria', 'Lopez', 'Account Administrator', '2023-01-12T09:10:00.000000Z', { phone: '+1 415 555 0134' }),
  user(USER.dev, 'Dev', 'Patel', 'Account Reviewer', '2023-02-01T10:00:00.000000Z', { picture: 'https://avatars.acme-data.io/dev.png' }),
  user(USER.sofia, 'Sofia', 'Rossi', 'Account Analyst', '2023-04-18T08:30:00.000000Z'),
  user(USER.liam, 'Liam', "O'Connor", 'Account Reviewer', '2023-06-05T12:00:00.000000Z'),
  user(USER.hana, 'Hana', 'Sato', 'Account Reviewer', '2023-05-19T08:00:00.000000Z', { phone: '+49 30 5550 1923' }),
  user(USER.tom, 'Tom', 'Becker', 'Account Billing', '2025-06-10T09:00:00.000000Z', { verified: false, invited: true, logged_in_at: null }),
  user(USER.amara, 'Amara', 'Okafor', 'Account Administrator', '2023-08-01T07:45:00.000000Z'),
  user(USER.chen, 'Chen', 'Wei', 'Account Reviewer', '2024-01-22T11:00:00.000000Z', { active: false, logged_in_at: '2024-11-02T10:00:00.000000Z' }),
];

/** Users' roles in groups; the analytics group has enough members to span pages. */
export const groupMembers: GroupMember[] = [
  { group_id: GROUP.analytics, user_id: USER.maria, role: 'Destination Administrator' },
  { group_id: GROUP.analytics, user_id: USER.dev, role: 'Destination Analyst' },
  { group_id: GROUP.analytics, user_id: USER.sofia, role: 'Destination Reviewer' },
  { group_id: GROUP.analytics, user_id: USER.liam, role: 'Destination Analyst' },
  { group_id: GROUP.analytics, user_id: USER.amara, role: 'Destination Administrator' },
  { group_id: GROUP.marketing, user_id: USER.dev, role: 'Destination Administrator' },
  { group_id: GROUP.marketing, user_id: USER.sofia, role: 'Destination Analyst' },
  { group_id: GROUP.financeEu, user_id: USER.hana, role: 'Destination Administrator' },
  { group_id: GROUP.financeEu, user_id: USER.tom, role: 'Destination Reviewer' },
  { group_id: GROUP.apac, user_id: USER.amara, role: 'Destination Administrator' },
  { group_id: GROUP.productAzure, user_id: USER.chen, role: 'Destination Administrator' },
  { group_id: GROUP.onPremLab, user_id: USER.amara, role: 'Destination Administrator' },
  { group_id: GROUP.onPremLab, user_id: USER.liam, role: 'Destination Analyst' },
];

/** Teams and their account roles. */
export const teams: Team[] = [
  { id: TEAM.dataPlatform, name: 'Data Platform', description: 'Owns the warehouses, private networking and ingestion', role: 'Account Reviewer' },
  { id: TEAM.growth, name: 'Growth Analytics', description: 'Marketing and product analysts', role: 'Account Analyst' },
  { id: TEAM.financeOps, name: 'Finance Ops', description: 'Finance systems and month-end close', role: 'Account Reviewer' },
];

function member(team: string, kind: TeamMembership['kind'], target: string, role: string, created: string): TeamMembership {
  return { team_id: team, kind, target_id: target, role, created_at: created };
}

/** Team memberships of users, groups and connections. */
export const teamMemberships: TeamMembership[] = [
  member(TEAM.dataPlatform, 'users', USER.maria, 'Team Manager', '2023-02-01T09:00:00.000000Z'),
  member(TEAM.dataPlatform, 'users', USER.liam, 'Team Member', '2023-06-05T12:30:00.000000Z'),
  member(TEAM.dataPlatform, 'users', USER.hana, 'Team Member', '2023-06-06T08:00:00.000000Z'),
  member(TEAM.dataPlatform, 'users', USER.amara, 'Team Member', '2023-08-01T08:00:00.000000Z'),
  member(TEAM.dataPlatform, 'groups', GROUP.analytics, 'Destination Administrator', '2023-02-01T09:05:00.000000Z'),
  member(TEAM.dataPlatform, 'groups', GROUP.apac, 'Destination Administrator', '2023-08-08T00:00:00.000000Z'),
  member(TEAM.dataPlatform, 'groups', GROUP.onPremLab, 'Destination Analyst', '2024-06-04T09:00:00.000000Z'),
  member(TEAM.dataPlatform, 'connections', 'ample_kitten', 'Connector Administrator', '2023-02-01T09:10:00.000000Z'),
  member(TEAM.dataPlatform, 'connections', 'lucid_parrot', 'Connector Administrator', '2023-02-03T15:00:00.000000Z'),
  member(TEAM.dataPlatform, 'connections', 'fresh_clam', 'Connector Collaborator', '2023-02-17T10:00:00.000000Z'),
  member(TEAM.dataPlatform, 'connections', 'bright_comet', 'Connector Reviewer', '2023-10-12T08:00:00.000000Z'),
  member(TEAM.growth, 'users', USER.dev, 'Team Manager', '2023-03-02T17:00:00.000000Z'),
  member(TEAM.growth, 'users', USER.sofia, 'Team Member', '2023-04-18T09:00:00.000000Z'),
  member(TEAM.growth, 'groups', GROUP.marketing, 'Destination Administrator', '2023-03-02T17:05:00.000000Z'),
  member(TEAM.growth, 'groups', GROUP.analytics, 'Destination Reviewer', '2023-03-10T10:00:00.000000Z'),
  member(TEAM.growth, 'connections', 'zesty_mango', 'Connector Administrator', '2023-03-09T12:00:00.000000Z'),
  member(TEAM.growth, 'connections', 'rigid_spruce', 'Connector Reviewer', '2023-03-10T10:05:00.000000Z'),
  member(TEAM.financeOps, 'users', USER.tom, 'Team Member', '2025-06-10T09:30:00.000000Z'),
  member(TEAM.financeOps, 'groups', GROUP.financeEu, 'Destination Analyst', '2023-05-20T08:00:00.000000Z'),
  member(TEAM.financeOps, 'connections', 'humble_pine', 'Connector Reviewer', '2023-04-12T09:00:00.000000Z'),
];

function role(name: string, description: string, scope: Role['scope'], extra: Partial<Role> = {}): Role {
  return { name, description, scope, is_custom: false, is_deprecated: false, replacement_role_name: null, ...extra };
}

/** Predefined roles (one deprecated, with its replacement) and two custom roles. */
export const roles: Role[] = [
  role('Account Administrator', 'Full access to the account, its users, billing and every destination', ['ACCOUNT']),
  role('Account Billing', 'Manage billing and view usage', ['ACCOUNT']),
  role('Account Analyst', 'View the account and create destinations', ['ACCOUNT']),
  role('Account Reviewer', 'Read-only access to the account', ['ACCOUNT']),
  role('Destination Administrator', 'Manage a destination and all of its connections', ['DESTINATION']),
  role('Destination Analyst', 'View a destination and manage its connections', ['DESTINATION']),
  role('Destination Reviewer', 'Read-only access to a destination', ['DESTINATION']),
  role('Connector Administrator', 'Manage a connection, its schema and schedule', ['CONNECTOR']),
  role('Connector Collaborator', 'Change a connection schedule and schema', ['CONNECTOR']),
  role('Connector Reviewer', 'Read-only access to a connection', ['CONNECTOR']),
  role('Team Manager', 'Manage a team and its memberships', ['TEAM']),
  role('Team Member', 'Member of a team', ['TEAM']),
  role('Read Only', 'Legacy read-only role', ['ACCOUNT', 'DESTINATION'], { is_deprecated: true, replacement_role_name: 'Account Reviewer' }),
  role('Data Steward', 'Approves schema changes and column hashing', ['DESTINATION', 'CONNECTOR'], { is_custom: true }),
  role('Billing Viewer', 'Sees usage and invoices only', ['ACCOUNT'], { is_custom: true }),
];
