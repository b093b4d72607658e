/**
 * AntiDdosAllowedDomain: one registrable domain on an anti-DDoS instance's allow list.
 *
 * Adding is asynchronous (Adding → Success, or Failure when the platform refuses the domain);
 * only the comment changes in place. The id is `<instance_id>/<domain>`.
 */
import * as z from 'zod';
import { isRemote, RemoteError, UserError } from '../../kernel/errors.js';
import { listServiceInfo } from '../../providers/cloud/api/anti-ddos.js';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { rfc3339 } from '../../providers/cloud/wire.js';
import type { ResourceContext, ResourceType } from '../../engine/contracts/resource-type.js';
import { allowedDomainProblem } from './domain-name.js';
import { PACE } from './kit.js';

/** Inputs of an allowed domain. */
export const antiDdosAllowedDomainInputs = z.object({
  instanceId: z.string().min(1).describe('Id of the anti-DDoS instance (`usecure_ghp-…`). Required.'),
  domain: z
    .string()
    .superRefine((domain, ctx) => {
      const problem = allowedDomainProblem(domain);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(
      'Registrable parent domain to allow, e.g. `example.com` (it covers `api.example.com` and every other host under it); a host name is rejected with the parent to use. Lower case. Required.',
    ),
  comment: z.string().max(255).optional().describe('Free-text remark shown in the console. Default: keep whatever the API holds (empty for a new entry).'),
});

/** Inputs of an allowed domain. */
export type AntiDdosAllowedDomainInputs = z.output<typeof antiDdosAllowedDomainInputs>;

/** What the API reports about an allowed domain. */
export const antiDdosAllowedDomainOutputs = z.object({
  antiDdosAllowedDomainId: z.string().describe('`<instance_id>/<domain>`.'),
  instanceId: z.string().describe('Id of the anti-DDoS instance.'),
  domain: z.string().describe('The allowed domain.'),
  comment: z.string().describe('Remark.'),
  status: z.string().describe('`Adding`, `Success`, `Deleting`, `Failure` or `Deleted`.'),
  createTime: z.string().describe('When the domain was added (RFC 3339).'),
});

/** Observed allowed domain. */
export type AntiDdosAllowedDomainOutputs = z.output<typeof antiDdosAllowedDomainOutputs>;

type Ctx = ResourceContext<CloudClient, CloudSettings>;

const STATUS: Record<number, string> = { 1: 'Adding', 2: 'Success', 3: 'Deleting', 4: 'Failure', 5: 'Deleted' };

interface DomainEntry {
  Domain: string;
  CreateTime: number;
  Remark?: string;
  Status: number;
}

/** Splits `<instance_id>/<domain>` at the first `/`; a UserError naming the format otherwise. */
export function parseAllowedDomainId(id: string): { instanceId: string; domain: string } {
  const at = id.indexOf('/');
  const instanceId = at > 0 ? id.slice(0, at) : '';
  const domain = at > 0 ? id.slice(at + 1) : '';
  const problem = instanceId && domain ? allowedDomainProblem(domain) : 'expected <instance_id>/<domain>';
  if (problem) throw new UserError(`invalid allowed-domain id "${id}": ${problem}`, 'the format is <instance_id>/<domain>, e.g. usecure_ghp-1a2b3c4d/example.com');
  return { instanceId, domain };
}

/** The entry as listed, including entries still Adding or already failed; undefined when absent. */
async function lookup(ctx: Ctx, instanceId: string, domain: string): Promise<DomainEntry | undefined> {
  const body = await ctx.client.call<{ DomainList?: DomainEntry[] }>('GetNapAllowListDomain', { ResourceId: instanceId, Domain: domain });
  return (body.DomainList ?? []).find((d) => d.Domain === domain);
}

/** The whole allow list of an instance (an instance that is gone has an empty one), shared by every read of the pass. */
function allowList(ctx: Ctx, instanceId: string): Promise<DomainEntry[]> {
  return ctx.shared(`anti-ddos-allow-list:${instanceId}`, () => ctx.client.pageAll<DomainEntry>('GetNapAllowListDomain', { ResourceId: instanceId }, 'DomainList', { pageSize: 1000 }));
}

function toOutputs(instanceId: string, entry: DomainEntry): AntiDdosAllowedDomainOutputs {
  return {
    antiDdosAllowedDomainId: `${instanceId}/${entry.Domain}`,
    instanceId,
    domain: entry.Domain,
    comment: entry.Remark ?? '',
    status: STATUS[entry.Status] ?? 'unknown',
    createTime: rfc3339(entry.CreateTime),
  };
}

/** Reads the entry; entries being deleted or deleted count as gone (they are on their way out). */
async function observe(ctx: Ctx, instanceId: string, domain: string): Promise<AntiDdosAllowedDomainOutputs | undefined> {
  const entry = await lookup(ctx, instanceId, domain);
  if (!entry || entry.Status === 3 || entry.Status === 5) return undefined;
  return toOutputs(instanceId, entry);
}

/** Waits for Adding to settle; Failure is an error telling what to do. */
function waitAdded(ctx: Ctx, instanceId: string, domain: string): Promise<AntiDdosAllowedDomainOutputs> {
  return ctx.wait(
    `${domain} to be allowed on ${instanceId}`,
    async () => {
      const seen = await observe(ctx, instanceId, domain);
      if (!seen) return { done: false, status: 'Adding' };
      if (seen.status === 'Success') return { done: true, value: seen };
      if (seen.status === 'Failure') {
        throw new Error(
          `the platform refused to allow ${domain} on anti-DDoS instance ${instanceId} (status Failure); check that the domain is registered and not blocked: the next apply removes the entry and adds it again`,
        );
      }
      return { done: false, status: seen.status };
    },
    PACE,
  );
}

/** The AntiDdosAllowedDomain resource type. */
export const antiDdosAllowedDomain: ResourceType<AntiDdosAllowedDomainInputs, AntiDdosAllowedDomainOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/antiDdosAllowedDomain:AntiDdosAllowedDomain',
  provider: 'cloud',
  description: 'A registrable domain on the allow list of an anti-DDoS instance; waits until the platform accepts it.',
  inputs: antiDdosAllowedDomainInputs,
  outputs: antiDdosAllowedDomainOutputs,
  diff: {
    computedInputs: ['comment'],
    remoteManaged: ['status', 'createTime'],
  },
  replace: {
    on: [
      { path: 'instanceId', reason: 'an allow-list entry belongs to one instance' },
      { path: 'domain', reason: 'the domain is the identity of the entry' },
    ],
    // The same domain on the same instance is the same entry: replaced as it is (--replace), it
    // is removed first and then added again.
    holds: [{ what: 'allowed domain of an anti-DDoS instance', paths: ['instanceId', 'domain'] }],
  },
  provisioning: {
    ready: (outputs) => outputs.status === 'Success',
    failed: (outputs) => (outputs.status === 'Failure' ? 'Failure' : undefined),
    // The API lists a new entry at once, Adding until the platform accepts it.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: {
    format: '<instance_id>/<domain>',
    parse(id) {
      const { instanceId, domain } = parseAllowedDomainId(id.trim());
      return `${instanceId}/${domain}`;
    },
  },

  async create(ctx, inputs) {
    const { instanceId, domain } = inputs;
    const existing = await lookup(ctx, instanceId, domain);
    // An entry that is already Adding or Success is ours to adopt; adding again would be refused.
    if (!existing || existing.Status === 3 || existing.Status === 4 || existing.Status === 5) {
      // An add whose answer was lost is never sent again blindly: an entry now Adding or
      // allowed is the one it made (the API lists a new entry at once).
      const recover = async () => {
        const entry = await lookup(ctx, instanceId, domain);
        return entry && (entry.Status === 1 || entry.Status === 2) ? { RetCode: 0, Data: [{ Domain: domain, Code: 0 }] } : undefined;
      };
      const body = await ctx.client.call<{ Data?: { Domain: string; Code: number; Message?: string }[] }>('AddNapAllowListDomain', { ResourceId: instanceId, Domain: [domain] }, { recover });
      const result = (body.Data ?? []).find((d) => d.Domain === domain);
      if (result && result.Code !== 0) throw ctx.client.errorFor('AddNapAllowListDomain', result.Code, result.Message || `${domain} was not added`);
    }
    // Recorded before waiting, so an entry that never settles is still known (and can be deleted).
    ctx.recordId(`${instanceId}/${domain}`);
    let seen = await waitAdded(ctx, instanceId, domain);
    if (inputs.comment !== undefined && inputs.comment !== seen.comment) {
      await ctx.client.call('SetNapDomainEntryRemark', { ResourceId: instanceId, Domain: domain, Remark: inputs.comment });
      seen = (await observe(ctx, instanceId, domain)) ?? seen;
    }
    return { id: seen.antiDdosAllowedDomainId, outputs: seen };
  },

  read(ctx, id) {
    const { instanceId, domain } = parseAllowedDomainId(id);
    return observe(ctx, instanceId, domain);
  },

  // One listing per instance (its whole allow list, up to 1,000 entries a page) serves every
  // entry of it, instead of one call per domain. Entries on their way out are left out of the
  // answer, so each is read alone once before it is called gone.
  async readMany(ctx, targets) {
    const found = new Map<string, AntiDdosAllowedDomainOutputs>();
    const byInstance = new Map<string, string[]>();
    for (const { id } of targets) {
      const { instanceId } = parseAllowedDomainId(id);
      byInstance.set(instanceId, [...(byInstance.get(instanceId) ?? []), id]);
    }
    await Promise.all(
      [...byInstance.keys()].map(async (instanceId) => {
        for (const entry of await allowList(ctx, instanceId)) {
          if (entry.Status === 3 || entry.Status === 5) continue;
          const outputs = toOutputs(instanceId, entry);
          if (byInstance.get(instanceId)?.includes(outputs.antiDdosAllowedDomainId)) found.set(outputs.antiDdosAllowedDomainId, outputs);
        }
      }),
    );
    return found;
  },

  async list(ctx) {
    const instances = await listServiceInfo(ctx.client);
    const found = [];
    for (const { ResourceId: instanceId } of instances) {
      const entries = await allowList(ctx, instanceId);
      for (const entry of entries.filter((e) => e.Status !== 3 && e.Status !== 5)) {
        const outputs = toOutputs(instanceId, entry);
        found.push({ id: outputs.antiDdosAllowedDomainId, outputs });
      }
    }
    return found;
  },

  async update(ctx, id, _prior, desired) {
    const { instanceId, domain } = parseAllowedDomainId(id);
    const live = await observe(ctx, instanceId, domain);
    if (!live) throw new RemoteError('not-found', `${domain} is no longer allowed on ${instanceId}`, { provider: 'cloud' });
    if (desired.comment === undefined || desired.comment === live.comment) return live;
    await ctx.client.call('SetNapDomainEntryRemark', { ResourceId: instanceId, Domain: domain, Remark: desired.comment });
    return (await observe(ctx, instanceId, domain)) ?? { ...live, comment: desired.comment };
  },

  async delete(ctx, id) {
    const { instanceId, domain } = parseAllowedDomainId(id);
    // Entries already Deleting or Deleted need nothing more; a Failure entry is removed too.
    if (!(await observe(ctx, instanceId, domain))) return;
    try {
      await ctx.client.call('DeleteNapAllowListDomain', { ResourceId: instanceId, Domain: [domain] });
    } catch (err) {
      // The instance itself may be gone already, taking its allow list with it.
      if (!isRemote(err, 'not-found', 'invalid') || (await observe(ctx, instanceId, domain))) throw err;
      return;
    }
    await ctx.wait(
      `${domain} to leave the allow list of ${instanceId}`,
      async () => ((await observe(ctx, instanceId, domain)) ? { done: false, status: 'Deleting' } : { done: true, value: undefined }),
      PACE,
    );
  },
};
