/**
 * Where the key pair comes from: a profile in the shared credentials file, the publicKey /
 * privateKey settings, or (with neither) the sandbox's built-in account. Errors name the file
 * and profile but never a key.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UserError } from '../../kernel/errors.js';
import type { CloudSettings } from './settings.js';

/** A key pair that signs requests; temporary (STS) keys also carry a token and an expiry. */
export interface Keys {
  publicKey: string;
  privateKey: string;
  securityToken?: string;
  /** Epoch milliseconds after which the keys no longer work (temporary keys only). */
  expiresAt?: number;
}

/** Supplies the keys for the next request (static, or renewed STS credentials). */
export interface CredentialSource {
  keys(): Promise<Keys>;
}

/** The account every sandbox knows; used when no keys are configured. */
export const SANDBOX_KEYS: Keys = { publicKey: 'sandbox-public-key', privateKey: 'sandbox-private-key' };

/** Where the base keys came from (decides whether the sandbox is used). */
export type KeyOrigin = 'profile' | 'settings' | 'sandbox';

/** Default location of the shared credentials file. */
export const DEFAULT_CREDENTIAL_FILE = '~/.ucloud/credential.json';

/** Keys that never change. */
export class StaticCredentials implements CredentialSource {
  constructor(private readonly value: Keys) {}
  async keys(): Promise<Keys> {
    return this.value;
  }
}

/**
 * The base key pair and its origin, in the upstream order: profile first, then the keys in
 * settings, then the sandbox account. A named profile that is missing from the file is an error
 * (upstream silently signs with empty keys, which only fails later and less clearly).
 */
export function resolveBaseKeys(settings: CloudSettings, env: Record<string, string | undefined>): { keys: Keys; origin: KeyOrigin } {
  const profile = settings.profile ?? (settings.sharedCredentialsFile ? 'default' : undefined);
  if (profile) {
    return { keys: readProfile(profile, settings.sharedCredentialsFile, env), origin: 'profile' };
  }
  if (settings.publicKey && settings.privateKey) {
    return { keys: { publicKey: settings.publicKey, privateKey: settings.privateKey }, origin: 'settings' };
  }
  if (settings.publicKey || settings.privateKey) {
    throw new UserError('cloud:publicKey and cloud:privateKey must be set together');
  }
  return { keys: SANDBOX_KEYS, origin: 'sandbox' };
}

/** Expands a leading `~/` and makes the path absolute. */
export function expandHome(path: string, env: Record<string, string | undefined>): string {
  const home = env.HOME || homedir();
  const expanded = path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(expanded);
}

interface CredentialEntry {
  public_key?: unknown;
  private_key?: unknown;
  profile?: unknown;
}

function readProfile(profile: string, file: string | undefined, env: Record<string, string | undefined>): Keys {
  const shown = file ?? DEFAULT_CREDENTIAL_FILE;
  const path = expandHome(shown, env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
    throw new UserError(`cloud:profile ${profile}: the shared credentials file ${shown} ${reason}`, 'set cloud:sharedCredentialsFile or create the file');
  }
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    throw new UserError(`the shared credentials file ${shown} is not valid JSON`, 'it must be a JSON array of {"public_key", "private_key", "profile"}');
  }
  if (!Array.isArray(entries)) {
    throw new UserError(`the shared credentials file ${shown} must be a JSON array of {"public_key", "private_key", "profile"}`);
  }
  const entry = (entries as CredentialEntry[]).find((e) => e && e.profile === profile);
  if (!entry) {
    const known = (entries as CredentialEntry[]).map((e) => e?.profile).filter((p): p is string => typeof p === 'string');
    throw new UserError(`profile ${profile} is not in the shared credentials file ${shown}`, known.length ? `profiles there: ${known.join(', ')}` : 'the file has no profiles');
  }
  if (typeof entry.public_key !== 'string' || !entry.public_key || typeof entry.private_key !== 'string' || !entry.private_key) {
    throw new UserError(`profile ${profile} in ${shown} needs both "public_key" and "private_key"`);
  }
  return { publicKey: entry.public_key, privateKey: entry.private_key };
}
