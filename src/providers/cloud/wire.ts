/** Conversions from the API's wire values to what resources and lookups expose. */

/** RFC 3339 (UTC, whole seconds) for a unix-seconds timestamp; empty when the API sent none. */
export function rfc3339(unixSeconds: unknown): string {
  const n = Number(unixSeconds);
  if (unixSeconds === undefined || unixSeconds === null || unixSeconds === '' || !Number.isFinite(n) || n <= 0) return '';
  return new Date(n * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** UpperCamel wire enums in the snake_case the upstream provider shows: `ShareBandwidth` → `share_bandwidth`, `CentOS` → `cent_os`. */
export function snake(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** UpperCamel for a snake_case or lower-case argument: `base` → `Base`, `ssd_data_disk` → `SsdDataDisk`. */
export function upperCamel(value: string): string {
  return value
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** A wire string field, empty when absent. */
export function str(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** A wire integer field, 0 when absent or not a number. */
export function int(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}
