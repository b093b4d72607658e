/**
 * What the cloud API would refuse only at apply that a plan can find first by reading (see
 * ResourceType.crossCheck): an image not offered in the instance's zone, a label that is not in
 * the account. Each reads only for an object to be made or changed in that respect, so a stack
 * already applied is never refused for a fact that changed since (an image retired later).
 */
import type { CrossCheckView, CrossProblem, StackResource } from '../../engine/contracts/resource-type.js';

const GET_IMAGES = 'cloud:index/getImages:getImages';
const GET_LABELS = 'cloud:index/getLabels:getLabels';

/** The value at `key` of an object; undefined for anything else. */
function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/** The checked resource itself, as declared and recorded. */
function self(view: CrossCheckView): StackResource | undefined {
  return view.resources.find((r) => r.address === view.address);
}

/** Whether every one of `keys` is what state records for the checked resource: nothing new to check. */
function unchanged(view: CrossCheckView, desired: Record<string, unknown>, keys: string[]): boolean {
  const recorded = self(view)?.recorded?.inputs;
  return !!recorded && keys.every((k) => recorded[k] === desired[k]);
}

/** An instance's image must be offered in its zone: DescribeImage of the image there lists it. */
export async function imageInZone(desired: { availabilityZone?: unknown; imageId?: unknown }, view: CrossCheckView): Promise<CrossProblem[]> {
  const { availabilityZone: zone, imageId } = desired;
  if (typeof zone !== 'string' || typeof imageId !== 'string' || unchanged(view, desired, ['availabilityZone', 'imageId'])) return [];
  if (!view.lookup) return [];
  const images = (found: unknown) => (Array.isArray(field(found, 'images')) ? (field(found, 'images') as unknown[]) : undefined);
  const here = images(await view.lookup(GET_IMAGES, { availabilityZone: zone, imageId }));
  if (!here || here.length) return [];
  const zones = [...new Set((images(await view.lookup(GET_IMAGES, { imageId })) ?? []).map((i) => field(i, 'availabilityZone')).filter((z): z is string => typeof z === 'string'))].sort();
  if (!zones.length) {
    return [{ path: ['imageId'], message: `image ${imageId} is not an available image of this region`, detail: 'getImages lists the images of a zone (availabilityZone) to choose from' }];
  }
  return [
    {
      path: ['availabilityZone'],
      message: `image ${imageId} is not offered in ${zone}; it is in ${zones.join(', ')}`,
      detail: `use one of those zones, or an image of ${zone} (getImages with availabilityZone: ${zone})`,
    },
  ];
}

/** A label attachment binds a label of the account: one the stack declares, or one ListLabels lists. */
export async function labelExists(desired: { key?: unknown; value?: unknown }, view: CrossCheckView): Promise<CrossProblem[]> {
  const { key, value } = desired;
  if (typeof key !== 'string' || typeof value !== 'string' || unchanged(view, desired, ['key', 'value'])) return [];
  const declared = view.resources.some((r) => r.address !== view.address && r.token === 'cloud:index/label:Label' && declares(r, key, value));
  if (declared || !view.lookup) return [];
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const labels = field(await view.lookup(GET_LABELS, { keyRegex: `^${escaped}$` }), 'labels');
  if (!Array.isArray(labels)) return [];
  const values = labels.filter((l) => field(l, 'key') === key).map((l) => String(field(l, 'value')));
  if (values.includes(value)) return [];
  return [
    {
      path: ['value'],
      message: `the account has no label ${key}:${value}${values.length ? `; labels of key ${key}: ${values.sort().join(', ')}` : ''}`,
      detail: 'declare it with a cloud:index/label:Label resource (and refer to its key and value), or bind a label the account has',
    },
  ];
}

/** Whether a Label of the stack is, or will be, this key and value (a value not known yet may be). */
function declares(label: StackResource, key: string, value: string): boolean {
  const inputs = label.desired ?? label.recorded?.inputs;
  if (!inputs) return false;
  const matches = (v: unknown, want: string) => v === want || (typeof v !== 'string' && v !== undefined);
  return matches(inputs.key, key) && matches(inputs.value, value);
}
