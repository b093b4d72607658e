import { badRequest, conflict, isInt, isObject, notFound, objectBody, ok, validationFailed } from './envelope.js';
import { parseCidr } from './net.js';
import { prefixListUsers } from './partner-config.js';
import { findProduct } from './products.js';
import { isActive, provisioningStatus } from './provisioning.js';
import type { Ctx, Handler } from './router.js';
import type { McrRecord, PrefixEntry, PrefixListRecord } from './store.js';

function findMcr(ctx: Ctx): McrRecord {
  const p = findProduct(ctx, ctx.params.uid);
  if (p.productType !== 'MCR2') throw badRequest(`Product ${p.productUid} is not an MCR`);
  return p;
}

function requireActiveMcr(ctx: Ctx, mcr: McrRecord): void {
  const status = provisioningStatus(mcr, ctx.db, ctx.clock);
  if (!isActive(status)) throw badRequest(`MCR ${mcr.productUid} cannot be changed while it is ${status}`);
}

function findList(ctx: Ctx, mcr: McrRecord): PrefixListRecord {
  const id = Number(ctx.params.id);
  const list = ctx.db.prefixLists.find((l) => l.mcrUid === mcr.productUid && l.id === id);
  if (!list) throw notFound(`Prefix filter list ${ctx.params.id} not found on MCR ${mcr.productUid}`);
  return list;
}

/** Checks a create/update body; every broken rule is reported together. */
function parseList(raw: unknown): Pick<PrefixListRecord, 'description' | 'addressFamily' | 'entries'> {
  const body = objectBody(raw);
  const errors: string[] = [];
  const description = typeof body.description === 'string' ? body.description.trim() : '';
  if (!description) errors.push('description is required');
  const family = String(body.addressFamily ?? '').toLowerCase();
  const addressFamily = family === 'ipv4' ? 'IPv4' : family === 'ipv6' ? 'IPv6' : undefined;
  if (!addressFamily) errors.push('addressFamily must be IPv4 or IPv6');
  const max = addressFamily === 'IPv6' ? 128 : 32;
  const entries: PrefixEntry[] = [];
  if (!Array.isArray(body.entries) || body.entries.length < 1 || body.entries.length > 200) errors.push('entries must list 1 to 200 entries');
  (Array.isArray(body.entries) ? body.entries : []).forEach((e, i) => {
    const at = `entries[${i}]`;
    if (!isObject(e)) return errors.push(`${at} must be an object`);
    const action = String(e.action ?? '').toLowerCase();
    if (action !== 'permit' && action !== 'deny') errors.push(`${at}.action must be permit or deny`);
    const cidr = parseCidr(e.prefix);
    if (!cidr) errors.push(`${at}.prefix must be a CIDR prefix`);
    else if (addressFamily && cidr.family !== addressFamily) errors.push(`${at}.prefix ${String(e.prefix)} is not an ${addressFamily} prefix`);
    const ge = e.ge === undefined || e.ge === null || e.ge === 0 ? undefined : e.ge;
    const le = e.le === undefined || e.le === null || e.le === 0 ? undefined : e.le;
    if (ge !== undefined && (!isInt(ge) || ge > max || (cidr && ge < cidr.length))) errors.push(`${at}.ge must be between the prefix length and ${max}`);
    if (le !== undefined && (!isInt(le) || le > max || (cidr && le < cidr.length))) errors.push(`${at}.le must be between the prefix length and ${max}`);
    if (isInt(ge) && isInt(le) && ge > le) errors.push(`${at}.ge must not be greater than le`);
    const entry: PrefixEntry = { action: action as PrefixEntry['action'], prefix: String(e.prefix).trim() };
    if (isInt(ge)) entry.ge = ge;
    if (isInt(le)) entry.le = le;
    entries.push(entry);
  });
  if (errors.length) throw validationFailed(errors);
  return { description, addressFamily: addressFamily as PrefixListRecord['addressFamily'], entries };
}

/**
 * A list as create, update and GET return it: entries carry ge/le as strings, absent when unset
 * (the SDK decodes every one of these replies into its string-typed entry).
 */
function listView(list: PrefixListRecord) {
  const entries = list.entries.map((e) => ({
    action: e.action,
    prefix: e.prefix,
    ...(e.ge !== undefined ? { ge: String(e.ge) } : {}),
    ...(e.le !== undefined ? { le: String(e.le) } : {}),
  }));
  return { id: list.id, description: list.description, addressFamily: list.addressFamily, entries };
}

/** `POST /v2/product/mcr2/{mcrUid}/prefixList`: the `id` in the body (0) is ignored; a numeric id is assigned. */
export const createPrefixList: Handler = (ctx) => {
  const mcr = findMcr(ctx);
  requireActiveMcr(ctx, mcr);
  const list: PrefixListRecord = { id: ctx.db.nextPrefixListId++, mcrUid: mcr.productUid, ...parseList(ctx.req.body) };
  ctx.db.prefixLists.push(list);
  return ok('Created a new prefix list for MCR', listView(list));
};

/** `GET /v2/product/mcr2/{mcrUid}/prefixLists`: summaries without entries. */
export const listPrefixLists: Handler = (ctx) => {
  const mcr = findMcr(ctx);
  const lists = ctx.db.prefixLists.filter((l) => l.mcrUid === mcr.productUid);
  const summaries = lists.map((l) => ({ id: l.id, description: l.description, addressFamily: l.addressFamily }));
  return ok(`Found ${lists.length} prefix lists for MCR ${mcr.productUid}`, summaries);
};

/** `GET .../prefixList/{id}`. */
export const getPrefixList: Handler = (ctx) => {
  const list = findList(ctx, findMcr(ctx));
  return ok(`Found prefix list ${list.id}`, listView(list));
};

/** `PUT .../prefixList/{id}`: replaces description, family and entries. */
export const updatePrefixList: Handler = (ctx) => {
  const mcr = findMcr(ctx);
  requireActiveMcr(ctx, mcr);
  const list = findList(ctx, mcr);
  Object.assign(list, parseList(ctx.req.body));
  return ok(`Updated prefix list ${list.id}`, listView(list));
};

/** `DELETE .../prefixList/{id}`: 409 while a BGP connection of a live VXC on this MCR still references the list. */
export const deletePrefixList: Handler = (ctx) => {
  const mcr = findMcr(ctx);
  const list = findList(ctx, mcr);
  const users = prefixListUsers(ctx.db, mcr.productUid, list.id, ctx.clock);
  if (users.length) throw conflict(`Prefix filter list ${list.id} is referenced by BGP connections on VXC ${users.join(', ')}`);
  ctx.db.prefixLists = ctx.db.prefixLists.filter((l) => l !== list);
  return ok(`Deleted prefix list ${list.id}`);
};
