/** What the interconnect lifecycle specs share: products to attach to, and counting products through the API itself. */
import type { ResourceContext } from '../../../src/engine/contracts/resource-type.js';
import { mcr } from '../../../src/resources/interconnect/mcr.js';
import { port } from '../../../src/resources/interconnect/port.js';
import { expect } from 'vitest';
import { InterconnectApi } from '../../support/interconnect-api.js';
import type { LifecycleWorld, MakeContext } from '../../support/lifecycle.js';

/** Statuses in which the API still lists a product that is no longer in service. */
const ENDED = ['CANCELLED', 'CANCELLED_PARENT', 'DECOMMISSIONING', 'DECOMMISSIONED'];

/** A product as the API lists it. */
export type ApiProduct = Record<string, any> & { productUid: string; provisioningStatus: string };

/** Every product `GET /v2/products` reports as in service, nested VXCs and IXs included, as another client of the API sees them. */
export async function liveProducts(world: LifecycleWorld): Promise<{ top: ApiProduct[]; vxcs: ApiProduct[]; ixs: ApiProduct[] }> {
  const top = await new InterconnectApi(world.sandbox.url).call<ApiProduct[]>('GET', '/v2/products');
  const nested = (key: string) => [...new Map(top.flatMap((p) => (p[key] ?? []) as ApiProduct[]).map((p) => [p.productUid, p])).values()].filter((p) => !ENDED.includes(p.provisioningStatus));
  return { top: top.filter((p) => !ENDED.includes(p.provisioningStatus)), vxcs: nested('associatedVxcs'), ixs: nested('associatedIxs') };
}

/** UIDs of the live top-level products of a type (`MEGAPORT`, `MCR2`, `MVE`) that `keep` accepts. */
export async function topLevel(world: LifecycleWorld, productType: string, keep: (p: ApiProduct) => boolean = () => true): Promise<string[]> {
  return (await liveProducts(world)).top.filter((p) => String(p.productType).toUpperCase() === productType && keep(p)).map((p) => p.productUid);
}

/** A port to attach things to, ordered through the type. */
export async function makePort(ctx: ResourceContext, productName: string, locationId = 2): Promise<string> {
  return (await port.create(ctx, { productName, portSpeed: 10000, locationId, contractTermMonths: 1, marketplaceVisibility: false })).id;
}

/** An MCR to attach lists and add-ons to, ordered through the type. */
export async function makeMcr(ctx: ResourceContext, productName: string): Promise<string> {
  return (await mcr.create(ctx, { productName, portSpeed: 1000, locationId: 2, contractTermMonths: 1 })).id;
}

/** Two MCRs: lists and add-ons move between them only by replacement. */
export type TwoMcrs = { mcrA: string; mcrB: string };
export const twoMcrs = async (ctx: MakeContext, name: string): Promise<TwoMcrs> => ({ mcrA: await makeMcr(await ctx('mcr-a'), `${name}-a`), mcrB: await makeMcr(await ctx('mcr-b'), `${name}-b`) });

/** Product types' common output checks: ordered values, tags, cost centre, status. */
export function reflectsProduct(outputs: Record<string, unknown>, inputs: { productName: string; contractTermMonths: number; costCentre?: string; resourceTags?: Record<string, string> }): void {
  expect(outputs).toMatchObject({ productName: inputs.productName, contractTermMonths: inputs.contractTermMonths });
  expect(outputs.resourceTags).toEqual(inputs.resourceTags ?? {});
  if (inputs.costCentre) expect(outputs.costCentre).toBe(inputs.costCentre);
  expect(outputs.provisioningStatus).toMatch(/CONFIGURED|LIVE/);
}

/** The call that buys a network design: every product's order. */
export const BUY = 'POST /v4/networkdesign/buy';
