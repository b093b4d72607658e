/** "Did you mean" hints: the known names nearest a misspelt one. */

/**
 * Edit distance between two texts: insertions, deletions, substitutions and swaps of two
 * neighbouring letters each count one (optimal string alignment), so `Vcx` is one step from
 * `Vxc` and two from `Ix`.
 */
export function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length];
}

/** The name in `names` closest to `name` (for unknown properties and references), ignoring case. */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  const needle = name.toLowerCase();
  return nearest(name, names, (n) => distance(needle, n.toLowerCase()));
}

/**
 * The candidate at the least distance, the first of equals; none when even that one is too far
 * to be a slip (more than a third of the text, or three edits for a short one).
 */
export function nearest(raw: string, candidates: Iterable<string>, score: (candidate: string) => number): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const s = score(candidate);
    if (s < bestScore) {
      bestScore = s;
      best = candidate;
    }
  }
  return best !== undefined && bestScore <= Math.max(3, Math.floor(raw.length / 3)) ? best : undefined;
}

/**
 * Up to `count` names closest to `name`, nearest first: those that contain it (ignoring case),
 * then those within the distance a slip makes. For a name not found among many (locations).
 */
export function closestNames(name: string, names: Iterable<string>, count: number): string[] {
  const needle = name.toLowerCase();
  const limit = Math.max(3, Math.floor(name.length / 3));
  const scored: Array<[string, number]> = [];
  for (const n of new Set(names)) {
    const hay = n.toLowerCase();
    const score = hay.includes(needle) ? 0 : distance(needle, hay);
    if (score <= limit) scored.push([n, score]);
  }
  return scored
    .sort((a, b) => a[1] - b[1])
    .slice(0, count)
    .map(([n]) => n);
}

/** `; did you mean "X"?` (or the closest few, `"X", or "Y"`) for a name not found among `known`; empty when none is close. */
export function closestHint(name: string, known: Iterable<string>): string {
  const near = closestNames(name, known, 3);
  return near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(', or ')}?` : '';
}
