import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SandboxRequest, SandboxResponse } from '../types.js';
import { ApiError, isInt, isObject } from './envelope.js';
import type { InterconnectDb } from './store.js';

interface TokenClaims {
  sub: string;
  iat: number;
  exp: number;
}

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** A bearer token that carries its own expiry, signed with the world's secret (no token table to grow). */
function issueToken(db: InterconnectDb, accessKey: string, now: number): string {
  const claims: TokenClaims = { sub: accessKey, iat: now, exp: now + db.tokenExpiresIn * 1000 };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(payload, db.tokenSecret)}`;
}

/** The sandbox account's API key and secret (README): the token endpoint refuses any other pair. */
export const SANDBOX_ACCESS_KEY = 'sandbox-key';
export const SANDBOX_SECRET_KEY = 'sandbox-secret';

/**
 * An OAuth2 error as the token server answers it. The API's token server is Amazon Cognito (the
 * SDK's staging token URL was a Cognito domain until 2025-01, megaportgo commit 1aa5372), whose
 * token endpoint documents every refusal as `400 {"error": <code>}`
 * (docs.aws.amazon.com/cognito/latest/developerguide/token-endpoint.html): `invalid_client` for
 * client credentials it does not know, `invalid_request`, `unsupported_grant_type`.
 */
function oauthError(status: number, error: string): SandboxResponse {
  return { status, body: { error }, headers: { 'content-type': 'application/json;charset=UTF-8' } };
}

/** Whether two strings are equal, in time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `POST /oauth2/token`: OAuth2 client credentials, Basic auth with the sandbox account's key and
 * secret only; any other pair, or none, is `invalid_client`, as a mistyped secret is for the real
 * API. `grant_type` in the query (as the Go SDK sends it) or in the form body (as scripts do).
 * Answers in OAuth2's own shape, not the API envelope.
 */
export function tokenEndpoint(req: SandboxRequest, db: InterconnectDb, now: number): SandboxResponse {
  if (req.method !== 'POST') return oauthError(405, 'invalid_request');
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const accessKey = colon > 0 ? decoded.slice(0, colon) : '';
  const secret = colon > 0 ? decoded.slice(colon + 1) : '';
  if (!(sameSecret(accessKey, SANDBOX_ACCESS_KEY) && sameSecret(secret, SANDBOX_SECRET_KEY))) return oauthError(400, 'invalid_client');
  const form = isObject(req.body) ? req.body : typeof req.body === 'string' ? Object.fromEntries(new URLSearchParams(req.body)) : {};
  const grantType = req.query.get('grant_type') ?? (typeof form.grant_type === 'string' ? form.grant_type : undefined);
  if (!grantType) return oauthError(400, 'invalid_request');
  if (grantType !== 'client_credentials') return oauthError(400, 'unsupported_grant_type');
  return {
    status: 200,
    body: { access_token: issueToken(db, accessKey, now), token_type: 'Bearer', expires_in: db.tokenExpiresIn },
  };
}

/**
 * Tokens whose signature was checked, with the secret that signed them and their expiry: a client
 * sends one token for many calls, and an HMAC per call was a large part of the cost of a call.
 */
const verified = new Map<string, { secret: string; exp: number }>();

/** Checks the bearer token of an API call; throws the 401 the API gives for a missing, forged or expired one. */
export function requireBearer(req: SandboxRequest, db: InterconnectDb, now: number): void {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  const unauthorized = (why: string) => new ApiError(401, why, null, { 'www-authenticate': 'Bearer' });
  if (!match) throw unauthorized('Unauthorized: a bearer token is required');
  const known = verified.get(match[1]);
  if (known && known.secret === db.tokenSecret && known.exp > now) return;
  const [payload, signature] = match[1].split('.');
  if (!payload || !signature) throw unauthorized('Unauthorized: invalid access token');
  const expected = Buffer.from(sign(payload, db.tokenSecret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw unauthorized('Unauthorized: invalid access token');
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    throw unauthorized('Unauthorized: invalid access token');
  }
  if (!(claims.exp > now)) throw unauthorized('Unauthorized: the access token has expired');
  // Bounded: a long-running sandbox sees a token per client, but never lets the map grow without end.
  if (verified.size >= 1000) verified.clear();
  verified.set(match[1], { secret: db.tokenSecret, exp: claims.exp });
}

/** Admin `token-settings` `{expiresIn}`: lifetime in seconds of tokens issued from now on. */
export function tokenSettings(body: unknown, db: InterconnectDb): SandboxResponse {
  const expiresIn = isObject(body) ? body.expiresIn : undefined;
  if (!isInt(expiresIn) || expiresIn < 1) return { status: 400, body: { message: 'expiresIn must be a whole number of seconds >= 1' } };
  db.tokenExpiresIn = expiresIn;
  return { status: 200, body: { expiresIn } };
}
