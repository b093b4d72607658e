import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRemote } from '../../../src/kernel/errors.js';
import { cloudLookups } from '../../../src/lookups/cloud/index.js';
import { getIamGroups } from '../../../src/lookups/cloud/get-iam-groups.js';
import { getIamPolicy } from '../../../src/lookups/cloud/get-iam-policy.js';
import { getLabelResources } from '../../../src/lookups/cloud/get-label-resources.js';
import { getLabels } from '../../../src/lookups/cloud/get-labels.js';
import { getProjects } from '../../../src/lookups/cloud/get-projects.js';
import { countActions, startHarness, type Harness } from '../../support/cloud-harness.js';
import { names, run, runPaged, runToFile } from '../../support/cloud-lookup-kit.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the cloud lookup catalogue', () => {
  const expected = [
    'getAntiDdosInstances',
    'getAntiDdosIps',
    'getBaremetalImages',
    'getDbBackups',
    'getDbInstances',
    'getDbParameterGroups',
    'getDisks',
    'getEips',
    'getIamGroups',
    'getIamPolicy',
    'getImages',
    'getInstances',
    'getLabelResources',
    'getLabels',
    'getLbAttachments',
    'getLbListeners',
    'getLbRules',
    'getLbSsls',
    'getLbs',
    'getNatGateways',
    'getProjects',
    'getUs3Buckets',
    'getVpcs',
    'getVpnConnections',
    'getVpnCustomerGateways',
    'getVpnGateways',
    'getZones',
  ];

  it('has every lookup under its token, plus the terraformConfig method', () => {
    const tokens = cloudLookups.map((f) => f.token);
    for (const fn of expected) expect(tokens).toContain(`cloud:index/${fn}:${fn}`);
    expect(tokens).toContain('cloud:providers:cloud/terraformConfig');
    expect(tokens).toHaveLength(expected.length + 1);
  });

  it.each(cloudLookups.map((f) => [f.token, f] as const))('%s documents every argument', (_token, fn) => {
    const shape = (fn.args as unknown as { shape: Record<string, { description?: string }> }).shape;
    expect(Object.keys(shape).length).toBeGreaterThan(0);
    for (const [name, field] of Object.entries(shape)) expect(field.description, name).toBeTruthy();
  });
});

describe('getIamGroups', () => {
  it('lists groups with names, filtered by nameRegex, in one call', async () => {
    await h.clearCalls();
    const r = await run(h, getIamGroups);
    expect(r.names).toEqual(['Administrators', 'Developers', 'DBAs', 'Auditors', 'NetOps', 'SecOps']);
    expect(r.groups[2]).toEqual({ name: 'DBAs', comment: 'Operate database instances and backups' });
    expect(countActions(await h.actions(), 'ListGroups')).toBe(1);
    expect((await run(h, getIamGroups, { nameRegex: 'Ops$' })).names).toEqual(['NetOps', 'SecOps']);
  });
});

describe('getIamPolicy', () => {
  it('finds a system policy and reads its document', async () => {
    const r = await run(h, getIamPolicy, { name: 'UHostReadOnlyAccess', type: 'System' });
    expect(r).toMatchObject({ id: 'ucs:iam::ucs:policy/UHostReadOnlyAccess', urn: 'ucs:iam::ucs:policy/UHostReadOnlyAccess', scope: 'Project', comment: 'Read-only access to cloud hosts' });
    expect(JSON.parse(r.policy).Statement[0].Action).toEqual(['uhost:Describe*']);
  });

  it('finds a custom policy on a later page, and stops paging once found', async () => {
    const { result, calls } = await runPaged(h, getIamPolicy, { name: 'AuditorAccess', type: 'Custom' }, 'ListPolicies');
    expect(result.scope).toBe('Mixed');
    expect(calls).toBe(1);
    const sys = await runPaged(h, getIamPolicy, { name: 'BillingReadOnlyAccess', type: 'System' }, 'ListPolicies');
    expect(sys.result.scope).toBe('Account');
    expect(sys.calls).toBe(5);
  });

  it('reports a policy that does not exist as not found', async () => {
    const err = await run(h, getIamPolicy, { name: 'UHostReadOnlyAccess', type: 'Custom' }).catch((e: unknown) => e);
    expect(isRemote(err, 'not-found')).toBe(true);
    expect((err as Error).message).toBe('no custom IAM policy named UHostReadOnlyAccess');
  });
});

describe('getLabels', () => {
  it('lists custom labels with the projects using them', async () => {
    const r = await run(h, getLabels);
    const keys = r.labels.map((l: { key: string; value: string }) => `${l.key}=${l.value}`);
    expect(keys).toContain('env=prod');
    expect(keys).toContain('owner=nobody');
    expect(keys.some((k: string) => k.startsWith('ucloud:'))).toBe(false);
    const prod = r.labels.find((l: { key: string; value: string }) => l.key === 'env' && l.value === 'prod');
    expect(prod.projects.map((p: { id: string }) => p.id).sort()).toEqual(['org-analytics', 'org-sandbox']);
    expect(prod.projects.find((p: { id: string }) => p.id === 'org-sandbox').resourceTypes.sort()).toEqual(['eip', 'udb', 'uhost', 'ulb']);
    expect(r.labels.find((l: { key: string }) => l.key === 'owner').projects).toEqual([]);
  });

  it('filters by keyRegex; pages; writes outputFile', async () => {
    expect((await run(h, getLabels, { keyRegex: '^env$' })).ids.sort()).toEqual(['env#prod', 'env#staging']);
    const { result, calls } = await runPaged(h, getLabels, {}, 'ListLabels');
    expect(calls).toBe(Math.ceil(result.totalCount / 2));
    const { result: r, file } = await runToFile(h, getLabels, { keyRegex: 'cost' }, 'labels');
    expect(file).toEqual(r.labels);
  });
});

describe('getLabelResources', () => {
  it('lists resources carrying a label, by type and project', async () => {
    const r = await run(h, getLabelResources, { key: 'env', value: 'prod', projectIds: ['org-sandbox'], resourceTypes: ['uhost'] });
    expect(names(r.resources)).toEqual(['api-1', 'web-1', 'web-2']);
    expect(r.resources[0].type).toBe('uhost');
    const both = await run(h, getLabelResources, { key: 'team', value: 'data', projectIds: ['org-sandbox', 'org-analytics'], resourceTypes: ['uhost', 'udb'] });
    expect(names(both.resources)).toEqual(['batch-1', 'orders-db', 'warehouse-db']);
  });

  it('requires key, value, projects and types; pages; writes outputFile', async () => {
    expect(getLabelResources.args.safeParse({ key: 'env', value: 'prod', projectIds: [], resourceTypes: ['uhost'] }).success).toBe(false);
    const raw = { key: 'env', value: 'prod', projectIds: ['org-sandbox'], resourceTypes: ['uhost', 'udb', 'ulb', 'eip'] };
    const { result, calls } = await runPaged(h, getLabelResources, raw, 'ListResourcesByLabels');
    expect(result.totalCount).toBe(7);
    expect(calls).toBe(4);
    const { result: r, file } = await runToFile(h, getLabelResources, raw, 'labelled');
    expect(file).toEqual(r.resources);
  });
});

describe('getProjects', () => {
  it('lists projects; finance callers also see billing projects', async () => {
    const r = await run(h, getProjects);
    expect(names(r.projects)).toEqual(['Analytics', 'Default', 'Edge Security']);
    expect(r.projects.find((p: { id: string }) => p.id === 'org-sandbox')).toMatchObject({ parentName: 'root', resourceCount: 42, memberCount: 6 });
    expect(names((await run(h, getProjects, { isFinance: true })).projects)).toContain('Billing');
  });

  it('filters by nameRegex and writes outputFile', async () => {
    const { result, file } = await runToFile(h, getProjects, { nameRegex: '^(Default|Analytics)$' }, 'projects');
    expect(result.ids.sort()).toEqual(['org-analytics', 'org-sandbox']);
    expect(file).toEqual(result.projects);
  });
});
