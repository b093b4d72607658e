/**
 * Signature checking for the simulated cloud API, written from the API's documentation (not
 * from the client): sorted `key + value` pairs, private key appended, SHA1 hex. Accounts are
 * the built-in ones, those registered through the admin endpoint, and STS sessions.
 */
import { createHash } from 'node:crypto';
import { ApiError, scalarString } from './request.js';

/** A key pair the sandbox accepts; STS sessions also carry a token and an expiry. */
export interface Account {
  privateKey: string;
  securityToken?: string;
  /** Epoch ms after which the session's keys are refused. */
  expiresAt?: number;
  roleUrn?: string;
  sessionName?: string;
  /** Calls signed with this account (STS sessions only; shown by the admin endpoint). */
  uses?: number;
}

/** Key pairs every sandbox knows: the one plumb uses with no credentials, and the docs' demo pair. */
export function builtinAccounts(): Record<string, Account> {
  return {
    'sandbox-public-key': { privateKey: 'sandbox-private-key' },
    'demo-public-key': { privateKey: 'demo-private-key' },
  };
}

/** SHA1 hex over the sorted pairs of a flattened (form-style) parameter map. */
export function flatSignature(params: Record<string, string>, privateKey: string): string {
  const keys = Object.keys(params)
    .filter((k) => k !== 'Signature')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sha1(keys.map((k) => k + params[k]).join('') + privateKey);
}

/**
 * SHA1 hex the way the Go SDK signs an unflattened JSON body: an array is its elements'
 * strings with no index, an object its own sorted `k + v` pairs.
 */
export function nestedSignature(body: Record<string, unknown>, privateKey: string): string {
  const str = (value: unknown): string => {
    if (Array.isArray(value)) return value.map(str).join('');
    if (value && typeof value === 'object') return sortedPairs(value as Record<string, unknown>);
    return scalarString(value);
  };
  const sortedPairs = (obj: Record<string, unknown>): string =>
    Object.keys(obj)
      .filter((k) => k !== 'Signature' && obj[k] !== null && obj[k] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((k) => k + str(obj[k]))
      .join('');
  return sha1(sortedPairs(body) + privateKey);
}

/**
 * Checks the signature of a call and returns the account that signed it. Failures use the
 * gateway's codes: 170 missing signature, 172 unknown public key, 174 bad or expired token,
 * 171 signature mismatch.
 */
export function authenticate(params: Record<string, string>, nestedBody: Record<string, unknown> | undefined, accounts: Record<string, Account>, now: number): Account {
  const signature = params.Signature;
  if (!signature) throw new ApiError(170, 'Missing Signature');
  const publicKey = params.PublicKey;
  const account = publicKey ? accounts[publicKey] : undefined;
  if (!account) throw new ApiError(172, 'User Not Exists');
  if (account.securityToken !== undefined) {
    if (params.SecurityToken !== account.securityToken) throw new ApiError(174, 'Token Not Exists');
    if (account.expiresAt !== undefined && now >= account.expiresAt) throw new ApiError(174, 'Token Expired');
  }
  const expected = signature.toLowerCase();
  const ok = flatSignature(params, account.privateKey) === expected || (nestedBody !== undefined && nestedSignature(nestedBody, account.privateKey) === expected);
  if (!ok) throw new ApiError(171, 'Signature VerifyAC Error');
  return account;
}

function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}
