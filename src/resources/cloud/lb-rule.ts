/**
 * LbRule: a content-forwarding policy of an HTTP or HTTPS listener: requests for a domain or a
 * path go to the backends it lists.
 *
 * Everything but its listener changes in place with one UpdatePolicy call, its backends included
 * (the Action takes the whole list; the upstream provider replaces the rule for this). TCP and UDP
 * listeners take no rules (the API refuses them with 4112), and a rule needs at least one backend
 * (4077). Import by `<lb_id>/<vserver_id>/<policy_id>`.
 */
import * as z from 'zod';
import type { CloudClient } from '../../providers/cloud/client.js';
import type { CloudSettings } from '../../providers/cloud/settings.js';
import { int, str } from '../../providers/cloud/wire.js';
import { defaultsAsDeclared } from '../as-declared.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { AmbiguousOrder } from '../../kernel/errors.js';
import { deleteListed, findMade, inDeclaredOrder, listedVerbs, noId, pathId, vanished, waitListed, type CloudCtx } from './kit.js';
import { allLbs, allVServers, describeLb, vserverOf, type PolicyInfo } from './ulb.js';

/** Inputs of a rule. */
export const lbRuleInputs = z
  .object({
    lbId: z.string().min(1).describe('Id of the load balancer (`ulb-…`). Required.'),
    listenerId: z.string().min(1).describe('Id of the HTTP or HTTPS listener (`vserver-…`). Required.'),
    backendIds: z
      .array(z.string().min(1))
      .min(1, 'a rule needs at least one backend')
      .describe("Ids of the listener's backends (`backend-…`, an LbAttachment's `backendId`) the requests go to. Required."),
    domain: z.string().min(1).optional().describe('Host the rule matches (a regular expression, or a wildcard with `domainMatchMode: wildcard`). Set it or `path`.'),
    path: z.string().min(1).optional().describe('Path prefix the rule matches. Set it or `domain`.'),
    domainMatchMode: z.enum(['regular', 'wildcard']).optional().describe('How `domain` matches: `regular` (default) or `wildcard`. Only with `domain`: a path rule has no domain to match.'),
    priority: z.number().int().min(1).max(9999).optional().describe('Order among the path rules of the listener, 1–9999.'),
  })
  .superRefine((v, ctx) => {
    if ((v.domain === undefined) === (v.path === undefined)) ctx.addIssue({ code: 'custom', path: ['domain'], message: 'set exactly one of domain or path' });
    // The API takes DomainMatchMode for the domain of a Domain policy only: on a path rule it is never sent.
    if (v.path !== undefined && v.domainMatchMode !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['domainMatchMode'],
        message: 'domainMatchMode is how a domain rule matches its domain: a path rule takes none (leave it out, or match a domain instead of a path)',
      });
  });

/** Inputs of a rule. */
export type LbRuleInputs = z.output<typeof lbRuleInputs>;

/** What is read back about a rule. */
export const lbRuleOutputs = z.object({
  ruleId: z.string().describe('Policy id.'),
  lbId: z.string().describe('Id of its load balancer.'),
  listenerId: z.string().describe('Id of its listener.'),
  backendIds: z.array(z.string()).describe('Ids of the backends it forwards to.'),
  domain: z.string().optional().describe('Host it matches, for a domain rule.'),
  path: z.string().optional().describe('Path it matches, for a path rule.'),
  domainMatchMode: z.string().describe('How the domain matches.'),
  priority: z.number().describe('Order among path rules (0 when the API gave none).'),
});

/** Observed rule. */
export type LbRuleOutputs = z.output<typeof lbRuleOutputs>;

const ID = pathId('load balancer rule', [
  ['lb_id', 'ulb'],
  ['vserver_id', 'vserver'],
  ['policy_id', undefined],
]);

function toOutputs(lbId: string, listenerId: string, p: PolicyInfo): LbRuleOutputs {
  const match = str(p.Match);
  return {
    ruleId: p.PolicyId,
    lbId,
    listenerId,
    backendIds: (p.BackendSet ?? []).map((b) => b.BackendId),
    ...(p.Type === 'Path' ? { path: match } : { domain: match }),
    domainMatchMode: str(p.DomainMatchMode).toLowerCase() || 'regular',
    priority: int(p.PolicyPriority),
  };
}

async function readRule(ctx: CloudCtx, id: string): Promise<LbRuleOutputs | undefined> {
  const [lbId, vserverId, policyId] = ID.split(id);
  const p = vserverOf(await describeLb(ctx, lbId), vserverId)?.PolicySet?.find((x) => x.PolicyId === policyId);
  return p && toOutputs(lbId, vserverId, p);
}

/** CreatePolicy's and UpdatePolicy's description of the rule. */
function policy(inputs: LbRuleInputs): Record<string, string | number | string[] | undefined> {
  return {
    Type: inputs.path !== undefined ? 'Path' : 'Domain',
    Match: inputs.path ?? inputs.domain,
    BackendId: inputs.backendIds,
    DomainMatchMode: inputs.domain !== undefined ? (inputs.domainMatchMode === 'wildcard' ? 'Wildcard' : 'Regular') : undefined,
    PolicyPriority: inputs.priority,
  };
}

/** The listener's policies now. */
async function policiesOf(ctx: CloudCtx, inputs: LbRuleInputs): Promise<PolicyInfo[]> {
  return vserverOf(await describeLb(ctx, inputs.lbId), inputs.listenerId)?.PolicySet ?? [];
}

/** The listener's custom policies of this type and match whose ids `taken` does not hold: what a create of them may have made. */
async function made(ctx: CloudCtx, inputs: LbRuleInputs, taken: (id: string) => boolean): Promise<PolicyInfo[]> {
  const { Type, Match } = policy(inputs);
  return (await policiesOf(ctx, inputs)).filter((p) => p.Type === Type && p.Match === Match && p.PolicyType !== 'Default' && !taken(`${inputs.lbId}/${inputs.listenerId}/${p.PolicyId}`));
}

/** The LbRule resource type. */
export const lbRule: ResourceType<LbRuleInputs, LbRuleOutputs, CloudClient, CloudSettings> = {
  token: 'cloud:index/lbRule:LbRule',
  provider: 'cloud',
  description: 'A content-forwarding rule of an HTTP or HTTPS listener: a domain or path and the backends it goes to, all changed in place. Import id: `<lb_id>/<vserver_id>/<policy_id>`.',
  inputs: lbRuleInputs,
  outputs: lbRuleOutputs,
  diff: {
    computedInputs: ['priority'],
    // The API keeps the backends in its own order; the same backends in another order are no change.
    asDeclared: (recorded, _outputs, desired) =>
      defaultsAsDeclared({ ...recorded, backendIds: inDeclaredOrder(recorded.backendIds, desired.backendIds) ?? recorded.backendIds }, desired, { domainMatchMode: 'regular' }),
  },
  replace: {
    on: [
      { path: 'lbId', reason: 'a policy belongs to one balancer: another is another policy' },
      { path: 'listenerId', reason: 'UpdatePolicy cannot move a policy to another listener' },
    ],
  },
  provisioning: {
    // A rule is part of its listener's record, listed as soon as CreatePolicy answers.
    appearsWithinMs: 0,
  },
  cost: { unpriced: 'not billed on its own' },
  importId: ID,

  async create(ctx, inputs) {
    // Policies carry no creation time and a match need not be unique: what was there before the
    // call is not what it made.
    const known = new Set((await policiesOf(ctx, inputs)).map((p) => `${inputs.lbId}/${inputs.listenerId}/${p.PolicyId}`));
    const sentAt = Date.now();
    const body = await ctx.client.call<{ PolicyId?: string }>(
      'CreatePolicy',
      { ULBId: inputs.lbId, VServerId: inputs.listenerId, ...policy(inputs) },
      {
        recover: async () => {
          const found = await findMade(ctx, {
            within: 0,
            what: 'rule',
            sentAt,
            findOwned: (order) => lbRule.findOwned!(ctx, inputs, { ...order, recorded: (id) => known.has(id) || order.recorded(id) }),
          });
          return found && { RetCode: 0, PolicyId: ID.split(found.id)[2] };
        },
      },
    );
    if (!body.PolicyId) throw noId('CreatePolicy', 'PolicyId');
    const id = `${inputs.lbId}/${inputs.listenerId}/${body.PolicyId}`;
    ctx.recordId(id);
    return { id, outputs: await waitListed(ctx, `rule ${id}`, () => readRule(ctx, id)) };
  },

  ...listedVerbs<LbRuleOutputs>(
    async (ctx) =>
      allVServers(await allLbs(ctx)).flatMap(({ lb, vs }) =>
        (vs.PolicySet ?? []).filter((p) => p.PolicyType !== 'Default').map((p) => ({ id: `${lb.ULBId}/${vs.VServerId}/${p.PolicyId}`, outputs: toOutputs(lb.ULBId, vs.VServerId, p) })),
      ),
    readRule,
  ),

  async findOwned(ctx, inputs, order) {
    if (!inputs) return undefined;
    // Policies carry no creation time: of several unrecorded matches, none is taken.
    const found = await made(ctx, inputs, order.recorded);
    if (found.length > 1)
      throw new AmbiguousOrder(
        'rule',
        found.map((p) => `${inputs.lbId}/${inputs.listenerId}/${p.PolicyId}`),
      );
    return found[0] && { id: `${inputs.lbId}/${inputs.listenerId}/${found[0].PolicyId}`, outputs: toOutputs(inputs.lbId, inputs.listenerId, found[0]) };
  },

  async update(ctx, id, _prior, desired) {
    const [lbId, vserverId, policyId] = ID.split(id);
    if (!(await readRule(ctx, id))) throw vanished('rule', id);
    // UpdatePolicy takes the whole rule: its match, type and complete list of backends.
    await ctx.client.call('UpdatePolicy', { ULBId: lbId, VServerId: vserverId, PolicyId: policyId, ...policy(desired) });
    const after = await readRule(ctx, id);
    if (!after) throw vanished('rule', id);
    return after;
  },

  async delete(ctx, id) {
    const [, vserverId, policyId] = ID.split(id);
    await deleteListed(
      ctx,
      `rule ${id}`,
      async () => (await readRule(ctx, id)) !== undefined,
      // DeletePolicy takes no ULBId.
      () => ctx.client.call('DeletePolicy', { PolicyId: policyId, VServerId: vserverId }),
    );
  },
};
