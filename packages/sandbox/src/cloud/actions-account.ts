/**
 * Account-wide Actions: regions and projects, IAM groups and policies, labels, and STS
 * AssumeRole (which registers temporary keys that the signature check then accepts).
 */
import { randomBytes } from 'node:crypto';
import { inIds } from './actions-compute.js';
import { ApiError, paramError, type ActionHandler } from './request.js';
import type { Rec } from './seed-util.js';
import { without } from './store.js';

interface Label {
  Key: string;
  Value: string;
  Category: string;
}

function labelsOf(resource: Rec): Label[] {
  return (resource.Labels ?? []) as Label[];
}

function hasLabel(resource: Rec, key: string, value: string): boolean {
  return labelsOf(resource).some((l) => l.Key === key && l.Value === value);
}

/** Account-wide Actions by name. */
export const accountActions: Record<string, ActionHandler> = {
  GetRegion(_req, ctx) {
    return { Regions: ctx.db.regions };
  },

  GetProjectList(req, ctx) {
    const finance = (req.str('IsFinance') ?? 'no').toLowerCase();
    if (finance !== 'yes' && finance !== 'no') throw paramError('IsFinance', 'must be yes or no');
    const projects = ctx.db.projects.filter((p) => finance === 'yes' || p.Finance !== true).map((p) => without(p, 'Finance'));
    return { ProjectSet: projects, ProjectCount: projects.length };
  },

  ListGroups(_req, ctx) {
    // The real Action takes no paging parameters and always answers with every group.
    return { Groups: ctx.db.iamGroups, TotalCount: ctx.db.iamGroups.length };
  },

  ListPolicies(req, ctx) {
    const owner = req.str('Owner');
    if (owner !== undefined && owner !== 'UCS' && owner !== 'User') throw paramError('Owner', 'must be UCS or User');
    const matches = ctx.db.iamPolicies.filter((p) => owner === undefined || p.Owner === owner);
    const { items, total } = req.page(matches, 20);
    return { Policies: items.map((p) => without(p, 'Owner')), TotalCount: total };
  },

  GetIAMPolicy(req, ctx) {
    const urn = req.required('PolicyURN');
    const policy = ctx.db.iamPolicies.find((p) => p.PolicyURN === urn);
    if (!policy) throw new ApiError(11217, `policy ${urn} not found`);
    return { Policy: without(policy, 'Owner') };
  },

  ListLabels(req, ctx) {
    const category = req.str('Category');
    const counts = new Map<string, Label & { ResourceCount: number }>();
    const count = (label: Label, n: number) => {
      const key = `${label.Category}\u0000${label.Key}\u0000${label.Value}`;
      const entry = counts.get(key) ?? { ...label, ResourceCount: 0 };
      entry.ResourceCount += n;
      counts.set(key, entry);
    };
    for (const r of ctx.db.labelledResources) for (const l of labelsOf(r)) count(l, 1);
    for (const l of ctx.db.extraLabels as unknown as Label[]) count(l, 0);
    const matches = [...counts.values()].filter((l) => category === undefined || l.Category === category);
    const { items, total } = req.page(matches, 10, 100);
    return { Labels: items.map(({ Key, Value, ResourceCount }) => ({ Key, Value, ResourceCount })), TotalCount: total };
  },

  ListProjectsByLabels(req, ctx) {
    const key = req.required('Labels.0.Key');
    const value = req.required('Labels.0.Value');
    const byProject = new Map<string, Rec & { ResourceTypes: string[] }>();
    for (const r of ctx.db.labelledResources.filter((res) => hasLabel(res, key, value))) {
      const entry = byProject.get(String(r.ProjectId)) ?? { ProjectId: r.ProjectId, ProjectName: r.ProjectName, ResourceTypes: [], DisabledResourceTypes: [] };
      if (!entry.ResourceTypes.includes(String(r.ResourceType))) entry.ResourceTypes.push(String(r.ResourceType));
      byProject.set(String(r.ProjectId), entry);
    }
    return { Projects: [...byProject.values()] };
  },

  ListResourcesByLabels(req, ctx) {
    const key = req.required('Labels.0.Key');
    const value = req.required('Labels.0.Value');
    const types = req.list('ResourceTypes');
    const projects = req.list('ProjectIds');
    const matches = ctx.db.labelledResources.filter((r) => hasLabel(r, key, value) && inIds(types, r.ResourceType) && inIds(projects, r.ProjectId));
    const { items, total } = req.page(matches, 10, 100);
    return { Resources: items, TotalCount: total };
  },

  AssumeRole(req, ctx) {
    const roleUrn = req.required('RoleUrn');
    if (!/^ucs:iam::\d*:role\/[\w+=,.@-]+$/.test(roleUrn)) throw paramError('RoleUrn', 'must look like ucs:iam::<account>:role/<name>');
    const sessionName = req.required('RoleSessionName');
    const duration = req.int('DurationSeconds') ?? 900;
    if (duration < 900 || duration > 43200) throw paramError('DurationSeconds', 'must be between 900 and 43200');
    const policy = req.str('Policy');
    if (policy !== undefined) {
      try {
        JSON.parse(policy);
      } catch {
        throw paramError('Policy', 'must be a JSON policy document');
      }
    }
    const publicKey = `STS.${randomBytes(8).toString('hex')}`;
    const privateKey = randomBytes(20).toString('hex');
    const securityToken = randomBytes(24).toString('base64url');
    const expiresAt = ctx.now + duration * 1000;
    ctx.db.accounts[publicKey] = { privateKey, securityToken, expiresAt, roleUrn, sessionName, uses: 0 };
    return {
      Credentials: {
        AccessKeyId: publicKey,
        AccessKeySecret: privateKey,
        SecurityToken: securityToken,
        Expiration: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
    };
  },
};
