/**
 * A value written into a string by interpolation (`"speed ${speed}"`), as Pulumi YAML writes it:
 * with Go's `%v`. Lists are `[a b]`, mappings `map[k:v]` with their keys sorted, null `<nil>`;
 * numbers are Go's float64 (`1e+06`, `1.5`, `0.0001`, `1e-05`) except a config value declared
 * `integer`, which Pulumi keeps as an int (`1000000`).
 */
export function formatValue(value: unknown, integer = false): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return integer && Number.isInteger(value) ? String(value) : formatFloat(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatValue(item)).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[${entries.map(([k, v]) => `${k}:${formatValue(v)}`).join(' ')}]`;
  }
  return String(value);
}

/**
 * Go's `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`): the shortest digits that read
 * back as the same number, in exponent form when the exponent is below -4 or 6 and above, with
 * at least two exponent digits.
 */
function formatFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (Object.is(value, -0)) return '-0';
  const [mantissa, exponent] = value.toExponential().split('e');
  const exp = Number(exponent);
  if (exp >= -4 && exp < 6) return String(value);
  const digits = String(Math.abs(exp)).padStart(2, '0');
  return `${mantissa}e${exp < 0 ? '-' : '+'}${digits}`;
}
