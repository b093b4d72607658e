import { createHash } from 'node:crypto';
import { expect } from 'vitest';

/**
 * One cloud Action as a person or a vendor SDK sends it, signed as the API documentation
 * describes (sorted key+value pairs, then the private key, SHA1) with the sandbox's documented key
 * pair and posted as a form, independently of plumb's client; the answer's envelope.
 * `region: null` leaves the Region parameter out.
 */
export async function signedCloudCall(url: string, params: Record<string, string | number>, region: string | null = 'cn-bj2'): Promise<Record<string, any>> {
  const all: Record<string, string> = { PublicKey: 'sandbox-public-key', ...(region === null ? {} : { Region: region }), ProjectId: 'org-sandbox' };
  for (const [k, v] of Object.entries(params)) all[k] = String(v);
  const text = `${Object.keys(all)
    .sort()
    .map((k) => k + all[k])
    .join('')}sandbox-private-key`;
  all.Signature = createHash('sha1').update(text).digest('hex');
  const res = await fetch(`${url}/cloud/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(all).toString() });
  return (await res.json()) as Record<string, any>;
}

/**
 * Signed Actions against the sandbox `sandbox()` returns (started in a beforeAll), or against
 * `target` where one is given: `call` returns the answer as it is, `ok` asserts it succeeded
 * (RetCode 0, its message shown otherwise) and returns it. `region` as for `signedCloudCall`.
 */
export function cloudActions(sandbox: () => { url: string }, region: string | null = 'cn-bj2') {
  const call = (params: Record<string, string | number>, target = sandbox()) => signedCloudCall(target.url, params, region);
  const ok = async (params: Record<string, string | number>, target = sandbox()) => {
    const body = await call(params, target);
    expect(body.RetCode, body.Message).toBe(0);
    return body;
  };
  return { call, ok };
}
