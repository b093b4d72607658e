import type { LookupFunction } from '../../engine/contracts/lookup.js';
import { getLocation } from './get-location.js';
import { getIxPoints } from './get-ix-points.js';
import { getLocations } from './get-locations.js';
import { getMcrPrefixFilterLists } from './get-mcr-prefix-filter-lists.js';
import { getMcrs } from './get-mcrs.js';
import { getMveImages } from './get-mve-images.js';
import { getMveSizes } from './get-mve-sizes.js';
import { getPartner } from './get-partner.js';
import { getProduct } from './get-product.js';
import { getVxcs } from './get-vxcs.js';
import { terraformConfig } from './terraform-config.js';

/** Every interconnect lookup function. */
export const interconnectLookups: LookupFunction[] = [
  getLocation,
  getLocations,
  getMveImages,
  getMveSizes,
  terraformConfig,
  getMcrPrefixFilterLists,
  getMcrs,
  getVxcs,
  getPartner,
  getIxPoints,
  getProduct,
];
