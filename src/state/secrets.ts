import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../errors.js';
import { Secret } from '../values.js';

/**
 * Encrypts each secret value in state on its own (AES-256-GCM), so the rest of the state stays
 * readable JSON. The key comes from PLUMB_PASSPHRASE (scrypt) or a generated key file (mode 0600).
 */
export class SecretCodec {
  private constructor(private readonly key: Buffer) {}

  /** A codec whose key comes from the passphrase, or from `keyFile` (created when missing). */
  static open(keyFile: string, passphrase = process.env.PLUMB_PASSPHRASE): SecretCodec {
    if (passphrase) return new SecretCodec(scryptSync(passphrase, 'plumb-state-v1', 32));
    if (!existsSync(keyFile)) {
      mkdirSync(dirname(keyFile), { recursive: true });
      writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    }
    chmodSync(keyFile, 0o600);
    return new SecretCodec(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64'));
  }

  /**
   * `value` with every Secret replaced by `{"$secret": "<ciphertext>"}`. Only the objects on the
   * way to a secret are copied; a value without secrets comes back as it is (never mutated), since
   * every journal entry passes through here.
   */
  encode(value: unknown): unknown {
    if (value instanceof Secret) return { $secret: this.seal(JSON.stringify(value.value ?? null)) };
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

  /** The reverse of encode: `{"$secret": ...}` becomes a Secret again. */
  decode(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.decode(v));
    if (value && typeof value === 'object') {
      const sealed = (value as { $secret?: unknown }).$secret;
      if (typeof sealed === 'string' && Object.keys(value).length === 1) return new Secret(JSON.parse(this.open(sealed)));
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.decode(v)]));
    }
    return value;
  }

  private seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  private open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1') throw new UserError(`state holds a secret in an unknown format (${version})`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new UserError('cannot decrypt a secret in state: PLUMB_PASSPHRASE or the key file does not match the one it was written with');
    }
  }
}
