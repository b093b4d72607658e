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

/** The known token (or short form) closest to `raw`, for "did you mean" hints. */
export function closest(raw: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const needle = raw.toLowerCase();
  for (const token of known) {
    const short = token.split(':').pop() ?? token;
    const pkg = token.split(':')[0];
    for (const form of [token, `${pkg}:${short}`]) {
      const score = distance(needle, form.toLowerCase());
      if (score < bestScore) {
        bestScore = score;
        best = token;
      }
    }
  }
  return best !== undefined && bestScore <= Math.max(3, Math.floor(raw.length / 3)) ? best : undefined;
}

/** Levenshtein edit distance. */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

/** The name in `names` closest to `name` (for unknown properties and references). */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const n of names) {
    const score = distance(name.toLowerCase(), n.toLowerCase());
    if (score < bestScore) {
      bestScore = score;
      best = n;
    }
  }
  return best !== undefined && bestScore <= Math.max(3, Math.floor(name.length / 3)) ? best : undefined;
}
