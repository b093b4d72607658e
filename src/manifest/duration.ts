/** Parses `90s`, `30m`, `1h`, `1h30m` into milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const m = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(text.trim());
  if (!m || text.trim() === '') return undefined;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}
