import { signedCloudCall } from '../support/cloud-api.js';

/** One cloud Action signed as the API documentation describes (independently of plumb's client), sent as a form; its envelope. */
export const signedCall = (url: string, params: Record<string, string | number>) => signedCloudCall(url, params, null);

/** A small window for tests: the limit shows within seconds, never minutes. */
export function smallWindow(provider: string, max: number, windowMs = 1000, match?: string) {
  return { provider, name: `${max} per ${windowMs} ms`, max, windowMs, per: 'account' as const, source: 'test', ...(match ? { match: new RegExp(match) } : {}) };
}
