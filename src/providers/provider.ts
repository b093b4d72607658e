export type * from '../engine/contracts/provider.js';
