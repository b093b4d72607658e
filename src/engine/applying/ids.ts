import { createHash } from 'node:crypto';
import type { ResourceType } from '../contracts/resource-type.js';
import { Secret } from '../../kernel/values.js';

/**
 * Some ids are secrets themselves (a service key's id is the key). For those, state and output
 * carry a stable surrogate (`secret-<hash>`), and the real id travels encrypted in `secretId`.
 */
export function recordedId(type: ResourceType, id: string): { id: string; secretId?: Secret<string> } {
  if (!type.secrets?.id) return { id };
  return { id: `secret-${createHash('sha256').update(id).digest('hex').slice(0, 16)}`, secretId: new Secret(id) };
}

/** The id to call the remote API with. */
export function realId(recorded: { id: string; secretId?: Secret<string> | unknown }): string {
  const secret = recorded.secretId;
  return secret instanceof Secret ? String(secret.value) : recorded.id;
}

/**
 * What identifies a recorded object among all of state: its type and id together, as ids are
 * unique only within a type (a pipeline destination's id is its group's).
 */
export function recordedKey(type: string, id: string): string {
  return `${type}\u0000${id}`;
}
