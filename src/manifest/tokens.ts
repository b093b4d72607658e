/**
 * Type-token resolution as Pulumi YAML does it: `pkg:Type` → `pkg:index:Type`, and
 * `pkg:mod:Type` → `pkg:mod/<lowercased first letter Type>:Type`, matched case-insensitively.
 */

import { distance, nearest } from '../kernel/did-you-mean.js';

/** The canonical token for `raw` among `known`, or undefined. */
export function resolveToken(raw: string, known: Iterable<string>): string | undefined {
  const all = [...known];
  const byFold = new Map(all.map((t) => [t.toLowerCase(), t]));
  for (const candidate of candidates(raw)) {
    const hit = byFold.get(candidate.toLowerCase());
    if (hit) return hit;
  }
  return undefined;
}

function candidates(raw: string): string[] {
  const parts = raw.split(':');
  if (parts.length === 2) {
    const [pkg, name] = parts;
    return [raw, ...candidates(`${pkg}:index:${name}`)];
  }
  if (parts.length === 3) {
    const [pkg, mod, name] = parts;
    if (mod.includes('/')) return [raw];
    const lower = name.charAt(0).toLowerCase() + name.slice(1);
    return [raw, `${pkg}:${mod}/${lower}:${name}`];
  }
  return [raw];
}

/**
 * The known token closest to `raw`, for "did you mean" hints: compared in full and in its short
 * form (`pkg:Name`), and only among the tokens of the provider `raw` names when it names one
 * (a misspelt interconnect type is never answered with a cloud one).
 */
export function closest(raw: string, known: Iterable<string>): string | undefined {
  const all = [...known];
  const pkg = raw.includes(':') ? raw.split(':')[0].toLowerCase() : undefined;
  const same = pkg === undefined ? [] : all.filter((token) => token.split(':')[0].toLowerCase() === pkg);
  const needle = raw.toLowerCase();
  const forms = (token: string) => [token, `${token.split(':')[0]}:${token.split(':').pop()}`].map((f) => f.toLowerCase());
  return nearest(raw, same.length ? same : all, (token) => Math.min(...forms(token).map((form) => distance(needle, form))));
}
