/**
 * The simulated remote APIs (interconnect, cloud, pipeline), written from the vendors'
 * documentation: `startSandbox` serves them on a loopback port with admin endpoints for the call
 * log, faults, settings and rate limits. The settings of the command line and the environment
 * are read by `@plumb/sandbox/settings`; a world's data folder is opened by `@plumb/sandbox/world`.
 */
export { startSandbox, type Sandbox, type SandboxOptions } from './server.js';
export { sandboxApis } from './apis.js';
export { interconnectApi } from './interconnect/index.js';
export { cloudApi } from './cloud/index.js';
export { pipelineApi } from './pipeline/index.js';
export type { CallRecord } from './call-log.js';
export type { LimitRule, LimitsOption } from './limits.js';
export type { SandboxApi } from './types.js';
