/**
 * What the network write Actions share: new ids, objects that become visible only once made
 * (`_visibleAt`), lookups that answer with the API's not-found codes, and IPv4 range arithmetic.
 */
import { randomBytes } from 'node:crypto';
import { ApiError, paramError, type ActionContext, type ActionRequest } from './request.js';
import { scoped } from './store.js';
import type { Rec } from './seed-util.js';

/** A fresh id of the API's form, e.g. `uvnet-1a2b3c4d`. */
export function newId(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** Unix seconds now. */
export function nowSeconds(ctx: ActionContext): number {
  return Math.floor(ctx.now / 1000);
}

/** Bookkeeping of a new object: its scope, and when it shows in listings (after provisioningMs). */
export function madeNow(req: ActionRequest, ctx: ActionContext): Rec {
  return { Region: req.region(), ProjectId: req.project() ?? 'org-sandbox', CreateTime: nowSeconds(ctx), _visibleAt: ctx.now + ctx.provisioningMs };
}

/** The records of the request's scope that listings show (made ones once provisioned). */
export function visible(records: Rec[], req: ActionRequest, ctx: ActionContext): Rec[] {
  return scoped(records, req.region(), req.project()).filter((r) => r._visibleAt === undefined || Number(r._visibleAt) <= ctx.now);
}

/** The visible record whose `idField` is the parameter's value, or the given RetCode naming it. */
export function mustFind(records: Rec[], req: ActionRequest, ctx: ActionContext, idParam: string, idField: string, notFound: number, what: string): Rec {
  const id = req.required(idParam);
  const found = visible(records, req, ctx).find((r) => r[idField] === id);
  if (!found) throw new ApiError(notFound, `${what} [${id}] not exists`);
  return found;
}

/** Removes a record from its table, by identity. */
export function remove(records: Rec[], record: Rec): void {
  const at = records.indexOf(record);
  if (at >= 0) records.splice(at, 1);
}

/** Names and tags as the console allows them: letters, digits, CJK, `-`, `_`, `.`. */
const LABEL = /^[A-Za-z0-9\p{Script=Han}_.\- ]*$/u;

/** A name or tag parameter, checked for length and characters; undefined when not sent. */
export function label(req: ActionRequest, name: string, max = 63): string | undefined {
  const value = req.str(name);
  if (value !== undefined && (value.length > max || !LABEL.test(value))) throw paramError(name, `at most ${max} characters: letters, digits, Chinese characters, -, _ and .`);
  return value;
}

/** A free-text remark parameter of at most 255 characters; undefined when not sent. */
export function remark(req: ActionRequest, name = 'Remark'): string | undefined {
  const value = req.str(name);
  if (value !== undefined && value.length > 255) throw paramError(name, 'at most 255 characters');
  return value;
}

/** An IPv4 range: its first address and prefix length. */
export interface Range {
  start: number;
  bits: number;
}

function ipToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** Parses `a.b.c.d/n` whose host bits are zero; undefined when it is not one. */
export function parseRange(cidr: string): Range | undefined {
  const [ip, bits, extra] = cidr.split('/');
  const start = ipToInt(ip ?? '');
  const n = Number(bits);
  if (start === undefined || extra !== undefined || !/^\d{1,2}$/.test(bits ?? '') || n > 32) return undefined;
  return start % 2 ** (32 - n) === 0 ? { start, bits: n } : undefined;
}

/** Whether `inner` lies within `outer`. */
export function within(inner: Range, outer: Range): boolean {
  return inner.bits >= outer.bits && Math.floor(inner.start / 2 ** (32 - outer.bits)) === outer.start / 2 ** (32 - outer.bits);
}

/** Whether two ranges share an address. */
export function overlaps(a: Range, b: Range): boolean {
  return within(a, b) || within(b, a);
}

/** The private ranges a VPC may use (RFC 1918). */
export const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].map((r) => parseRange(r)!);
