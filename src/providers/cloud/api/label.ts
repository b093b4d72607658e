/**
 * Custom labels and the resources that carry them, as ListLabels and ListResourcesByLabels send
 * them, and the calls that read them: shared by the Label and LabelAttachment resources and the
 * getLabels and getLabelResources lookups.
 */
import type { CloudClient } from '../client.js';

/** Label calls are account-wide: the SDK's request structs take no Region or ProjectId. */
export const LABEL_CALL = { region: false, project: false } as const;

/** A label as ListLabels lists it. */
export interface LabelInfo {
  Key: string;
  Value: string;
  ResourceCount?: number;
}

/** A resource as ListResourcesByLabels lists it. */
export interface LabelledResource {
  ResourceId: string;
  ResourceName?: string;
  ResourceType?: string;
}

/** The label Actions accept at most 100 a page. */
const pageSize = (client: CloudClient) => Math.min(client.pageSize, 100);

/** Every custom label, through every page (the upstream provider reads only the first). */
export function listLabels(client: CloudClient): Promise<LabelInfo[]> {
  return client.pageAll<LabelInfo>('ListLabels', { Category: 'custom' }, 'Labels', { ...LABEL_CALL, pageSize: pageSize(client) });
}

/** The resources that carry the labels, of the given types and projects where named, through every page. */
export function listLabelledResources(client: CloudClient, where: { Labels: Array<{ Key: string; Value: string }>; ResourceTypes?: string[]; ProjectIds?: string[] }): Promise<LabelledResource[]> {
  return client.pageAll<LabelledResource>('ListResourcesByLabels', where, 'Resources', { ...LABEL_CALL, pageSize: pageSize(client) });
}
