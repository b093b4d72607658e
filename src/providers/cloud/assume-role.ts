/**
 * Assumed-role credentials: an STS `AssumeRole` call signed with the base keys returns
 * temporary keys and a security token, which then sign every other call. They are renewed a
 * minute before they expire (the reference SDK instead refuses to send once they have expired).
 */
import { RemoteError } from '../../kernel/errors.js';
import type { CloudClient } from './client.js';
import type { CredentialSource, Keys } from './credentials.js';
import { durationSeconds, type AssumeRole } from './settings.js';

/** Renew this long before the temporary keys expire, so no request races the expiry. */
const RENEW_BEFORE_MS = 60_000;

interface AssumeRoleResponse {
  Credentials?: {
    AccessKeyId?: string;
    AccessKeySecret?: string;
    SecurityToken?: string;
    Expiration?: string;
  };
}

/** Temporary keys from STS AssumeRole, fetched on first use and renewed before expiry. */
export class AssumedRoleCredentials implements CredentialSource {
  private current: Keys | undefined;
  private pending: Promise<Keys> | undefined;

  constructor(
    private readonly client: CloudClient,
    private readonly base: Keys,
    private readonly role: AssumeRole,
    private readonly now: () => number = Date.now,
  ) {}

  async keys(): Promise<Keys> {
    const current = this.current;
    if (current && (current.expiresAt ?? Infinity) - RENEW_BEFORE_MS > this.now()) return current;
    // One AssumeRole call at a time, however many requests are waiting for keys.
    this.pending ??= this.assume().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async assume(): Promise<Keys> {
    // The STS request carries no Region or ProjectId: roles are account-wide.
    const body = await this.client.call<AssumeRoleResponse>(
      'AssumeRole',
      {
        RoleUrn: this.role.roleUrn,
        RoleSessionName: this.role.sessionName,
        DurationSeconds: durationSeconds(this.role.duration),
        Policy: this.role.policy,
      },
      { keys: this.base, region: false, project: false, safe: true },
    );
    const creds = body.Credentials;
    if (!creds?.AccessKeyId || !creds.AccessKeySecret || !creds.SecurityToken) {
      throw new RemoteError('invalid', `AssumeRole for ${this.role.roleUrn}: the response carries no credentials`, { provider: 'cloud', method: 'AssumeRole' });
    }
    const expiresAt = creds.Expiration ? Date.parse(creds.Expiration) : undefined;
    this.current = {
      publicKey: creds.AccessKeyId,
      privateKey: creds.AccessKeySecret,
      securityToken: creds.SecurityToken,
      expiresAt: Number.isFinite(expiresAt) ? expiresAt : undefined,
    };
    return this.current;
  }
}
