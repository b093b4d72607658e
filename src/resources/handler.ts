export type * from '../engine/contracts/resource-type.js';
