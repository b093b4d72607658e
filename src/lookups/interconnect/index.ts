import type { LookupFunction } from '../function.js';
import { getLocation } from './get-location.js';

/** Every interconnect lookup function. */
export const interconnectLookups: LookupFunction[] = [getLocation];
