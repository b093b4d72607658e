/**
 * Certificate Actions of the CLB API: upload (CreateSSL, PEM only), rename (UpdateSSLAttribute),
 * bind to and unbind from an HTTPS listener, delete. The private key is kept but never listed:
 * DescribeSSL reports the certificate chain (SSLContent) and its hash. A bound certificate cannot
 * be deleted (4108); a certificate whose parts are not PEM is refused (4111).
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
    const bound = listOf(ssl, 'BindedTargetSet');
    if (!bound.some((t) => t.VServerId === vs.VServerId)) {
      bound.push({ ULBId: lb.ULBId, ULBName: lb.Name, VServerId: vs.VServerId, VServerName: vs.VServerName });
      listOf(vs, 'SSLSet').push({ SSLId: ssl.SSLId, SSLName: ssl.SSLName });
    }
    return {};
  },

  UnbindSSL(req, ctx) {
    const ssl = findSsl(req, ctx);
    const lb = findLb(req, ctx);
    const vs = findVServer(req, lb);
    const bound = listOf(ssl, 'BindedTargetSet');
    if (!bound.some((t) => t.VServerId === vs.VServerId)) throw paramError('SSLId', `SSL [${String(ssl.SSLId)}] is not bound to VServer [${String(vs.VServerId)}]`);
    ssl.BindedTargetSet = bound.filter((t) => t.VServerId !== vs.VServerId);
    vs.SSLSet = listOf(vs, 'SSLSet').filter((s) => s.SSLId !== ssl.SSLId);
    return {};
  },
};
