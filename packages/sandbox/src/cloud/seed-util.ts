/** Small helpers that keep the seed tables short and deterministic. */
import { createHash } from 'node:crypto';

/** A wire record: UpperCamel fields as the API returns them, plus `Region`/`ProjectId` scope. */
export type Rec = Record<string, unknown>;

/** The project every sandbox call uses unless told otherwise. */
export const DEFAULT_PROJECT = 'org-sandbox';

/** A second project, so project scoping can be seen. */
export const ANALYTICS_PROJECT = 'org-analytics';

/** Unix seconds of an ISO date. */
export function unix(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** A stable id like `uhost-3f9a2c1d` derived from a seed key, so reseeding gives the same ids. */
export function sid(prefix: string, key: string): string {
  return `${prefix}-${createHash('sha1').update(`${prefix}/${key}`).digest('hex').slice(0, 8)}`;
}

/** A stable private IPv4 address in 10.x for a seed key. */
export function privateIp(key: string): string {
  const h = createHash('sha1').update(key).digest();
  return `10.${h[0] % 64}.${h[1]}.${(h[2] % 250) + 2}`;
}

/** A stable public IPv4 address (documentation ranges) for a seed key. */
export function publicIp(key: string): string {
  const h = createHash('sha1').update(key).digest();
  const nets = ['106.75', '117.50', '152.32', '120.132'];
  return `${nets[h[0] % nets.length]}.${h[1]}.${(h[2] % 250) + 2}`;
}
