/**
 * Label writes: creating and deleting custom labels, binding them to resources and unbinding
 * them, and the labels of given resources. A label lives until it is deleted, bound or not; one
 * still bound to a resource cannot be deleted (its bindings go first). The calls are
 * account-wide: no Region or ProjectId. ListLabels and the by-label lookups are in actions-account.ts.
 */
import { paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import type { Rec } from './seed-util.js';

interface Label {
  Key: string;
  Value: string;
  Category: string;
}

const PROJECT_NAMES: Record<string, string> = { 'org-sandbox': 'Default', 'org-analytics': 'Analytics' };

/** Keys and values: 1-63 characters; keys starting with `ucloud:` are the platform's own (system). */
function checkLabel(key: string, value: string, at: string): void {
  if (key.length > 63 || value.length > 63) throw paramError(at, 'a label key and value are at most 63 characters each');
  if (key.toLowerCase().startsWith('ucloud:')) throw paramError(`${at}.Key`, 'keys starting with ucloud: are system labels');
}

/** The `Labels.N.Key`/`.Value` pairs of the call, at least one. */
function labelsParam(req: ActionRequest): Label[] {
  const out: Label[] = [];
  for (let i = 0; req.str(`Labels.${i}.Key`) !== undefined || req.str(`Labels.${i}.Value`) !== undefined; i++) {
    const key = req.required(`Labels.${i}.Key`);
    const value = req.required(`Labels.${i}.Value`);
    checkLabel(key, value, `Labels.${i}`);
    out.push({ Key: key, Value: value, Category: 'custom' });
  }
  if (!out.length) throw paramError('Labels.0.Key', 'missing');
  return out;
}

const same = (a: Label, b: Label) => a.Key === b.Key && a.Value === b.Value && a.Category === b.Category;

function bindings(ctx: ActionContext, label: Label): Rec[] {
  return ctx.db.labelledResources.filter((r) => ((r.Labels ?? []) as Label[]).some((l) => same(l, label)));
}

function exists(ctx: ActionContext, label: Label): boolean {
  return (ctx.db.extraLabels as unknown as Label[]).some((l) => same(l, label)) || bindings(ctx, label).length > 0;
}

/** Where the sandbox keeps each kind of resource a label can be bound to, by id prefix. */
const KINDS: Array<[string, keyof ActionContext['db'], string, string, string]> = [
  // id prefix, table, id field, name field, label resource type
  ['uvnet-', 'vpcs', 'VPCId', 'Name', 'vpc'],
  ['subnet-', 'subnets', 'SubnetId', 'SubnetName', 'subnet'],
  ['uhost-', 'hosts', 'UHostId', 'Name', 'uhost'],
  ['eip-', 'eips', 'EIPId', 'Name', 'eip'],
  ['firewall-', 'firewalls', 'FWId', 'Name', 'firewall'],
  ['ulb-', 'lbs', 'ULBId', 'Name', 'ulb'],
  ['bsm-', 'disks', 'UDiskId', 'Name', 'udisk'],
  ['natgw-', 'natGateways', 'NATGWId', 'NATGWName', 'natgw'],
];

/** The labelled-resource record of an id, made on its first binding; a parameter error for an unknown resource. */
function labelled(ctx: ActionContext, id: string, at: string): Rec {
  const known = ctx.db.labelledResources.find((r) => r.ResourceId === id);
  if (known) return known;
  const kind = KINDS.find(([prefix]) => id.startsWith(prefix));
  const record = kind && (ctx.db[kind[1]] as Rec[]).find((r) => r[kind[2]] === id);
  if (!kind || !record) throw paramError(at, `no resource ${id} that labels can be bound to`);
  const project = String(record.ProjectId ?? 'org-sandbox');
  const made: Rec = { ResourceId: id, ResourceName: String(record[kind[3]] ?? ''), ResourceType: kind[4], ProjectId: project, ProjectName: PROJECT_NAMES[project] ?? project, Labels: [] };
  ctx.db.labelledResources.push(made);
  return made;
}

/** Keeps a label that loses its last binding (labels live until deleted). */
function keep(ctx: ActionContext, label: Label): void {
  const extra = ctx.db.extraLabels as unknown as Label[];
  if (!extra.some((l) => same(l, label))) extra.push({ ...label });
}

/** Label write Actions by name. */
export const labelActions: Record<string, ActionHandler> = {
  CreateLabels(req, ctx) {
    // Creating a label that exists already changes nothing.
    for (const label of labelsParam(req)) if (!exists(ctx, label)) keep(ctx, label);
    return {};
  },

  DeleteLabels(req, ctx) {
    const labels = labelsParam(req);
    labels.forEach((label, i) => {
      const bound = bindings(ctx, label).length;
      if (bound) throw paramError(`Labels.${i}.Key`, `label ${label.Key}:${label.Value} is bound to ${bound} resource(s); unbind it first`);
    });
    ctx.db.extraLabels = (ctx.db.extraLabels as unknown as Label[]).filter((l) => !labels.some((d) => same(l, d))) as unknown as Rec[];
    return {};
  },

  BindLabels(req, ctx) {
    const ids = req.list('ResourceIds');
    if (!ids.length) throw paramError('ResourceIds.0', 'missing');
    const labels = labelsParam(req);
    labels.forEach((label, i) => {
      if (!exists(ctx, label)) throw paramError(`Labels.${i}.Key`, `label ${label.Key}:${label.Value} does not exist; create it first`);
    });
    for (const [i, id] of ids.entries()) {
      const record = labelled(ctx, id, `ResourceIds.${i}`);
      const held = (record.Labels ?? []) as Label[];
      // Binding a label the resource holds already changes nothing.
      record.Labels = [...held, ...labels.filter((l) => !held.some((h) => same(h, l)))];
    }
    return {};
  },

  UnbindLabels(req, ctx) {
    const ids = req.list('ResourceIds');
    if (!ids.length) throw paramError('ResourceIds.0', 'missing');
    const labels = labelsParam(req);
    for (const label of labels) if (exists(ctx, label)) keep(ctx, label);
    for (const record of ctx.db.labelledResources.filter((r) => ids.includes(String(r.ResourceId)))) {
      record.Labels = ((record.Labels ?? []) as Label[]).filter((h) => !labels.some((l) => same(h, l)));
    }
    return {};
  },

  ListLabelsByResourceIds(req, ctx) {
    const ids = req.list('ResourceIds');
    if (!ids.length) throw paramError('ResourceIds.0', 'missing');
    const found = ctx.db.labelledResources
      .filter((r) => ids.includes(String(r.ResourceId)))
      .flatMap((r) => ((r.Labels ?? []) as Label[]).map((l) => ({ ResourceId: r.ResourceId, Key: l.Key, Value: l.Value, Category: l.Category })));
    const { items, total } = req.page(found, 10, 100);
    return { Labels: items, TotalCount: total };
  },
};
