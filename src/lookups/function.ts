export type * from '../engine/contracts/lookup.js';
