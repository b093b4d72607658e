/** Seed data for the account: projects, IAM groups and policies, labels and the resources they tag. */
import { dbId } from './seed-data.js';
import { lbId } from './seed-lb.js';
import { ANALYTICS_PROJECT, DEFAULT_PROJECT, sid, unix, type Rec } from './seed-util.js';

/** Projects of the sandbox account; `Finance` ones are listed only for finance callers. */
export function seedProjects(): Rec[] {
  const project = (id: string, name: string, parent: string, resources: number, members: number, finance: boolean, i: number): Rec => ({
    ProjectId: id,
    ProjectName: name,
    ParentId: parent ? 'org-root' : '',
    ParentName: parent,
    ResourceCount: resources,
    MemberCount: members,
    CreateTime: unix(`2023-0${i + 1}-01T00:00:00Z`),
    IsDefault: id === DEFAULT_PROJECT,
    Finance: finance,
  });
  return [
    project(DEFAULT_PROJECT, 'Default', 'root', 42, 6, false, 0),
    project(ANALYTICS_PROJECT, 'Analytics', 'root', 9, 3, false, 1),
    project('org-edge', 'Edge Security', 'root', 4, 2, false, 2),
    project('org-billing', 'Billing', 'root', 0, 1, true, 3),
  ];
}

const GROUPS: [string, string][] = [
  ['Administrators', 'Full access to every product'],
  ['Developers', 'Deploy and operate application hosts'],
  ['DBAs', 'Operate database instances and backups'],
  ['Auditors', 'Read-only access for audits'],
  ['NetOps', 'Manage VPCs, load balancers and VPN'],
  ['SecOps', 'Manage anti-DDoS and firewalls'],
];

/** IAM user groups (account-wide). */
export function seedIamGroups(): Rec[] {
  return GROUPS.map(([name, description], i) => ({ GroupName: name, Description: description, CreatedAt: unix(`2023-0${i + 1}-15T00:00:00Z`) }));
}

const POLICIES: [string, 'UCS' | 'User', string, string, string[]][] = [
  ['AdministratorAccess', 'UCS', 'Full access to all products', 'ScopeUnrestricted', ['*']],
  ['ReadOnlyAccess', 'UCS', 'Read-only access to all products', 'ScopeUnrestricted', ['*:Describe*', '*:Get*', '*:List*']],
  ['UHostFullAccess', 'UCS', 'Full access to cloud hosts', 'ScopeRequired', ['uhost:*']],
  ['UHostReadOnlyAccess', 'UCS', 'Read-only access to cloud hosts', 'ScopeRequired', ['uhost:Describe*']],
  ['UDBFullAccess', 'UCS', 'Full access to databases', 'ScopeRequired', ['udb:*']],
  ['ULBReadOnlyAccess', 'UCS', 'Read-only access to load balancers', 'ScopeRequired', ['ulb:Describe*']],
  ['UADSFullAccess', 'UCS', 'Full access to anti-DDoS', 'ScopeRequired', ['uads:*']],
  ['IAMFullAccess', 'UCS', 'Manage users, groups and policies', 'ScopeEmpty', ['iam:*']],
  ['BillingReadOnlyAccess', 'UCS', 'Read-only access to bills', 'ScopeEmpty', ['ubill:Get*']],
  ['DeployerAccess', 'User', 'What the CI deployer may do', 'ScopeRequired', ['uhost:*', 'ulb:*', 'uads:*']],
  ['AuditorAccess', 'User', 'Read-only plus log download', 'ScopeUnrestricted', ['*:Describe*', 'ulog:Get*']],
];

/** IAM policies: system ones (owner UCS) and custom ones (owner User). */
export function seedIamPolicies(): Rec[] {
  return POLICIES.map(([name, owner, description, scope, actions], i) => ({
    Owner: owner,
    PolicyName: name,
    PolicyURN: owner === 'UCS' ? `ucs:iam::ucs:policy/${name}` : `ucs:iam::50001234:policy/${name}`,
    Description: description,
    Document: JSON.stringify({ Version: '1', Statement: [{ Effect: 'Allow', Action: actions, Resource: ['*'] }] }),
    ScopeType: scope,
    CreatedAt: unix(`2022-0${(i % 9) + 1}-01T00:00:00Z`),
    UpdatedAt: unix(`2024-0${(i % 9) + 1}-01T00:00:00Z`),
  }));
}

const TAGGED: [string, string, string, string, [string, string][]][] = [
  // resource id, name, type, project, labels
  [
    sid('uhost', 'web-1'),
    'web-1',
    'uhost',
    DEFAULT_PROJECT,
    [
      ['env', 'prod'],
      ['team', 'web'],
    ],
  ],
  [
    sid('uhost', 'web-2'),
    'web-2',
    'uhost',
    DEFAULT_PROJECT,
    [
      ['env', 'prod'],
      ['team', 'web'],
    ],
  ],
  [
    sid('uhost', 'api-1'),
    'api-1',
    'uhost',
    DEFAULT_PROJECT,
    [
      ['env', 'prod'],
      ['team', 'api'],
    ],
  ],
  [
    sid('uhost', 'batch-1'),
    'batch-1',
    'uhost',
    DEFAULT_PROJECT,
    [
      ['env', 'staging'],
      ['team', 'data'],
    ],
  ],
  [
    dbId('orders-db'),
    'orders-db',
    'udb',
    DEFAULT_PROJECT,
    [
      ['env', 'prod'],
      ['team', 'data'],
      ['cost-center', 'cc-1001'],
    ],
  ],
  [
    dbId('users-db'),
    'users-db',
    'udb',
    DEFAULT_PROJECT,
    [
      ['env', 'prod'],
      ['cost-center', 'cc-1001'],
    ],
  ],
  [
    dbId('warehouse-db'),
    'warehouse-db',
    'udb',
    ANALYTICS_PROJECT,
    [
      ['env', 'prod'],
      ['team', 'data'],
    ],
  ],
  [
    lbId('cn-bj2', 'web-lb'),
    'web-lb',
    'ulb',
    DEFAULT_PROJECT,
    [
      ['env', 'prod'],
      ['team', 'web'],
    ],
  ],
  [lbId('cn-bj2', 'staging-lb'), 'staging-lb', 'ulb', DEFAULT_PROJECT, [['env', 'staging']]],
  [sid('eip', 'web-lb-ip'), 'web-lb-ip', 'eip', DEFAULT_PROJECT, [['env', 'prod']]],
];

const PROJECT_NAMES: Record<string, string> = { [DEFAULT_PROJECT]: 'Default', [ANALYTICS_PROJECT]: 'Analytics' };

/** Resources carrying labels (ListResourcesByLabels, and the source of ListLabels counts). */
export function seedLabelledResources(): Rec[] {
  return TAGGED.map(([id, name, type, project, labels]) => ({
    ResourceId: id,
    ResourceName: name,
    ResourceType: type,
    ProjectId: project,
    ProjectName: PROJECT_NAMES[project],
    Labels: [...labels.map(([Key, Value]) => ({ Key, Value, Category: 'custom' })), { Key: 'ucloud:creator', Value: 'console', Category: 'system' }],
  }));
}

/** Label keys that exist with no resource yet (labels can be created before use). */
export function seedEmptyLabels(): Rec[] {
  return [{ Key: 'owner', Value: 'nobody', Category: 'custom' }];
}
