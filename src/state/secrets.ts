import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../kernel/errors.js';
import { holdsSecretText } from '../kernel/secret-mask.js';
import { Secret } from '../kernel/values.js';
import { keepGitOutOfKey } from './git-ignore.js';

/** Where a codec's key comes from. */
export interface KeySource {
  /** The key file of a local state location (made when the first secret is sealed). */
  file?: string;
  /** PLUMB_PASSPHRASE; when set, the key file is neither read nor made. */
  passphrase?: string;
  /**
   * A state file at the location that holds sealed secrets, if any: a new key file is never made
   * while one does, since they were sealed with the key that is missing (restoring it must work).
   */
  sealedIn?: () => string | undefined;
}

/**
 * Encrypts each secret value in state on its own (AES-256-GCM), so the rest of the state stays
 * readable JSON. The key comes from PLUMB_PASSPHRASE (scrypt) or a key file (mode 0600). Nothing is
 * read or made until a secret is sealed or opened: a command that meets none leaves no key behind.
 */
export class SecretCodec {
  private key: Buffer | undefined;

  private constructor(private readonly source: KeySource) {}

  /** A codec whose key comes from the passphrase, or from `keyFile`. */
  static open(keyFile: string, passphrase = process.env.PLUMB_PASSPHRASE, sealedIn?: () => string | undefined): SecretCodec {
    return new SecretCodec({ file: keyFile || undefined, passphrase: passphrase || undefined, sealedIn });
  }

  /**
   * `value` with every Secret, and every string holding the text of a secret this process has
   * held (a name the API echoes back, built from an fn::secret), replaced by
   * `{"$secret": "<ciphertext>"}`. Only the objects on the way to a secret are copied; a value
   * without secrets comes back as it is (never mutated).
   */
  encode(value: unknown): unknown {
    if (value instanceof Secret) return { $secret: this.seal(JSON.stringify(value.value ?? null)) };
    if (typeof value === 'string') return holdsSecretText(value) ? { $secret: this.seal(JSON.stringify(value)) } : value;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const encoded = this.encode(value[i]);
        if (encoded !== value[i]) (out ??= value.slice())[i] = encoded;
      }
      return out ?? value;
    }
    if (value && typeof value === 'object') {
      let out: Record<string, unknown> | undefined;
      for (const key of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[key];
        const encoded = this.encode(v);
        if (encoded !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = encoded;
      }
      return out ?? value;
    }
    return value;
  }

  /** The reverse of encode: `{"$secret": ...}` becomes a Secret again. `where` names the file or row for errors. */
  decode(value: unknown, where = 'state'): unknown {
    if (Array.isArray(value)) return value.map((v) => this.decode(v, where));
    if (value && typeof value === 'object') {
      const sealed = (value as { $secret?: unknown }).$secret;
      if (typeof sealed === 'string' && Object.keys(value).length === 1) return new Secret(JSON.parse(this.open(sealed, where)));
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.decode(v, where)]));
    }
    return value;
  }

  private seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyToSeal(), iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  private open(sealed: string, where: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1') throw new UserError(`${where} holds a secret in an unknown format (${version})`);
    const key = this.keyToOpen(where);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      const { file, passphrase } = this.source;
      if (passphrase) {
        throw new UserError(
          `cannot read the secrets in ${where}: PLUMB_PASSPHRASE is not the passphrase they were sealed with`,
          `set the passphrase they were sealed with${file ? `, or unset PLUMB_PASSPHRASE if they were sealed with the key file ${file}` : ''}; nothing was changed`,
        );
      }
      throw new UserError(
        `cannot read the secrets in ${where}: the key file ${file} is not the key they were sealed with`,
        'restore the key file they were sealed with, or set PLUMB_PASSPHRASE if they were sealed with a passphrase; nothing was changed',
      );
    }
  }

  /** The key to open a sealed secret with: never made here, since one was sealed already. */
  private keyToOpen(where: string): Buffer {
    const key = this.load();
    if (key) return key;
    throw new UserError(
      `cannot read the secrets in ${where}: the key file ${this.source.file} is missing, and they were sealed with it`,
      'restore the key file from a backup, or set PLUMB_PASSPHRASE if they were sealed with a passphrase; nothing was changed',
    );
  }

  /** The key to seal with, made on first use unless state at the location holds secrets sealed with a lost one. */
  private keyToSeal(): Buffer {
    const key = this.load();
    if (key) return key;
    const file = this.source.file;
    if (!file) throw new UserError('secrets in this state need PLUMB_PASSPHRASE to be sealed');
    const sealed = this.source.sealedIn?.();
    if (sealed) {
      throw new UserError(
        `cannot seal a secret in state: the key file ${file} is missing, and ${sealed} holds secrets sealed with it`,
        'restore the key file from a backup (a new key would seal new secrets so that the old key could not open them); nothing was changed',
      );
    }
    keepGitOutOfKey(file);
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another command made it first: use that one.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return this.load()!;
  }

  private load(): Buffer | undefined {
    if (this.key) return this.key;
    const { file, passphrase } = this.source;
    if (passphrase) return (this.key = scryptSync(passphrase, 'plumb-state-v1', 32));
    if (!file || !existsSync(file)) return undefined;
    chmodSync(file, 0o600);
    return (this.key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
  }
}

/**
 * The fields that name, date or order a state record rather than carry a value: plumb's own words,
 * the manifest's addresses and the API's ids. Every other field is sealed where it holds a secret.
 */
const NAMING_FIELDS = new Set(['version', 'project', 'stack', 'lineage', 'serial', 'address', 'type', 'id', 'dependencies', 'status', 'protect', 'retainOnDelete', 'kind', 'action', 'token', 'at']);

/** A record with every field but the naming ones (and those in `later`, kept as they are) encoded. */
function sealFields(codec: SecretCodec, record: object, later: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = NAMING_FIELDS.has(key) || later.includes(key) ? value : codec.encode(value);
  return out;
}

/** A snapshot as stored: the state-encoding choke point every backend writes through. */
export function sealSnapshot(codec: SecretCodec, snapshot: object): Record<string, unknown> {
  const s = snapshot as { resources?: Record<string, object>; pending?: object[] };
  const out = sealFields(codec, snapshot, ['resources', 'pending']);
  if (s.resources) out.resources = Object.fromEntries(Object.entries(s.resources).map(([address, r]) => [address, sealFields(codec, r)]));
  if (s.pending) out.pending = s.pending.map((p) => sealFields(codec, p));
  return out;
}

/** A journal entry as stored (see sealSnapshot). */
export function sealEntry(codec: SecretCodec, entry: object): Record<string, unknown> {
  const resource = (entry as { resource?: object | null }).resource;
  const out = sealFields(codec, entry, ['resource']);
  if (resource) out.resource = sealFields(codec, resource);
  return out;
}
