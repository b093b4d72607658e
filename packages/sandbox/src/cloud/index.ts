/**
 * The simulated cloud API: one action endpoint (`POST <url>/cloud/`, any path below it) that
 * reads Action from the body or the query string, checks the signature like the real gateway,
 * dispatches to the Action handlers and answers in the RetCode envelope, always HTTP 200 for
 * business errors. Admin: `POST /_sandbox/cloud-keys {publicKey, privateKey}` registers a key
 * pair; `GET /_sandbox/cloud-sessions` lists the STS sessions issued (never their secrets).
 */
import { randomUUID } from 'node:crypto';
import type { SandboxApi, SandboxRequest, SandboxResponse, SandboxWorld } from '../types.js';
import { accountActions } from './actions-account.js';
import { computeActions } from './actions-compute.js';
import { dataActions } from './actions-data.js';
import { eipActions } from './actions-eip.js';
import { firewallActions } from './actions-firewall.js';
import { ipsecVpnActions } from './actions-ipsecvpn.js';
import { lbActions } from './actions-lb.js';
import { natgwActions } from './actions-natgw.js';
import { networkActions } from './actions-network.js';
import { priceActions } from './actions-price.js';
import { uadsActions } from './actions-uads.js';
import { uadsBgpActions } from './actions-uads-bgp.js';
import { labelActions } from './actions-label.js';
import { udiskActions } from './actions-udisk.js';
import { uhostActions } from './actions-uhost.js';
import { vpcActions } from './actions-vpc.js';
import { authenticate } from './auth.js';
import { ActionRequest, ApiError, flattenBody, type ActionHandler } from './request.js';
import { cloudDb } from './store.js';

const ACTIONS: Record<string, ActionHandler> = {
  ...accountActions,
  ...computeActions,
  ...dataActions,
  ...eipActions,
  ...ipsecVpnActions,
  ...lbActions,
  ...natgwActions,
  ...networkActions,
  ...priceActions,
  ...uadsActions,
  ...uadsBgpActions,
  ...labelActions,
  ...udiskActions,
  ...uhostActions,
  ...vpcActions,
  // After the host's: its GrantFirewall serves balancers and hands every other kind to the host's.
  ...firewallActions,
};

/** The names of the Actions the sandbox serves. */
export const cloudActionNames: readonly string[] = Object.keys(ACTIONS);

/** The call's parameters flattened to strings, and the raw JSON body when it had nested values. */
function readParams(req: SandboxRequest): { params: Record<string, string>; nested?: Record<string, unknown> } {
  if (req.method === 'GET') return { params: Object.fromEntries(req.query) };
  const body = req.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { params: {} };
  const record = body as Record<string, unknown>;
  const isNested = Object.values(record).some((v) => v !== null && typeof v === 'object');
  return { params: flattenBody(record), nested: isNested ? record : undefined };
}

function envelope(action: string, requestId: string, payload: Record<string, unknown>): SandboxResponse {
  return {
    status: 200,
    headers: { 'x-ucloud-request-uuid': requestId },
    body: { ...payload, Action: `${action || 'Unknown'}Response` },
  };
}

function handle(req: SandboxRequest, world: SandboxWorld): SandboxResponse {
  const requestId = randomUUID();
  if (req.method !== 'POST' && req.method !== 'GET') {
    return { status: 405, headers: { 'x-ucloud-request-uuid': requestId }, body: { RetCode: 160, Message: `method ${req.method} not allowed` } };
  }
  const { params, nested } = readParams(req);
  const action = params.Action ?? req.query.get('Action') ?? '';
  try {
    if (!action) throw new ApiError(160, 'Missing Action');
    const db = cloudDb(world);
    const now = world.now();
    const account = authenticate(params, nested, db.accounts, now);
    if (account.uses !== undefined) account.uses++;
    const handler = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    if (!handler) throw new ApiError(161, `Action [${action}] not found`);
    const regions = new Set(db.regions.map((r) => String(r.Region)));
    const projects = new Set(db.projects.map((p) => String(p.ProjectId)));
    const payload = handler(new ActionRequest(action, params, regions, projects), { db, now, provisioningMs: world.provisioningMs() });
    world.save();
    return envelope(action, requestId, { RetCode: 0, ...payload });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return envelope(action, requestId, { RetCode: err.retCode, Message: err.message });
  }
}

function admin(name: string, body: unknown, world: SandboxWorld): SandboxResponse | undefined {
  if (name === 'cloud-keys') {
    const { publicKey, privateKey } = (body ?? {}) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof publicKey !== 'string' || !publicKey || typeof privateKey !== 'string' || !privateKey) {
      return { status: 400, body: { message: 'publicKey and privateKey must be non-empty strings' } };
    }
    cloudDb(world).accounts[publicKey] = { privateKey };
    world.save();
    return { status: 200, body: { publicKey } };
  }
  if (name === 'cloud-sessions') {
    const sessions = Object.entries(cloudDb(world).accounts)
      .filter(([, a]) => a.securityToken !== undefined)
      .map(([publicKey, a]) => ({ publicKey, roleUrn: a.roleUrn, sessionName: a.sessionName, expiresAt: new Date(a.expiresAt ?? 0).toISOString(), uses: a.uses ?? 0 }));
    return { status: 200, body: sessions };
  }
  return undefined;
}

/** The Action a call names, which per-action limits go by. */
function actionOf(req: SandboxRequest): string {
  return readParams(req).params.Action ?? req.query.get('Action') ?? '';
}

/** The simulated cloud API. */
export const cloudApi: SandboxApi = {
  provider: 'cloud',
  handle,
  operation: actionOf,
  // Throttled: HTTP 200 with RetCode 153 and no Retry-After, as the API answers every business error.
  throttled: (req) => envelope(actionOf(req), randomUUID(), { RetCode: 153, Message: 'API request throttled' }),
  faultBody: (status) => ({ RetCode: status === 429 ? 153 : 150, Message: `service temporarily unavailable (HTTP ${status})` }),
  admin,
};
