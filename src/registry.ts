/** Every provider, resource type and lookup function plumb knows (see resource-registry.ts and function-registry.ts). */
export { loadResourceTypes, providerFor, providers } from './resource-registry.js';
/** Every lookup function (and provider method), by canonical token. */
export { functions } from './function-registry.js';
