import type { InterconnectClient } from '../client.js';

/**
 * Resource tags (reference §3.11): `GET` / `PUT /v2/product/{uid}/tags`. No list carries them,
 * so each product's tags are one call of their own. plumb adds ownership tags to every order it
 * can, to recognise its own products and whose state records them.
 */

/** One tag as the API carries it. */
export interface ApiTag {
  key: string;
  value: string;
}

/**
 * Tag keys plumb adds to every taggable product to recognise its own orders, and whose they are:
 * the project (the manifest's name) and stack whose state records it, at which address.
 */
export const OWNER_TAGS = { project: 'plumb-project', stack: 'plumb-stack', address: 'plumb-address', token: 'plumb-token' } as const;

/** Who an order is for, as the ownership tags name it. */
export interface TagOwner {
  project: string;
  stack: string;
  address: string;
  operationToken: string;
}

/** Every tag of a product, plumb's own included. */
export async function readTagList(client: InterconnectClient, uid: string): Promise<ApiTag[]> {
  const { data } = await client.get<{ resourceTags?: ApiTag[] }>(`/v2/product/${encodeURIComponent(uid)}/tags`);
  return data?.resourceTags ?? [];
}

/** The user's tags among a product's tags: plumb's ownership tags are bookkeeping, not the user's. */
export function userTags(tags: ApiTag[]): Record<string, string> {
  return Object.fromEntries(withoutOwnerTags(tags).map((t) => [t.key, t.value]));
}

/** The tags without plumb's ownership tags (the token included): what a product keeps once plumb lets it go. */
export function withoutOwnerTags(tags: ApiTag[]): ApiTag[] {
  const owned = new Set<string>(Object.values(OWNER_TAGS));
  return tags.filter((t) => !owned.has(t.key));
}

/** Whose product the ownership tags say it is; undefined for one without them (not ordered by plumb). */
export function ownerOf(tags: ApiTag[]): { project?: string; stack?: string; address?: string } | undefined {
  const byKey = new Map(tags.map((t) => [t.key, t.value]));
  if (!byKey.has(OWNER_TAGS.project) && !byKey.has(OWNER_TAGS.stack)) return undefined;
  return { project: byKey.get(OWNER_TAGS.project), stack: byKey.get(OWNER_TAGS.stack), address: byKey.get(OWNER_TAGS.address) };
}

/** Whether these tags carry the ownership token of one operation. */
export function carriesToken(tags: ApiTag[], token: string): boolean {
  return tags.some((t) => t.key === OWNER_TAGS.token && t.value === token);
}

/** The tag list sent with an order or a tags PUT: the user's tags plus the ownership tags. */
export function tagList(owner: TagOwner, tags: Record<string, string> | undefined): ApiTag[] {
  return [
    ...Object.entries(tags ?? {}).map(([key, value]) => ({ key, value })),
    { key: OWNER_TAGS.project, value: owner.project },
    { key: OWNER_TAGS.stack, value: owner.stack },
    { key: OWNER_TAGS.address, value: owner.address },
    { key: OWNER_TAGS.token, value: owner.operationToken },
  ];
}

/** Replaces a product's tags (an empty list clears them). */
export async function writeTagList(client: InterconnectClient, uid: string, tags: ApiTag[]): Promise<void> {
  await client.put(`/v2/product/${encodeURIComponent(uid)}/tags`, { resourceTags: tags });
}
