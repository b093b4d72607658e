/**
 * What the simulated API does to a `config` or `auth` it is given, as the real one does to the
 * annoyance of declarative tools: empty values are dropped, numbers and booleans sent as strings
 * are stored typed, list fields are kept as sets (sorted, no repeats), defaults fill what was left
 * out, and secrets (`format: password` in the service's metadata) come back as `******`.
 */
import type { FieldNode, ObjectNode } from './seed/metadata.js';

type Config = Record<string, unknown>;

/** The mask the API prints in place of a secret value. */
export const MASK = '******';

/** Whether the API treats a value as absent: null, an empty string, an empty list. */
function empty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/** A value as the API stores it for its node: typed, sets sorted; unknown keys are kept as sent. */
function stored(node: FieldNode | undefined, value: unknown): unknown {
  if (!node) return value;
  if (node.type === 'integer' && typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  if (node.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (node.type === 'array' && Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return [...new Set(value.map(String))].sort();
  }
  if (node.type === 'object' && node.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    return merged({ type: 'object', properties: node.properties }, {}, value as Config, false);
  }
  return value;
}

/**
 * `patch` applied to `current` as the API merges a config: keys sent replace, null removes, empty
 * values are dropped, and with `fill` the node's defaults are added for keys still missing.
 */
export function merged(node: ObjectNode, current: Config, patch: Config, fill: boolean): Config {
  const out: Config = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (empty(value)) delete out[key];
    else out[key] = stored(node.properties[key], value);
  }
  if (!fill) return out;
  for (const [key, field] of Object.entries(node.properties)) {
    if (out[key] === undefined && field.default !== undefined) out[key] = field.default;
  }
  // The API's documented rule for database sources: any tunnel field means an SSH tunnel.
  if (!('connection_type' in patch) && node.properties.connection_type && Object.keys(out).some((k) => k.startsWith('tunnel_'))) out.connection_type = 'SshTunnel';
  return out;
}

/** A stored config as the API shows it: every secret of the node masked, nested ones too. */
export function masked(node: ObjectNode, config: Config): Config {
  const out: Config = {};
  for (const [key, value] of Object.entries(config)) {
    const field = node.properties[key];
    if (field?.format === 'password' && !empty(value)) out[key] = MASK;
    else if (field?.type === 'object' && field.properties && value && typeof value === 'object') out[key] = masked({ type: 'object', properties: field.properties }, value as Config);
    else out[key] = structuredClone(value);
  }
  return out;
}

/** Readonly keys of the node a request tried to set; the API refuses them. */
export function readonlyKeys(node: ObjectNode, patch: Config): string[] {
  return Object.keys(patch).filter((key) => node.properties[key]?.readonly && !empty(patch[key]));
}
