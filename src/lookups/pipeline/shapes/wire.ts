/**
 * Small conversions from the API's wire values to lookup results: lowerCamelCase keys for
 * free-form objects, and one spelling (null) for "the API did not say".
 */
import * as z from 'zod';

/** `schema_prefix` → `schemaPrefix`; keys already in camelCase are left alone. */
export function camel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * A free-form object (service `config`) with its keys in lowerCamelCase, recursively through
 * nested objects and arrays; values, including the API's `******` masks, are kept as sent.
 */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [camel(key), camelKeys(inner)]));
}

/** Absent, null and "" all mean "not set" in the API's answers; results say null. */
export function orNull<T>(value: T | null | undefined | ''): T | null {
  return value === undefined || value === '' ? null : value;
}

/** A timestamp field (RFC 3339, UTC, microseconds as the API sends them). */
export function timestamp(description: string) {
  return z.string().describe(`${description} (RFC 3339 UTC timestamp).`);
}

/** A timestamp field that is null when the event never happened. */
export function maybeTimestamp(description: string) {
  return z.string().nullable().describe(`${description} (RFC 3339 UTC timestamp); null if never.`);
}

/** A free-form service configuration as lookups return it. */
export const configSchema = z.record(z.string(), z.unknown()).describe('Service-specific settings with lowerCamelCase keys; secret values are masked as "******", exactly as the API returns them.');
