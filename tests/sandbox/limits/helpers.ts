import { createHash } from 'node:crypto';

/** One cloud Action signed as the API documentation describes (independently of plumb's client), sent as a form; its envelope. */
export async function signedCall(url: string, params: Record<string, string | number>): Promise<Record<string, any>> {
  const all: Record<string, string> = { PublicKey: 'sandbox-public-key', ProjectId: 'org-sandbox' };
  for (const [k, v] of Object.entries(params)) all[k] = String(v);
  const text = `${Object.keys(all)
    .sort()
    .map((k) => k + all[k])
    .join('')}sandbox-private-key`;
  const body = new URLSearchParams({ ...all, Signature: createHash('sha1').update(text).digest('hex') });
  const res = await fetch(`${url}/cloud/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
  return (await res.json()) as Record<string, any>;
}

/** A small window for tests: the limit shows within seconds, never minutes. */
export function smallWindow(provider: string, max: number, windowMs = 1000, match?: string) {
  return { provider, name: `${max} per ${windowMs} ms`, max, windowMs, per: 'account' as const, source: 'test', ...(match ? { match: new RegExp(match) } : {}) };
}
