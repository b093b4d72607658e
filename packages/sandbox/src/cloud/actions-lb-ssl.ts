/**
 * Certificate Actions of the CLB API: upload (CreateSSL, PEM only), rename (UpdateSSLAttribute),
 * bind to and unbind from an HTTPS listener, swap a listener's certificate for another
 * (UpdateSSLBinding), delete. An HTTPS listener holds one certificate: binding a second is
 * refused (swap it instead). The private key is kept but never listed: DescribeSSL reports the
 * certificate chain (SSLContent) and its hash. A bound certificate cannot be deleted (4108); a
 * certificate whose parts are not PEM is refused (4111).
 */
import { createHash } from 'node:crypto';
import { findLb, findVServer, listOf } from './lb-objects.js';
import { label, madeNow, newId, remove, visible } from './network-objects.js';
import { ApiError, paramError, type ActionContext, type ActionHandler, type ActionRequest } from './request.js';
import type { Rec } from './seed-util.js';

/** ULB: the certificate content is not valid. */
const BAD_CERT = 4111;

function pem(req: ActionRequest, name: string, kind: RegExp): string | undefined {
  const value = req.str(name);
  if (value !== undefined && !kind.test(value)) throw new ApiError(BAD_CERT, `${name} is not a PEM block of the right kind`);
  return value;
}

/** The certificate the `SSLId` parameter names (DescribeSSL answers an unknown one with an empty set; the writes refuse it). */
function findSsl(req: ActionRequest, ctx: ActionContext): Rec {
  const id = req.required('SSLId');
  const ssl = visible(ctx.db.ssls, req, ctx).find((s) => s.SSLId === id);
  if (!ssl) throw paramError('SSLId', `SSL [${id}] not exists`);
  return ssl;
}

/** Records the binding on both sides: the certificate's targets and the listener's SSLSet. */
function bind(ssl: Rec, lb: Rec, vs: Rec): void {
  listOf(ssl, 'BindedTargetSet').push({ ULBId: lb.ULBId, ULBName: lb.Name, VServerId: vs.VServerId, VServerName: vs.VServerName });
  listOf(vs, 'SSLSet').push({ SSLId: ssl.SSLId, SSLName: ssl.SSLName });
}

function unbind(ssl: Rec, vs: Rec): void {
  ssl.BindedTargetSet = listOf(ssl, 'BindedTargetSet').filter((t) => t.VServerId !== vs.VServerId);
  vs.SSLSet = listOf(vs, 'SSLSet').filter((s) => s.SSLId !== ssl.SSLId);
}

/** Certificate Actions by name. */
export const lbSslActions: Record<string, ActionHandler> = {
  CreateSSL(req, ctx) {
    const name = label(req, 'SSLName') ?? req.required('SSLName');
    if ((req.str('SSLType') ?? 'Pem') !== 'Pem') throw paramError('SSLType', 'only Pem is supported');
    const cert = pem(req, 'UserCert', /-----BEGIN CERTIFICATE-----/);
    const key = pem(req, 'PrivateKey', /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    const ca = pem(req, 'CaCert', /-----BEGIN CERTIFICATE-----/);
    const content = req.str('SSLContent');
    if (content === undefined && (cert === undefined || key === undefined)) throw paramError('UserCert', 'UserCert and PrivateKey (or SSLContent) are required');
    const chain = content ?? [cert, ca].filter((c) => c !== undefined).join('\n');
    const id = newId('ssl');
    ctx.db.ssls.push({
      ...madeNow(req, ctx),
      _visibleAt: ctx.now,
      _privateKey: key ?? '',
      SSLId: id,
      SSLName: name,
      SSLType: 'Pem',
      SSLContent: chain.replace(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----\n?/g, ''),
      HashValue: createHash('md5').update(chain).digest('hex'),
      Domains: '',
      SSLSource: 0,
      USSLId: '',
      BindedTargetSet: [],
    });
    return { SSLId: id };
  },

  UpdateSSLAttribute(req, ctx) {
    const ssl = findSsl(req, ctx);
    ssl.SSLName = label(req, 'SSLName') ?? req.required('SSLName');
    return {};
  },

  DeleteSSL(req, ctx) {
    const ssl = findSsl(req, ctx);
    const bound = listOf(ssl, 'BindedTargetSet');
    if (bound.length) throw new ApiError(4108, `SSL [${String(ssl.SSLId)}] is bound to VServer [${String(bound[0].VServerId)}]: unbind it first`);
    remove(ctx.db.ssls, ssl);
    return {};
  },

  BindSSL(req, ctx) {
    const ssl = findSsl(req, ctx);
    const lb = findLb(req, ctx);
    const vs = findVServer(req, lb);
    if (vs.Protocol !== 'HTTPS') throw paramError('VServerId', `VServer [${String(vs.VServerId)}] is ${String(vs.Protocol)}: certificates bind to HTTPS listeners`);
    const held = listOf(vs, 'SSLSet')[0];
    if (held && held.SSLId !== ssl.SSLId) throw paramError('VServerId', `VServer [${String(vs.VServerId)}] already has certificate [${String(held.SSLId)}]: swap it with UpdateSSLBinding`);
    if (!held) bind(ssl, lb, vs);
    return {};
  },

  UpdateSSLBinding(req, ctx) {
    const [oldId, newId] = [req.required('OldSSLId'), req.required('NewSSLId')];
    const [old, next] = [oldId, newId].map((id, i) => {
      const found = visible(ctx.db.ssls, req, ctx).find((s) => s.SSLId === id);
      if (!found) throw paramError(i ? 'NewSSLId' : 'OldSSLId', `SSL [${id}] not exists`);
      return found;
    });
    const [lbId, listenerId] = [req.str('LoadBalancerId'), req.str('ListenerId')];
    // Without a balancer and listener, every listener the old certificate is bound to is swapped.
    const targets = listOf(old, 'BindedTargetSet').filter((t) => (lbId === undefined || t.ULBId === lbId) && (listenerId === undefined || t.VServerId === listenerId));
    if (!targets.length) throw paramError('OldSSLId', `SSL [${oldId}] is not bound to the listener named`);
    for (const t of targets) {
      const lb = visible(ctx.db.lbs, req, ctx).find((l) => l.ULBId === t.ULBId);
      const vs = lb && listOf(lb, 'VServerSet').find((v) => v.VServerId === t.VServerId);
      if (!lb || !vs) continue;
      unbind(old, vs);
      bind(next, lb, vs);
    }
    return {};
  },

  UnbindSSL(req, ctx) {
    const ssl = findSsl(req, ctx);
    const lb = findLb(req, ctx);
    const vs = findVServer(req, lb);
    const bound = listOf(ssl, 'BindedTargetSet');
    if (!bound.some((t) => t.VServerId === vs.VServerId)) throw paramError('SSLId', `SSL [${String(ssl.SSLId)}] is not bound to VServer [${String(vs.VServerId)}]`);
    unbind(ssl, vs);
    return {};
  },
};
