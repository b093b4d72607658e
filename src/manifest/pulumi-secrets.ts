/**
 * Secrets of a Pulumi stack file kept by Pulumi's passphrase provider. The file's
 * `encryptionsalt` is `v1:<salt>:<check>`: the key is PBKDF2-SHA256 of the passphrase over the
 * salt (1,000,000 rounds, 32 bytes), and `<check>` is the word `pulumi` encrypted with it, so a
 * wrong passphrase is told apart from a damaged value. Each `secure:` value is
 * `v1:<nonce>:<ciphertext and tag>`, AES-256-GCM, all base64. The passphrase comes from
 * PULUMI_CONFIG_PASSPHRASE or the file PULUMI_CONFIG_PASSPHRASE_FILE names, as Pulumi reads them.
 */
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROUNDS = 1_000_000;
const TAG_BYTES = 16;
const CHECK_WORD = 'pulumi';

/** Whether a `secure:` value has the shape Pulumi's passphrase provider writes (plumb's own has four parts). */
export function isPassphraseCiphertext(value: string): boolean {
  return /^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/.test(value);
}

/** Whether an `encryptionsalt` value has Pulumi's v1 shape. */
export function isEncryptionSalt(value: string): boolean {
  return /^v1:[A-Za-z0-9+/=]+:v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/.test(value);
}

/** The passphrase as Pulumi finds it, and which variable gave it; undefined when neither is set. A file that cannot be read throws. */
export function pulumiPassphrase(env: Record<string, string | undefined>): { phrase: string; from: string } | undefined {
  if (env.PULUMI_CONFIG_PASSPHRASE !== undefined) return { phrase: env.PULUMI_CONFIG_PASSPHRASE, from: 'PULUMI_CONFIG_PASSPHRASE' };
  const file = env.PULUMI_CONFIG_PASSPHRASE_FILE;
  if (!file) return undefined;
  try {
    return { phrase: readFileSync(resolve(file), 'utf8').trim(), from: 'PULUMI_CONFIG_PASSPHRASE_FILE' };
  } catch (err) {
    throw new Error(`PULUMI_CONFIG_PASSPHRASE_FILE ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Keys derived so far, by salt and passphrase: deriving one takes a noticeable fraction of a second. */
const keys = new Map<string, Buffer | undefined>();

/** The key of a stack file's salt for a passphrase; undefined when the passphrase is not the one the salt was made with. */
export function passphraseKey(salt: string, phrase: string): Buffer | undefined {
  const id = `${salt}\u0000${phrase}`;
  if (!keys.has(id)) {
    const [, saltText] = salt.split(':');
    const key = pbkdf2Sync(phrase, Buffer.from(saltText, 'base64'), ROUNDS, 32, 'sha256');
    keys.set(id, decryptWith(key, salt.slice(salt.indexOf(':', 3) + 1)) === CHECK_WORD ? key : undefined);
  }
  return keys.get(id);
}

/** A `secure:` value opened with `key`; undefined when it does not open (another key, or damaged). */
export function decryptWith(key: Buffer, value: string): string | undefined {
  const [version, nonce, body] = value.split(':');
  if (version !== 'v1' || nonce === undefined || body === undefined) return undefined;
  const sealed = Buffer.from(body, 'base64');
  if (sealed.length < TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64'));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** `plain` encrypted as Pulumi's passphrase provider writes a `secure:` value, so that `pulumi` reads it too. */
export function encryptWith(key: Buffer, plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1:${nonce.toString('base64')}:${body.toString('base64')}`;
}
