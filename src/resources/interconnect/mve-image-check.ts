import type { CrossCheckView, CrossProblem } from '../../engine/contracts/resource-type.js';
import { reveal } from '../../kernel/values.js';

/*
 * What the MVE images list already says about an MVE order, checked before any order: an image id
 * that does not exist, and a vendor that is not the image's. The API refuses each only when the
 * order is validated. The list is read once per plan, and only for an MVE the plan orders with
 * another image or vendor than state records.
 */

const IMAGES = 'interconnect:index/getMveImages:getMveImages';

/** An image as the getMveImages lookup reports it. */
interface Image {
  id: number;
  product?: string;
  vendor?: string;
}

/** A vendor name or key in one spelling: lower case, letters and digits only (Palo Alto Networks, PALO_ALTO). */
const plain = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether the vendor given names the image's vendor: its name, or its key (a prefix of the name: PALO_ALTO). */
function sameVendor(given: string, image: Image): boolean {
  const g = plain(given);
  return g.length > 0 && plain(image.vendor ?? '').startsWith(g);
}

/** The cross-check of an MVE's image and vendor. */
export async function imageCheck(desired: Record<string, unknown>, view: CrossCheckView): Promise<CrossProblem[]> {
  const cfg = reveal(desired.vendorConfig) as { vendor?: unknown; imageId?: unknown } | undefined;
  const lookup = view.lookup;
  if (typeof cfg?.vendor !== 'string' || typeof cfg.imageId !== 'number' || !lookup) return [];
  const was = reveal(view.resources.find((r) => r.address === view.address)?.recorded?.inputs?.vendorConfig) as { vendor?: unknown; imageId?: unknown } | undefined;
  if (was?.vendor === cfg.vendor && was.imageId === cfg.imageId) return [];
  const images = await view.memo('interconnect: MVE images', () =>
    Promise.resolve()
      .then(() => lookup(IMAGES, {}))
      .then(
        (found) => (found as { mveImages?: Image[] } | undefined)?.mveImages,
        () => undefined,
      ),
  );
  if (!Array.isArray(images)) return [];
  const image = images.find((i) => i.id === cfg.imageId);
  if (!image) return [{ path: ['vendorConfig', 'imageId'], message: `no MVE image has id ${cfg.imageId}`, detail: 'look one up with getMveImages' }];
  if (sameVendor(cfg.vendor, image)) return [];
  const theirs = images.filter((i) => sameVendor(cfg.vendor as string, i)).map((i) => i.id);
  return [
    {
      path: ['vendorConfig', 'vendor'],
      message: `image ${image.id} (${image.product ?? 'an MVE image'}) is a ${image.vendor} image, not ${cfg.vendor}`,
      detail: `set vendor: ${image.vendor}${theirs.length ? `, or choose a ${cfg.vendor} image: ${[...new Set(theirs)].slice(0, 5).join(', ')}` : ''}`,
    },
  ];
}
