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

/**
 * The known type or function token closest to `raw`, for "did you mean" hints: compared in full
 * and in its short form (`pkg:Name`), and only among the tokens of the provider `raw` names when
 * it names one (a misspelt interconnect type is never answered with a cloud one). A bare name
 * (`Port`, `getLocatons`) is compared with each token's name alone.
 */
export function closestToken(raw: string, known: Iterable<string>): string | undefined {
  const all = [...known];
  const needle = raw.toLowerCase();
  const nameOf = (token: string) => token.split(':').pop()!.toLowerCase();
  if (!raw.includes(':')) return nearest(raw, all, (token) => distance(needle, nameOf(token)));
  const pkg = raw.split(':')[0].toLowerCase();
  const same = all.filter((token) => token.split(':')[0].toLowerCase() === pkg);
  const forms = (token: string) => [token.toLowerCase(), `${token.split(':')[0].toLowerCase()}:${nameOf(token)}`];
  return nearest(raw, same.length ? same : all, (token) => Math.min(...forms(token).map((form) => distance(needle, form))));
}

/**
 * What to say of a type or function token not found among `known`: the closest one, or where
 * they are listed. One wording for every command that takes a token (import, schema, lookup,
 * --discover) and for the manifest.
 */
export function tokenHint(raw: string, known: Iterable<string>, listed = 'plumb schema lists them all'): string {
  const hint = closestToken(raw, known);
  return hint ? `did you mean ${hint}? (${listed})` : listed;
}
