/** getIamPolicy: one IAM policy, system or custom, by name. */
import * as z from 'zod';
import { isRemote, RemoteError } from '../../kernel/errors.js';
import { rfc3339, str } from '../../providers/cloud/wire.js';
import { cloudLookup } from './kit.js';

const argsShape = {
  name: z.string().min(1).describe('Policy name, e.g. `UHostReadOnlyAccess`. Required.'),
  type: z.enum(['System', 'Custom']).describe('`System` (built-in) or `Custom` (made by the account). Required.'),
};

const result = z.object({
  ...argsShape,
  id: z.string().describe('The policy URN.'),
  urn: z.string().describe('Policy URN.'),
  comment: z.string().describe('Description.'),
  policy: z.string().describe('Policy document (JSON).'),
  createTime: z.string().describe('RFC 3339.'),
  scope: z.string().describe('`Project`, `Account` or `Mixed`.'),
});

const SCOPES: Record<string, string> = { ScopeRequired: 'Project', ScopeEmpty: 'Account', ScopeUnrestricted: 'Mixed' };

interface IamPolicy {
  PolicyName: string;
  PolicyURN: string;
  Description?: string;
  Document?: string;
  ScopeType?: string;
  CreatedAt?: number;
}

/** Finds a policy by name in the listing of its owner, then reads its document. */
export const getIamPolicy = cloudLookup({
  name: 'getIamPolicy',
  description: 'One IAM policy by name and type, with its document.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const owner = args.type === 'System' ? 'UCS' : 'User';
    const limit = ctx.client.pageSize;
    let found: IamPolicy | undefined;
    // Page only as far as the policy; the listing takes Limit/Offset as strings.
    for (let offset = 0; !found; offset += limit) {
      const page = await ctx.client.call<{ Policies?: IamPolicy[] }>('ListPolicies', { Owner: owner, Limit: String(limit), Offset: String(offset) }, { project: false });
      const policies = page.Policies ?? [];
      found = policies.find((p) => p.PolicyName === args.name);
      if (policies.length < limit) break;
    }
    if (!found) throw new RemoteError('not-found', `no ${args.type.toLowerCase()} IAM policy named ${args.name}`, { provider: 'cloud' });
    let detail: IamPolicy;
    try {
      detail = (await ctx.client.call<{ Policy?: IamPolicy }>('GetIAMPolicy', { PolicyURN: found.PolicyURN }, { project: false })).Policy ?? found;
    } catch (err) {
      if (isRemote(err, 'not-found')) throw new RemoteError('not-found', `IAM policy ${args.name} (${found.PolicyURN}) disappeared while it was read`, { provider: 'cloud' });
      throw err;
    }
    return {
      ...args,
      id: found.PolicyURN,
      urn: found.PolicyURN,
      comment: str(detail.Description),
      policy: str(detail.Document),
      createTime: rfc3339(detail.CreatedAt),
      scope: SCOPES[str(detail.ScopeType)] ?? str(detail.ScopeType),
    };
  },
});
