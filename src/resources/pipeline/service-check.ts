import type { CrossCheckView, CrossProblem, StackResource } from '../../engine/contracts/resource-type.js';
import { closestHint } from '../../kernel/did-you-mean.js';
import { reveal } from '../../kernel/values.js';

/*
 * What the connector catalogue already says about a connection's service, checked before any
 * order: a service the API does not offer is refused at `service`, with the closest it offers.
 * The API refuses it only when the connection is created; the catalogue is read once per plan
 * (the getConnectorsMetadata lookup), and only for a connection the plan orders (a new one, or
 * one whose service changes, which replaces it).
 */

const CATALOGUE = 'pipeline:index/getConnectorsMetadata:getConnectorsMetadata';

/** The service ids of a getConnectorsMetadata result; undefined for an answer that is not one. */
function services(found: unknown): Set<string> | undefined {
  const sources = (found as { sources?: unknown } | undefined)?.sources;
  if (!Array.isArray(sources)) return undefined;
  return new Set((sources as Array<{ id?: unknown }>).map((s) => s?.id).filter((id): id is string => typeof id === 'string'));
}

/** A Connection's cross-check: its service is one the API offers. */
export async function connectionServiceCheck(desired: Record<string, unknown>, view: CrossCheckView): Promise<CrossProblem[]> {
  const service = reveal(desired.service);
  if (typeof service !== 'string' || service === '') return [];
  const byAddress = view.memo('pipeline: resources by address', () => new Map<string, StackResource>(view.resources.map((r) => [r.address, r])));
  const was = byAddress.get(view.address)?.recorded?.inputs;
  if (was && reveal(was.service) === service) return [];
  const lookup = view.lookup;
  if (!lookup) return [];
  const offered = await view.memo('pipeline: connector services', () => lookup(CATALOGUE, {}).then(services, () => undefined));
  if (!offered || offered.has(service)) return [];
  return [{ path: ['service'], message: `the API offers no connector service "${service}"${closestHint(service, offered)}`, detail: 'getConnectorsMetadata lists the services it offers' }];
}
