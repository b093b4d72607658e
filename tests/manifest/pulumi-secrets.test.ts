import { describe, expect, it } from 'vitest';
import { decryptWith, encryptWith, passphraseKey, pulumiPassphrase } from '../../src/manifest/pulumi-secrets.js';

/** From Pulumi's own tests (pkg/secrets/passphrase/manager_test.go): this salt was made with the passphrase "password". */
const SALT = 'v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==';

describe("Pulumi's passphrase secrets", () => {
  it('derives the key Pulumi derives: the salt\'s check value opens to "pulumi"', () => {
    const key = passphraseKey(SALT, 'password');
    expect(key).toBeDefined();
    expect(decryptWith(key!, 'v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==')).toBe('pulumi');
  });

  it('tells a wrong passphrase (Pulumi\'s test uses "password123") from a right one', () => {
    expect(passphraseKey(SALT, 'password123')).toBeUndefined();
  });

  it('encrypts as Pulumi writes a secure value (v1:nonce:ciphertext), which opens again with the same key', () => {
    const key = passphraseKey(SALT, 'password')!;
    const sealed = encryptWith(key, 'cc-991');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]{16}:[A-Za-z0-9+/=]+$/);
    expect(decryptWith(key, sealed)).toBe('cc-991');
  });

  it('reads the passphrase as Pulumi does: PULUMI_CONFIG_PASSPHRASE first, even when empty', () => {
    expect(pulumiPassphrase({ PULUMI_CONFIG_PASSPHRASE: '', PULUMI_CONFIG_PASSPHRASE_FILE: '/nowhere' })).toEqual({ phrase: '', from: 'PULUMI_CONFIG_PASSPHRASE' });
    expect(pulumiPassphrase({})).toBeUndefined();
    expect(() => pulumiPassphrase({ PULUMI_CONFIG_PASSPHRASE_FILE: '/nowhere/phrase' })).toThrow(/PULUMI_CONFIG_PASSPHRASE_FILE \/nowhere\/phrase cannot be read/);
  });
});
