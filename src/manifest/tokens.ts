/**
 * Type-token resolution as Pulumi YAML does it: `pkg:Type` → `pkg:index:Type`, and
 * `pkg:mod:Type` → `pkg:mod/<lowercased first letter Type>:Type`, matched case-insensitively.
 */

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

/** The known token closest to `raw`, for "did you mean" hints (see did-you-mean.ts). */
export { closestToken as closest } from '../kernel/did-you-mean.js';
