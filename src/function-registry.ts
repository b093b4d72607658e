import type { LookupFunction } from './engine/contracts/lookup.js';
import { cloudLookups } from './lookups/cloud/index.js';
import { interconnectLookups } from './lookups/interconnect/index.js';
import { pipelineLookups } from './lookups/pipeline/index.js';

/** Every lookup function (and provider method), by canonical token. */
export const functions = new Map<string, LookupFunction>([...interconnectLookups, ...cloudLookups, ...pipelineLookups].map((f) => [f.token, f]));
