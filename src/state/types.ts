export type * from '../engine/contracts/state.js';
